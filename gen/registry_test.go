package gen

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen"
	"github.com/mcpgen/mcpgen/internal/jsonschema"
)

// registrySchemaFile is the MCP registry's published schema of
// server.json, version 2025-12-11 (RegistrySchema), kept as test data.
const registrySchemaFile = "testdata/registry/server.schema.2025-12-11.json"

func registryValidator(t *testing.T) *jsonschema.Schema {
	return schemaValidator(t, registrySchemaFile, "")
}

// schemaValidator compiles the schema in file; ref, when set, is the
// definition within it (a JSON pointer) documents are validated against.
func schemaValidator(t *testing.T, file, ref string) *jsonschema.Schema {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if ref != "" {
		var doc map[string]any
		if err := json.Unmarshal(b, &doc); err != nil {
			t.Fatal(err)
		}
		doc["$ref"] = ref
		b, _ = json.Marshal(doc)
	}
	s, err := jsonschema.Compile(b)
	if err != nil {
		t.Fatalf("compile %s: %v", file, err)
	}
	return s
}

// TestCommittedServerJSONValid: every server of this repository has a
// server.json the registry's schema accepts.
func TestCommittedServerJSONValid(t *testing.T) {
	v := registryValidator(t)
	files, _ := filepath.Glob("../generated/*/server.json")
	if len(files) < 4 {
		t.Fatalf("server.json files: %v", files)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := v.Validate(b); err != nil {
			t.Errorf("%s: %v", f, err)
		}
		if !strings.Contains(string(b), `"$schema": "`+registrySchema+`"`) {
			t.Errorf("%s does not name its schema version", f)
		}
	}
}

// TestRegistryEntry: what the directive says, and what is derived when
// it says nothing, makes a valid entry; a bad one is refused.
func TestRegistryEntry(t *testing.T) {
	v := registryValidator(t)
	for _, c := range []struct {
		name   string
		server server
		want   []string
	}{
		{"derived", server{Name: "notes", Module: "github.com/acme/tools", PkgName: "notes", Doc: "Package notes is a small server that keeps notes. It has more to say."},
			[]string{`"name": "io.github.acme/notes"`, `"description": "A small server that keeps notes."`, `"version": "0.0.0"`, `"url": "https://github.com/acme/tools"`}},
		{"declared", server{Name: "notes", Module: "example.com/x", Version: "1.2.3", Registry: "com.example/notes", Description: "Notes.",
			Packages: []string{"oci:ghcr.io/acme/notes:1.2.3", "npm:@acme/notes"}, Remotes: []string{"https://notes.example.com/mcp"}},
			[]string{`"name": "com.example/notes"`, `"registryType": "oci"`, `"identifier": "@acme/notes"`, `"version": "1.2.3"`, `"type": "streamable-http"`, `"url": "https://notes.example.com/mcp"`}},
		{"long doc", server{Name: "n", Module: "example", PkgName: "n", Doc: strings.Repeat("word ", 40)},
			[]string{`"name": "local.example/n"`, `…"`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			f, err := registryFile(&c.server)
			if err != nil {
				t.Fatal(err)
			}
			if err := v.Validate(f.Content); err != nil {
				t.Fatalf("%v\n%s", err, f.Content)
			}
			for _, w := range c.want {
				if !strings.Contains(string(f.Content), w) {
					t.Errorf("no %s in\n%s", w, f.Content)
				}
			}
		})
	}
	bad, _ := registryFile(&server{Name: "n", Module: "example.com/x", Registry: "not a name"})
	if err := v.Validate(bad.Content); err == nil {
		t.Error("the schema accepted a malformed registry name: the test validates nothing")
	}
}

// TestRegistryWithDigest: the digest goes on the MCPB package whose URL
// ends in the bundle's file name, or on the only MCPB package; with
// none, nothing is recorded. The entry stays valid.
func TestRegistryWithDigest(t *testing.T) {
	v := registryValidator(t)
	const digest = "fe333e598595000ae021bd27117db32ec69af6987f507ba7a63c90638ff633ce"
	entry := func(pkgs ...string) []byte {
		f, err := registryFile(&server{Name: "notes", Module: "github.com/acme/notes", Version: "1.2.0", Packages: pkgs})
		if err != nil {
			t.Fatal(err)
		}
		return f.Content
	}
	two := entry("mcpb:https://example.com/notes-linux.mcpb", "mcpb:https://example.com/notes-mac.mcpb?download=1", "npm:@acme/notes")
	out, ok, err := RegistryWithDigest(two, "notes-mac.mcpb", digest)
	if err != nil || !ok {
		t.Fatalf("RegistryWithDigest: %v, %v", ok, err)
	}
	if err := v.Validate(out); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if strings.Count(string(out), digest) != 1 || !strings.Contains(string(out), `notes-mac.mcpb?download=1",
      "fileSha256": "`+digest+`"`) {
		t.Errorf("digest not on the package named notes-mac.mcpb:\n%s", out)
	}
	if _, ok, _ := RegistryWithDigest(two, "notes-windows.mcpb", digest); ok {
		t.Error("two MCPB packages, neither named like the bundle: a digest was recorded")
	}
	one := entry("mcpb:https://example.com/latest.mcpb")
	if out, ok, _ := RegistryWithDigest(one, "notes-1.2.0.mcpb", digest); !ok || !strings.Contains(string(out), `"fileSha256": "`+digest+`"`) {
		t.Errorf("the only MCPB package did not get the digest:\n%s", out)
	}
	if _, ok, _ := RegistryWithDigest(entry("npm:@acme/notes"), "notes-1.2.0.mcpb", digest); ok {
		t.Error("no MCPB package, yet a digest was recorded")
	}
}

// cardSchemaFile is the Server Card schema of the experimental extension
// io.modelcontextprotocol/server-card (SEP-2127; schema.json of
// modelcontextprotocol/experimental-ext-server-card, 2026-07-24), kept as
// test data; its root has only $defs, so the validator refers to
// ServerCard.
const cardSchemaFile = "testdata/registry/server-card.schema.v1.json"

func cardValidator(t *testing.T) *jsonschema.Schema {
	return schemaValidator(t, cardSchemaFile, "#/$defs/ServerCard")
}

// TestServerCard: the card is valid against the extension's schema, says
// what server.json says of the server (name, version, description,
// title, repository), and lists each remote with the revisions the
// runtime serves; the committed cards of this repository are valid too.
func TestServerCard(t *testing.T) {
	v := cardValidator(t)
	for _, s := range []server{
		{Name: "notes", Module: "github.com/acme/tools", PkgName: "notes", Doc: "Package notes is a small server that keeps notes. It has more to say."},
		{Name: "notes", Module: "example.com/x", Version: "1.2.3", Title: "Notes", Registry: "com.example/notes", Description: "Notes.",
			Packages: []string{"npm:@acme/notes"}, Remotes: []string{"https://notes.example.com/mcp", "https://eu.notes.example.com/mcp"}},
	} {
		card, err := cardFile(&s)
		if err != nil {
			t.Fatal(err)
		}
		if card.Path != s.Name+"/server-card.json" {
			t.Errorf("card at %s", card.Path)
		}
		if err := v.Validate(card.Content); err != nil {
			t.Errorf("%v\n%s", err, card.Content)
		}
		reg, _ := registryFile(&s)
		var c, r map[string]any
		if err := json.Unmarshal(card.Content, &c); err != nil {
			t.Fatal(err)
		}
		_ = json.Unmarshal(reg.Content, &r)
		for _, k := range []string{"name", "version", "description", "title", "repository"} {
			if fmt.Sprint(c[k]) != fmt.Sprint(r[k]) {
				t.Errorf("%s: the card has %v, server.json %v", k, c[k], r[k])
			}
		}
		if _, ok := c["packages"]; ok {
			t.Error("the card lists packages: they are server.json's, for local servers")
		}
		remotes, _ := c["remotes"].([]any)
		if len(remotes) != len(s.Remotes) {
			t.Fatalf("remotes %v, want one per remote= URL %v", c["remotes"], s.Remotes)
		}
		for i, rm := range remotes {
			m := rm.(map[string]any)
			if m["url"] != s.Remotes[i] || m["type"] != "streamable-http" || fmt.Sprint(m["supportedProtocolVersions"]) != fmt.Sprint(mcpgen.Versions()) {
				t.Errorf("remote %d: %v", i, m)
			}
		}
	}
	files, _ := filepath.Glob("../generated/*/server-card.json")
	if len(files) < 4 {
		t.Fatalf("server-card.json files: %v", files)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := v.Validate(b); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
	bad, _ := cardFile(&server{Name: "n", Module: "example.com/x", Registry: "not a name"})
	if err := v.Validate(bad.Content); err == nil {
		t.Error("the schema accepted a malformed name: the test validates nothing")
	}
}

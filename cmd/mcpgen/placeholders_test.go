package main

import (
	"archive/zip"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// hostPlatform is the platform of this machine, which bundles in tests
// build for because its standard library is the one in the build cache.
func hostPlatform(t *testing.T) string {
	switch runtime.GOOS {
	case "darwin", "linux", "windows":
		return runtime.GOOS + "/" + runtime.GOARCH
	}
	t.Skipf("MCP Bundles do not run on %s", runtime.GOOS)
	return ""
}

// placeholdersIn lists every ${...} in the strings and keys of the JSON
// document v by JSON path (keys joined with dots); a "${" with no "}"
// after it counts up to the end of its string.
func placeholdersIn(v any) map[string][]string {
	found := map[string][]string{}
	add := func(at, s string) {
		for {
			i := strings.Index(s, "${")
			if i < 0 {
				return
			}
			s = s[i:]
			j := strings.Index(s, "}")
			if j < 0 {
				j = len(s) - 1
			}
			found[at] = append(found[at], s[:j+1])
			s = s[j+1:]
		}
	}
	var walk func(at string, v any)
	walk = func(at string, v any) {
		switch v := v.(type) {
		case string:
			add(at, v)
		case []any:
			for i, e := range v {
				walk(at+"."+strconv.Itoa(i), e)
			}
		case map[string]any:
			for k, e := range v {
				add(at+" (key)", k)
				walk(strings.TrimPrefix(at+"."+k, "."), e)
			}
		}
	}
	walk("", v)
	return found
}

// TestBundleWritesNoPlaceholderFromTheSource bundles testdata/bundleliteral,
// whose title, instructions, tool and prompt descriptions, prompt title,
// registry description, repository URL and flag usages hold
// ${user_config.token}, ${HOME}, ${__dirname} and w}${user_config.token},
// reads manifest.json back out of the archive and scans every string and
// key: the only placeholders are the ones mcpgen writes itself, and the
// text is still there with each "${" broken.
func TestBundleWritesNoPlaceholderFromTheSource(t *testing.T) {
	out := filepath.Join(t.TempDir(), "literal.mcpb")
	err := bundle(context.Background(), bundleOptions{Package: "./testdata/bundleliteral", Out: out, Platforms: hostPlatform(t), Progress: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	zr, err := zip.OpenReader(out)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	r, err := zr.Open("manifest.json")
	if err != nil {
		t.Fatal(err)
	}
	raw, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	var doc any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{
		"server.mcp_config.command": {"${__dirname}"},
		"server.mcp_config.args.0":  {"${user_config.greeting}"},
		"server.mcp_config.args.1":  {"${user_config.notes}"},
		"user_config.notes.default": {"${HOME}"},
		"prompts.0.text":            {"${arguments.topic}"},
	}
	if got := placeholdersIn(doc); !reflect.DeepEqual(got, want) {
		t.Errorf("placeholders in manifest.json:\n got %q\nwant %q\n%s", got, want, raw)
	}

	var m manifest
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	for what, got := range map[string][2]string{
		"display_name":         {m.DisplayName, "Literal $ {user_config.token}"},
		"description":          {m.Description, "Literal notes $ {user_config.token}"},
		"author":               {m.Author.Name + " " + m.Author.URL, "$ {user_config.token} https://github.com/$%7Buser_config.token}"},
		"repository":           {m.Repository.URL, "https://github.com/$%7Buser_config.token}/literal?x=$%7BHOME}"},
		"tool description":     {m.Tools[0].Description, "Reads $ {user_config.token}, $ {DOCUMENTS} and $ {/}"},
		"prompt text":          {m.Prompts[0].Text, "Ask about $ {user_config.token} w}$ {user_config.token}\n\ntopic: ${arguments.topic}"},
		"prompt text of title": {m.Prompts[1].Text, "Bare $ {arguments.topic} $ {HOME}"},
		"flag usage":           {m.UserConfig["greeting"].Description, "what to say first, never $ {user_config.token} or $ {HOME}"},
		"flag usage with $$":   {m.UserConfig["notes"].Description, "the notes file; $$ {user_config.token}"},
	} {
		if got[0] != got[1] {
			t.Errorf("%s = %q, want %q", what, got[0], got[1])
		}
	}
}

// TestBundleRefusesPlaceholderNames bundles testdata/bundlenames, whose
// surface.json has a version, a tool name and a prompt argument name
// with ${...} in them, and whose main declares a flag named
// w}${user_config.token and two flags whose defaults hold ${: each is
// refused, in one run, the flags at their positions, before anything is
// built or written.
func TestBundleRefusesPlaceholderNames(t *testing.T) {
	out := filepath.Join(t.TempDir(), "names.mcpb")
	code, stderr := runMcpgen(t, "bundle", "-o", out, "-author", "Ann", "-platforms", hostPlatform(t), "./testdata/bundlenames")
	if code != 2 {
		t.Errorf("exit %d, want 2 (a usage error)", code)
	}
	for _, want := range []string{
		`surface\.json: server version "1\.0\.0-\$\{HOME\}": a name in a bundle cannot hold \$, \{ or \}`,
		`surface\.json: tool "read\$\{user_config\.token\}": a name`,
		`surface\.json: prompt ask: argument "w\}\$\{user_config\.token": a name[^\n]*\n\trename it with its json tag`,
		`main\.go:12:14: flag -w\}\$\{user_config\.token: its name holds \$, \{ or \}`,
		`main\.go:13:20: flag -db: its default "\$\{HOME\}/\.names\.db" holds "\$\{"[^\n]*\n\tdefault to text without`,
		`main\.go:14:21: flag -key: its default "\$\{user_config\.token\}" holds "\$\{"`,
	} {
		if !regexp.MustCompile(want).MatchString(stderr) {
			t.Errorf("stderr lacks %s:\n%s", want, stderr)
		}
	}
	for _, unwanted := range []string{"-ok", "prompt ask: argument \"topic\"", "building"} {
		if strings.Contains(stderr, unwanted) {
			t.Errorf("stderr mentions %q:\n%s", unwanted, stderr)
		}
	}
	if entries, _ := os.ReadDir(filepath.Dir(out)); len(entries) != 0 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("the refused bundle left files: %q", names)
	}
}

// TestCheckPlaceholders: the last check of buildManifest accepts
// mcpgen's own placeholders where it writes them, and any other "${", in
// any field or key, is an internal error.
func TestCheckPlaceholders(t *testing.T) {
	build := func() *manifest {
		m, _, err := buildManifest(bundleInput{
			Command: "mcp-notes", Surface: testSurface(), Author: "Ann",
			Flags:     []mainFlag{{Name: "db", Kind: "string", Usage: "store `path`", Default: "notes.db"}},
			Platforms: []platform{{"darwin", "arm64"}, {"linux", "amd64"}},
		})
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	if err := checkPlaceholders(build()); err != nil {
		t.Fatalf("mcpgen's own placeholders: %v", err)
	}
	for what, spoil := range map[string]func(m *manifest){
		"in a description":           func(m *manifest) { m.Description += " ${HOME}" },
		"__dirname in the arguments": func(m *manifest) { m.Server.MCPConfig.Args[0] = "${__dirname}" },
		"an undeclared user_config":  func(m *manifest) { m.Server.MCPConfig.Args[0] = "--db=${user_config.token}" },
		"user_config in a command": func(m *manifest) {
			m.Server.MCPConfig.PlatformOverrides["linux"] = platformOverride{"${user_config.db}"}
		},
		"another prompt's argument":    func(m *manifest) { m.Prompts[0].Text += " ${arguments.other}" },
		"user_config in a prompt text": func(m *manifest) { m.Prompts[0].Text += " ${user_config.db}" },
		"in a key":                     func(m *manifest) { m.UserConfig["${HOME}"] = userOption{Type: "string"} },
		"an unclosed one":              func(m *manifest) { m.Tools[0].Description = "${" },
	} {
		m := build()
		spoil(m)
		if err := checkPlaceholders(m); err == nil || !strings.Contains(err.Error(), "internal error") {
			t.Errorf("%s: err = %v, want an internal error", what, err)
		}
	}
}

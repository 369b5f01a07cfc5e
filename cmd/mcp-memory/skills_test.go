package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.yaml.in/yaml/v4"
)

// The Skills extension (io.modelcontextprotocol/skills) as the official Go
// SDK client sees it: its methods are not part of the SDK, so they are
// registered as custom methods, with these wire types.

type listSkillsParams struct {
	mcp.ParamsBase
	Cursor string `json:"cursor,omitempty"`
}

type listSkillsResult struct {
	mcp.ResultBase
	Skills     []skillEntry `json:"skills"`
	NextCursor string       `json:"nextCursor,omitempty"`
	TTLMs      *int64       `json:"ttlMs"`
	CacheScope string       `json:"cacheScope"`
}

type getSkillParams struct {
	mcp.ParamsBase
	URI string `json:"uri"`
}

type getSkillResult struct {
	mcp.ResultBase
	Skill      skillEntry `json:"skill"`
	NextCursor *string    `json:"nextCursor"`
	TTLMs      *int64     `json:"ttlMs"`
}

type skillEntry struct {
	URI         string          `json:"uri"`
	Frontmatter map[string]any  `json:"frontmatter"`
	Resources   json.RawMessage `json:"resources"`
}

type skillFile struct {
	URI    string `json:"uri"`
	Digest string `json:"digest"`
	Size   int    `json:"size"`
}

type readDirectoryParams struct {
	mcp.ParamsBase
	URI string `json:"uri"`
}

type readDirectoryResult struct {
	mcp.ResultBase
	Resources []mcp.Resource `json:"resources"`
}

const memorySkill = "skill://tidy-knowledge-graph/SKILL.md"

// TestSkillsOverGoSDK has the official Go SDK client, as a legacy and as a
// stateless client, over stdio and HTTP, find mcp-memory's skill: the
// extension in the capabilities, the skill in skills/list, its entry from
// skills/get, and every file read with resources/read, each checked
// against its digest and size and against the file in the repository; the
// SKILL.md frontmatter must equal the entry's.
func TestSkillsOverGoSDK(t *testing.T) {
	bin := sharedBinary(t)
	root := repoRoot(t)
	for _, transport := range []string{"stdio", "http"} {
		for _, version := range []string{"2025-11-25", ""} {
			t.Run(transport+"/"+map[string]string{"": "2026-07-28"}[version]+version, func(t *testing.T) {
				ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
				defer cancel()
				db := filepath.Join(t.TempDir(), "memory.db")
				var tr mcp.Transport
				if transport == "stdio" {
					tr = &mcp.CommandTransport{Command: exec.Command(bin, "--db", db)}
				} else {
					endpoint, _ := startHTTPServer(t, bin, db, os.Stderr)
					tr = &mcp.StreamableClientTransport{Endpoint: endpoint}
				}
				client := mcp.NewClient(&mcp.Implementation{Name: "skills-test", Version: "1.0.0"}, nil)
				check(t, mcp.AddSendingCustomMethod[*listSkillsParams, *listSkillsResult](client, "skills/list"))
				check(t, mcp.AddSendingCustomMethod[*getSkillParams, *getSkillResult](client, "skills/get"))
				check(t, mcp.AddSendingCustomMethod[*readDirectoryParams, *readDirectoryResult](client, "resources/directory/read"))
				s, err := client.Connect(ctx, tr, &mcp.ClientSessionOptions{ProtocolVersion: version})
				if err != nil {
					t.Fatalf("connect: %v", err)
				}
				defer s.Close()
				exerciseSkills(ctx, t, s, root)
			})
		}
	}
}

func exerciseSkills(ctx context.Context, t *testing.T, s *mcp.ClientSession, root string) {
	caps := s.InitializeResult().Capabilities
	ext, _ := caps.Extensions["io.modelcontextprotocol/skills"].(map[string]any)
	if ext == nil || ext["directoryRead"] != true || caps.Resources == nil {
		t.Fatalf("capabilities do not declare the skills extension with directoryRead and resources: %+v", caps)
	}

	var listed []skillEntry
	cursor := ""
	for {
		page, err := mcp.CallCustomMethod[*listSkillsParams, *listSkillsResult](ctx, s, "skills/list", &listSkillsParams{Cursor: cursor})
		if err != nil {
			t.Fatalf("skills/list: %v", err)
		}
		if page.TTLMs == nil || page.CacheScope == "" {
			t.Errorf("skills/list without cache hints: ttlMs=%v cacheScope=%q", page.TTLMs, page.CacheScope)
		}
		listed = append(listed, page.Skills...)
		if cursor = page.NextCursor; cursor == "" {
			break
		}
	}
	if len(listed) != 1 || listed[0].URI != memorySkill || listed[0].Frontmatter["name"] != "tidy-knowledge-graph" {
		t.Fatalf("skills/list = %+v, want the one skill %s", listed, memorySkill)
	}

	got, err := mcp.CallCustomMethod[*getSkillParams, *getSkillResult](ctx, s, "skills/get", &getSkillParams{URI: memorySkill})
	if err != nil {
		t.Fatalf("skills/get: %v", err)
	}
	if got.NextCursor != nil || got.TTLMs == nil || !reflect.DeepEqual(got.Skill, listed[0]) {
		t.Fatalf("skills/get = %+v, want the listed entry %+v with cache hints and no cursor", got, listed[0])
	}
	if _, err := mcp.CallCustomMethod[*getSkillParams, *getSkillResult](ctx, s, "skills/get", &getSkillParams{URI: "skill://nothing-here/SKILL.md"}); err == nil || !strings.Contains(err.Error(), "-32602") && !strings.Contains(err.Error(), "No skill") {
		t.Errorf("skills/get of an unknown skill: err = %v, want -32602", err)
	}

	var files []skillFile
	if err := json.Unmarshal(got.Skill.Resources, &files); err != nil {
		t.Fatalf("resources %s: %v", got.Skill.Resources, err)
	}
	if len(files) < 2 {
		t.Fatalf("resources = %+v, want SKILL.md and its reference", files)
	}
	for _, f := range files {
		r, err := s.ReadResource(ctx, &mcp.ReadResourceParams{URI: f.URI})
		if err != nil {
			t.Fatalf("read %s: %v", f.URI, err)
		}
		c := r.Contents[0]
		body := []byte(c.Text)
		if c.Blob != nil {
			body = c.Blob
		}
		sum := sha256.Sum256(body)
		if digest := "sha256:" + hex.EncodeToString(sum[:]); digest != f.Digest || len(body) != f.Size {
			t.Errorf("%s: read %d bytes, %s; the entry says %d bytes, %s", f.URI, len(body), digest, f.Size, f.Digest)
		}
		rel := strings.TrimPrefix(f.URI, "skill://")
		disk, err := os.ReadFile(filepath.Join(root, "components", "memory", "skills", filepath.FromSlash(rel)))
		if err != nil || string(disk) != string(body) {
			t.Errorf("%s does not serve the file in components/memory/skills (%v)", f.URI, err)
		}
		if strings.HasSuffix(f.URI, "/SKILL.md") {
			if c.MIMEType != "text/markdown" {
				t.Errorf("SKILL.md served as %q", c.MIMEType)
			}
			if fm := frontmatterOf(t, string(body)); !reflect.DeepEqual(fm, got.Skill.Frontmatter) {
				t.Errorf("SKILL.md frontmatter %v differs from the entry's %v", fm, got.Skill.Frontmatter)
			}
		}
	}

	dir, err := mcp.CallCustomMethod[*readDirectoryParams, *readDirectoryResult](ctx, s, "resources/directory/read", &readDirectoryParams{URI: "skill://tidy-knowledge-graph"})
	if err != nil {
		t.Fatalf("resources/directory/read: %v", err)
	}
	var kids []string
	for _, r := range dir.Resources {
		kids = append(kids, r.URI+" "+r.MIMEType)
	}
	if want := "skill://tidy-knowledge-graph/SKILL.md text/markdown,skill://tidy-knowledge-graph/references inode/directory"; strings.Join(kids, ",") != want {
		t.Errorf("directory = %v, want %s", kids, want)
	}

	comp, err := s.Complete(ctx, &mcp.CompleteParams{
		Ref:      &mcp.CompleteReference{Type: "ref/resource", URI: "skill://{+path}"},
		Argument: mcp.CompleteParamsArgument{Name: "path", Value: "tidy-knowledge-graph/ref"},
	})
	if err != nil || len(comp.Completion.Values) != 1 || comp.Completion.Values[0] != "tidy-knowledge-graph/references/EXAMPLES.md" {
		t.Errorf("completion of a skill path = %+v, %v", comp, err)
	}
}

// frontmatterOf parses the YAML frontmatter of a SKILL.md the way a host
// does, into JSON values.
func frontmatterOf(t *testing.T, text string) map[string]any {
	t.Helper()
	rest, ok := strings.CutPrefix(text, "---\n")
	end := strings.Index(rest, "\n---\n")
	if !ok || end < 0 {
		t.Fatalf("SKILL.md has no frontmatter:\n%s", text)
	}
	var fm map[string]any
	if err := yaml.Unmarshal([]byte(rest[:end]), &fm); err != nil {
		t.Fatalf("frontmatter: %v", err)
	}
	b, _ := json.Marshal(fm)
	var out map[string]any
	_ = json.Unmarshal(b, &out)
	return out
}

func check(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

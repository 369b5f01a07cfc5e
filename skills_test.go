package mcpgen

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/jsonrpc"
	"github.com/mcpgen/mcpgen/internal/skills"
)

// skillDefinition serves two static skills (one nested under a prefix, one
// with a binary file and a subdirectory) and, from code, one dynamic skill
// whose content changes between calls.
func skillDefinition(t *testing.T, pageSize int) (*Server, *int) {
	t.Helper()
	calls := 0
	def := Definition{
		Name: "skilled", Version: "1.0.0",
		Skills: []Skill{
			{
				Path:        "pdf-processing",
				Frontmatter: json.RawMessage(`{"name":"pdf-processing","description":"Fill PDF forms","metadata":{"version":"2"}}`),
				Files: []SkillFile{
					{Path: "SKILL.md", Content: []byte("---\nname: pdf-processing\ndescription: Fill PDF forms\nmetadata:\n  version: \"2\"\n---\nSee references/FORMS.md.\n")},
					{Path: "references/FORMS.md", Content: []byte("# Forms\n")},
					{Path: "assets/logo.png", Content: []byte{0x89, 'P', 'N', 'G', 0, 1, 2}},
				},
			},
			{
				Path:        "acme/billing/refunds",
				Frontmatter: json.RawMessage(`{"name":"refunds","description":"Refund orders"}`),
				Files: []SkillFile{
					{Path: "SKILL.md", Content: []byte("---\nname: refunds\ndescription: Refund orders\n---\n")},
				},
			},
		},
	}
	opts := Options{PageSize: pageSize, Skills: []Skill{{
		Path:        "reports/daily",
		Frontmatter: json.RawMessage(`{"name":"daily","description":"Today's report"}`),
		Dynamic: func(context.Context, *Request) ([]SkillFile, error) {
			calls++
			return []SkillFile{
				{Path: "SKILL.md", Content: []byte("---\nname: daily\ndescription: Today's report\n---\n")},
				{Path: "data/today.json", Content: []byte(fmt.Sprintf(`{"call":%d}`, calls))},
			}, nil
		},
	}}}
	s, err := build(def, opts)
	if err != nil {
		t.Fatal(err)
	}
	return s, &calls
}

func TestSkillsCapabilityInBothEras(t *testing.T) {
	s, _ := skillDefinition(t, 100)
	legacy := result(t, handle(t, s, nil, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`))
	modern := result(t, handle(t, s, nil, `{"jsonrpc":"2.0","id":2,"method":"server/discover","params":{`+modernMeta+`}}`))
	for era, caps := range map[string]any{"initialize": legacy["capabilities"], "server/discover": modern["capabilities"]} {
		c := caps.(map[string]any)
		ext, _ := c["extensions"].(map[string]any)[skills.Extension].(map[string]any)
		if ext == nil || ext["directoryRead"] != true {
			t.Errorf("%s: extensions = %v, want %s with directoryRead", era, c["extensions"], skills.Extension)
		}
		if c["resources"] == nil {
			t.Errorf("%s: the extension requires the resources capability; capabilities = %v", era, c)
		}
	}
}

func TestSkillsListPagesAndGet(t *testing.T) {
	s, calls := skillDefinition(t, 2)
	var uris []string
	cursor := ""
	for page := 0; ; page++ {
		params := modernMeta
		if cursor != "" {
			params += fmt.Sprintf(`,"cursor":%q`, cursor)
		}
		res := result(t, handle(t, s, nil, `{"jsonrpc":"2.0","id":1,"method":"skills/list","params":{`+params+`}}`))
		if res["resultType"] != "complete" || res["ttlMs"] == nil || res["cacheScope"] == nil {
			t.Fatalf("page %d lacks resultType or cache hints: %v", page, res)
		}
		for _, e := range res["skills"].([]any) {
			uris = append(uris, e.(map[string]any)["uri"].(string))
		}
		next, _ := res["nextCursor"].(string)
		if next == "" {
			break
		}
		cursor = next
	}
	want := []string{"skill://acme/billing/refunds/SKILL.md", "skill://pdf-processing/SKILL.md", "skill://reports/daily/SKILL.md"}
	if strings.Join(uris, " ") != strings.Join(want, " ") {
		t.Fatalf("listed %v, want %v", uris, want)
	}
	if *calls != 0 {
		t.Errorf("listing called the dynamic skill %d times; its entry is static", *calls)
	}

	got := result(t, handle(t, s, nil, `{"jsonrpc":"2.0","id":2,"method":"skills/get","params":{`+modernMeta+`,"uri":"skill://pdf-processing/SKILL.md"}}`))
	skill := got["skill"].(map[string]any)
	if skill["uri"] != "skill://pdf-processing/SKILL.md" || got["nextCursor"] != nil || got["ttlMs"] == nil {
		t.Fatalf("skills/get = %v", got)
	}
	res := skill["resources"].([]any)
	if len(res) != 3 {
		t.Fatalf("resources = %v, want 3 files", res)
	}
	for _, r := range res {
		r := r.(map[string]any)
		read := result(t, handle(t, s, nil, fmt.Sprintf(`{"jsonrpc":"2.0","id":3,"method":"resources/read","params":{%s,"uri":%q}}`, modernMeta, r["uri"])))
		c := read["contents"].([]any)[0].(map[string]any)
		var body []byte
		if text, ok := c["text"].(string); ok {
			body = []byte(text)
		} else {
			body, _ = base64.StdEncoding.DecodeString(c["blob"].(string))
		}
		if skills.Digest(body) != r["digest"] || float64(len(body)) != r["size"] {
			t.Errorf("%s: read %d bytes with digest %s; entry says %v bytes, %v", r["uri"], len(body), skills.Digest(body), r["size"], r["digest"])
		}
	}

	dyn := result(t, handle(t, s, nil, `{"jsonrpc":"2.0","id":4,"method":"skills/get","params":{`+modernMeta+`,"uri":"skill://reports/daily/SKILL.md"}}`))
	if dyn["skill"].(map[string]any)["resources"] != "dynamic" {
		t.Errorf("dynamic skill entry = %v, want resources \"dynamic\"", dyn["skill"])
	}
	for _, uri := range []string{"skill://nope/SKILL.md", "skill://pdf-processing/references/FORMS.md"} {
		wantError(t, handle(t, s, nil, fmt.Sprintf(`{"jsonrpc":"2.0","id":5,"method":"skills/get","params":{%s,"uri":%q}}`, modernMeta, uri)), jsonrpc.CodeInvalidParams, "No skill is served")
	}
	wantError(t, handle(t, s, nil, `{"jsonrpc":"2.0","id":6,"method":"skills/list","params":{`+modernMeta+`,"cursor":"forged"}}`), jsonrpc.CodeInvalidParams, "invalid cursor")
}

func TestSkillResourcesListedAndRead(t *testing.T) {
	s, calls := skillDefinition(t, 100)
	list := result(t, handle(t, s, nil, `{"jsonrpc":"2.0","id":1,"method":"resources/list","params":{`+modernMeta+`}}`))
	var manifest map[string]any
	for _, r := range list["resources"].([]any) {
		if r := r.(map[string]any); r["uri"] == "skill://pdf-processing/SKILL.md" {
			manifest = r
		}
	}
	if manifest == nil || manifest["name"] != "pdf-processing" || manifest["description"] != "Fill PDF forms" || manifest["mimeType"] != "text/markdown" {
		t.Fatalf("SKILL.md resource = %v, want name, description and mimeType from the frontmatter", manifest)
	}
	read := result(t, handle(t, s, nil, `{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{`+modernMeta+`,"uri":"skill://pdf-processing/assets/logo.png"}}`))
	if c := read["contents"].([]any)[0].(map[string]any); c["mimeType"] != "image/png" || c["blob"] == nil {
		t.Errorf("binary file read as %v, want an image/png blob", c)
	}
	// Dynamic files come from the template, fresh on every read.
	for want := 1; want <= 2; want++ {
		read = result(t, handle(t, s, nil, `{"jsonrpc":"2.0","id":3,"method":"resources/read","params":{`+modernMeta+`,"uri":"skill://reports/daily/data/today.json"}}`))
		c := read["contents"].([]any)[0].(map[string]any)
		if c["text"] != fmt.Sprintf(`{"call":%d}`, want) || c["mimeType"] != "application/json" {
			t.Errorf("dynamic read %d = %v", want, c)
		}
	}
	if *calls != 2 {
		t.Errorf("dynamic skill called %d times, want 2", *calls)
	}
	wantError(t, handle(t, s, nil, `{"jsonrpc":"2.0","id":4,"method":"resources/read","params":{`+modernMeta+`,"uri":"skill://reports/daily/missing.md"}}`), jsonrpc.CodeInvalidParams, "not found")
	wantError(t, handle(t, s, nil, `{"jsonrpc":"2.0","id":5,"method":"resources/read","params":{`+modernMeta+`,"uri":"skill://pdf-processing/missing.md"}}`), jsonrpc.CodeInvalidParams, "not found")
}

func TestDirectoryRead(t *testing.T) {
	s, _ := skillDefinition(t, 2)
	read := func(uri string) []string {
		t.Helper()
		var out []string
		cursor := ""
		for {
			params := fmt.Sprintf(`%s,"uri":%q`, modernMeta, uri)
			if cursor != "" {
				params += fmt.Sprintf(`,"cursor":%q`, cursor)
			}
			res := result(t, handle(t, s, nil, `{"jsonrpc":"2.0","id":1,"method":"resources/directory/read","params":{`+params+`}}`))
			for _, r := range res["resources"].([]any) {
				r := r.(map[string]any)
				out = append(out, fmt.Sprintf("%s %s", r["uri"], r["mimeType"]))
			}
			next, _ := res["nextCursor"].(string)
			if next == "" {
				return out
			}
			cursor = next
		}
	}
	cases := map[string][]string{
		"skill://pdf-processing": {
			"skill://pdf-processing/SKILL.md text/markdown",
			"skill://pdf-processing/assets inode/directory",
			"skill://pdf-processing/references inode/directory",
		},
		"skill://pdf-processing/references": {"skill://pdf-processing/references/FORMS.md text/markdown"},
		"skill://acme":                      {"skill://acme/billing inode/directory"},
		"skill://reports":                   {"skill://reports/daily inode/directory"},
		"skill://reports/daily": {
			"skill://reports/daily/SKILL.md text/markdown",
			"skill://reports/daily/data inode/directory",
		},
	}
	for uri, want := range cases {
		if got := read(uri); strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("directory %s:\n got %q\nwant %q", uri, got, want)
		}
	}
	for _, uri := range []string{"skill://pdf-processing/SKILL.md", "skill://nope", "skill://reports/daily/data/today.json"} {
		wantError(t, handle(t, s, nil, fmt.Sprintf(`{"jsonrpc":"2.0","id":2,"method":"resources/directory/read","params":{%s,"uri":%q}}`, modernMeta, uri)), jsonrpc.CodeInvalidParams, "not a directory resource")
	}
}

func TestSkillPathCompletion(t *testing.T) {
	s, _ := skillDefinition(t, 100)
	res := result(t, handle(t, s, nil, `{"jsonrpc":"2.0","id":1,"method":"completion/complete","params":{`+modernMeta+`,"ref":{"type":"ref/resource","uri":"skill://{+path}"},"argument":{"name":"path","value":"pdf"}}}`))
	got := res["completion"].(map[string]any)["values"].([]any)
	want := []any{"pdf-processing/SKILL.md", "pdf-processing/assets/logo.png", "pdf-processing/references/FORMS.md"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("completion = %v, want %v", got, want)
	}
}

func TestSkillsLegacyEra(t *testing.T) {
	s, _ := skillDefinition(t, 100)
	in := &inbound{}
	result(t, handle(t, s, in, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`))
	res := result(t, handle(t, s, in, `{"jsonrpc":"2.0","id":2,"method":"skills/list"}`))
	if len(res["skills"].([]any)) != 3 || res["resultType"] != nil {
		t.Errorf("legacy skills/list = %v", res)
	}
	wantError(t, handle(t, s, in, `{"jsonrpc":"2.0","id":3,"method":"skills/get","params":{"uri":"skill://x/SKILL.md"}}`), jsonrpc.CodeInvalidParams, "No skill")
}

func TestSkillsRefusedAtStart(t *testing.T) {
	good := []SkillFile{{Path: "SKILL.md", Content: []byte("x")}}
	cases := map[string]Skill{
		"does not match its digest": {Path: "a", Frontmatter: json.RawMessage(`{"name":"a","description":"d"}`), Files: []SkillFile{{Path: "SKILL.md", Content: []byte("x"), Digest: skills.Digest([]byte("y"))}}},
		"does not equal the last":   {Path: "a", Frontmatter: json.RawMessage(`{"name":"b","description":"d"}`), Files: good},
		"no description":            {Path: "a", Frontmatter: json.RawMessage(`{"name":"a"}`), Files: good},
		"no SKILL.md":               {Path: "a", Frontmatter: json.RawMessage(`{"name":"a","description":"d"}`), Files: []SkillFile{{Path: "x.md"}}},
		"consecutive hyphens":       {Path: "a--b", Frontmatter: json.RawMessage(`{"name":"a--b","description":"d"}`), Files: good},
		"not a clean relative path": {Path: "a", Frontmatter: json.RawMessage(`{"name":"a","description":"d"}`), Files: []SkillFile{{Path: "SKILL.md"}, {Path: "../x"}}},
	}
	for want, sk := range cases {
		if _, err := build(Definition{Name: "x", Skills: []Skill{sk}}, Options{}); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: build error = %v", want, err)
		}
	}
	two := []Skill{cases["no description"], cases["no description"]}
	two[0].Frontmatter, two[1].Frontmatter = json.RawMessage(`{"name":"a","description":"d"}`), json.RawMessage(`{"name":"a","description":"d"}`)
	if _, err := build(Definition{Name: "x", Skills: two}, Options{}); err == nil || !strings.Contains(err.Error(), "duplicate skill") {
		t.Errorf("duplicate: build error = %v", err)
	}
}

func TestNoSkillsNoExtension(t *testing.T) {
	s, err := build(unitDefinition(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	res := result(t, handle(t, s, nil, `{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{`+modernMeta+`}}`))
	if ext, _ := res["capabilities"].(map[string]any)["extensions"].(map[string]any); ext != nil && ext[skills.Extension] != nil {
		t.Errorf("a server without skills declares %v", ext)
	}
	resp := handle(t, s, nil, `{"jsonrpc":"2.0","id":2,"method":"skills/list","params":{`+modernMeta+`}}`)
	wantError(t, resp, jsonrpc.CodeMethodNotFound, "skills/list")
}

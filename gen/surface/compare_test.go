package surface

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// base is a small server in the shape of the notes example.
func base() *Surface {
	return &Surface{
		Server: Server{Name: "notes", Version: "1.2.0"},
		Tools: []Tool{{
			Name:        "add_note",
			Description: "Adds a note.",
			Annotations: &Annotations{ReadOnly: ptr(false), Destructive: ptr(false), Idempotent: ptr(true)},
			InputSchema: json.RawMessage(`{"type":"object","properties":{
				"id":{"type":"string","pattern":"^[a-z]+$"},
				"text":{"type":"string","minLength":1},
				"priority":{"type":"integer","minimum":0,"maximum":10},
				"kind":{"type":"string","enum":["todo","idea"]},
				"tags":{"type":"array","items":{"type":"string"}}
			},"required":["id","text"],"additionalProperties":false}`),
			OutputSchema: json.RawMessage(`{"type":"object","properties":{
				"id":{"type":"string"},"count":{"type":"integer"},"state":{"type":"string","enum":["new","old"]}
			},"required":["id","count"],"additionalProperties":false}`),
		}, {
			Name:         "list_notes",
			Annotations:  &Annotations{ReadOnly: ptr(true)},
			InputSchema:  json.RawMessage(`{"type":"object","properties":{"q":{"type":"string"}}}`),
			OutputSchema: json.RawMessage(`{"type":"object","properties":{"items":{"type":"array","items":{"$ref":"#/$defs/Note"}}},"required":["items"],"$defs":{"Note":{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]}}}`),
			View:         "ui://notes/board.html",
		}},
		Resources: []Resource{{URI: "notes://all", Name: "all", MimeType: "application/json"}},
		Templates: []Template{{URITemplate: "notes://{id}", Name: "note", Variables: []string{"id"}}},
		Prompts:   []Prompt{{Name: "summarize", Arguments: []Argument{{Name: "style"}, {Name: "topic", Required: true}}}},
		Skills:    []Skill{{Name: "filing", Digest: "sha256:aa"}},
		Views:     []View{{URI: "ui://notes/board.html", Name: "board", Digest: "sha256:cc"}},
		Events:    baseEvents(),
	}
}

func ptr(b bool) *bool { return &b }

// edit returns base with the input or output schema of add_note (or
// list_notes) rewritten by replacing old with new in its JSON.
func editSchema(tool int, output bool, old, new string) func(*Surface) {
	return func(s *Surface) {
		sc := &s.Tools[tool].InputSchema
		if output {
			sc = &s.Tools[tool].OutputSchema
		}
		if !strings.Contains(string(*sc), old) {
			panic("no " + old + " in " + string(*sc))
		}
		*sc = json.RawMessage(strings.Replace(string(*sc), old, new, 1))
	}
}

// Each rule: a change that triggers it (base → edited), and what the
// reverse change (edited → base) is instead.
var cases = []struct {
	rule    string
	edit    func(*Surface)
	field   string
	reverse string // the rule of the reverse change
}{
	{"tool-removed", func(s *Surface) { s.Tools = s.Tools[1:] }, "", "added"},
	{"resource-removed", func(s *Surface) { s.Resources = nil }, "", "added"},
	{"template-removed", func(s *Surface) { s.Templates[0].Name = "entry" }, "", "template-removed"},
	{"prompt-removed", func(s *Surface) { s.Prompts = nil }, "", "added"},
	{"skill-removed", func(s *Surface) { s.Skills = nil }, "", "added"},
	{"template-variables-changed", func(s *Surface) {
		s.Templates[0].URITemplate, s.Templates[0].Variables = "notes://{slug}", []string{"slug"}
	}, "", "template-variables-changed"},
	{"input-required", editSchema(0, false, `"required":["id","text"]`, `"required":["id","text","kind"]`), "kind", "input-widened"},
	{"input-required", all(
		editSchema(0, false, `"tags":{`, `"owner":{"type":"string"},"tags":{`),
		editSchema(0, false, `"required":["id","text"]`, `"required":["id","text","owner"]`),
	), "owner", "input-property-removed"},
	{"input-property-removed", editSchema(0, false, `"priority":{"type":"integer","minimum":0,"maximum":10},`, ``), "priority", "input-widened"},
	{"input-closed", editSchema(1, false, `"properties":{"q":{"type":"string"}}`, `"properties":{"q":{"type":"string"}},"additionalProperties":false`), "", "input-widened"},
	{"input-type-changed", editSchema(0, false, `"priority":{"type":"integer"`, `"priority":{"type":"string"`), "priority", "input-type-changed"},
	{"input-enum-narrowed", editSchema(0, false, `"enum":["todo","idea"]`, `"enum":["todo"]`), "kind", "input-widened"},
	{"input-bounds-narrowed", editSchema(0, false, `"maximum":10`, `"maximum":5`), "priority", "input-widened"},
	{"input-pattern-changed", editSchema(0, false, `"pattern":"^[a-z]+$"`, `"pattern":"^[a-z]{3}$"`), "id", "input-pattern-changed"},
	{"input-format-changed", editSchema(0, false, `"text":{"type":"string"`, `"text":{"type":"string","format":"email"`), "text", "input-widened"},
	{"output-property-removed", editSchema(0, true, `"count":{"type":"integer"},`, ``), "count", "output-property-added"},
	{"output-now-optional", editSchema(0, true, `"required":["id","count"]`, `"required":["id"]`), "count", "output-narrowed"},
	{"output-type-changed", editSchema(0, true, `"count":{"type":"integer"}`, `"count":{"type":"number"}`), "count", "output-narrowed"},
	{"output-enum-widened", editSchema(0, true, `"enum":["new","old"]`, `"enum":["new","old","gone"]`), "state", "output-narrowed"},
	{"output-schema-removed", func(s *Surface) { s.Tools[0].OutputSchema = nil }, "", "output-schema-added"},
	{"output-property-removed", editSchema(1, true, `"properties":{"id":{"type":"string"}},"required":["id"]`, `"properties":{},"required":[]`), "items[].id", "output-property-added"},
	{"prompt-argument-required", func(s *Surface) { s.Prompts[0].Arguments[0].Required = true }, "style", "prompt-argument-added"},
	{"prompt-argument-removed", func(s *Surface) { s.Prompts[0].Arguments = s.Prompts[0].Arguments[1:] }, "style", "prompt-argument-added"},
	{"tool-no-longer-read-only", func(s *Surface) { s.Tools[1].Annotations = nil }, "", "annotations-changed"},
	{"tool-now-destructive", func(s *Surface) { s.Tools[0].Annotations.Destructive = nil }, "", "annotations-changed"},
	{"tool-no-longer-idempotent", func(s *Surface) { s.Tools[0].Annotations.Idempotent = nil }, "", "annotations-changed"},
	{"mime-type-changed", func(s *Surface) { s.Resources[0].MimeType = "text/plain" }, "", "mime-type-changed"},
	{"mime-type-changed", func(s *Surface) { s.Templates[0].MimeType = "text/markdown" }, "", "mime-type-changed"},
	{"tool-scope-changed", func(s *Surface) { s.Tools[0].Scope = "notes:write" }, "", "annotations-changed"},
	{"tool-task-changed", func(s *Surface) { s.Tools[0].Task = "required" }, "", "tool-task-changed"},
	{"described", func(s *Surface) { s.Tools[0].Description = "Adds one note." }, "", "described"},
	{"skill-changed", func(s *Surface) { s.Skills[0].Digest = "sha256:bb" }, "", "skill-changed"},
	{"server-changed", func(s *Surface) { s.Server.Version = "1.3.0" }, "", "server-changed"},
}

// all applies edits in order.
func all(edits ...func(*Surface)) func(*Surface) {
	return func(s *Surface) {
		for _, e := range edits {
			e(s)
		}
	}
}

func rulesOf(cs []Change) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Rule)
	}
	return out
}

// TestEachRuleBothWays: every rule fires on its change, with the field
// named, and the reverse change is what the case says (a break one way
// is often a widening the other).
func TestEachRuleBothWays(t *testing.T) {
	covered := map[string]bool{}
	for _, c := range cases {
		t.Run(c.rule, func(t *testing.T) {
			old, new := base(), base()
			c.edit(new)
			got := Compare(old, new)
			i := slices.IndexFunc(got, func(ch Change) bool { return ch.Rule == c.rule })
			if i < 0 {
				t.Fatalf("changes %v, want rule %s", got, c.rule)
			}
			covered[c.rule] = true
			if got[i].Field != c.field {
				t.Errorf("field %q, want %q (%s)", got[i].Field, c.field, got[i])
			}
			breaking := slices.ContainsFunc(Rules, func(r struct {
				Name     string
				Breaking bool
				Doc      string
			}) bool {
				return r.Name == c.rule && r.Breaking
			})
			if got[i].Breaking != breaking {
				t.Errorf("%s: breaking %v", got[i], got[i].Breaking)
			}
			back := Compare(new, old)
			if !slices.Contains(rulesOf(back), c.reverse) {
				t.Errorf("reverse: changes %v, want rule %s", back, c.reverse)
			}
			if !breaking && slices.ContainsFunc(got, func(ch Change) bool { return ch.Breaking }) {
				t.Errorf("a non-breaking change reported as breaking: %v", got)
			}
		})
	}
	for _, r := range Rules {
		if r.Breaking && !covered[r.Name] {
			t.Errorf("breaking rule %s has no case", r.Name)
		}
	}
}

// TestRenameIsOneChange: an item removed while another, the same but for
// its name (or URI), is added is one breaking change that names both; an
// addition that differs otherwise, or two candidates, are not renames.
func TestRenameIsOneChange(t *testing.T) {
	for _, c := range []struct {
		name string
		edit func(*Surface)
		want string // the one change, as printed
	}{
		{"tool", func(s *Surface) { s.Tools[0].Name = "add_memo" }, `tool add_note: renamed to "add_memo"? (callers of tool "add_note" fail)`},
		{"prompt", func(s *Surface) { s.Prompts[0].Name = "digest" }, `prompt summarize: renamed to "digest"? (callers of prompt "summarize" fail)`},
		{"resource URI", func(s *Surface) { s.Resources[0].URI = "notes://everything" }, `resource notes://all: renamed to "notes://everything"? (callers of resource "notes://all" fail)`},
		{"template", func(s *Surface) { s.Templates[0].Name = "entry" }, `template note: renamed to "entry"? (callers of template "note" fail)`},
	} {
		t.Run(c.name, func(t *testing.T) {
			new := base()
			c.edit(new)
			got := Compare(base(), new)
			if len(got) != 1 || got[0].String() != c.want || !got[0].Breaking || got[0].Renamed == "" {
				t.Fatalf("changes %q, want the one breaking change %q", got, c.want)
			}
		})
	}
	// Renamed and changed: a removal and an addition.
	new := base()
	new.Tools[0].Name, new.Tools[0].Description = "add_memo", "Adds a memo."
	if got := rulesOf(Compare(base(), new)); !slices.Equal(got, []string{"added", "tool-removed"}) {
		t.Errorf("renamed and described: rules %v, want added and tool-removed", got)
	}
	// Two identical additions: no way to tell which is the rename.
	new = base()
	twin := new.Tools[0]
	new.Tools[0].Name, twin.Name = "add_memo", "add_entry"
	new.Tools = append(new.Tools, twin)
	if got := rulesOf(Compare(base(), new)); !slices.Equal(got, []string{"added", "added", "tool-removed"}) {
		t.Errorf("two candidates: rules %v", got)
	}
}

// TestSingleTypedFormIsNoBreak: the schemas mcpgen writes now (anyOf a
// type and null; a result's slice an array, never null) compared with
// the lists of types it wrote before break nothing.
func TestSingleTypedFormIsNoBreak(t *testing.T) {
	old, new := base(), base()
	old.Tools[0].InputSchema = json.RawMessage(`{"type":"object","properties":{
		"kind":{"type":["string","null"],"enum":["todo","idea",null]},
		"tags":{"type":["array","null"],"items":{"type":"string"}}
	},"additionalProperties":false}`)
	new.Tools[0].InputSchema = json.RawMessage(`{"type":"object","properties":{
		"kind":{"anyOf":[{"type":"string","enum":["todo","idea"]},{"type":"null"}]},
		"tags":{"anyOf":[{"type":"array","items":{"type":"string"}},{"type":"null"}]}
	},"additionalProperties":false}`)
	old.Tools[0].OutputSchema = json.RawMessage(`{"type":"object","properties":{
		"kind":{"type":["string","null"],"enum":["new","old",null]},
		"tags":{"type":["array","null"],"items":{"type":"string"}}
	},"required":["kind","tags"]}`)
	new.Tools[0].OutputSchema = json.RawMessage(`{"type":"object","properties":{
		"kind":{"anyOf":[{"type":"string","enum":["new","old"]},{"type":"null"}]},
		"tags":{"type":"array","items":{"type":"string"}}
	},"required":["kind","tags"]}`)
	for _, c := range Compare(old, new) {
		if c.Breaking {
			t.Errorf("reported as breaking: %s (rule %s)", c, c.Rule)
		}
	}
	// The other way, a result's array that may now be null is a break.
	if got := rulesOf(Compare(new, old)); !slices.Contains(got, "output-type-changed") {
		t.Errorf("an output array that may be null: rules %v", got)
	}
}

func TestSameSurfaceNoChanges(t *testing.T) {
	if got := Compare(base(), base()); len(got) != 0 {
		t.Fatalf("changes between equal surfaces: %v", got)
	}
}

func TestWideningIsNotBreaking(t *testing.T) {
	for name, edit := range map[string]func(*Surface){
		"optional property":  editSchema(0, false, `"tags":{`, `"owner":{"type":"string"},"tags":{`),
		"enum value":         editSchema(0, false, `"enum":["todo","idea"]`, `"enum":["todo","idea","bug"]`),
		"looser bound":       editSchema(0, false, `"maximum":10`, `"maximum":100`),
		"integer to number":  editSchema(0, false, `"priority":{"type":"integer"`, `"priority":{"type":"number"`),
		"required dropped":   editSchema(0, false, `"required":["id","text"]`, `"required":["id"]`),
		"output added":       editSchema(0, true, `"count":{"type":"integer"},`, `"count":{"type":"integer"},"when":{"type":"string"},`),
		"tool added":         func(s *Surface) { s.Tools = append(s.Tools, Tool{Name: "zap", InputSchema: json.RawMessage(`{}`)}) },
		"optional argument":  func(s *Surface) { s.Prompts[0].Arguments = append(s.Prompts[0].Arguments, Argument{Name: "tone"}) },
		"title":              func(s *Surface) { s.Tools[0].Title = "Add a note" },
		"read-only gained":   func(s *Surface) { s.Tools[0].Annotations.ReadOnly = ptr(true) },
		"instructions added": func(s *Surface) { s.Server.Instructions = "Use add_note." },
	} {
		new := base()
		edit(new)
		got := Compare(base(), new)
		if len(got) == 0 {
			t.Errorf("%s: no change seen", name)
		}
		for _, c := range got {
			if c.Breaking {
				t.Errorf("%s: reported as breaking: %s", name, c)
			}
		}
	}
}

func TestBump(t *testing.T) {
	for _, c := range []struct {
		edit func(*Surface)
		want string
	}{
		{func(*Surface) {}, ""},
		{func(s *Surface) { s.Tools[0].Description = "x" }, "patch"},
		{func(s *Surface) { s.Tools = append(s.Tools, Tool{Name: "zap"}) }, "minor"},
		{func(s *Surface) { s.Tools = s.Tools[1:] }, "major"},
	} {
		new := base()
		c.edit(new)
		if got := Bump(Compare(base(), new)); got != c.want {
			t.Errorf("bump %q, want %q", got, c.want)
		}
	}
}

func TestMarshalCanonical(t *testing.T) {
	s := base()
	slices.Reverse(s.Tools)
	a, err := s.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	b, _ := base().Marshal()
	if string(a) != string(b) {
		t.Fatalf("order of the tools shows in the file:\n%s\n%s", a, b)
	}
	back, err := Parse(a)
	if err != nil {
		t.Fatal(err)
	}
	if got := Compare(base(), back); len(got) != 0 {
		t.Fatalf("a surface read back differs: %v", got)
	}
	if _, err := Parse([]byte(`{"tools":[]}`)); err == nil {
		t.Fatal("a file without a server parsed")
	}
}

package memstore

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

func export(t testing.TB, s Store) string {
	t.Helper()
	var buf bytes.Buffer
	mustNil(t, s.Export(bg, &buf))
	return buf.String()
}

func testExportFormat(t *testing.T) {
	s, _ := openTest(t)
	if got := export(t, s); got != "" {
		t.Fatalf("empty store exports %q", got)
	}
	must[[]Entity](t)(s.CreateEntities(bg, []Entity{
		{"A", "person", []string{"x", "y"}},
		{"q\"b\\s", "t\n\r\t\b\f", []string{"\x00\x01\x1f\x7f", "<>&'", "\u2028\u2029", "日本 🧠", ""}},
		{"empty", "t", nil},
	}))
	must[[]Relation](t)(s.CreateRelations(bg, []Relation{{"A", "q\"b\\s", "knows"}, {"A", "nobody", "r"}}))
	want := strings.Join([]string{
		`{"type":"entity","name":"A","entityType":"person","observations":["x","y"]}`,
		`{"type":"entity","name":"q\"b\\s","entityType":"t\n\r\t\b\f","observations":["\u0000\u0001\u001f` + "\x7f" + `","<>&'","` + "\u2028\u2029" + `","日本 🧠",""]}`,
		`{"type":"entity","name":"empty","entityType":"t","observations":[]}`,
		`{"type":"relation","from":"A","to":"q\"b\\s","relationType":"knows"}`,
		`{"type":"relation","from":"A","to":"nobody","relationType":"r"}`,
	}, "\n")
	if got := export(t, s); got != want {
		t.Fatalf("export:\n%s\nwant:\n%s", got, want)
	}
}

// referenceFile is shaped exactly as the reference's saveGraph writes:
// entities then relations, its key order and JSON.stringify escaping, no
// trailing newline. It includes what the reference can produce but our
// API would not: repeated observations and repeated relations.
var referenceFile = strings.Join([]string{
	`{"type":"entity","name":"John_Smith","entityType":"person","observations":["Speaks fluent Spanish","Graduated in 2019","Speaks fluent Spanish"]}`,
	`{"type":"entity","name":"Anthropic","entityType":"organization","observations":[]}`,
	`{"type":"entity","name":"ΟΔΟΣ \"quoted\" \\ back","entityType":"tab\there","observations":["line\nbreak","\u0000nul","` + "\u2028" + `","🧠"]}`,
	`{"type":"entity","name":"","entityType":"","observations":[""]}`,
	`{"type":"relation","from":"John_Smith","to":"Anthropic","relationType":"works_at"}`,
	`{"type":"relation","from":"John_Smith","to":"Anthropic","relationType":"works_at"}`,
	`{"type":"relation","from":"Ghost","to":"John_Smith","relationType":"haunts"}`,
}, "\n")

func testImportExportRoundTrip(t *testing.T) {
	s, path := openTest(t)
	stats := must[ImportStats](t)(s.Import(bg, strings.NewReader(referenceFile)))
	if stats != (ImportStats{Entities: 4, Relations: 3}) {
		t.Fatalf("stats %+v", stats)
	}
	if got := export(t, s); got != referenceFile {
		t.Fatalf("round trip:\n%s\nwant:\n%s", got, referenceFile)
	}
	g := readGraph(t, s)
	if o := g.Entities[0].Observations; len(o) != 3 || o[2] != "Speaks fluent Spanish" {
		t.Fatalf("repeated observation not kept: %q", o)
	}
	if g.Entities[2].Observations[1] != "\x00nul" {
		t.Fatalf("escape decoding: %q", g.Entities[2].Observations)
	}
	// Searchable, and survives reopening.
	if got := names(must[Graph](t)(s.SearchNodes(bg, "SPANISH"))); got != "John_Smith" {
		t.Fatalf("search %q", got)
	}
	s.Close()
	s2 := reopenTest(t, path)
	defer s2.Close()
	if got := export(t, s2); got != referenceFile {
		t.Fatalf("after reopen:\n%s", got)
	}
	// Importing the same file again adds nothing.
	stats = must[ImportStats](t)(s2.Import(bg, strings.NewReader(referenceFile)))
	if stats != (ImportStats{SkippedEntities: 4, SkippedRelations: 3}) {
		t.Fatalf("second import stats %+v", stats)
	}
	if got := export(t, s2); got != referenceFile {
		t.Fatalf("after second import:\n%s", got)
	}
}

func testImportToleratesWhatTheReferenceLoads(t *testing.T) {
	s, _ := openTest(t)
	in := "\n  \n" +
		`{"type":"entity","name":"A","entityType":"t","observations":["o"]}` + "\r\n" +
		"\t\u00a0\ufeff\u3000\n" + // blank for JavaScript's trim()
		`{"type":"note","text":"ignored"}` + "\n" +
		`{"name":"no type"}` + "\n" +
		`{"type":"entity","name":"B","entityType":"t","extra":1}` + "\n" + // missing observations
		`{"observations":["later"],"entityType":"u","name":"C","type":"entity"}` + "\n" + // other key order
		`{"type":"relation","from":"A","to":"B","relationType":"r"}` + "\n"
	stats := must[ImportStats](t)(s.Import(bg, strings.NewReader(in)))
	if stats != (ImportStats{Entities: 3, Relations: 1, IgnoredLines: 2}) {
		t.Fatalf("stats %+v", stats)
	}
	want := strings.Join([]string{
		`{"type":"entity","name":"A","entityType":"t","observations":["o"]}`,
		`{"type":"entity","name":"B","entityType":"t","observations":[]}`,
		`{"type":"entity","name":"C","entityType":"u","observations":["later"]}`,
		`{"type":"relation","from":"A","to":"B","relationType":"r"}`,
	}, "\n")
	if got := export(t, s); got != want {
		t.Fatalf("export:\n%s", got)
	}
}

func testImportMergesIntoExistingGraph(t *testing.T) {
	s, _ := openTest(t)
	must[[]Entity](t)(s.CreateEntities(bg, []Entity{{"A", "old", []string{"kept"}}}))
	must[[]Relation](t)(s.CreateRelations(bg, []Relation{{"A", "B", "r"}}))
	in := strings.Join([]string{
		`{"type":"entity","name":"A","entityType":"new","observations":["ignored"]}`,
		`{"type":"entity","name":"B","entityType":"t","observations":[]}`,
		`{"type":"entity","name":"B","entityType":"dup","observations":[]}`,
		`{"type":"relation","from":"A","to":"B","relationType":"r"}`,
		`{"type":"relation","from":"B","to":"A","relationType":"r"}`,
	}, "\n")
	stats := must[ImportStats](t)(s.Import(bg, strings.NewReader(in)))
	if stats != (ImportStats{Entities: 1, Relations: 1, SkippedEntities: 2, SkippedRelations: 1}) {
		t.Fatalf("stats %+v", stats)
	}
	assertGraph(t, "merged", readGraph(t, s), Graph{
		Entities:  []Entity{{"A", "old", []string{"kept"}}, {"B", "t", nil}},
		Relations: []Relation{{"A", "B", "r"}, {"B", "A", "r"}},
	})
}

func testImportErrorsChangeNothing(t *testing.T) {
	s, _ := openTest(t)
	must[[]Entity](t)(s.CreateEntities(bg, []Entity{{"keep", "t", nil}}))
	before := export(t, s)
	good := `{"type":"entity","name":"new","entityType":"t","observations":[]}`
	cases := []struct {
		in     string
		target error
		substr string
	}{
		{good + "\n{not json\n", ErrInvalid, "import line 2"},
		{good + "\nnull", ErrInvalid, "line 2: not a JSON object"},
		{good + "\n[1,2]", ErrInvalid, "line 2"},
		{`{"type":"entity","name":5,"entityType":"t"}`, ErrInvalid, `entity has no string "name"`},
		{`{"type":"entity","name":"x","entityType":"t","observations":[1]}`, ErrInvalid, "observations"},
		{`{"type":"relation","from":"a","relationType":"r"}`, ErrInvalid, `relation has no string "to"`},
		{good + "\n" + `{"type":"entity","name":"` + strings.Repeat("x", MaxNameBytes+1) + `","entityType":"t"}`, ErrLimit, "line 2.name"},
	}
	for _, c := range cases {
		_, err := s.Import(bg, strings.NewReader(c.in))
		if !errors.Is(err, c.target) || !strings.Contains(err.Error(), c.substr) {
			t.Errorf("Import(%.60q) = %v; want %v containing %q", c.in, err, c.target, c.substr)
		}
		if got := export(t, s); got != before {
			t.Fatalf("failed import changed the graph:\n%s", got)
		}
	}
}

func TestAppendJSString(t *testing.T) {
	// Expected values are JSON.stringify's.
	cases := map[string]string{
		"":              `""`,
		"plain":         `"plain"`,
		"\"\\/":         `"\"\\/"`,
		"\b\f\n\r\t":    `"\b\f\n\r\t"`,
		"\x00\x0b\x1f":  `"\u0000\u000b\u001f"`,
		"\x7f\u0080":    "\"\x7f\u0080\"",
		"<>&\u2028🧠":    "\"<>&\u2028🧠\"",
		"mixed\"x\x01y": `"mixed\"x\u0001y"`,
	}
	for in, want := range cases {
		if got := string(appendJSString(nil, in)); got != want {
			t.Errorf("appendJSString(%q) = %s, want %s", in, got, want)
		}
	}
}

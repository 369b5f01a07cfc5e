package memstore

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

func names(g Graph) string {
	var out []string
	for _, e := range g.Entities {
		out = append(out, e.Name)
	}
	return strings.Join(out, ",")
}

func TestSearchNodesSemantics(t *testing.T) {
	s, _ := openTest(t)
	must[[]Entity](t)(s.CreateEntities(bg, []Entity{
		{"Alice", "Person", []string{"Works at ACME Corp", "Likes green tea"}},
		{"Bob", "person", []string{"Enjoys hiking"}},
		{"ACME", "Organization", nil},
		{"Straße", "Ort", []string{"ΟΔΟΣ ΑΘΗΝΩΝ"}},
		{"İzmir", "city", []string{"ÉCOLE", "naïve café"}},
		{"emoji", "x", []string{"brain 🧠 emoji"}},
		{"nul", "x", []string{"a\x00b"}},
		{"quote", "x", []string{`say "hi" *now* (ok) NEAR/2 -x ^y`}},
	}))
	must[[]Relation](t)(s.CreateRelations(bg, []Relation{
		{"Alice", "ACME", "works_at"},
		{"Bob", "Alice", "knows"},
		{"Bob", "Carol", "knows"},     // dangling end
		{"Ghost", "Ghost2", "haunts"}, // both ends dangling
	}))
	cases := []struct{ q, want string }{
		{"acme", "Alice,ACME"},                           // name and observation, case-insensitive
		{"PERSON", "Alice,Bob"},                          // entity type
		{"e", "Alice,Bob,ACME,Straße,İzmir,emoji,quote"}, // 1-char query: scan path
		{"Bo", "Bob"},                                    // 2-char query: scan path
		{"ß", "Straße"},                                  // ß has no single-char lower-case change
		{"STRASSE", ""},                                  // JS does not fold ß to ss
		{"straße", "Straße"},
		{"ΟΔΟΣ", "Straße"}, // final sigma on both sides: "οδος"
		{"οδοσ", ""},       // medial sigma does not match final sigma
		{"Σ", ""},          // a lone Σ lower-cases to σ, text has ς
		{"ς", "Straße"},
		{"i\u0307zmir", "İzmir"}, // İ lower-cases to i + U+0307
		{"İZMIR", "İzmir"},
		{"izmir", ""},
		{"école", "İzmir"},
		{"NAÏVE", "İzmir"},
		{"🧠", "emoji"},
		{"a\x00b", "nul"},
		{"\x00", "nul"},
		{`"hi"`, "quote"}, // FTS5 syntax characters are literal
		{`*now*`, "quote"},
		{"near/2", "quote"},
		{"-x ^y", "quote"},
		{"no such thing", ""},
		{"alice\nperson", ""}, // never matches across fields
		{"x\nx", ""},
	}
	for _, c := range cases {
		g := must[Graph](t)(s.SearchNodes(bg, c.q))
		if got := names(g); got != c.want {
			t.Errorf("SearchNodes(%q) = [%s], want [%s]", c.q, got, c.want)
		}
	}

	// Relations: EITHER end in the matched set (reference 2026.8.31).
	g := must[Graph](t)(s.SearchNodes(bg, "bob"))
	assertGraph(t, "bob", g, Graph{
		Entities:  []Entity{{"Bob", "person", []string{"Enjoys hiking"}}},
		Relations: []Relation{{"Bob", "Alice", "knows"}, {"Bob", "Carol", "knows"}},
	})

	// Empty query matches every entity, and therefore every relation with
	// an existing end, but not the fully dangling one.
	g = must[Graph](t)(s.SearchNodes(bg, ""))
	if len(g.Entities) != 8 || len(g.Relations) != 3 {
		t.Fatalf("empty query: %+v", g)
	}

	// No match: empty arrays, not null.
	b, _ := json.Marshal(must[Graph](t)(s.SearchNodes(bg, "zzzz")))
	if string(b) != `{"entities":[],"relations":[]}` {
		t.Fatalf("no match JSON %s", b)
	}
}

// TestSearchAgainstModel compares SearchNodes with the reference model on
// random text over a small alphabet rich in case-mapping special cases, for
// queries of every length (both the trigram and the scan paths).
func TestSearchAgainstModel(t *testing.T) {
	s, _ := openTest(t)
	alphabet := []string{"a", "A", "b", "Σ", "σ", "ς", "İ", "i", "\u0307", "ß", "'", ".", " ", "é", "E\u0301", "ǅ", "𐐀", "\x00", "\n"}
	rng := rand.New(rand.NewPCG(1, 2))
	word := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		return b.String()
	}
	var m refModel
	var ents []Entity
	for i := range 300 {
		e := Entity{Name: fmt.Sprintf("%d-%s", i, word(3)), EntityType: word(2)}
		for range rng.IntN(4) {
			e.Observations = append(e.Observations, word(1+rng.IntN(8)))
		}
		ents = append(ents, e)
	}
	must[[]Entity](t)(s.CreateEntities(bg, ents))
	m.CreateEntities(ents)
	var rels []Relation
	for range 300 {
		rels = append(rels, Relation{ents[rng.IntN(len(ents))].Name, ents[rng.IntN(len(ents))].Name, word(1)})
	}
	rels = append(rels, Relation{"nobody", "none", "r"})
	must[[]Relation](t)(s.CreateRelations(bg, rels))
	m.CreateRelations(rels)
	for range 600 {
		q := word(rng.IntN(5))
		got := must[Graph](t)(s.SearchNodes(bg, q))
		assertGraph(t, fmt.Sprintf("SearchNodes(%q)", q), got, m.SearchNodes(q))
	}
}

// TestSearchAfterRowidReuse checks the search indexes when SQLite reuses
// the ids of deleted rows (the newest entity or observation deleted, then
// a new one inserted).
func TestSearchAfterRowidReuse(t *testing.T) {
	s, _ := openTest(t)
	must[[]Entity](t)(s.CreateEntities(bg, []Entity{{"keep", "t", []string{"stay here"}}, {"old", "t", []string{"ancient text"}}}))
	mustNil(t, s.DeleteEntities(bg, []string{"old"}))
	must[[]Entity](t)(s.CreateEntities(bg, []Entity{{"new", "t", []string{"fresh words"}}}))
	must[[]AddedObservations](t)(s.AddObservations(bg, []ObservationAdd{{"keep", []string{"temporary note"}}}))
	mustNil(t, s.DeleteObservations(bg, []ObservationDelete{{"keep", []string{"temporary note"}}}))
	must[[]AddedObservations](t)(s.AddObservations(bg, []ObservationAdd{{"keep", []string{"lasting note"}}}))
	for q, want := range map[string]string{
		"ancient": "", "old\nt": "", "fresh": "new", "new": "new",
		"temporary": "", "lasting": "keep", "stay": "keep", "note": "keep",
	} {
		if got := names(must[Graph](t)(s.SearchNodes(bg, q))); got != want {
			t.Errorf("SearchNodes(%q) = [%s], want [%s]", q, got, want)
		}
	}
}

// TestSearchIndexMigratedToDetailNone opens a store written with schema
// version 1 (search indexes with positions, detail=full) and checks that
// Open migrates it: both indexes are recreated without positions, rebuilt
// from the tables, and searches give the reference's results, before and
// after further writes.
func TestSearchIndexMigratedToDetailNone(t *testing.T) {
	sqliteOnly(t, "")
	current := migrations
	migrations = current[:1]
	s, path := openSQLiteTest(t)
	migrations = current
	var m refModel
	var ents []Entity
	for i := range 200 {
		ents = append(ents, Entity{
			Name:         fmt.Sprintf("entity-%03d", i),
			EntityType:   []string{"person", "ΟΜΑΔΑ", "City"}[i%3],
			Observations: []string{fmt.Sprintf("likes %s", []string{"Straße", "İstanbul", "tea"}[i%3]), fmt.Sprintf("code %d", i*7919)},
		})
	}
	must[[]Entity](t)(s.CreateEntities(bg, ents))
	m.CreateEntities(ents)
	rels := []Relation{{"entity-001", "entity-002", "knows"}, {"entity-150", "nobody", "likes"}}
	must[[]Relation](t)(s.CreateRelations(bg, rels))
	m.CreateRelations(rels)
	ftsSQL := func(s *SQLite) string {
		var q string
		err := s.wc.c.QueryRowContext(context.Background(), `SELECT group_concat(sql, ';') FROM sqlite_schema WHERE name IN ('search_names', 'search_obs')`).Scan(&q)
		mustNil(t, err)
		return q
	}
	if strings.Contains(ftsSQL(s), "detail") {
		t.Fatalf("schema version 1 already has detail=none: %s", ftsSQL(s))
	}
	mustNil(t, s.Close())

	s2 := must[*SQLite](t)(Open(path))
	defer s2.Close()
	if got := ftsSQL(s2); strings.Count(got, "detail = none") != 2 {
		t.Fatalf("search indexes after migration: %s", got)
	}
	queries := []string{"entity-042", "ENTITY-1", "omada", "ομαδα", "straße", "i̇stanbul", "code 7919", "tea", "kes", "likes i", "nobody", "zz"}
	for _, q := range queries {
		assertGraph(t, fmt.Sprintf("after migration: SearchNodes(%q)", q), must[Graph](t)(s2.SearchNodes(bg, q)), m.SearchNodes(q))
	}
	more := []Entity{{"entity-900", "person", []string{"drinks tea"}}}
	must[[]Entity](t)(s2.CreateEntities(bg, more))
	m.CreateEntities(more)
	mustNil(t, s2.DeleteEntities(bg, []string{"entity-042"}))
	m.DeleteEntities([]string{"entity-042"})
	for _, q := range append(queries, "drinks", "entity-9") {
		assertGraph(t, fmt.Sprintf("after writes: SearchNodes(%q)", q), must[Graph](t)(s2.SearchNodes(bg, q)), m.SearchNodes(q))
	}
}

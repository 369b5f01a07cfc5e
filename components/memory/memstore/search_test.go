package memstore

import (
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

func testSearchNodesSemantics(t *testing.T) {
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

// testSearchAgainstModel compares SearchNodes with the reference model on
// random text over a small alphabet rich in case-mapping special cases, for
// queries of every length (both the trigram and the scan paths).
func testSearchAgainstModel(t *testing.T) {
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
	for i := range 900 {
		q := word(rng.IntN(8))
		if i%3 == 0 {
			// A run of an entity's own text, so that long queries
			// (the names index's four-character pieces) find something.
			e := ents[rng.IntN(len(ents))]
			r := []rune(e.Name + "\n" + e.EntityType)
			from := rng.IntN(len(r))
			q = string(r[from : from+rng.IntN(len(r)-from+1)])
		}
		got := must[Graph](t)(s.SearchNodes(bg, q))
		assertGraph(t, fmt.Sprintf("SearchNodes(%q)", q), got, m.SearchNodes(q))
	}
}

// testSearchAfterRowidReuse checks the search indexes when SQLite reuses
// the ids of deleted rows (the newest entity or observation deleted, then
// a new one inserted).
func testSearchAfterRowidReuse(t *testing.T) {
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

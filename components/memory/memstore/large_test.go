package memstore

import (
	"bytes"
	"fmt"
	"strconv"
	"testing"
	"time"
)

var (
	largeTypes  = []string{"person", "Organization", "PROJECT", "city", "Ereignis", "ΟΜΑΔΑ", "lieu", "tool", "concept", "document"}
	largeWordsA = []string{"coffee", "tea", "Straße", "ΣΟΦΙΑ", "İstanbul", "naïve", "日本語", "🧠 memory", "Zürich", "go", "rust", "ÉCOLE", "jazz"}
	largeWordsB = []string{"mornings", "evenings", "weekends", "ΟΔΟΣ", "hiking", "chess", "reading", "music", "travel", "cooking", "running"}
)

// largeGraph builds a deterministic graph of n entities (two observations
// each) and n relations, in the reference's memory.jsonl format.
func largeGraph(n int) (Graph, []byte) {
	g := Graph{Entities: make([]Entity, 0, n), Relations: make([]Relation, 0, n)}
	for i := range n {
		g.Entities = append(g.Entities, Entity{
			Name:       fmt.Sprintf("entity-%06d", i),
			EntityType: largeTypes[i%len(largeTypes)],
			Observations: []string{
				fmt.Sprintf("likes %s on %s", largeWordsA[i%len(largeWordsA)], largeWordsB[(i/7)%len(largeWordsB)]),
				"code " + strconv.FormatInt(int64(i)*7919, 36),
			},
		})
	}
	for i := range n {
		g.Relations = append(g.Relations, Relation{
			From:         g.Entities[i].Name,
			To:           g.Entities[(i*31+7)%n].Name,
			RelationType: []string{"knows", "works_with", "located_in"}[i%3],
		})
	}
	var buf bytes.Buffer
	if err := WriteJSONL(&buf, g); err != nil {
		panic(err)
	}
	return g, buf.Bytes()
}

// testLargeGraphSearch loads 100,000 entities and checks that SearchNodes
// returns exactly the reference's result for selective, broad, short,
// Unicode and empty queries, and that OpenNodes, EntityNames and Export work
// at that size.
func testLargeGraphSearch(t *testing.T) {
	if testing.Short() {
		t.Skip("slow (imports and searches 100,000 entities); runs without -short")
	}
	const n = 100_000
	g, file := largeGraph(n)
	s, _ := openTest(t, WithSyncNormal())
	start := time.Now()
	stats := must[ImportStats](t)(s.Import(bg, bytes.NewReader(file)))
	if stats.Entities != n || stats.Relations != n {
		t.Fatalf("stats %+v", stats)
	}
	t.Logf("imported %d entities in %v", n, time.Since(start))
	m := refModel{g: g}

	for _, q := range []string{
		"entity-012345", // one entity by name
		"ENTITY-0999",   // ten entities
		"code 1a",       // observation prefix
		"σοφια",         // Unicode case folding via index
		"ΟΔΟΣ",          // final sigma
		"i̇stanbul",
		"straße on chess",
		"🧠",     // one character (scan path)
		"zü",    // two characters (scan path)
		"ομάδα", // accent: no match
		"organization",
		"likes", // every entity (bulk path)
		"",      // empty query: everything
		"no-such-thing",
	} {
		start := time.Now()
		got := must[Graph](t)(s.SearchNodes(bg, q))
		d := time.Since(start)
		want := m.SearchNodes(q)
		assertGraphQuiet(t, fmt.Sprintf("SearchNodes(%q)", q), got, want)
		t.Logf("SearchNodes(%q): %d entities, %d relations in %v", q, len(got.Entities), len(got.Relations), d)
	}

	names := []string{"entity-000000", "entity-050000", "entity-099999", "missing"}
	assertGraphQuiet(t, "OpenNodes", must[Graph](t)(s.OpenNodes(bg, names)), m.OpenNodes(names))
	if got := must[[]string](t)(s.EntityNames(bg, "ENTITY-0999", 3)); fmt.Sprint(got) != "[entity-099900 entity-099901 entity-099902]" {
		t.Fatalf("EntityNames %v", got)
	}
	var out bytes.Buffer
	mustNil(t, s.Export(bg, &out))
	if !bytes.Equal(out.Bytes(), file) {
		t.Fatal("export of the large graph differs from the imported file")
	}
}

// assertGraphQuiet compares like assertGraph but reports only the first
// difference, since the graphs are large.
func assertGraphQuiet(t *testing.T, what string, got, want Graph) {
	t.Helper()
	if len(got.Entities) != len(want.Entities) || len(got.Relations) != len(want.Relations) {
		t.Fatalf("%s: %d entities, %d relations; want %d, %d", what, len(got.Entities), len(got.Relations), len(want.Entities), len(want.Relations))
	}
	for i := range got.Entities {
		if fmt.Sprint(got.Entities[i]) != fmt.Sprint(want.Entities[i]) {
			t.Fatalf("%s: entity %d = %+v, want %+v", what, i, got.Entities[i], want.Entities[i])
		}
	}
	for i := range got.Relations {
		if got.Relations[i] != want.Relations[i] {
			t.Fatalf("%s: relation %d = %+v, want %+v", what, i, got.Relations[i], want.Relations[i])
		}
	}
}

package memstore

import (
	"fmt"
	"testing"
)

// testPairsAddedInTheBackground opens a store whose names index predates
// the pair characters (schema version 4) and checks that Open leaves the
// rows as they are, that searches are exact before and after the merger
// rewrites them, and that afterwards every row holds its four-character
// runs.
func testPairsAddedInTheBackground(t *testing.T) {
	sqliteOnly(t, "")
	s, path := openSQLiteTest(t)
	var m refModel
	var ents []Entity
	for i := range 2*pairsChunk + 500 {
		ents = append(ents, Entity{Name: fmt.Sprintf("amber-%d-birch", i), EntityType: "Person", Observations: []string{fmt.Sprintf("note %d", i)}})
	}
	must[[]Entity](t)(s.CreateEntities(bg, ents))
	m.CreateEntities(ents)
	mustNil(t, s.mergeSearch(bg))
	// Make it a version 4 store: names indexed without pair characters.
	mustNil(t, s.write(bg, func(w *writer) error {
		if _, err := w.exec(`INSERT INTO search_names(search_names) VALUES ('delete-all')`); err != nil {
			return err
		}
		for i, e := range ents {
			if _, err := w.exec(`INSERT INTO search_names(rowid, text) VALUES (?, ?)`, i+1, jsLower(e.Name)+"\n"+jsLower(e.EntityType)); err != nil {
				return err
			}
		}
		if _, err := w.tx.Tx.ExecContext(bg, undoMigration6); err != nil {
			return err
		}
		_, err := w.exec(`PRAGMA user_version = 4`)
		return err
	}))
	mustNil(t, s.Close())

	s2 := must[*SQLite](t)(Open(path))
	defer s2.Close()
	s2.stopTidy() // the test says when to merge
	withPairs := func() (rows int) {
		t.Helper()
		q := `"` + pairs("mber") + `"` // in every name
		mustNil(t, s2.r.QueryRowContext(bg, `SELECT count(*) FROM search_names WHERE search_names MATCH ?`, q).Scan(&rows))
		return rows
	}
	pending := func() int64 {
		t.Helper()
		return must[int64](t)(pairsPending(bg, s2.r))
	}
	if p, n := pending(), withPairs(); p != int64(len(ents)) || n != 0 {
		t.Fatalf("after Open: pairs pending up to %d (want %d), %d rows with pairs (want 0)", p, len(ents), n)
	}
	late := []Entity{{Name: "amber-late-birch", EntityType: "person"}}
	must[[]Entity](t)(s2.CreateEntities(bg, late))
	m.CreateEntities(late)
	queries := []string{"amber-12-birch", "AMBER-2345-BIRCH", "r-late-b", "mber-1", "person", "-birch", "nothing here"}
	check := func(when string) {
		t.Helper()
		for _, q := range queries {
			assertGraph(t, fmt.Sprintf("%s: SearchNodes(%q)", when, q), must[Graph](t)(s2.SearchNodes(bg, q)), m.SearchNodes(q))
		}
	}
	check("pairs pending")
	more := must[bool](t)(s2.mergeStep(bg)) // indexes the late entity (the tail) first
	more = more && must[bool](t)(s2.mergeStep(bg))
	if p := pending(); !more || p != int64(len(ents)-pairsChunk) {
		t.Fatalf("after one step: pairs pending up to %d, want %d", p, len(ents)-pairsChunk)
	}
	check("pairs part done")
	mustNil(t, s2.mergeSearch(bg))
	if p, n := pending(), withPairs(); p != 0 || n != len(ents)+1 {
		t.Fatalf("after merging: pairs pending up to %d (want 0), %d rows with pairs (want %d)", p, n, len(ents)+1)
	}
	check("pairs done")
}

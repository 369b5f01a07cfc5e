package memstore

import (
	"fmt"
	"testing"
)

// testSearchTail writes below and across the tail limit, with every kind
// of change, and checks after each step that searches equal the
// reference's whether the rows are indexed yet or not, and that no write
// leaves a tail longer than the limit.
func testSearchTail(t *testing.T) {
	sqliteOnly(t, "")
	s, path := openSQLiteTest(t)
	s.stopTidy() // the tail stays until a write indexes it
	var m refModel
	queries := []string{"ent-0", "ent-0003", "ENT-007", "kind-b", "note 1", "note 12", "added", "nothing"}
	check := func(s *SQLite, when string, wantTail bool) {
		t.Helper()
		tl := must[tail](t)(loadTail(bg, s.r))
		if tl.size() > s.tailMax || wantTail != (tl.size() > 0) {
			t.Fatalf("%s: tail %+v (size %d), want a tail: %v", when, tl, tl.size(), wantTail)
		}
		for _, q := range queries {
			assertGraph(t, fmt.Sprintf("%s: SearchNodes(%q)", when, q), must[Graph](t)(s.SearchNodes(bg, q)), m.SearchNodes(q))
		}
	}
	create := func(from, to int) {
		var es []Entity
		for i := from; i < to; i++ {
			es = append(es, Entity{fmt.Sprintf("ent-%04d", i), []string{"kind-a", "kind-b"}[i%2], []string{fmt.Sprintf("note %d", i)}})
		}
		must[[]Entity](t)(s.CreateEntities(bg, es))
		m.CreateEntities(es)
	}
	create(0, 10)
	check(s, "ten new entities", true)
	adds := []ObservationAdd{{"ent-0003", []string{"added later"}}}
	must[[]AddedObservations](t)(s.AddObservations(bg, adds))
	m.AddObservations(adds)
	check(s, "an observation added", true)
	create(10, 10+int(s.tailMax))
	check(s, "past the limit", false)
	create(100, 105)
	must[[]AddedObservations](t)(s.AddObservations(bg, []ObservationAdd{{"ent-0012", []string{"added too"}}}))
	m.AddObservations([]ObservationAdd{{"ent-0012", []string{"added too"}}})
	// Indexed and unindexed rows both go.
	dels := []ObservationDelete{{"ent-0003", []string{"note 3", "added later"}}, {"ent-0012", []string{"added too"}}}
	mustNil(t, s.DeleteObservations(bg, dels))
	m.DeleteObservations(dels)
	mustNil(t, s.DeleteEntities(bg, []string{"ent-0005", "ent-0102"}))
	m.DeleteEntities([]string{"ent-0005", "ent-0102"})
	check(s, "after deletions", true)
	mustNil(t, s.Close())
	s2 := must[*SQLite](t)(Open(path))
	defer s2.Close()
	check(s2, "reopened", true)
}

// testSearchTailAfterDeletingTheNewest deletes the newest entity and
// observation, which are indexed: SQLite gives their ids to the next rows,
// which must then be found although the index never saw them.
func testSearchTailAfterDeletingTheNewest(t *testing.T) {
	sqliteOnly(t, "")
	s, _ := openSQLiteTest(t)
	s.stopTidy()
	s.tailMax = 0 // index every write
	var m refModel
	es := []Entity{{"alpha", "t", []string{"one"}}, {"beta", "t", []string{"two", "three"}}}
	must[[]Entity](t)(s.CreateEntities(bg, es))
	m.CreateEntities(es)
	mustNil(t, s.DeleteEntities(bg, []string{"beta"}))
	m.DeleteEntities([]string{"beta"})
	dels := []ObservationDelete{{"alpha", []string{"one"}}}
	mustNil(t, s.DeleteObservations(bg, dels))
	m.DeleteObservations(dels)
	s.tailMax = defaultTailMax
	es = []Entity{{"gamma", "t", []string{"four", "five"}}}
	must[[]Entity](t)(s.CreateEntities(bg, es))
	m.CreateEntities(es)
	adds := []ObservationAdd{{"alpha", []string{"six"}}}
	must[[]AddedObservations](t)(s.AddObservations(bg, adds))
	m.AddObservations(adds)
	if tl := must[tail](t)(loadTail(bg, s.r)); tl.size() != 3 {
		t.Fatalf("tail %+v, want the new entity and its observations", tl)
	}
	for _, q := range []string{"gamma", "four", "five", "six", "beta", "one", "two"} {
		assertGraph(t, fmt.Sprintf("SearchNodes(%q)", q), must[Graph](t)(s.SearchNodes(bg, q)), m.SearchNodes(q))
	}
}

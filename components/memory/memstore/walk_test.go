package memstore

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestWalkTablesOddTexts: the tables' walk (entities and observations
// read in two passes and merged) hands out exactly what was stored:
// observations added later and out of order, NUL, multi-byte characters,
// empty and long strings, entities without observations (first, between
// and last).
func TestWalkTablesOddTexts(t *testing.T) {
	s, _ := openSQLiteTest(t)
	want := Graph{
		Entities: []Entity{
			{"none-first", "t", []string{}},
			{"12:ab", "3:", []string{"", "0:", ":::", "9"}},
			{"nul\x00inside", "é🙂", []string{"\x00", "a\x00b", strings.Repeat("long:", 50_000)}},
			{"bare", "t", []string{}},
			{"x", "", []string{"only"}},
			{"none-last", "t", []string{}},
		},
		Relations: []Relation{
			{"12:ab", "bare", "1:x"},
			{"nul\x00inside", "x", "é"},
			{"dangling", "12:ab", "\x00"},
		},
	}
	must[[]Entity](t)(s.CreateEntities(bg, want.Entities))
	must[[]Relation](t)(s.CreateRelations(bg, want.Relations))
	// Later observations, interleaved across entities, come after the
	// entity's earlier ones.
	for i, name := range []string{"x", "12:ab", "x", "bare"} {
		obs := []string{"later " + strings.Repeat("+", i)}
		must[[]AddedObservations](t)(s.AddObservations(bg, []ObservationAdd{{name, obs}}))
		for j := range want.Entities {
			if want.Entities[j].Name == name {
				want.Entities[j].Observations = append(want.Entities[j].Observations, obs...)
			}
		}
	}
	mustNil(t, s.DeleteEntities(bg, []string{"none-first"}))
	want.Entities = want.Entities[1:]
	got := readTables(t, s)
	for i := range got.Entities {
		if len(got.Entities[i].Observations) == 0 {
			got.Entities[i].Observations = []string{}
		}
	}
	assertGraph(t, "tables", got, want)
	assertGraph(t, "read_graph", readGraph(t, s), want)
}

// TestWalkTablesCallbackError: an error of either callback stops the
// tables' walk and comes back as is.
func TestWalkTablesCallbackError(t *testing.T) {
	s, _ := openSQLiteTest(t)
	must[[]Entity](t)(s.CreateEntities(bg, []Entity{{"a", "t", []string{"o"}}, {"b", "t", nil}}))
	must[[]Relation](t)(s.CreateRelations(bg, []Relation{{"a", "b", "r"}, {"b", "a", "r"}}))
	tx, done := beginRead(t, s)
	defer done()
	stop := errors.New("stop")
	calls := 0
	if err := walkTables(bg, tx, nil, 0, func(Entity) error { calls++; return stop }, func(Relation) error { return nil }); err != stop || calls != 1 {
		t.Errorf("entity callback: err %v after %d calls, want stop after 1", err, calls)
	}
	calls = 0
	if err := walkTables(bg, tx, nil, 0, func(Entity) error { return nil }, func(Relation) error { calls++; return stop }); err != stop || calls != 1 {
		t.Errorf("relation callback: err %v after %d calls, want stop after 1", err, calls)
	}
}

// TestWalkTablesBatches: the tables' walk, read on a goroutine of its own
// and handed over in batches (walkTables), hands out every entity and
// relation in order across batch boundaries of both kinds (rows and
// bytes: observations of 300 KB), with observations added out of order
// and entities deleted; a callback's error or panic in a later batch
// stops the reader, which gives the connection back (the transaction can
// query again).
func TestWalkTablesBatches(t *testing.T) {
	s, _ := openSQLiteTest(t, WithMirrorBytes(0))
	var want Graph
	big := strings.Repeat("é", 150_000) // 300 KB
	for i := range 3000 {
		e := Entity{Name: fmt.Sprintf("e%d", i), EntityType: "t", Observations: []string{}}
		for j := range i % 4 {
			e.Observations = append(e.Observations, fmt.Sprintf("o%d.%d", i, j))
		}
		if i%700 == 3 {
			e.Observations = append(e.Observations, big+fmt.Sprint(i))
		}
		want.Entities = append(want.Entities, e)
		if i > 0 {
			want.Relations = append(want.Relations, Relation{e.Name, fmt.Sprintf("e%d", i-1), "follows"})
		}
	}
	must[[]Entity](t)(s.CreateEntities(bg, want.Entities))
	must[[]Relation](t)(s.CreateRelations(bg, want.Relations))
	for k, i := range []int{2999, 5, 1500, 5} {
		obs := fmt.Sprintf("later %d", k)
		must[[]AddedObservations](t)(s.AddObservations(bg, []ObservationAdd{{want.Entities[i].Name, []string{obs}}}))
		want.Entities[i].Observations = append(want.Entities[i].Observations, obs)
	}
	mustNil(t, s.DeleteEntities(bg, []string{"e0", "e1025", "e2999"}))
	var kept []Entity
	for _, e := range want.Entities {
		if e.Name != "e0" && e.Name != "e1025" && e.Name != "e2999" {
			kept = append(kept, e)
		}
	}
	want.Entities = kept
	want.Relations = slices.DeleteFunc(want.Relations, func(r Relation) bool {
		return r.From == "e0" || r.To == "e0" || r.From == "e1025" || r.To == "e1025" || r.From == "e2999" || r.To == "e2999"
	})
	assertGraphQuiet(t, "tables", readTables(t, s), want)
	assertGraphQuiet(t, "read_graph", readGraph(t, s), want)

	tx, done := beginRead(t, s)
	defer done()
	stop := errors.New("stop")
	queryAgain := func(what string) {
		t.Helper()
		var n int
		mustNil(t, tx.QueryRowContext(bg, `SELECT count(*) FROM entities`).Scan(&n))
		if n != len(want.Entities) {
			t.Fatalf("%s: %d entities, want %d", what, n, len(want.Entities))
		}
	}
	calls := 0
	if err := walkTables(bg, tx, nil, 0, func(Entity) error { calls++; return nil }, func(Relation) error {
		if calls++; calls == len(want.Entities)+1500 {
			return stop
		}
		return nil
	}); err != stop || calls != len(want.Entities)+1500 {
		t.Errorf("relation callback: err %v after %d calls, want stop after %d", err, calls, len(want.Entities)+1500)
	}
	queryAgain("after an error")
	func() {
		defer func() {
			if r := recover(); r != "boom" {
				t.Errorf("recovered %v, want the callback's panic", r)
			}
		}()
		calls = 0
		walkTables(bg, tx, nil, 0, func(Entity) error {
			if calls++; calls == 2000 {
				panic("boom")
			}
			return nil
		}, func(Relation) error { return nil })
	}()
	queryAgain("after a panic")
}

// TestTableReaderSnapshot: the tableReader serves a walk only at the
// walk's own snapshot (the change feed's last Seq), only one walk at a
// time and not once closed; a walk whose snapshot it cannot serve reads
// through its transaction, and still sees that snapshot, not a write
// made since.
func TestTableReaderSnapshot(t *testing.T) {
	s, _ := openSQLiteTest(t, WithMirrorBytes(0))
	must[[]Entity](t)(s.CreateEntities(bg, []Entity{{"a", "t", []string{"o"}}}))
	tx, done := beginRead(t, s)
	defer done()
	seq, err := feedSeq(bg, tx)
	mustNil(t, err)
	names := func(q tableQuerier) ([]string, error) {
		var got []string
		err := readEntities(q, func(_ int64, name, _ string) error { got = append(got, name); return nil }, func(string) {})
		return got, err
	}
	served := func(seq int64) (bool, []string) {
		var got []string
		ok, err := s.tables.walk(bg, seq, func(q tableQuerier) (err error) {
			got, err = names(q)
			return err
		})
		mustNil(t, err)
		return ok, got
	}
	if ok, got := served(seq); !ok || fmt.Sprint(got) != "[a]" {
		t.Fatalf("at the snapshot: served %v, %v; want true, [a]", ok, got)
	}
	must[[]Entity](t)(s.CreateEntities(bg, []Entity{{"b", "t", nil}}))
	if ok, _ := served(seq); ok {
		t.Fatal("served a snapshot behind its own")
	}
	var walked []string
	mustNil(t, walkTables(bg, tx, &s.tables, seq, func(e Entity) error { walked = append(walked, e.Name); return nil }, func(Relation) error { return nil }))
	if fmt.Sprint(walked) != "[a]" {
		t.Fatalf("walk at the transaction's snapshot: %v, want [a]", walked)
	}
	if ok, got := served(seq + 1); !ok || fmt.Sprint(got) != "[a b]" {
		t.Fatalf("at the newer snapshot: served %v, %v; want true, [a b]", ok, got)
	}
	s.tables.mu.Lock()
	ok, _ := served(seq + 1)
	s.tables.mu.Unlock()
	if ok {
		t.Fatal("served a second walk at once")
	}
	s.tables.close()
	if ok, _ := served(seq + 1); ok {
		t.Fatal("served once closed")
	}
}

// beginRead begins a read transaction on one of s's read connections; done
// rolls it back and returns the connection.
func beginRead(t *testing.T, s *SQLite) (tx *txn, done func()) {
	t.Helper()
	c, err := s.rpool.get(bg)
	mustNil(t, err)
	tx, err = c.begin(bg, nil)
	if err != nil {
		s.rpool.put(c, false)
		t.Fatal(err)
	}
	return tx, func() {
		tx.Rollback()
		s.rpool.put(c, false)
	}
}

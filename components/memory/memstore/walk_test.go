package memstore

import (
	"errors"
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
	c, err := s.rpool.get(bg)
	mustNil(t, err)
	defer s.rpool.put(c, false)
	tx, err := c.begin(bg, nil)
	mustNil(t, err)
	defer tx.Rollback()
	stop := errors.New("stop")
	calls := 0
	if err := walkTables(bg, tx, func(Entity) error { calls++; return stop }, func(Relation) error { return nil }); err != stop || calls != 1 {
		t.Errorf("entity callback: err %v after %d calls, want stop after 1", err, calls)
	}
	calls = 0
	if err := walkTables(bg, tx, func(Entity) error { return nil }, func(Relation) error { calls++; return stop }); err != stop || calls != 1 {
		t.Errorf("relation callback: err %v after %d calls, want stop after 1", err, calls)
	}
}

package memstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

func testCreateEntitiesSkipsExistingAndBatchDuplicates(t *testing.T) {
	s, _ := openTest(t)
	got := must[[]Entity](t)(s.CreateEntities(bg, []Entity{
		{Name: "Alice", EntityType: "person", Observations: []string{"likes tea"}},
		{Name: "Bob", EntityType: "person"},
	}))
	if len(got) != 2 || got[1].Observations == nil {
		t.Fatalf("created %+v", got)
	}
	got = must[[]Entity](t)(s.CreateEntities(bg, []Entity{
		{Name: "Alice", EntityType: "robot", Observations: []string{"other"}}, // exists
		{Name: "Carol", EntityType: "person", Observations: []string{"x", "y", "x"}},
		{Name: "Carol", EntityType: "cat"}, // repeat within batch
	}))
	want := []Entity{{Name: "Carol", EntityType: "person", Observations: []string{"x", "y"}}}
	assertGraph(t, "returned", Graph{Entities: got}, Graph{Entities: want})
	assertGraph(t, "graph", readGraph(t, s), Graph{Entities: []Entity{
		{"Alice", "person", []string{"likes tea"}},
		{"Bob", "person", nil},
		{"Carol", "person", []string{"x", "y"}},
	}})
	// Empty batch and all-existing batch return an empty, non-nil list.
	for _, batch := range [][]Entity{nil, {{Name: "Bob"}}} {
		got := must[[]Entity](t)(s.CreateEntities(bg, batch))
		if got == nil || len(got) != 0 {
			t.Fatalf("got %#v", got)
		}
	}
}

func testCreateRelations(t *testing.T) {
	s, _ := openTest(t)
	r1 := Relation{"A", "B", "knows"}
	r2 := Relation{"A", "B", "likes"}
	got := must[[]Relation](t)(s.CreateRelations(bg, []Relation{r1, r2, r1}))
	if fmt.Sprint(got) != fmt.Sprint([]Relation{r1, r2}) {
		t.Fatalf("got %v", got)
	}
	got = must[[]Relation](t)(s.CreateRelations(bg, []Relation{r2, {"B", "A", "knows"}}))
	if fmt.Sprint(got) != fmt.Sprint([]Relation{{"B", "A", "knows"}}) {
		t.Fatalf("got %v", got)
	}
	// Dangling relations are allowed, as in the reference.
	g := readGraph(t, s)
	if len(g.Entities) != 0 || len(g.Relations) != 3 {
		t.Fatalf("graph %+v", g)
	}
}

func testAddObservations(t *testing.T) {
	s, _ := openTest(t)
	must[[]Entity](t)(s.CreateEntities(bg, []Entity{{"A", "t", []string{"one"}}, {"B", "t", nil}}))
	res := must[[]AddedObservations](t)(s.AddObservations(bg, []ObservationAdd{
		{EntityName: "A", Contents: []string{"one", "two", "two", "three"}},
		{EntityName: "B", Contents: nil},
		{EntityName: "A", Contents: []string{"three", "four"}},
	}))
	b, _ := json.Marshal(res)
	want := `[{"entityName":"A","addedObservations":["two","three"]},{"entityName":"B","addedObservations":[]},{"entityName":"A","addedObservations":["four"]}]`
	if string(b) != want {
		t.Fatalf("got %s\nwant %s", b, want)
	}
	assertGraph(t, "graph", readGraph(t, s), Graph{Entities: []Entity{
		{"A", "t", []string{"one", "two", "three", "four"}}, {"B", "t", nil},
	}})
}

func testAddObservationsMissingEntityChangesNothing(t *testing.T) {
	s, _ := openTest(t)
	must[[]Entity](t)(s.CreateEntities(bg, []Entity{{"A", "t", nil}}))
	before := readGraph(t, s)
	head0 := must[int64](t)(s.Head(bg))
	_, err := s.AddObservations(bg, []ObservationAdd{
		{EntityName: "A", Contents: []string{"new"}},
		{EntityName: "Ghost", Contents: []string{"boo"}},
	})
	var nf *EntityNotFoundError
	if !errors.As(err, &nf) || nf.Name != "Ghost" || !errors.Is(err, ErrNotFound) {
		t.Fatalf("err = %v", err)
	}
	if err.Error() != "Entity with name Ghost not found" {
		t.Fatalf("message %q", err.Error())
	}
	assertGraph(t, "after failed batch", readGraph(t, s), before)
	if h := must[int64](t)(s.Head(bg)); h != head0 {
		t.Fatalf("head moved from %d to %d", head0, h)
	}
}

func testDeleteEntitiesRemovesTouchingRelations(t *testing.T) {
	s, _ := openTest(t)
	must[[]Entity](t)(s.CreateEntities(bg, []Entity{{"A", "t", []string{"a"}}, {"B", "t", nil}, {"C", "t", nil}}))
	must[[]Relation](t)(s.CreateRelations(bg, []Relation{
		{"A", "B", "r"}, {"B", "C", "r"}, {"C", "A", "r"}, {"C", "Ghost", "r"}, {"X", "Y", "r"},
	}))
	mustNil(t, s.DeleteEntities(bg, []string{"A", "Ghost", "Nobody", "A"}))
	assertGraph(t, "graph", readGraph(t, s), Graph{
		Entities:  []Entity{{"B", "t", nil}, {"C", "t", nil}},
		Relations: []Relation{{"B", "C", "r"}, {"X", "Y", "r"}},
	})
	// The deleted entity's observations are gone from search too.
	if g := must[Graph](t)(s.SearchNodes(bg, "a")); len(g.Entities) != 0 {
		t.Fatalf("search after delete: %+v", g)
	}
	// Re-creating the name starts afresh and goes to the end.
	must[[]Entity](t)(s.CreateEntities(bg, []Entity{{"A", "u", nil}}))
	g := readGraph(t, s)
	if g.Entities[2].Name != "A" || len(g.Entities[2].Observations) != 0 {
		t.Fatalf("graph %+v", g)
	}
}

func testDeleteObservations(t *testing.T) {
	s, _ := openTest(t)
	// Import keeps repeated observations; deleting removes every copy.
	must[ImportStats](t)(s.Import(bg, strings.NewReader(`{"type":"entity","name":"A","entityType":"t","observations":["x","y","x","z"]}`)))
	mustNil(t, s.DeleteObservations(bg, []ObservationDelete{
		{EntityName: "A", Observations: []string{"x", "missing"}},
		{EntityName: "Ghost", Observations: []string{"y"}},
	}))
	assertGraph(t, "graph", readGraph(t, s), Graph{Entities: []Entity{{"A", "t", []string{"y", "z"}}}})
	if g := must[Graph](t)(s.SearchNodes(bg, "x")); len(g.Entities) != 0 {
		t.Fatalf("deleted observation still searchable: %+v", g)
	}
	// Order is kept when adding after deleting.
	must[[]AddedObservations](t)(s.AddObservations(bg, []ObservationAdd{{"A", []string{"x"}}}))
	assertGraph(t, "graph", readGraph(t, s), Graph{Entities: []Entity{{"A", "t", []string{"y", "z", "x"}}}})
}

func testDeleteRelations(t *testing.T) {
	s, _ := openTest(t)
	must[ImportStats](t)(s.Import(bg, strings.NewReader(strings.Join([]string{
		`{"type":"relation","from":"A","to":"B","relationType":"r"}`,
		`{"type":"relation","from":"A","to":"B","relationType":"s"}`,
		`{"type":"relation","from":"A","to":"B","relationType":"r"}`,
	}, "\n"))))
	mustNil(t, s.DeleteRelations(bg, []Relation{{"A", "B", "r"}, {"Q", "R", "r"}}))
	assertGraph(t, "graph", readGraph(t, s), Graph{Relations: []Relation{{"A", "B", "s"}}})
}

func testReadGraphKeepsInsertionOrder(t *testing.T) {
	s, _ := openTest(t)
	names := []string{"zeta", "alpha", "Mu", "beta", "ALPHA"}
	for _, n := range names {
		must[[]Entity](t)(s.CreateEntities(bg, []Entity{{n, "t", []string{"o-" + n}}}))
	}
	must[[]Relation](t)(s.CreateRelations(bg, []Relation{{"z", "a", "r"}, {"a", "z", "r"}, {"m", "m", "r"}}))
	g := readGraph(t, s)
	for i, n := range names {
		if g.Entities[i].Name != n {
			t.Fatalf("order %v", g.Entities)
		}
	}
	if g.Relations[0].From != "z" || g.Relations[2].From != "m" {
		t.Fatalf("relation order %v", g.Relations)
	}
}

func testOpenNodes(t *testing.T) {
	s, _ := openTest(t)
	must[[]Entity](t)(s.CreateEntities(bg, []Entity{{"A", "t", nil}, {"B", "t", nil}, {"C", "t", nil}}))
	must[[]Relation](t)(s.CreateRelations(bg, []Relation{
		{"A", "B", "r"}, {"B", "C", "r"}, {"C", "Ghost", "r"}, {"Ghost", "A", "r"}, {"Ghost", "Ghost2", "r"},
	}))
	// Entities come in graph order, not request order; relations with
	// EITHER end in the found set (reference 2026.8.31); requested names that
	// do not exist do not pull in relations.
	g := must[Graph](t)(s.OpenNodes(bg, []string{"C", "A", "Ghost", "A"}))
	assertGraph(t, "open", g, Graph{
		Entities:  []Entity{{"A", "t", nil}, {"C", "t", nil}},
		Relations: []Relation{{"A", "B", "r"}, {"B", "C", "r"}, {"C", "Ghost", "r"}, {"Ghost", "A", "r"}},
	})
	g = must[Graph](t)(s.OpenNodes(bg, nil))
	b, _ := json.Marshal(g)
	if string(b) != `{"entities":[],"relations":[]}` {
		t.Fatalf("empty open: %s", b)
	}
}

func testEntityNames(t *testing.T) {
	s, _ := openTest(t)
	for _, n := range []string{"Alice", "alfred", "ALBERT", "Bob", "Ål", "al"} {
		must[[]Entity](t)(s.CreateEntities(bg, []Entity{{n, "t", nil}}))
	}
	got := must[[]string](t)(s.EntityNames(bg, "al", 0))
	if fmt.Sprint(got) != "[al ALBERT alfred Alice]" {
		t.Fatalf("got %v", got)
	}
	got = must[[]string](t)(s.EntityNames(bg, "AL", 2))
	if fmt.Sprint(got) != "[al ALBERT]" {
		t.Fatalf("got %v", got)
	}
	got = must[[]string](t)(s.EntityNames(bg, "å", 10))
	if fmt.Sprint(got) != "[Ål]" {
		t.Fatalf("got %v", got)
	}
	got = must[[]string](t)(s.EntityNames(bg, "zz", 10))
	if got == nil || len(got) != 0 {
		t.Fatalf("got %#v", got)
	}
}

func TestJSONShapes(t *testing.T) {
	cases := []struct {
		v    any
		want string
	}{
		{Entity{Name: "a", EntityType: "t"}, `{"name":"a","entityType":"t","observations":[]}`},
		{Relation{"a", "b", "r"}, `{"from":"a","to":"b","relationType":"r"}`},
		{Graph{}, `{"entities":[],"relations":[]}`},
		{&Graph{Entities: []Entity{{Name: "x"}}}, `{"entities":[{"name":"x","entityType":"","observations":[]}],"relations":[]}`},
		{AddedObservations{EntityName: "a"}, `{"entityName":"a","addedObservations":[]}`},
		{ObservationAdd{EntityName: "a", Contents: []string{"c"}}, `{"entityName":"a","contents":["c"]}`},
		{ObservationDelete{EntityName: "a", Observations: []string{"c"}}, `{"entityName":"a","observations":["c"]}`},
	}
	for _, c := range cases {
		b, err := json.Marshal(c.v)
		if err != nil || string(b) != c.want {
			t.Errorf("Marshal(%#v) = %s, %v; want %s", c.v, b, err, c.want)
		}
	}
	var e Entity
	mustNil(t, json.Unmarshal([]byte(`{"name":"n","entityType":"t","observations":["o"]}`), &e))
	if e.Name != "n" || e.Observations[0] != "o" {
		t.Fatalf("%+v", e)
	}
}

func testLimitsAndInvalidInput(t *testing.T) {
	s, _ := openTest(t)
	long := strings.Repeat("n", MaxNameBytes+1)
	huge := strings.Repeat("o", MaxObservationBytes+1)
	many := make([]Entity, MaxBatch+1)
	for i := range many {
		many[i].Name = fmt.Sprint(i)
	}
	manyObs := make([]string, MaxBatchStrings/2+1)
	for i := range manyObs {
		manyObs[i] = fmt.Sprint(i)
	}
	cases := []struct {
		name   string
		call   func() error
		target error
		substr string
	}{
		{"long name", func() error {
			_, err := s.CreateEntities(bg, []Entity{{Name: "ok"}, {Name: long}})
			return err
		}, ErrLimit, "entities[1].name is 4097 bytes, more than MaxNameBytes (4096)"},
		{"long type", func() error { _, err := s.CreateEntities(bg, []Entity{{Name: "x", EntityType: long}}); return err }, ErrLimit, "entities[0].entityType"},
		{"huge observation", func() error {
			_, err := s.CreateEntities(bg, []Entity{{Name: "x", Observations: []string{"a", huge}}})
			return err
		}, ErrLimit, "entities[0].observations[1] is 1048577 bytes, more than MaxObservationBytes"},
		{"batch", func() error { _, err := s.CreateEntities(bg, many); return err }, ErrLimit, "MaxBatch"},
		{"strings", func() error {
			_, err := s.CreateEntities(bg, []Entity{{Name: "a", Observations: manyObs}, {Name: "b", Observations: manyObs}})
			return err
		}, ErrLimit, "MaxBatchStrings"},
		{"bad utf8", func() error { _, err := s.CreateEntities(bg, []Entity{{Name: "a\xff"}}); return err }, ErrInvalid, "entities[0].name is not valid UTF-8"},
		{"relation", func() error { _, err := s.CreateRelations(bg, []Relation{{"a", long, "r"}}); return err }, ErrLimit, "relations[0].to"},
		{"add", func() error {
			_, err := s.AddObservations(bg, []ObservationAdd{{EntityName: "x", Contents: []string{huge}}})
			return err
		}, ErrLimit, "observations[0].contents[0]"},
		{"delete obs", func() error {
			return s.DeleteObservations(bg, []ObservationDelete{{EntityName: long}})
		}, ErrLimit, "deletions[0].entityName"},
		{"delete entities", func() error { return s.DeleteEntities(bg, []string{"a", "\xc0"}) }, ErrInvalid, "entityNames[1]"},
		{"open", func() error { _, err := s.OpenNodes(bg, []string{long}); return err }, ErrLimit, "names[0]"},
		{"query", func() error { _, err := s.SearchNodes(bg, huge); return err }, ErrLimit, "query"},
	}
	for _, c := range cases {
		err := c.call()
		if !errors.Is(err, c.target) || !strings.Contains(err.Error(), c.substr) {
			t.Errorf("%s: err = %v; want %v containing %q", c.name, err, c.target, c.substr)
		}
	}
	if g := readGraph(t, s); len(g.Entities)+len(g.Relations) != 0 {
		t.Fatalf("rejected calls changed the graph: %+v", g)
	}
	// Exactly at the limits is fine.
	atLimit := Entity{Name: strings.Repeat("n", MaxNameBytes), EntityType: strings.Repeat("t", MaxNameBytes),
		Observations: []string{strings.Repeat("o", MaxObservationBytes)}}
	must[[]Entity](t)(s.CreateEntities(bg, []Entity{atLimit}))
	assertGraph(t, "at limit", readGraph(t, s), Graph{Entities: []Entity{atLimit}})
}

func testAnyUnicodeAndEmptyStrings(t *testing.T) {
	s, path := openTest(t)
	weird := []string{"", " ", "\x00", "a\x00b", "日本語", "🧠💾", "e\u0301", "\u202eRTL", "\u2028\u2029", "\ufeff", "\"quoted\"\\", "tab\there\nnewline", strings.Repeat("ß", 1000)}
	var ents []Entity
	for i, w := range weird {
		ents = append(ents, Entity{Name: w, EntityType: weird[(i+1)%len(weird)], Observations: []string{w, "obs " + w}})
	}
	created := must[[]Entity](t)(s.CreateEntities(bg, ents))
	if len(created) != len(weird) {
		t.Fatalf("created %d of %d", len(created), len(weird))
	}
	var rels []Relation
	for i, w := range weird {
		rels = append(rels, Relation{w, weird[(i+2)%len(weird)], w})
	}
	must[[]Relation](t)(s.CreateRelations(bg, rels))
	want := Graph{Entities: ents, Relations: rels}
	assertGraph(t, "graph", readGraph(t, s), want)
	for _, w := range weird {
		g := must[Graph](t)(s.OpenNodes(bg, []string{w}))
		if len(g.Entities) != 1 || g.Entities[0].Name != w {
			t.Fatalf("open %q: %+v", w, g)
		}
	}
	s.Close()
	s2 := reopenTest(t, path)
	assertGraph(t, "after reopen", readGraph(t, s2), want)
	mustNil(t, s2.DeleteEntities(bg, weird))
	assertGraph(t, "after delete", readGraph(t, s2), Graph{})
}

func testReopenKeepsData(t *testing.T) {
	s, path := openTest(t)
	must[[]Entity](t)(s.CreateEntities(bg, []Entity{{"A", "t", []string{"hello world"}}}))
	must[[]Relation](t)(s.CreateRelations(bg, []Relation{{"A", "B", "r"}}))
	task := must[Task](t)(s.CreateTask(bg, NewTask{Title: "do it", Entities: []string{"A"}}))
	head := must[int64](t)(s.Head(bg))
	want := readGraph(t, s)
	mustNil(t, s.Close())

	s2 := reopenTest(t, path)
	assertGraph(t, "reopened", readGraph(t, s2), want)
	if g := must[Graph](t)(s2.SearchNodes(bg, "WORLD")); len(g.Entities) != 1 {
		t.Fatalf("search after reopen: %+v", g)
	}
	if got := must[Task](t)(s2.GetTask(bg, task.ID)); got.Title != "do it" || got.Entities[0] != "A" {
		t.Fatalf("task %+v", got)
	}
	if h := must[int64](t)(s2.Head(bg)); h != head {
		t.Fatalf("head %d, want %d", h, head)
	}
	// New writes continue after the old ones.
	must[[]Entity](t)(s2.CreateEntities(bg, []Entity{{"C", "t", nil}}))
	if h := must[int64](t)(s2.Head(bg)); h != head+1 {
		t.Fatalf("head %d, want %d", h, head+1)
	}
}

func testOpenRejectsNonFilePathsAndNewerSchema(t *testing.T) {
	sqliteOnly(t, "TestPostgresRejectsNewerSchema")
	for _, p := range []string{"", ":memory:", "file:x.db"} {
		if _, err := Open(p); !errors.Is(err, ErrInvalid) {
			t.Errorf("Open(%q) = %v", p, err)
		}
	}
	s, path := openSQLiteTest(t)
	_, err := s.wc.c.ExecContext(context.Background(), fmt.Sprintf("PRAGMA user_version = %d", len(migrations)+1))
	mustNil(t, err)
	s.Close()
	if _, err := Open(path); err == nil || !strings.Contains(err.Error(), "newer") {
		t.Fatalf("Open newer schema: %v", err)
	}
}

func testPathWithSpecialCharacters(t *testing.T) {
	sqliteOnly(t, "")
	dir := t.TempDir()
	path := dir + "/we?ird #name% 100.db"
	s := must[*SQLite](t)(Open(path))
	must[[]Entity](t)(s.CreateEntities(bg, []Entity{{"A", "t", nil}}))
	mustNil(t, s.Close())
	s = must[*SQLite](t)(Open(path))
	defer s.Close()
	if g := readGraph(t, s); len(g.Entities) != 1 {
		t.Fatalf("graph %+v", g)
	}
}

func testSearchIndexRebuiltWhenFoldVersionChanges(t *testing.T) {
	sqliteOnly(t, "TestPostgresRefoldsWhenFoldVersionChanges")
	s, path := openSQLiteTest(t)
	must[[]Entity](t)(s.CreateEntities(bg, []Entity{{"ΟΔΟΣ", "place", []string{"İstanbul trip"}}}))
	mustNil(t, s.mergeSearch(bg)) // index the write (tail.go)
	// Simulate an index built by another version: wipe it and the marker.
	_, err := s.wc.c.ExecContext(context.Background(), `INSERT INTO search_names(search_names) VALUES ('delete-all');
		INSERT INTO search_obs(search_obs) VALUES ('delete-all');
		UPDATE meta SET value = 'old' WHERE key = 'fold_version'`)
	mustNil(t, err)
	if g := must[Graph](t)(s.SearchNodes(bg, "trip")); len(g.Entities) != 0 {
		t.Fatalf("expected stale index to miss, got %+v", g)
	}
	s.Close()
	s2 := must[*SQLite](t)(Open(path))
	defer s2.Close()
	for _, q := range []string{"trip", "i\u0307stanbul", "İSTANBUL", "οδος", "ΟΔΟΣ", "PLACE"} {
		if g := must[Graph](t)(s2.SearchNodes(bg, q)); len(g.Entities) != 1 {
			t.Fatalf("search %q after rebuild: %+v", q, g)
		}
	}
	// As in JavaScript, "İ".toLowerCase() is "i\u0307", so plain "istanbul"
	// does not match.
	if g := must[Graph](t)(s2.SearchNodes(bg, "istanbul")); len(g.Entities) != 0 {
		t.Fatalf("search istanbul: %+v", g)
	}
}

func testHugeBatchAtLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("slow (creates, extends and deletes MaxBatch entities; TestLimitsAndInvalidInput checks the limit); runs without -short")
	}
	s, _ := openTest(t, WithSyncNormal())
	ents := make([]Entity, MaxBatch)
	for i := range ents {
		ents[i] = Entity{Name: fmt.Sprintf("e%05d", i), EntityType: "bulk", Observations: []string{fmt.Sprintf("note %d", i)}}
	}
	created := must[[]Entity](t)(s.CreateEntities(bg, ents))
	if len(created) != MaxBatch {
		t.Fatalf("created %d", len(created))
	}
	adds := make([]ObservationAdd, MaxBatch)
	for i := range adds {
		adds[i] = ObservationAdd{EntityName: ents[i].Name, Contents: []string{"extra", fmt.Sprintf("note %d", i)}}
	}
	res := must[[]AddedObservations](t)(s.AddObservations(bg, adds))
	for i, r := range res {
		if len(r.AddedObservations) != 1 || r.AddedObservations[0] != "extra" {
			t.Fatalf("result %d: %+v", i, r)
		}
	}
	g := readGraph(t, s)
	if len(g.Entities) != MaxBatch || len(g.Entities[MaxBatch-1].Observations) != 2 {
		t.Fatalf("graph has %d entities", len(g.Entities))
	}
	if got := must[Graph](t)(s.SearchNodes(bg, "note 9999")); names(got) != "e09999" {
		t.Fatalf("search: %s", names(got))
	}
	mustNil(t, s.DeleteEntities(bg, must[[]string](t)(s.EntityNames(bg, "e", MaxBatch))))
	if g := readGraph(t, s); len(g.Entities) != 0 {
		t.Fatalf("%d entities left", len(g.Entities))
	}
}

func testCanceledContextChangesNothing(t *testing.T) {
	s, _ := openTest(t)
	ctx, cancel := context.WithCancel(bg)
	cancel()
	if _, err := s.CreateEntities(ctx, []Entity{{"A", "t", nil}}); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
	if _, err := s.ReadGraph(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
	if g := readGraph(t, s); len(g.Entities) != 0 {
		t.Fatalf("graph %+v", g)
	}
	// The store still works afterwards.
	must[[]Entity](t)(s.CreateEntities(bg, []Entity{{"A", "t", nil}}))
}

// testWalkGraphEqualsReadGraph checks that walking the graph hands over
// what ReadGraph returns, in the same order, after writes that interleave
// observations of different entities and delete some of everything.
func testWalkGraphEqualsReadGraph(t *testing.T) {
	s, _ := openTest(t)
	walk := func() Graph {
		var g Graph
		err := s.WalkGraph(bg, func(e Entity) error {
			e.Observations = slices.Clone(e.Observations) // reused by the walk
			g.Entities = append(g.Entities, e)
			return nil
		}, func(r Relation) error {
			g.Relations = append(g.Relations, r)
			return nil
		})
		mustNil(t, err)
		return g
	}
	assertGraph(t, "empty", walk(), Graph{})
	must[[]Entity](t)(s.CreateEntities(bg, []Entity{
		{Name: "a", EntityType: "t", Observations: []string{"a1", "a2"}},
		{Name: "b", EntityType: "t"},
		{Name: "c", EntityType: "u", Observations: []string{"c1"}},
		{Name: "d", EntityType: "u", Observations: []string{"d1"}},
	}))
	must[[]AddedObservations](t)(s.AddObservations(bg, []ObservationAdd{{EntityName: "b", Contents: []string{"b1"}}, {EntityName: "a", Contents: []string{"a3"}}}))
	must[[]Relation](t)(s.CreateRelations(bg, []Relation{{From: "a", To: "b", RelationType: "r"}, {From: "c", To: "x", RelationType: "r"}, {From: "d", To: "a", RelationType: "s"}}))
	mustNil(t, s.DeleteEntities(bg, []string{"c"}))
	mustNil(t, s.DeleteObservations(bg, []ObservationDelete{{EntityName: "a", Observations: []string{"a2"}}}))
	got, want := walk(), readGraph(t, s)
	assertGraph(t, "walk", got, want)
	if len(want.Entities) != 3 || len(want.Relations) != 2 {
		t.Fatalf("unexpected graph %+v", want)
	}
	// An error from a callback stops the walk and comes back as is.
	stop := errors.New("stop")
	n := 0
	err := s.WalkGraph(bg, func(Entity) error { n++; return stop }, func(Relation) error { return nil })
	if err != stop || n != 1 {
		t.Fatalf("WalkGraph with a failing callback: err %v after %d entities", err, n)
	}
}

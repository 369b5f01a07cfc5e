package memstore

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// openGraphsTest opens a fresh store of the backend under test with its
// named graphs, closed at cleanup, and returns where it lives.
func openGraphsTest(t *testing.T, opts ...Option) (*Graphs, string) {
	t.Helper()
	where := filepath.Join(t.TempDir(), "memory.db")
	if engineOf(t) == enginePostgres {
		where = postgresTestURL(t)
	}
	g, err := OpenGraphs(bg, where, opts...)
	if err != nil {
		t.Fatalf("OpenGraphs: %v", err)
	}
	t.Cleanup(func() { g.Close() })
	return g, where
}

// use returns the store of graph name, released at cleanup.
func use(t *testing.T, g *Graphs, name string) Store {
	t.Helper()
	s, release, err := g.Use(bg, name)
	if err != nil {
		t.Fatalf("Use(%q): %v", name, err)
	}
	t.Cleanup(release)
	return s
}

func testGraphsShareNothing(t *testing.T) {
	g, where := openGraphsTest(t)
	names := []string{DefaultGraph, "team", PrivateGraph("alice"), PrivateGraph("bob@example.com")}
	for i, name := range names {
		s := use(t, g, name)
		ents := []Entity{{Name: "shared-name", EntityType: name, Observations: []string{"secret of " + name}}}
		for range i + 1 {
			ents = append(ents, Entity{Name: name + string(rune('a'+len(ents))), EntityType: "t"})
		}
		must[[]Entity](t)(s.CreateEntities(bg, ents))
		must[[]Relation](t)(s.CreateRelations(bg, []Relation{{From: "shared-name", To: name, RelationType: "in"}}))
	}
	for i, name := range names {
		s := use(t, g, name)
		gr := must[Graph](t)(s.ReadGraph(bg))
		if len(gr.Entities) != i+2 || gr.Entities[0].EntityType != name || len(gr.Relations) != 1 || gr.Relations[0].To != name {
			t.Errorf("graph %q holds %+v", name, gr)
		}
		found := must[Graph](t)(s.SearchNodes(bg, "secret of"))
		if len(found.Entities) != 1 || found.Entities[0].Observations[0] != "secret of "+name {
			t.Errorf("search in %q found %+v", name, found.Entities)
		}
		if n := must[[]string](t)(s.EntityNames(bg, "", 100)); len(n) != i+2 {
			t.Errorf("completion in %q offers %q", name, n)
		}
		// Each graph has its own feed: 2 changes (entities) + 1 relation.
		if head := must[int64](t)(s.Head(bg)); head != int64(i+2+1) {
			t.Errorf("head of %q = %d, want %d", name, head, i+3)
		}
	}
	list := must[[]GraphInfo](t)(g.List(bg))
	if len(list) != 4 || list[0].Name != DefaultGraph || list[1].Name != PrivateGraph("alice") || list[1].Owner != "alice" ||
		list[3].Name != "team" || list[3].Owner != "" || list[3].Entities != 3 || list[3].Relations != 1 || list[3].Observations != 1 {
		t.Errorf("List = %+v", list)
	}
	// Reopened, the graphs are where they were.
	g.Close()
	g2, err := OpenGraphs(bg, where)
	if err != nil {
		t.Fatal(err)
	}
	defer g2.Close()
	s := use(t, g2, "team")
	if gr := must[Graph](t)(s.ReadGraph(bg)); len(gr.Entities) != 3 {
		t.Errorf("team after reopening: %+v", gr)
	}
}

func testGraphNames(t *testing.T) {
	g, _ := openGraphsTest(t)
	for _, bad := range []string{"", "a b", "memory:x", "-x", "x/y", "@", "@a\x00b", string(make([]byte, 65))} {
		if _, _, err := g.Use(bg, bad); !errors.Is(err, ErrInvalid) {
			t.Errorf("Use(%q) = %v, want ErrInvalid", bad, err)
		}
	}
	for _, good := range []string{"Team.A_1-b", PrivateGraph("auth0|123 456")} {
		use(t, g, good)
	}
}

func testGraphsBounds(t *testing.T) {
	g, _ := openGraphsTest(t, WithMaxGraphs(2), WithMaxOpenGraphs(1))
	a, releaseA, err := g.Use(bg, "a")
	mustNil(t, err)
	must[[]Entity](t)(a.CreateEntities(bg, []Entity{{Name: "in-a", EntityType: "t"}}))
	// a is in use: b cannot open until it is released.
	if _, _, err := g.Use(bg, "b"); !errors.Is(err, ErrUnavailable) {
		t.Fatalf("Use(b) with a in use = %v, want ErrUnavailable", err)
	}
	releaseA()
	b := use(t, g, "b") // closes a, the idle one
	if gr := must[Graph](t)(b.ReadGraph(bg)); len(gr.Entities) != 0 {
		t.Errorf("b holds %+v", gr)
	}
	if _, _, err := g.Use(bg, "c"); !errors.Is(err, ErrLimit) {
		t.Errorf("a third graph with WithMaxGraphs(2): %v, want ErrLimit", err)
	}
	if _, _, err := g.Use(bg, DefaultGraph); err != nil {
		t.Errorf("the default graph is not counted: %v", err)
	}
}

// testGraphsUseExisting: a graph that does not exist yet reads as a real
// empty graph does (each read's answer and each bad argument's error
// kind compared with a graph created empty), refuses writes, is not
// created by reading (List, WithMaxGraphs), and once a write has created
// it UseExisting gives the real graph.
func testGraphsUseExisting(t *testing.T) {
	g, _ := openGraphsTest(t, WithMaxGraphs(1))
	real := use(t, g, "created") // the one graph WithMaxGraphs(1) allows
	absent, release, err := g.UseExisting(bg, "absent")
	mustNil(t, err)
	defer release()
	reads := map[string]func(Store) (any, error){
		"ReadGraph":        func(s Store) (any, error) { return s.ReadGraph(bg) },
		"SearchNodes":      func(s Store) (any, error) { return s.SearchNodes(bg, "x") },
		"SearchNodes bad":  func(s Store) (any, error) { return s.SearchNodes(bg, strings.Repeat("x", MaxObservationBytes+1)) },
		"OpenNodes":        func(s Store) (any, error) { return s.OpenNodes(bg, []string{"x"}) },
		"OpenNodes bad":    func(s Store) (any, error) { return s.OpenNodes(bg, []string{"\xff"}) },
		"EntityNames":      func(s Store) (any, error) { return s.EntityNames(bg, "x", 10) },
		"GetTask":          func(s Store) (any, error) { return s.GetTask(bg, 7) },
		"ListTasks":        func(s Store) (any, error) { return s.ListTasks(bg, TaskFilter{}) },
		"ListTasks bad":    func(s Store) (any, error) { return s.ListTasks(bg, TaskFilter{Status: "sideways"}) },
		"Changes":          func(s Store) (any, error) { p, n, err := s.Changes(bg, 0, 10); return fmt.Sprint(p, n), err },
		"Changes ahead":    func(s Store) (any, error) { p, n, err := s.Changes(bg, 3, 10); return fmt.Sprint(p, n), err },
		"Changes negative": func(s Store) (any, error) { p, n, err := s.Changes(bg, -1, 10); return fmt.Sprint(p, n), err },
		"Head":             func(s Store) (any, error) { return s.Head(bg) },
		"History":          func(s Store) (any, error) { return s.History(bg, "x", 10) },
		"History bad":      func(s Store) (any, error) { return s.History(bg, strings.Repeat("x", MaxNameBytes+1), 10) },
		"Export": func(s Store) (any, error) {
			var b bytes.Buffer
			err := s.Export(bg, &b)
			return b.String(), err
		},
		"WalkGraph": func(s Store) (any, error) {
			n := 0
			err := s.WalkGraph(bg, func(Entity) error { n++; return nil }, func(Relation) error { n++; return nil })
			return n, err
		},
	}
	kinds := []error{ErrInvalid, ErrLimit, ErrNotFound}
	kind := func(err error) error {
		for _, k := range kinds {
			if errors.Is(err, k) {
				return k
			}
		}
		return err
	}
	for name, read := range reads {
		want, wantErr := read(real)
		got, gotErr := read(absent)
		if fmt.Sprint(got) != fmt.Sprint(want) || kind(gotErr) != kind(wantErr) {
			t.Errorf("%s: absent graph gives %v, %v; an empty graph %v, %v", name, got, gotErr, want, wantErr)
		}
		if bad := strings.Contains(name, " ") || name == "GetTask"; bad != (wantErr != nil) {
			t.Errorf("%s: an empty graph answers %v; the case expects an error: %v", name, wantErr, bad)
		}
	}
	if _, err := absent.CreateEntities(bg, []Entity{{Name: "e", EntityType: "t"}}); !errors.Is(err, ErrInvalid) {
		t.Errorf("a write to a graph that does not exist: %v, want ErrInvalid", err)
	}
	if list := must[[]GraphInfo](t)(g.List(bg)); len(list) != 2 || list[1].Name != "created" {
		t.Errorf("after reading an absent graph, List = %+v; want default and created", list)
	}
	// Reading did not count against WithMaxGraphs(1), writing does.
	if _, _, err := g.Use(bg, "absent"); !errors.Is(err, ErrLimit) {
		t.Fatalf("Use(absent) past WithMaxGraphs(1): %v, want ErrLimit", err)
	}
	must[[]Entity](t)(real.CreateEntities(bg, []Entity{{Name: "e", EntityType: "t"}}))
	again, release2, err := g.UseExisting(bg, "created")
	mustNil(t, err)
	defer release2()
	if gr := must[Graph](t)(again.ReadGraph(bg)); len(gr.Entities) != 1 {
		t.Errorf("UseExisting of a graph that exists reads %+v", gr)
	}
}

func testAuthorAndHistory(t *testing.T) {
	s, _ := openTest(t)
	alice, bob := WithAuthor(bg, "alice"), WithAuthor(bg, "bob")
	must[[]Entity](t)(s.CreateEntities(alice, []Entity{{Name: "X", EntityType: "t", Observations: []string{"o1"}}, {Name: "Y", EntityType: "t"}}))
	must[[]AddedObservations](t)(s.AddObservations(bob, []ObservationAdd{{EntityName: "X", Contents: []string{"o2"}}}))
	must[[]Relation](t)(s.CreateRelations(bob, []Relation{{From: "Y", To: "X", RelationType: "knows"}}))
	mustNil(t, s.DeleteObservations(alice, []ObservationDelete{{EntityName: "X", Observations: []string{"o1"}}}))
	mustNil(t, s.DeleteEntities(bg, []string{"X"}))

	h := must[[]Change](t)(s.History(bg, "X", 0))
	want := []struct {
		kind   ChangeKind
		author string
	}{{ChangeEntityCreated, "alice"}, {ChangeObservationAdded, "bob"}, {ChangeRelationCreated, "bob"},
		{ChangeObservationDeleted, "alice"}, {ChangeEntityDeleted, LocalAuthor}, {ChangeRelationDeleted, LocalAuthor}}
	if len(h) != len(want) {
		t.Fatalf("history of X: %+v", h)
	}
	for i, w := range want {
		if h[i].Kind != w.kind || h[i].Author != w.author || h[i].At.IsZero() || (i > 0 && h[i].Seq <= h[i-1].Seq) {
			t.Errorf("history[%d] = %+v, want %s by %s", i, h[i], w.kind, w.author)
		}
	}
	if h[2].Relation == nil || h[2].Relation.From != "Y" || h[1].Detail != "o2" {
		t.Errorf("history details: %+v %+v", h[1], h[2])
	}
	// The relation is in Y's history too; the newest one only, by limit.
	if hy := must[[]Change](t)(s.History(bg, "Y", 1)); len(hy) != 1 || hy[0].Kind != ChangeRelationDeleted {
		t.Errorf("newest of Y's history: %+v", hy)
	}
	feed, _, err := s.Changes(bg, 0, 0)
	mustNil(t, err)
	if feed[0].Author != "alice" || feed[2].Author != "bob" {
		t.Errorf("feed authors: %+v", feed)
	}
}

func testHistoryRetention(t *testing.T) {
	s, _ := openTest(t, WithHistoryRetention(3))
	for _, o := range []string{"a", "b", "c", "d", "e"} {
		must[[]Entity](t)(s.CreateEntities(bg, []Entity{{Name: o, EntityType: "t"}}))
		must[[]AddedObservations](t)(s.AddObservations(bg, []ObservationAdd{{EntityName: o, Contents: []string{"x"}}}))
	}
	var total int
	for _, o := range []string{"a", "b", "c", "d", "e"} {
		total += len(must[[]Change](t)(s.History(bg, o, 0)))
	}
	if total != 3 {
		t.Errorf("%d history rows kept, want 3 (WithHistoryRetention)", total)
	}
}

// testGraphsConcurrentUse: many callers on more graphs than may be open
// at once; a graph in use is never closed under its caller (every call
// succeeds or is told to retry), and every write is kept.
func testGraphsConcurrentUse(t *testing.T) {
	g, _ := openGraphsTest(t, WithMaxOpenGraphs(3))
	const workers, rounds, graphs = 6, 10, 5
	var wg sync.WaitGroup
	errs := make(chan error, workers*rounds)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := range rounds {
				name := fmt.Sprintf("g%d", (w+r)%graphs)
				for {
					s, release, err := g.Use(bg, name)
					if errors.Is(err, ErrUnavailable) {
						time.Sleep(time.Millisecond)
						continue
					}
					if err != nil {
						errs <- err
						break
					}
					_, err = s.CreateEntities(bg, []Entity{{Name: fmt.Sprintf("w%d-r%d", w, r), EntityType: "t"}})
					release()
					if err != nil {
						errs <- fmt.Errorf("%s: %w", name, err)
					}
					break
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	total := 0
	for i := range graphs {
		s, release, err := g.Use(bg, fmt.Sprintf("g%d", i))
		mustNil(t, err)
		total += len(must[Graph](t)(s.ReadGraph(bg)).Entities)
		release()
	}
	if total != workers*rounds {
		t.Errorf("%d entities kept, want %d", total, workers*rounds)
	}
}

// testHistoryRoundTrip: an export with history imported into another
// store brings the audit trail along, older than the import's own
// changes; a malformed history line fails the import and changes nothing.
func testHistoryRoundTrip(t *testing.T) {
	src, _ := openTest(t)
	alice := WithAuthor(bg, "alice")
	must[[]Entity](t)(src.CreateEntities(alice, []Entity{{Name: "X", EntityType: "t", Observations: []string{"o"}}}))
	must[[]Relation](t)(src.CreateRelations(WithAuthor(bg, "bob"), []Relation{{From: "X", To: "Y", RelationType: "r"}}))
	var file bytes.Buffer
	mustNil(t, ExportWithHistory(bg, src, &file))

	dst, _ := openTest(t)
	stats := must[ImportStats](t)(dst.Import(bg, bytes.NewReader(file.Bytes())))
	if stats.Entities != 1 || stats.Relations != 1 || stats.History != 3 {
		t.Errorf("import stats %+v", stats)
	}
	h := must[[]Change](t)(dst.History(bg, "X", 0))
	var got []string
	for _, c := range h {
		got = append(got, string(c.Kind)+" by "+c.Author)
	}
	want := "[entity_created by alice relation_created by bob entity_created by local relation_created by local]"
	if fmt.Sprint(got) != want {
		t.Errorf("history of X after the import: %v, want %s", got, want)
	}
	var again bytes.Buffer
	mustNil(t, dst.Export(bg, &again))
	if !strings.HasPrefix(file.String(), again.String()) {
		t.Errorf("the graph did not round-trip:\n%s\nvs\n%s", again.String(), file.String())
	}
	bad := `{"type":"entity","name":"Z","entityType":"t","observations":[]}` + "\n" + `{"type":"history","entity":"Z","seq":1,"kind":"task_created","author":"a","at":"2026-01-01T00:00:00Z"}`
	if _, err := dst.Import(bg, strings.NewReader(bad)); !errors.Is(err, ErrInvalid) {
		t.Errorf("a history line of a task change: %v, want ErrInvalid", err)
	}
	if g := must[Graph](t)(dst.OpenNodes(bg, []string{"Z"})); len(g.Entities) != 0 {
		t.Errorf("a failed import stored %+v", g.Entities)
	}
}

package memstore

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

// readTables reads the graph from the tables, bypassing the mirror: through
// the store's tableReader and through a transaction's connection, which
// must agree.
func readTables(t *testing.T, s *SQLite) Graph {
	t.Helper()
	tx, done := beginRead(t, s)
	defer done()
	seq, err := feedSeq(bg, tx)
	mustNil(t, err)
	walk := func(tr *tableReader) Graph {
		g := Graph{Entities: []Entity{}, Relations: []Relation{}}
		mustNil(t, walkTables(bg, tx, tr, seq, func(e Entity) error {
			e.Observations = append([]string{}, e.Observations...)
			g.Entities = append(g.Entities, e)
			return nil
		}, func(r Relation) error {
			g.Relations = append(g.Relations, r)
			return nil
		}))
		return g
	}
	g := walk(nil)
	assertGraphQuiet(t, "tables: the tableReader's walk against the transaction's", walk(&s.tables), g)
	return g
}

// TestMirrorFollowsAnotherProcess: two stores on one file stand for two
// processes; each sees the other's writes, whether its mirror was loaded
// before them or it wrote itself in between.
func TestMirrorFollowsAnotherProcess(t *testing.T) {
	path := filepath.Join(t.TempDir(), "memory.db")
	a := must[*SQLite](t)(Open(path))
	defer a.Close()
	b := must[*SQLite](t)(Open(path))
	defer b.Close()
	must[[]Entity](t)(a.CreateEntities(bg, []Entity{{"one", "t", []string{"o1"}}}))
	assertGraph(t, "a after its write", readGraph(t, a), readTables(t, a))
	must[[]Entity](t)(b.CreateEntities(bg, []Entity{{"two", "t", []string{"o2"}}}))
	g := readGraph(t, a)
	if len(g.Entities) != 2 {
		t.Fatalf("a does not see b's write: %+v", g)
	}
	// a writes on top of b's write: its mirror (at a's version) missed
	// b's, so it must not simply apply a's rows.
	must[[]AddedObservations](t)(a.AddObservations(bg, []ObservationAdd{{"two", []string{"o3"}}}))
	mustNil(t, b.DeleteEntities(bg, []string{"one"}))
	for _, s := range []*SQLite{a, b} {
		got := readGraph(t, s)
		assertGraph(t, "after both wrote", got, readTables(t, s))
		assertGraph(t, "after both wrote", got, Graph{Entities: []Entity{{"two", "t", []string{"o2", "o3"}}}})
	}
}

// TestGroupCommitIsolatesFailures runs many writers at once, a third of
// them failing (observations for an entity that does not exist): the
// failing calls change nothing, every other call is stored, and the mirror
// equals the tables.
func TestGroupCommitIsolatesFailures(t *testing.T) {
	s, _ := openSQLiteTest(t) // group commit and the mirror are the SQLite store's
	const n = 60
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			name := fmt.Sprintf("e%d", i)
			if i%3 == 0 {
				_, errs[i] = s.AddObservations(bg, []ObservationAdd{{"missing-" + name, []string{"x"}}})
				return
			}
			_, errs[i] = s.CreateEntities(bg, []Entity{{name, "t", []string{"o"}}})
			if errs[i] == nil {
				_, errs[i] = s.CreateRelations(bg, []Relation{{name, "hub", "r"}})
			}
		}()
	}
	wg.Wait()
	for i, err := range errs {
		var nf *EntityNotFoundError
		if i%3 == 0 {
			if !errors.As(err, &nf) {
				t.Errorf("call %d: got %v, want EntityNotFoundError", i, err)
			}
		} else if err != nil {
			t.Errorf("call %d: %v", i, err)
		}
	}
	g := readGraph(t, s)
	assertGraph(t, "mirror", g, readTables(t, s))
	if want := n - n/3; len(g.Entities) != want || len(g.Relations) != want {
		t.Fatalf("%d entities, %d relations, want %d of each", len(g.Entities), len(g.Relations), want)
	}
	for _, e := range g.Entities {
		if len(e.Observations) != 1 {
			t.Fatalf("entity %+v: a failed call's observation was stored", e)
		}
	}
}

// TestMirrorCompactionAndRepeats: deleting most of a large graph compacts
// the mirror, and deleting an observation stored twice (as an imported
// reference file may hold it) removes both; the mirror still equals the
// tables.
func TestMirrorCompactionAndRepeats(t *testing.T) {
	s, _ := openSQLiteTest(t, WithSyncNormal())
	file := `{"type":"entity","name":"rep","entityType":"t","observations":["x","y","x"]}` + "\n"
	must[ImportStats](t)(s.Import(bg, strings.NewReader(file)))
	readGraph(t, s) // load the mirror
	var ents []Entity
	var rels []Relation
	for i := range 3000 {
		ents = append(ents, Entity{fmt.Sprintf("e%04d", i), "t", []string{"a", fmt.Sprint(i)}})
		rels = append(rels, Relation{fmt.Sprintf("e%04d", i), "rep", "r"})
	}
	must[[]Entity](t)(s.CreateEntities(bg, ents))
	must[[]Relation](t)(s.CreateRelations(bg, rels))
	var doomed []string
	for i := range 2500 {
		doomed = append(doomed, fmt.Sprintf("e%04d", i))
	}
	mustNil(t, s.DeleteEntities(bg, doomed))
	mustNil(t, s.DeleteObservations(bg, []ObservationDelete{{"rep", []string{"x"}}, {"e2999", []string{"a"}}}))
	s.mirror.mu.RLock()
	compacted := len(s.mirror.ents) < 1000
	s.mirror.mu.RUnlock()
	if !compacted {
		t.Errorf("the mirror was not compacted")
	}
	got := readGraph(t, s)
	assertGraph(t, "after deletes", got, readTables(t, s))
	if len(got.Entities) != 501 || !slices.Equal(got.Entities[0].Observations, []string{"y"}) {
		t.Fatalf("unexpected graph: %d entities, first %+v", len(got.Entities), got.Entities[0])
	}
}

// TestMirrorPointReads: open_nodes and search_nodes answer exactly the
// same from the mirror as from the tables, through random writes (deletes
// and re-creations of a name included) and a compaction of the mirror, and
// when every name hashes alike (one chain for all).
func TestMirrorPointReads(t *testing.T) {
	for _, collide := range []bool{false, true} {
		t.Run(fmt.Sprintf("collide=%v", collide), func(t *testing.T) {
			if collide {
				if testing.Short() {
					t.Skip("slow (the same again with every name in one hash chain); runs without -short")
				}
				hash := nameHash
				nameHash = func(string) uint64 { return 7 }
				t.Cleanup(func() { nameHash = hash })
			}
			mirrored, _ := openSQLiteTest(t, WithSyncNormal())
			tables, _ := openSQLiteTest(t, WithSyncNormal())
			for _, s := range []*SQLite{mirrored, tables} {
				s.tailMax = 0 // search the FTS indexes, not the tail
			}
			readGraph(t, mirrored) // load its mirror; tables' is never loaded
			same := func(what string, o op) {
				t.Helper()
				got, want := applyStore(mirrored, o), applyStore(tables, o)
				if !sameResult(got, want) {
					t.Fatalf("%s: %s %+q:\n mirror %s %s\n tables %s %s", what, o.Op, fmt.Sprint(o.Arg), got.Ok, got.Err, want.Ok, want.Err)
				}
			}
			rng := rand.New(rand.NewPCG(7, 1))
			for i, o := range genOps(rng, 400, false) {
				if o.Op == "read_graph" {
					continue // it would load tables' mirror
				}
				same(fmt.Sprint("op ", i), o)
				if i%20 == 0 {
					same("all names", op{"open_nodes", namePool})
				}
			}
			// A hub with many relations, most of which go with their
			// entities: enough deletes to compact the mirror.
			var ents []Entity
			var rels []Relation
			for i := range 3000 {
				ents = append(ents, Entity{fmt.Sprintf("e%04d", i), "t", []string{"a", fmt.Sprint(i)}})
				rels = append(rels, Relation{fmt.Sprintf("e%04d", i), "hub", "r"}, Relation{"hub", fmt.Sprintf("e%04d", i), "r"})
			}
			ents = append(ents, Entity{"hub", "t", nil})
			var doomed []string
			for i := range 2500 {
				doomed = append(doomed, fmt.Sprintf("e%04d", i))
			}
			for _, o := range []op{{"create_entities", ents}, {"create_relations", rels}, {"delete_entities", doomed}} {
				same("bulk", o)
			}
			same("after compaction", op{"open_nodes", []string{"hub", "e0001", "e2999", "e2500"}})
			same("after compaction", op{"search_nodes", "e29"})
			same("after compaction", op{"search_nodes", "hub"})
			mirrored.mirror.mu.RLock()
			used, compacted := mirrored.mirror.valid, len(mirrored.mirror.ents) < 1000
			mirrored.mirror.mu.RUnlock()
			if !used || !compacted || tables.mirror.valid {
				t.Fatalf("mirror loaded %v, compacted %v; tables' loaded %v", used, compacted, tables.mirror.valid)
			}
		})
	}
}

// TestMirrorBudget: a graph larger than the mirror's budget is never
// held in memory, whether it was that large when first read or grew past
// the budget by writes, and reads answer the same from the tables.
func TestMirrorBudget(t *testing.T) {
	ents := func(from, n int) []Entity {
		var out []Entity
		for i := range n {
			out = append(out, Entity{fmt.Sprintf("e%05d", from+i), "t", []string{strings.Repeat("o", 100), fmt.Sprint(i)}})
		}
		return out
	}
	held := func(s *SQLite) (valid, over bool, size int) {
		s.mirror.mu.RLock()
		defer s.mirror.mu.RUnlock()
		return s.mirror.valid, s.mirror.over, s.mirror.size()
	}

	// Too large when first read: 10,000 entities take well over 256 KiB.
	s, _ := openSQLiteTest(t, WithSyncNormal(), WithMirrorBytes(256<<10))
	must[[]Entity](t)(s.CreateEntities(bg, ents(0, 10_000)))
	got := readGraph(t, s)
	if valid, over, size := held(s); valid || !over || size > 0 {
		t.Errorf("after reading a graph over budget: valid %v, over %v, %d bytes held", valid, over, size)
	}
	assertGraph(t, "over budget", got, readTables(t, s))
	must[[]Entity](t)(s.CreateEntities(bg, ents(10_000, 10)))
	assertGraph(t, "over budget, after a write", readGraph(t, s), readTables(t, s))

	// Growing past the budget by writes.
	s2, _ := openSQLiteTest(t, WithSyncNormal(), WithMirrorBytes(256<<10))
	must[[]Entity](t)(s2.CreateEntities(bg, ents(0, 10)))
	readGraph(t, s2)
	if valid, over, _ := held(s2); !valid || over {
		t.Fatalf("a small graph is not mirrored: valid %v, over %v", valid, over)
	}
	for i := range 10 {
		must[[]Entity](t)(s2.CreateEntities(bg, ents(10+i*1000, 1000)))
	}
	if valid, over, size := held(s2); valid || !over || size > 0 {
		t.Errorf("after growing past the budget: valid %v, over %v, %d bytes held", valid, over, size)
	}
	assertGraph(t, "grown over budget", readGraph(t, s2), readTables(t, s2))
}

// TestMirrorArenaFull: the arena's offsets are 32 bits; a graph whose
// texts would outgrow them (maxArena, made small here) is not held even
// without a budget, whether when first read or by writes, and reads
// answer the same from the tables.
func TestMirrorArenaFull(t *testing.T) {
	defer func(n int) { maxArena = n }(maxArena)
	maxArena = 64 << 10
	ents := func(from, n int) []Entity {
		var out []Entity
		for i := range n {
			out = append(out, Entity{fmt.Sprintf("e%05d", from+i), "t", []string{strings.Repeat("o", 100)}})
		}
		return out
	}
	s, _ := openSQLiteTest(t, WithSyncNormal(), WithMirrorBytes(-1))
	must[[]Entity](t)(s.CreateEntities(bg, ents(0, 1000)))
	assertGraph(t, "arena full", readGraph(t, s), readTables(t, s))
	if valid, over := mirrorState(s); valid || !over {
		t.Errorf("a graph of ~110 KB of text with a 64 KiB arena: valid %v, over %v", valid, over)
	}

	s2, _ := openSQLiteTest(t, WithSyncNormal(), WithMirrorBytes(-1))
	must[[]Entity](t)(s2.CreateEntities(bg, ents(0, 10)))
	readGraph(t, s2)
	if valid, _ := mirrorState(s2); !valid {
		t.Fatal("a small graph is not mirrored")
	}
	must[[]Entity](t)(s2.CreateEntities(bg, ents(10, 1000)))
	if valid, over := mirrorState(s2); valid || !over {
		t.Errorf("after growing past a 64 KiB arena: valid %v, over %v", valid, over)
	}
	assertGraph(t, "grown past the arena", readGraph(t, s2), readTables(t, s2))
}

// TestMirrorLoadSized: a mirror is loaded into records sized from the
// tables beforehand, not grown by doubling (which held two copies at
// once and up to half of each unused), and holds the graph the tables
// hold, observations in order across entities, gaps in the ids included.
func TestMirrorLoadSized(t *testing.T) {
	s, _ := openSQLiteTest(t, WithSyncNormal())
	var ents []Entity
	var rels []Relation
	for i := range 3000 {
		ents = append(ents, Entity{fmt.Sprintf("entity-%d", i), "t", []string{fmt.Sprintf("first %d", i), "second"}})
		if i > 0 {
			rels = append(rels, Relation{ents[i].Name, ents[i-1].Name, "follows"})
		}
	}
	must[[]Entity](t)(s.CreateEntities(bg, ents))
	must[[]Relation](t)(s.CreateRelations(bg, rels))
	must[[]AddedObservations](t)(s.AddObservations(bg, []ObservationAdd{{EntityName: "entity-7", Contents: []string{"later"}}}))
	if err := s.DeleteEntities(bg, []string{"entity-2999", "entity-5"}); err != nil {
		t.Fatal(err)
	}
	s.mirror.mu.Lock()
	s.mirror.drop() // loaded again by the next read
	s.mirror.mu.Unlock()
	assertGraph(t, "loaded", readGraph(t, s), readTables(t, s))
	m := &s.mirror
	m.mu.RLock()
	defer m.mu.RUnlock()
	if !m.valid {
		t.Fatal("the graph is not mirrored")
	}
	if cap(m.ents) > 3000 || cap(m.obs) > 6001 || cap(m.rels) > 2999 || cap(m.arena) > len(m.arena)*5/4 {
		t.Errorf("records of %d entities, %d observations, %d relations and %d bytes of text have capacities %d, %d, %d, %d; want at most the tables' highest ids, the text +25%%",
			len(m.ents), len(m.obs), len(m.rels), len(m.arena), cap(m.ents), cap(m.obs), cap(m.rels), cap(m.arena))
	}
}

// mirrorState is whether s's mirror is loaded and whether it gave up.
func mirrorState(s *SQLite) (valid, over bool) {
	s.mirror.mu.RLock()
	defer s.mirror.mu.RUnlock()
	return s.mirror.valid, s.mirror.over
}

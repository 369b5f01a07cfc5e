package memstore

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// benchSizes are the graph sizes of the benchmarks; MEMSTORE_BENCH_SIZES
// (e.g. "1000,1000000") overrides them.
var benchSizes = func() []int {
	env := os.Getenv("MEMSTORE_BENCH_SIZES")
	if env == "" {
		return []int{1_000, 10_000, 100_000}
	}
	var sizes []int
	for _, f := range strings.Split(env, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			panic("MEMSTORE_BENCH_SIZES: " + err.Error())
		}
		sizes = append(sizes, n)
	}
	return sizes
}()

// benchFixture is a store holding largeGraph(n), built once per size and
// shared by all benchmarks of the run (the write benchmarks add to it).
type benchFixture struct {
	once sync.Once
	s    *SQLite
	err  error
}

var (
	benchSeq      atomic.Int64 // unique names across benchmark runs
	benchDir      string
	benchFixtures = map[int]*benchFixture{}
	benchMu       sync.Mutex
)

func TestMain(m *testing.M) {
	if path := os.Getenv(crashChildEnv); path != "" {
		crashChild(path) // never returns: the parent kills it
	}
	code := m.Run()
	benchMu.Lock()
	for _, f := range benchFixtures {
		if f.s != nil {
			f.s.Close()
		}
	}
	benchMu.Unlock()
	if benchDir != "" {
		os.RemoveAll(benchDir)
	}
	os.Exit(code)
}

func fixture(b *testing.B, n int) *SQLite {
	b.Helper()
	benchMu.Lock()
	f := benchFixtures[n]
	if f == nil {
		f = &benchFixture{}
		benchFixtures[n] = f
	}
	if benchDir == "" {
		dir, err := os.MkdirTemp("", "memstore-bench-")
		if err != nil {
			benchMu.Unlock()
			b.Fatal(err)
		}
		benchDir = dir
	}
	dir := benchDir
	benchMu.Unlock()
	f.once.Do(func() {
		_, file := largeGraph(n)
		s, err := Open(filepath.Join(dir, fmt.Sprintf("bench-%d.db", n)))
		if err != nil {
			f.err = err
			return
		}
		if _, err := s.Import(bg, bytes.NewReader(file)); err != nil {
			s.Close()
			f.err = err
			return
		}
		// Start from a checkpointed WAL so write benchmarks do not pay
		// for the import's checkpoint.
		if _, err := s.wc.c.ExecContext(context.Background(), `PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
			s.Close()
			f.err = err
			return
		}
		f.s = s
	})
	if f.err != nil {
		b.Fatal(f.err)
	}
	return f.s
}

func forSizes(b *testing.B, fn func(b *testing.B, s *SQLite, n int)) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("entities=%d", n), func(b *testing.B) {
			s := fixture(b, n)
			b.ResetTimer()
			cpu0 := processCPU()
			fn(b, s, n)
			// CPU time is steadier than wall time on a shared machine.
			b.ReportMetric(float64(processCPU()-cpu0)/float64(b.N), "cpu-ns/op")
		})
	}
}

// BenchmarkCreateEntities measures one create_entities call of one entity
// with two observations (one durable transaction).
func BenchmarkCreateEntities(b *testing.B) {
	forSizes(b, func(b *testing.B, s *SQLite, n int) {
		for b.Loop() {
			name := fmt.Sprintf("bench-%d", benchSeq.Add(1))
			if _, err := s.CreateEntities(bg, []Entity{{name, "bench", []string{"first observation", "second observation"}}}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkCreateEntities10 measures the bench suite's create_entities
// call: ten entities of one observation each (one durable transaction).
func BenchmarkCreateEntities10(b *testing.B) {
	forSizes(b, func(b *testing.B, s *SQLite, n int) {
		ents := make([]Entity, 10)
		for b.Loop() {
			for i := range ents {
				ents[i] = Entity{fmt.Sprintf("bench-%d", benchSeq.Add(1)), "note", []string{"added while timing"}}
			}
			if _, err := s.CreateEntities(bg, ents); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkAddObservations measures one add_observations call adding one
// new observation to an existing entity.
func BenchmarkAddObservations(b *testing.B) {
	forSizes(b, func(b *testing.B, s *SQLite, n int) {
		for i := 0; b.Loop(); i++ {
			name := fmt.Sprintf("entity-%06d", i%n)
			if _, err := s.AddObservations(bg, []ObservationAdd{{name, []string{fmt.Sprintf("bench note %d", benchSeq.Add(1))}}}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkSearchNodes measures search_nodes for a selective query (one
// entity), a broad one (1/13 of the entities) and a two-character one
// (which cannot use the trigram index).
func BenchmarkSearchNodes(b *testing.B) {
	for _, kind := range []string{"selective", "broad", "short"} {
		b.Run(kind, func(b *testing.B) {
			forSizes(b, func(b *testing.B, s *SQLite, n int) {
				q := map[string]string{"selective": fmt.Sprintf("ENTITY-%06d", n/2), "broad": "straße", "short": "zü"}[kind]
				for b.Loop() {
					g, err := s.SearchNodes(bg, q)
					if err != nil || len(g.Entities) == 0 {
						b.Fatal(err, len(g.Entities))
					}
				}
			})
		})
	}
}

// BenchmarkOpenNodes measures open_nodes for five names.
func BenchmarkOpenNodes(b *testing.B) {
	forSizes(b, func(b *testing.B, s *SQLite, n int) {
		names := []string{"entity-000000", fmt.Sprintf("entity-%06d", n/3), fmt.Sprintf("entity-%06d", n/2), fmt.Sprintf("entity-%06d", n-1), "missing"}
		for b.Loop() {
			g, err := s.OpenNodes(bg, names)
			if err != nil || len(g.Entities) != 4 {
				b.Fatal(err, len(g.Entities))
			}
		}
	})
}

// BenchmarkReadGraph measures read_graph of the whole graph.
func BenchmarkReadGraph(b *testing.B) {
	forSizes(b, func(b *testing.B, s *SQLite, n int) {
		for b.Loop() {
			g, err := s.ReadGraph(bg)
			if err != nil || len(g.Entities) < n {
				b.Fatal(err, len(g.Entities))
			}
		}
	})
}

// BenchmarkWalkGraph measures the walk read_graph renders from: every
// entity and relation handed to a callback that keeps nothing.
func BenchmarkWalkGraph(b *testing.B) {
	forSizes(b, func(b *testing.B, s *SQLite, n int) {
		for b.Loop() {
			ents := 0
			err := s.WalkGraph(bg, func(Entity) error { ents++; return nil }, func(Relation) error { return nil })
			if err != nil || ents < n {
				b.Fatal(err, ents)
			}
		}
	})
}

// BenchmarkWriteThenRead measures, per iteration, what an agent's round
// does: create_entities of 10, add_observations to 5 entities, then
// search_nodes (selective) and open_nodes (5 names). Sub-benchmarks report
// the reads' cost as read-ns/op (ns/op is the whole round).
func BenchmarkWriteThenRead(b *testing.B) {
	for _, op := range []string{"search", "open"} {
		b.Run(op, func(b *testing.B) {
			forSizes(b, func(b *testing.B, s *SQLite, n int) {
				names := []string{"entity-000000", fmt.Sprintf("entity-%06d", n/3), fmt.Sprintf("entity-%06d", n/2), fmt.Sprintf("entity-%06d", n-1), "missing"}
				q := fmt.Sprintf("ENTITY-%06d", n/2)
				var readTime time.Duration
				for i := 0; b.Loop(); i++ {
					ents := make([]Entity, 10)
					for j := range ents {
						ents[j] = Entity{fmt.Sprintf("wtr-%d", benchSeq.Add(1)), "bench", []string{"first observation", "second observation"}}
					}
					if _, err := s.CreateEntities(bg, ents); err != nil {
						b.Fatal(err)
					}
					adds := make([]ObservationAdd, 5)
					for j := range adds {
						adds[j] = ObservationAdd{fmt.Sprintf("entity-%06d", (i*5+j)%n), []string{fmt.Sprintf("wtr note %d", benchSeq.Add(1))}}
					}
					if _, err := s.AddObservations(bg, adds); err != nil {
						b.Fatal(err)
					}
					t0 := time.Now()
					var g Graph
					var err error
					if op == "search" {
						g, err = s.SearchNodes(bg, q)
					} else {
						g, err = s.OpenNodes(bg, names)
					}
					readTime += time.Since(t0)
					if err != nil || len(g.Entities) == 0 {
						b.Fatal(err, len(g.Entities))
					}
				}
				b.ReportMetric(float64(readTime.Nanoseconds())/float64(b.N), "read-ns/op")
			})
		})
	}
}

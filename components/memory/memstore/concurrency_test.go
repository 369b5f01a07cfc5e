package memstore

import (
	"fmt"
	"sync"
	"testing"
)

// testConcurrentWritersNeverFail runs many goroutines that write (and read)
// at once through one store; no call may fail, e.g. with "database is
// locked", and every write must be there afterwards.
func testConcurrentWritersNeverFail(t *testing.T) {
	s, _ := openTest(t, WithSyncNormal())
	must[[]Entity](t)(s.CreateEntities(bg, []Entity{{"shared", "t", nil}}))
	const workers, rounds = 24, 10
	var wg sync.WaitGroup
	errs := make(chan error, workers*rounds*8)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range rounds {
				name := fmt.Sprintf("w%d-%d", w, i)
				steps := []func() error{
					func() error {
						_, err := s.CreateEntities(bg, []Entity{{name, "t", []string{"first " + name}}})
						return err
					},
					func() error {
						_, err := s.AddObservations(bg, []ObservationAdd{{name, []string{"second"}}, {"shared", []string{name}}})
						return err
					},
					func() error {
						_, err := s.CreateRelations(bg, []Relation{{name, "shared", "links"}})
						return err
					},
					func() error {
						_, err := s.CreateTask(bg, NewTask{Title: name, Entities: []string{name}})
						return err
					},
					func() error { _, err := s.SearchNodes(bg, "first w"); return err },
					func() error { _, err := s.ReadGraph(bg); return err },
					func() error { _, _, err := s.Changes(bg, 0, 50); return err },
				}
				for _, step := range steps {
					if err := step(); err != nil {
						errs <- fmt.Errorf("%s: %w", name, err)
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	g := readGraph(t, s)
	if len(g.Entities) != workers*rounds+1 || len(g.Relations) != workers*rounds {
		t.Fatalf("%d entities, %d relations", len(g.Entities), len(g.Relations))
	}
	if n := len(g.Entities[0].Observations); n != workers*rounds {
		t.Fatalf("shared has %d observations", n)
	}
	for _, e := range g.Entities[1:] {
		if len(e.Observations) != 2 {
			t.Fatalf("%s: %q", e.Name, e.Observations)
		}
	}
	if got := must[Graph](t)(s.SearchNodes(bg, "FIRST W")); len(got.Entities) != workers*rounds {
		t.Fatalf("search found %d", len(got.Entities))
	}
	if head := must[int64](t)(s.Head(bg)); head != 1+int64(workers*rounds)*5 {
		t.Fatalf("head %d", head)
	}
}

// testTwoStoresOnOneFile simulates two server processes sharing a database:
// separate connection pools contend for SQLite's file lock, which
// BEGIN IMMEDIATE plus busy_timeout must absorb without errors (on
// PostgreSQL: two replicas serialized by the write lock).
func testTwoStoresOnOneFile(t *testing.T) {
	a, path := openTest(t)
	b := reopenTest(t, path)
	var wg sync.WaitGroup
	errs := make(chan error, 1000)
	for i, s := range []Store{a, b, a, b, a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range 20 {
				name := fmt.Sprintf("s%d-%d", i, j)
				if _, err := s.CreateEntities(bg, []Entity{{name, "t", []string{"o"}}}); err != nil {
					errs <- err
				}
				if _, err := s.AddObservations(bg, []ObservationAdd{{name, []string{"p"}}}); err != nil {
					errs <- err
				}
				if _, err := s.SearchNodes(bg, name); err != nil {
					errs <- err
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	ga, gb := readGraph(t, a), readGraph(t, b)
	if len(ga.Entities) != 120 {
		t.Fatalf("%d entities", len(ga.Entities))
	}
	assertGraph(t, "both stores see the same graph", ga, gb)
	if h := must[int64](t)(b.Head(bg)); h != 240 {
		t.Fatalf("head %d", h)
	}
}

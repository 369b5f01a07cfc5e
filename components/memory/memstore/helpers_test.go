package memstore

import (
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

var bg = context.Background()

// openTest opens a fresh, empty store of the backend under test (see
// engineOf), closed at cleanup, and returns it with where it lives: a
// file path or a postgres:// URL, which reopenTest opens again.
func openTest(t testing.TB, opts ...Option) (Store, string) {
	t.Helper()
	if engineOf(t) == enginePostgres {
		where := postgresTestURL(t)
		return reopenTest(t, where, opts...), where
	}
	return openSQLiteTest(t, opts...)
}

// openSQLiteTest opens a fresh SQLite store in a temporary directory,
// closed at cleanup.
func openSQLiteTest(t testing.TB, opts ...Option) (*SQLite, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "memory.db")
	s, err := Open(path, opts...)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s, path
}

// reopenTest opens another store on the database at where (from openTest),
// closed at cleanup: the same process reopening it, or a second replica.
func reopenTest(t testing.TB, where string, opts ...Option) Store {
	t.Helper()
	s, err := openWhere(where, opts...)
	if err != nil {
		t.Fatalf("open %s: %v", where, err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// openWhere opens the store at a file path or a postgres:// URL.
func openWhere(where string, opts ...Option) (Store, error) {
	if IsPostgresURL(where) {
		return OpenPostgres(bg, where, opts...)
	}
	return Open(where, opts...)
}

func must[T any](t testing.TB) func(T, error) T {
	return func(v T, err error) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

func mustNil(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func readGraph(t testing.TB, s Store) Graph {
	t.Helper()
	g, err := s.ReadGraph(bg)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func assertGraph(t testing.TB, what string, got, want Graph) {
	t.Helper()
	if !reflect.DeepEqual(normGraph(got), normGraph(want)) {
		t.Fatalf("%s:\n got  %+v\n want %+v", what, got, want)
	}
}

// normGraph maps nil and empty slices to the same value for comparison.
func normGraph(g Graph) Graph {
	out := Graph{Entities: []Entity{}, Relations: []Relation{}}
	for _, e := range g.Entities {
		obs := append([]string{}, e.Observations...)
		out.Entities = append(out.Entities, Entity{e.Name, e.EntityType, obs})
	}
	out.Relations = append(out.Relations, g.Relations...)
	return out
}

// refModel is a direct Go port of the reference server's
// KnowledgeGraphManager (dist/index.js, @modelcontextprotocol/server-memory
// 2026.8.31), with our three documented batch-duplicate refinements, used
// as the oracle in randomized tests.
type refModel struct{ g Graph }

func (m *refModel) findEntity(name string) int {
	return slices.IndexFunc(m.g.Entities, func(e Entity) bool { return e.Name == name })
}

func (m *refModel) CreateEntities(es []Entity) []Entity {
	out := []Entity{}
	for _, e := range es {
		if m.findEntity(e.Name) >= 0 { // also catches repeats within the batch (refinement)
			continue
		}
		ne := Entity{e.Name, e.EntityType, dedupe(e.Observations)} // refinement
		m.g.Entities = append(m.g.Entities, ne)
		out = append(out, ne)
	}
	return out
}

func (m *refModel) CreateRelations(rs []Relation) []Relation {
	out := []Relation{}
	for _, r := range rs {
		if slices.Contains(m.g.Relations, r) {
			continue
		}
		m.g.Relations = append(m.g.Relations, r)
		out = append(out, r)
	}
	return out
}

func (m *refModel) AddObservations(adds []ObservationAdd) ([]AddedObservations, error) {
	saved := normGraph(m.g)
	out := []AddedObservations{}
	for _, a := range adds {
		i := m.findEntity(a.EntityName)
		if i < 0 {
			m.g = saved
			return nil, &EntityNotFoundError{a.EntityName}
		}
		added := []string{}
		for _, c := range a.Contents {
			if !slices.Contains(m.g.Entities[i].Observations, c) {
				m.g.Entities[i].Observations = append(m.g.Entities[i].Observations, c)
				added = append(added, c)
			}
		}
		out = append(out, AddedObservations{a.EntityName, added})
	}
	return out, nil
}

func (m *refModel) DeleteEntities(names []string) {
	m.g.Entities = slices.DeleteFunc(m.g.Entities, func(e Entity) bool { return slices.Contains(names, e.Name) })
	m.g.Relations = slices.DeleteFunc(m.g.Relations, func(r Relation) bool {
		return slices.Contains(names, r.From) || slices.Contains(names, r.To)
	})
}

func (m *refModel) DeleteObservations(ds []ObservationDelete) {
	for _, d := range ds {
		if i := m.findEntity(d.EntityName); i >= 0 {
			m.g.Entities[i].Observations = slices.DeleteFunc(m.g.Entities[i].Observations, func(o string) bool {
				return slices.Contains(d.Observations, o)
			})
		}
	}
}

func (m *refModel) DeleteRelations(rs []Relation) {
	m.g.Relations = slices.DeleteFunc(m.g.Relations, func(r Relation) bool { return slices.Contains(rs, r) })
}

func (m *refModel) SearchNodes(query string) Graph {
	q := jsLower(query)
	ents := []Entity{}
	for _, e := range m.g.Entities {
		if strings.Contains(jsLower(e.Name), q) || strings.Contains(jsLower(e.EntityType), q) ||
			slices.ContainsFunc(e.Observations, func(o string) bool { return strings.Contains(jsLower(o), q) }) {
			ents = append(ents, e)
		}
	}
	return m.withRelations(ents)
}

func (m *refModel) OpenNodes(names []string) Graph {
	ents := []Entity{}
	for _, e := range m.g.Entities {
		if slices.Contains(names, e.Name) {
			ents = append(ents, e)
		}
	}
	return m.withRelations(ents)
}

func (m *refModel) withRelations(ents []Entity) Graph {
	set := map[string]bool{}
	for _, e := range ents {
		set[e.Name] = true
	}
	rels := []Relation{}
	for _, r := range m.g.Relations {
		if set[r.From] || set[r.To] {
			rels = append(rels, r)
		}
	}
	return normGraph(Graph{ents, rels})
}

func isErr(err, target error) bool { return errors.Is(err, target) }

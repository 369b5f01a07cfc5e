package memstore

import (
	"context"
	"fmt"
	"io"
)

// emptyGraph is a graph that does not exist yet, as Graphs.UseExisting
// gives it to readers: every read answers what an empty graph answers,
// after the same checks of its arguments, and every write fails (writers
// use Graphs.Use, which creates the graph).
type emptyGraph struct{ name string }

var _ Store = emptyGraph{}

// readOnly is the error of a write to an emptyGraph.
func (g emptyGraph) readOnly() error {
	return fmt.Errorf("%w: graph %q does not exist yet; a write through Graphs.Use creates it", ErrInvalid, g.name)
}

func (g emptyGraph) CreateEntities(context.Context, []Entity) ([]Entity, error) {
	return nil, g.readOnly()
}

func (g emptyGraph) CreateRelations(context.Context, []Relation) ([]Relation, error) {
	return nil, g.readOnly()
}

func (g emptyGraph) AddObservations(context.Context, []ObservationAdd) ([]AddedObservations, error) {
	return nil, g.readOnly()
}

func (g emptyGraph) DeleteEntities(context.Context, []string) error { return g.readOnly() }

func (g emptyGraph) DeleteObservations(context.Context, []ObservationDelete) error {
	return g.readOnly()
}

func (g emptyGraph) DeleteRelations(context.Context, []Relation) error { return g.readOnly() }

func (emptyGraph) ReadGraph(context.Context) (Graph, error) {
	return Graph{Entities: []Entity{}, Relations: []Relation{}}, nil
}

func (emptyGraph) WalkGraph(context.Context, func(Entity) error, func(Relation) error) error {
	return nil
}

func (g emptyGraph) SearchNodes(ctx context.Context, query string) (Graph, error) {
	if _, err := searchQuery(query); err != nil {
		return Graph{}, err
	}
	return g.ReadGraph(ctx)
}

func (g emptyGraph) OpenNodes(ctx context.Context, names []string) (Graph, error) {
	if _, err := openNodesNames(names); err != nil {
		return Graph{}, err
	}
	return g.ReadGraph(ctx)
}

func (emptyGraph) EntityNames(_ context.Context, prefix string, limit int) ([]string, error) {
	if _, err := entityNamesLimit(prefix, limit); err != nil {
		return nil, err
	}
	return []string{}, nil
}

func (g emptyGraph) CreateTask(context.Context, NewTask) (Task, error) { return Task{}, g.readOnly() }

func (g emptyGraph) UpdateTask(context.Context, int64, TaskUpdate) (Task, error) {
	return Task{}, g.readOnly()
}

func (emptyGraph) GetTask(_ context.Context, id int64) (Task, error) {
	return Task{}, fmt.Errorf("%w: task %d", ErrNotFound, id)
}

func (emptyGraph) ListTasks(_ context.Context, f TaskFilter) ([]Task, error) {
	if err := validateTaskFilter(f); err != nil {
		return nil, err
	}
	return []Task{}, nil
}

func (emptyGraph) Changes(_ context.Context, since int64, _ int) ([]Change, int64, error) {
	switch {
	case since < 0:
		return nil, since, fmt.Errorf("%w: change cursor %d is negative", ErrInvalid, since)
	case since > 0:
		return nil, since, fmt.Errorf("%w: change cursor %d is ahead of the newest change 0", ErrInvalid, since)
	}
	return []Change{}, 0, nil
}

func (emptyGraph) Head(context.Context) (int64, error) { return 0, nil }

func (emptyGraph) History(_ context.Context, name string, _ int) ([]Change, error) {
	if err := checkName("name", name); err != nil {
		return nil, err
	}
	return []Change{}, nil
}

func (emptyGraph) WalkHistory(context.Context, func(string, Change) error) error { return nil }

func (g emptyGraph) Import(context.Context, io.Reader) (ImportStats, error) {
	return ImportStats{}, g.readOnly()
}

func (emptyGraph) Export(context.Context, io.Writer) error { return nil }

func (emptyGraph) Close() error { return nil }

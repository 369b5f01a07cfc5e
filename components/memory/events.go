package memory

import (
	"context"
	"fmt"

	"github.com/mcpgen/mcpgen"
	"github.com/mcpgen/mcpgen/components/memory/memstore"
)

// The events of the memory (extension io.modelcontextprotocol/events):
// what changed in a graph, for agents that work from it while others
// change it. Each occurrence belongs to the graph it happened in: a
// subscriber at /graphs/NAME/mcp hears NAME's, and needs its read scope
// (memory:NAME:read) when it subscribes and at every delivery.

// EntityChanged fires when an entity is created, gains or loses
// observations, or is deleted.
//
//mcp:event name=entity.changed filter=EntityFilter scope=memory:read
type EntityChanged struct {
	// The graph the entity is in
	Graph string `json:"graph"`
	// The entity's name
	Entity string `json:"entity"`
	// The entity's type
	EntityType string `json:"entityType"`
	// What happened to it
	Change string `json:"change" jsonschema:"enum=created,enum=observations_added,enum=observations_deleted,enum=deleted"`
	// The observations added or deleted (observations_added,
	// observations_deleted)
	Observations []string `json:"observations,omitempty"`
}

// EntityFilter narrows entity events; empty fields match everything.
type EntityFilter struct {
	// Only entities of this type
	EntityType string `json:"entityType,omitempty"`
	// Only the entity of this name
	Entity string `json:"entity,omitempty"`
}

// Match reports whether e fits the filter.
func (f EntityFilter) Match(e EntityChanged) bool {
	return (f.EntityType == "" || f.EntityType == e.EntityType) && (f.Entity == "" || f.Entity == e.Entity)
}

// RelationChanged fires when a relation is added or removed.
//
//mcp:event name=relation.changed filter=RelationFilter scope=memory:read
type RelationChanged struct {
	// The graph the relation is in
	Graph string `json:"graph"`
	// The entity the relation starts at
	From string `json:"from"`
	// The entity the relation ends at
	To string `json:"to"`
	// The relation's type
	RelationType string `json:"relationType"`
	// What happened to it
	Change string `json:"change" jsonschema:"enum=added,enum=removed"`
}

// RelationFilter narrows relation events; empty fields match everything.
type RelationFilter struct {
	// Only relations of this type
	RelationType string `json:"relationType,omitempty"`
	// Only relations from or to the entity of this name
	Entity string `json:"entity,omitempty"`
}

// Match reports whether r fits the filter.
func (f RelationFilter) Match(r RelationChanged) bool {
	return (f.RelationType == "" || f.RelationType == r.RelationType) && (f.Entity == "" || f.Entity == r.From || f.Entity == r.To)
}

// graphName is the name of the graph the request works on.
func graphName(req *mcpgen.Request, store memstore.Store) string {
	if r, ok := store.(*Routed); ok {
		return graphOf(req, r.Graph)
	}
	return graphOf(req, memstore.DefaultGraph)
}

// emit records the events of one change, in order. Outside a server
// (a component called directly) there is nowhere to record them. The
// change itself is committed already: an error says the events are
// missing, so that the caller knows subscribers were not told.
func emit[E EntityChanged | RelationChanged](ctx context.Context, evs []E) error {
	if mcpgen.RequestFrom(ctx) == nil {
		return nil
	}
	for _, ev := range evs {
		if err := mcpgen.Emit(ctx, ev); err != nil {
			return fmt.Errorf("the graph changed, but its change event was not recorded: %w", err)
		}
	}
	return nil
}

// typesOf returns the type of each existing entity among names, read
// before they are deleted or changed.
func typesOf(ctx context.Context, store memstore.Store, names []string) (map[string]string, error) {
	g, err := store.OpenNodes(ctx, names)
	if err != nil {
		return nil, err
	}
	out := make(map[string]string, len(g.Entities))
	for _, e := range g.Entities {
		out[e.Name] = e.EntityType
	}
	return out, nil
}

package memory

import (
	"context"

	"github.com/mcpgen/mcpgen"
	"github.com/mcpgen/mcpgen/components/memory/memstore"
)

// Create multiple new entities in the knowledge graph
//
//mcp:tool name=create_entities title="Create Entities" destructive=false scope=memory:write
type CreateEntities struct {
	Entities []memstore.Entity `json:"entities" jsonschema:"nullable=false"`
}

// Entities is a list of entities.
type Entities struct {
	Entities []memstore.Entity `json:"entities" jsonschema:"nullable=false"`
}

// ContentText is the text block the reference gives: the bare list.
func (e Entities) ContentText() string { return pretty(e.Entities) }

// Call creates the entities whose names are new and returns those.
func (in CreateEntities) Call(ctx context.Context, req *mcpgen.Request, store memstore.Store) (Entities, error) {
	created, err := store.CreateEntities(ctx, in.Entities)
	if err != nil {
		return Entities{}, err
	}
	return Entities{Entities: created}, changed(ctx, req, store)
}

// Create multiple new relations between entities in the knowledge graph. Relations should be in active voice
//
//mcp:tool name=create_relations title="Create Relations" destructive=false scope=memory:write
type CreateRelations struct {
	Relations []memstore.Relation `json:"relations" jsonschema:"nullable=false"`
}

// Relations is a list of relations.
type Relations struct {
	Relations []memstore.Relation `json:"relations" jsonschema:"nullable=false"`
}

// ContentText is the text block the reference gives: the bare list.
func (r Relations) ContentText() string { return pretty(r.Relations) }

// Call creates the relations that do not exist yet and returns those.
func (in CreateRelations) Call(ctx context.Context, req *mcpgen.Request, store memstore.Store) (Relations, error) {
	created, err := store.CreateRelations(ctx, in.Relations)
	if err != nil {
		return Relations{}, err
	}
	return Relations{Relations: created}, changed(ctx, req, store)
}

// Add new observations to existing entities in the knowledge graph
//
//mcp:tool name=add_observations title="Add Observations" destructive=false scope=memory:write
type AddObservations struct {
	Observations []memstore.ObservationAdd `json:"observations" jsonschema:"nullable=false"`
}

// AddedResults lists, per entity, the observations that were new.
type AddedResults struct {
	Results []memstore.AddedObservations `json:"results" jsonschema:"nullable=false"`
}

// ContentText is the text block the reference gives: the bare list.
func (a AddedResults) ContentText() string { return pretty(a.Results) }

// Call adds the observations; a missing entity fails the whole batch.
func (in AddObservations) Call(ctx context.Context, req *mcpgen.Request, store memstore.Store) (AddedResults, error) {
	added, err := store.AddObservations(ctx, in.Observations)
	if err != nil {
		return AddedResults{}, err
	}
	return AddedResults{Results: added}, changed(ctx, req, store)
}

// Delete multiple entities and their associated relations from the knowledge graph
//
//mcp:tool name=delete_entities title="Delete Entities" destructive idempotent scope=memory:write
type DeleteEntities struct {
	// An array of entity names to delete
	EntityNames []string `json:"entityNames" jsonschema:"nullable=false"`
}

// Call deletes the entities and every relation touching them.
func (in DeleteEntities) Call(ctx context.Context, req *mcpgen.Request, store memstore.Store) (Done, error) {
	if err := store.DeleteEntities(ctx, in.EntityNames); err != nil {
		return Done{}, err
	}
	if err := changed(ctx, req, store); err != nil {
		return Done{}, err
	}
	return Done{Success: true, Message: "Entities deleted successfully"}, nil
}

// Delete specific observations from entities in the knowledge graph
//
//mcp:tool name=delete_observations title="Delete Observations" destructive idempotent scope=memory:write
type DeleteObservations struct {
	Deletions []memstore.ObservationDelete `json:"deletions" jsonschema:"nullable=false"`
}

// Call deletes the observations; missing ones are ignored.
func (in DeleteObservations) Call(ctx context.Context, req *mcpgen.Request, store memstore.Store) (Done, error) {
	if err := store.DeleteObservations(ctx, in.Deletions); err != nil {
		return Done{}, err
	}
	if err := changed(ctx, req, store); err != nil {
		return Done{}, err
	}
	return Done{Success: true, Message: "Observations deleted successfully"}, nil
}

// Delete multiple relations from the knowledge graph
//
//mcp:tool name=delete_relations title="Delete Relations" destructive idempotent scope=memory:write
type DeleteRelations struct {
	// An array of relations to delete
	Relations []memstore.Relation `json:"relations" jsonschema:"nullable=false"`
}

// Call deletes the relations; missing ones are ignored.
func (in DeleteRelations) Call(ctx context.Context, req *mcpgen.Request, store memstore.Store) (Done, error) {
	if err := store.DeleteRelations(ctx, in.Relations); err != nil {
		return Done{}, err
	}
	if err := changed(ctx, req, store); err != nil {
		return Done{}, err
	}
	return Done{Success: true, Message: "Relations deleted successfully"}, nil
}

// Read the entire knowledge graph
//
//mcp:tool name=read_graph title="Read Graph" readonly scope=memory:read view=ui://memory/explorer.html
type ReadGraph struct{}

// Call returns every entity and relation, rendered as they are read into
// spills (memory, then a temporary file) that the runtime streams the
// answer from: the graph is never held whole. One walk renders both
// forms, so they show the same snapshot; a store that fails mid-walk
// fails the call before anything is sent.
func (ReadGraph) Call(ctx context.Context, store memstore.Store) (Graph, error) {
	return streamGraph(ctx, store, false)
}

// Search for nodes in the knowledge graph based on a query
//
//mcp:tool name=search_nodes title="Search Nodes" readonly scope=memory:read view=ui://memory/explorer.html
type SearchNodes struct {
	// The search query to match against entity names, types, and observation content
	Query string `json:"query"`
}

// Call returns the matching entities and the relations touching them.
func (in SearchNodes) Call(ctx context.Context, store memstore.Store) (Graph, error) {
	g, err := store.SearchNodes(ctx, in.Query)
	if err != nil {
		return Graph{}, err
	}
	return renderGraph(g), nil
}

// Open specific nodes in the knowledge graph by their names
//
//mcp:tool name=open_nodes title="Open Nodes" readonly scope=memory:read view=ui://memory/explorer.html
type OpenNodes struct {
	// An array of entity names to retrieve
	Names []string `json:"names" jsonschema:"nullable=false"`
}

// Call returns the named entities and the relations touching them.
func (in OpenNodes) Call(ctx context.Context, store memstore.Store) (Graph, error) {
	g, err := store.OpenNodes(ctx, in.Names)
	if err != nil {
		return Graph{}, err
	}
	return renderGraph(g), nil
}

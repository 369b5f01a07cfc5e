package memory

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/mcpgen/mcpgen"
	"github.com/mcpgen/mcpgen/components/memory/memstore"
)

// The whole knowledge graph as JSON, as the reference server offers it.
//
//mcp:resource uri=memory://knowledge-graph name=knowledge-graph title="Knowledge Graph" mime=application/json scope=memory:read
type KnowledgeGraph struct{}

// Read returns every entity and relation, as the reference's text
// (JSON.stringify(graph, null, 2)), rendered as they are read into a
// spill that the runtime streams the answer from.
func (KnowledgeGraph) Read(ctx context.Context, store memstore.Store) (Graph, error) {
	return streamGraph(ctx, store, true)
}

// The entities of the graph, with their types and observations, without relations.
//
//mcp:resource uri=memory://graph/entities name=graph-entities title="Graph entities" mime=application/json scope=memory:read
type GraphEntities struct{}

// Read returns the entities.
func (GraphEntities) Read(ctx context.Context, store memstore.Store) (Entities, error) {
	g, err := store.ReadGraph(ctx)
	return Entities{Entities: g.Entities}, err
}

// The tasks that are not done yet, newest first.
//
//mcp:resource uri=memory://tasks/active name=active-tasks title="Active tasks" mime=application/json scope=memory:read
type ActiveTasks struct{}

// Read returns the active tasks.
func (ActiveTasks) Read(ctx context.Context, store memstore.Store) (TaskList, error) {
	tasks, err := store.ListTasks(ctx, memstore.TaskFilter{ActiveOnly: true})
	if tasks == nil {
		tasks = []memstore.Task{}
	}
	return TaskList{Tasks: tasks}, err
}

// One entity with its observations and the relations touching it.
//
//mcp:resource uri=memory://entities/{name} name=entity title="Entity" mime=application/json scope=memory:read
type Entity struct {
	Name string `json:"name"`
}

// Read returns the entity, or not-found when there is none of that name.
// A name no entity can have (longer than memstore.MaxNameBytes) is invalid
// params saying so, not a failure of the server.
func (e Entity) Read(ctx context.Context, store memstore.Store) (memstore.Graph, error) {
	if len(e.Name) > memstore.MaxNameBytes {
		return memstore.Graph{}, fmt.Errorf("%w: memory://entities/{name}: the name is %d bytes; entity names are at most %d bytes (memstore.MaxNameBytes)",
			mcpgen.ErrInvalidParams, len(e.Name), memstore.MaxNameBytes)
	}
	g, err := store.OpenNodes(ctx, []string{e.Name})
	if errors.Is(err, memstore.ErrInvalid) || errors.Is(err, memstore.ErrLimit) {
		return g, fmt.Errorf("%w: memory://entities/{name}: %v", mcpgen.ErrInvalidParams, err)
	}
	if err != nil {
		return g, err
	}
	if len(g.Entities) == 0 {
		return g, mcpgen.ErrResourceNotFound
	}
	return g, nil
}

// Complete offers entity names for {name}.
func (Entity) Complete(ctx context.Context, c mcpgen.CompleteRequest, store memstore.Store) ([]string, error) {
	return completeEntity(ctx, store, c.Value)
}

// History is the audit trail of one entity.
type History struct {
	// Entity is the entity's name.
	Entity string `json:"entity"`
	// Changes are its changes, oldest first, each with its author and time.
	Changes []memstore.Change `json:"changes"`
	// Note says when older changes are left out.
	Note string `json:"note,omitempty"`
}

// The changes to one entity, oldest first, each with who made it and when: its creation, observations, relations touching it, deletion. It stays readable after the entity is deleted.
//
//mcp:resource uri=memory://entities/{name}/history name=entity-history title="Entity history" mime=application/json scope=memory:read
type EntityHistory struct {
	Name string `json:"name"`
}

// Read returns the entity's history, or not-found when it has none.
func (e EntityHistory) Read(ctx context.Context, store memstore.Store) (History, error) {
	if len(e.Name) > memstore.MaxNameBytes {
		return History{}, fmt.Errorf("%w: memory://entities/{name}/history: the name is %d bytes; entity names are at most %d bytes (memstore.MaxNameBytes)",
			mcpgen.ErrInvalidParams, len(e.Name), memstore.MaxNameBytes)
	}
	changes, err := store.History(ctx, e.Name, memstore.MaxHistoryPage)
	if errors.Is(err, memstore.ErrInvalid) || errors.Is(err, memstore.ErrLimit) {
		return History{}, fmt.Errorf("%w: memory://entities/{name}/history: %v", mcpgen.ErrInvalidParams, err)
	}
	if err != nil {
		return History{}, err
	}
	if len(changes) == 0 {
		return History{}, mcpgen.ErrResourceNotFound
	}
	h := History{Entity: e.Name, Changes: changes}
	if len(changes) == memstore.MaxHistoryPage {
		h.Note = fmt.Sprintf("the newest %d changes; older ones are left out", memstore.MaxHistoryPage)
	}
	return h, nil
}

// Complete offers entity names for {name}.
func (EntityHistory) Complete(ctx context.Context, c mcpgen.CompleteRequest, store memstore.Store) ([]string, error) {
	return completeEntity(ctx, store, c.Value)
}

// Delta is a page of the change feed.
type Delta struct {
	// Since is the cursor the page starts after.
	Since int64 `json:"since"`
	// Next is the cursor to pass next time (memory://changes/{next}).
	Next int64 `json:"next"`
	// More is true when more changes follow Next already.
	More bool `json:"more"`
	// Changes are the changes after Since, oldest first.
	Changes []memstore.Change `json:"changes"`
	// Note explains how to continue.
	Note string `json:"note,omitempty"`
}

// What changed in the graph and the tasks since this client's session
// began. Sessions exist for clients that use the initialize handshake;
// stateless (2026-07-28) clients get the current cursor here and then read
// memory://changes/{cursor} to follow the feed.
//
//mcp:resource uri=memory://session/delta name=session-delta title="Changes this session" mime=application/json scope=memory:read
type SessionDelta struct{}

// Read returns the changes since the session started.
func (SessionDelta) Read(ctx context.Context, req *mcpgen.Request, store memstore.Store) (Delta, error) {
	if req.Session == nil {
		head, err := store.Head(ctx)
		return Delta{Since: head, Next: head, Changes: []memstore.Change{},
			Note: fmt.Sprintf("stateless request: no session; read memory://changes/%d later to see what changed from now on", head)}, err
	}
	started := req.Session.Started()
	d := Delta{Changes: []memstore.Change{}}
	for cursor := int64(0); ; {
		page, next, err := store.Changes(ctx, cursor, memstore.MaxChangesPage)
		if err != nil {
			return d, err
		}
		for _, c := range page {
			if !c.At.Before(started) {
				d.Changes = append(d.Changes, c)
			} else {
				d.Since = c.Seq
			}
		}
		d.Next = next
		if len(page) < memstore.MaxChangesPage || len(d.Changes) >= memstore.MaxChangesPage {
			d.More = len(page) == memstore.MaxChangesPage
			return d, nil
		}
		cursor = next
	}
}

// The changes after a cursor, oldest first, at most one page. Start from
// the "next" value of memory://session/delta (or 0 for the oldest kept) and
// pass each page's "next" on.
//
//mcp:resource uri=memory://changes/{since} name=changes title="Changes since a cursor" mime=application/json scope=memory:read
type Changes struct {
	Since string `json:"since"`
}

// Read returns one page of the change feed. Cursor 0 always answers, from
// the oldest change kept (with a note when older ones were pruned). A
// cursor that is not a number, is ahead of the newest change, or whose
// following changes were pruned is invalid params naming the cursor to
// send instead: these are the client's mistakes, not the server's.
func (c Changes) Read(ctx context.Context, store memstore.Store) (Delta, error) {
	since, err := strconv.ParseInt(strings.TrimSpace(c.Since), 10, 64)
	if err != nil || since < 0 {
		return Delta{}, fmt.Errorf("%w: memory://changes/{since}: since is %q, want a cursor (a non-negative integer): start from memory://changes/0",
			mcpgen.ErrInvalidParams, c.Since)
	}
	page, next, err := store.Changes(ctx, since, memstore.MaxChangesPage)
	if err != nil {
		return Delta{}, changesError(ctx, store, since, err)
	}
	if page == nil {
		page = []memstore.Change{}
	}
	d := Delta{Since: since, Next: next, More: len(page) == memstore.MaxChangesPage, Changes: page}
	if since == 0 && len(page) > 0 && page[0].Seq > 1 {
		d.Note = fmt.Sprintf("changes 1 to %d were pruned: the feed starts at %d; read memory://knowledge-graph for the whole graph", page[0].Seq-1, page[0].Seq)
	}
	return d, nil
}

// changesError turns the store's answer to a cursor it cannot serve into
// invalid params saying what to read instead; other errors are returned
// as they are (the server's failures).
func changesError(ctx context.Context, store memstore.Store, since int64, err error) error {
	switch {
	case errors.Is(err, memstore.ErrHistoryPruned):
		head, herr := store.Head(ctx)
		if herr != nil {
			return herr
		}
		return fmt.Errorf("%w: memory://changes/%d: the changes after cursor %d were pruned: read memory://knowledge-graph and continue from memory://changes/%d, or start over from memory://changes/0 (the oldest kept)",
			mcpgen.ErrInvalidParams, since, since, head)
	case errors.Is(err, memstore.ErrInvalid):
		head, herr := store.Head(ctx)
		if herr != nil {
			return herr
		}
		return fmt.Errorf("%w: memory://changes/%d: cursor %d is ahead of the newest change %d (a cursor from another database?): continue from memory://changes/%d, or start over from memory://changes/0",
			mcpgen.ErrInvalidParams, since, since, head, head)
	}
	return err
}

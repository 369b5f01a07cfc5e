package memory

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"sync"

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

// The events are derived from each graph's change feed
// (memstore.Store.Changes), which a change writes in its own transaction:
// after a write, the tool records the events of the feed from the event
// store's cursor for that graph to the feed's head, moving the cursor in
// the same transaction as the events (mcpgen.RecordFeed). A crash between
// the change and its events loses nothing: the next write to the graph,
// or the next start (Routed.RelayEvents), records them. Replicas sharing
// a store race over the same cursor, and each event is recorded once.

// FeedSource is the name of graph's change feed in the event store.
func FeedSource(graph string) string { return "memory:graph/" + graph }

// bootstrapSource marks a store whose graphs' feeds are all followed:
// before it, their changes were made with no events.
const bootstrapSource = "memory:graphs"

// maxEventObservations bounds the observation text of one event: a longer
// run of observation changes is told in several events.
const maxEventObservations = 64 << 10

// relayLocks keep the passes over one graph's feed in this process one at
// a time (striped by graph name, so their number is fixed); other
// replicas are kept apart by the cursor.
var relayLocks [64]sync.Mutex

func relayLock(graph string) *sync.Mutex {
	h := fnv.New32a()
	h.Write([]byte(graph))
	return &relayLocks[h.Sum32()%uint32(len(relayLocks))]
}

// changed tells subscribers that the request's graph changed: its
// resources, and the events of its new changes, recorded now or, once
// RelayEvents followed the server, by the graph's next pass. The change
// itself is committed already: an error says its events are not recorded
// yet (the next change, read of events or start records them).
func changed(ctx context.Context, req *mcpgen.Request, store memstore.Store) error {
	graphChanged(req)
	if req == nil || req.Server() == nil {
		return nil // a component called directly: nowhere to record
	}
	var err error
	if r, ok := store.(*Routed); ok {
		graph := graphOf(req, r.Graph)
		if rs := r.following(req.Server()); rs != nil {
			err = rs.changed(ctx, graph) // relayed later, unless passes fail
		} else {
			err = r.relay(ctx, req.Server(), graph)
		}
	} else {
		err = relay(ctx, req.Server(), store, memstore.DefaultGraph, []string{req.Partition})
	}
	if err != nil {
		return fmt.Errorf("the graph changed, but its change events are not recorded yet (the next change records them): %w", err)
	}
	return nil
}

// partitions are the partitions serving graph, in which its events are
// recorded: its own (shared and private graphs), or, for the process's
// graph, the main path's and, over HTTP, its shared path's.
func (r *Routed) partitions(graph string) []string {
	if graph != r.Graph || r.PerSubject {
		return []string{graph}
	}
	if r.Shared {
		return []string{"", graph}
	}
	return []string{""}
}

// relay records the events of graph's new changes (see changed).
func (r *Routed) relay(ctx context.Context, srv *mcpgen.Server, graph string) error {
	s, release, err := r.Graphs.UseExisting(ctx, graph)
	if err != nil {
		return err
	}
	defer release()
	return relay(ctx, srv, s, graph, r.partitions(graph))
}

// RelayEvents records the events of changes committed but not recorded
// (a crash between the two), for every graph; mcp-memory calls it before
// serving. On a store that never recorded events, it starts every graph's
// events from its current head: changes made before are not told. From
// then on, the events of r's writes on srv are recorded by passes that
// each cover many calls (events_relay.go), and srv's readers of events
// catch up before they read; without it, each write records its own
// events before it answers.
func (r *Routed) RelayEvents(ctx context.Context, srv *mcpgen.Server) error {
	graphs, err := r.Graphs.List(ctx)
	if err != nil {
		return fmt.Errorf("relay events: %w", err)
	}
	_, started, err := mcpgen.FeedCursor(ctx, srv, bootstrapSource)
	if err != nil {
		return fmt.Errorf("relay events: %w", err)
	}
	for _, g := range graphs {
		if started {
			err = r.relay(ctx, srv, g.Name)
		} else {
			err = SkipEvents(ctx, r.Graphs, g.Name, func(ctx context.Context, source string, at int64) error {
				from, _, err := mcpgen.FeedCursor(ctx, srv, source)
				if err != nil || from >= at {
					return err
				}
				return mcpgen.RecordFeed(ctx, srv, source, from, at, nil)
			})
		}
		if err != nil {
			return fmt.Errorf("relay the events of graph %s: %w", g.Name, err)
		}
	}
	if !started {
		if err := mcpgen.RecordFeed(ctx, srv, bootstrapSource, 0, 1, nil); err != nil && !errors.Is(err, mcpgen.ErrFeedRecorded) {
			return fmt.Errorf("relay events: %w", err)
		}
	}
	return r.follow(srv)
}

// SkipEvents moves graph's events past its feed's current changes,
// recording none, through record: mcpgen.RecordFeed in a server, an
// EventStore's AppendFeed outside one (mcp-memory import).
func SkipEvents(ctx context.Context, graphs *memstore.Graphs, graph string, record func(ctx context.Context, source string, at int64) error) error {
	s, release, err := graphs.UseExisting(ctx, graph)
	if err != nil {
		return err
	}
	defer release()
	head, err := s.Head(ctx)
	if err != nil || head == 0 {
		return err
	}
	if err := record(ctx, FeedSource(graph), head); err != nil && !errors.Is(err, mcpgen.ErrFeedRecorded) {
		return err
	}
	return nil
}

// relay records, in parts, the events of the changes of graph's feed
// (store) after the event store's cursor, a page at a time.
func relay(ctx context.Context, srv *mcpgen.Server, store memstore.Store, graph string, parts []string) error {
	mu := relayLock(graph)
	mu.Lock()
	defer mu.Unlock()
	source := FeedSource(graph)
	at, _, err := mcpgen.FeedCursor(ctx, srv, source)
	if err != nil {
		return err
	}
	for {
		changes, next, err := store.Changes(ctx, at, memstore.MaxChangesPage)
		if errors.Is(err, memstore.ErrHistoryPruned) {
			// More than the feed's retention behind (the event store
			// failed for that long): those changes are gone; go on from
			// the oldest kept.
			changes, next, err = store.Changes(ctx, 0, memstore.MaxChangesPage)
		}
		if err != nil {
			return err
		}
		if len(changes) == 0 {
			return nil
		}
		evs, err := changeEvents(ctx, store, graph, changes, parts)
		if err != nil {
			return err
		}
		switch err := mcpgen.RecordFeed(ctx, srv, source, at, next, evs); {
		case errors.Is(err, mcpgen.ErrFeedRecorded):
			// Another replica recorded some: go on after them.
			if at, _, err = mcpgen.FeedCursor(ctx, srv, source); err != nil {
				return err
			}
			continue
		case err != nil:
			return err
		}
		if len(changes) < memstore.MaxChangesPage {
			// A change committed after this page is relayed by its own
			// writer, which relays after its commit.
			return nil
		}
		at = next
	}
}

// changeEvents are the events of a page of graph's changes, in each of
// parts: one per entity created or deleted and relation added or removed,
// one per run of observation changes of one entity in one call. The feed
// does not name the entity of an observation change: it comes from the
// page's creations and deletions, else from the graph.
func changeEvents(ctx context.Context, store memstore.Store, graph string, changes []memstore.Change, parts []string) ([]mcpgen.FeedEvent, error) {
	types := map[string]string{}
	var unknown []string
	for _, c := range changes {
		if c.Kind == memstore.ChangeEntityCreated || c.Kind == memstore.ChangeEntityDeleted {
			types[c.Subject] = c.Detail
		}
	}
	for _, c := range changes {
		if _, ok := types[c.Subject]; !ok && (c.Kind == memstore.ChangeObservationAdded || c.Kind == memstore.ChangeObservationDeleted) {
			types[c.Subject] = ""
			unknown = append(unknown, c.Subject)
		}
	}
	if len(unknown) > 0 {
		g, err := store.OpenNodes(ctx, unknown)
		if err != nil {
			return nil, err
		}
		for _, e := range g.Entities {
			types[e.Name] = e.EntityType
		}
	}
	var out []mcpgen.FeedEvent
	for i := 0; i < len(changes); {
		c := changes[i]
		i++
		switch c.Kind {
		case memstore.ChangeEntityCreated:
			out = feedEvents(out, parts, EntityChanged{Graph: graph, Entity: c.Subject, EntityType: c.Detail, Change: "created"})
		case memstore.ChangeEntityDeleted:
			out = feedEvents(out, parts, EntityChanged{Graph: graph, Entity: c.Subject, EntityType: c.Detail, Change: "deleted"})
		case memstore.ChangeObservationAdded, memstore.ChangeObservationDeleted:
			change := "observations_added"
			if c.Kind == memstore.ChangeObservationDeleted {
				change = "observations_deleted"
			}
			ev := EntityChanged{Graph: graph, Entity: c.Subject, EntityType: types[c.Subject], Change: change, Observations: []string{c.Detail}}
			size := len(c.Detail)
			for ; i < len(changes); i++ {
				n := changes[i]
				if n.Kind != c.Kind || n.Subject != c.Subject || !n.At.Equal(c.At) || size+len(n.Detail) > maxEventObservations {
					break
				}
				ev.Observations = append(ev.Observations, n.Detail)
				size += len(n.Detail)
			}
			out = feedEvents(out, parts, ev)
		case memstore.ChangeRelationCreated, memstore.ChangeRelationDeleted:
			if c.Relation == nil {
				continue
			}
			change := "added"
			if c.Kind == memstore.ChangeRelationDeleted {
				change = "removed"
			}
			out = feedEvents(out, parts, RelationChanged{Graph: graph, From: c.Relation.From, To: c.Relation.To, RelationType: c.Relation.RelationType, Change: change})
		}
	}
	return out, nil
}

// feedEvents appends ev, in each of parts, to out.
func feedEvents[E EntityChanged | RelationChanged](out []mcpgen.FeedEvent, parts []string, ev E) []mcpgen.FeedEvent {
	for _, p := range parts {
		out = append(out, mcpgen.FeedEvent{Partition: p, Event: ev})
	}
	return out
}

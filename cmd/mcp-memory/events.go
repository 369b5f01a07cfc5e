package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/mcpgen/mcpgen"
	component "github.com/mcpgen/mcpgen/components/memory"
	"github.com/mcpgen/mcpgen/components/memory/memstore"
	"github.com/mcpgen/mcpgen/eventstore"
	"github.com/mcpgen/mcpgen/pgcluster"
)

// openEvents opens the store of the memory's events beside its graphs:
// in the same SQLite file, or in the same PostgreSQL database (and
// schema), where every replica shares the log, the webhook subscriptions
// and the delivery outbox.
func openEvents(ctx context.Context, db string) (mcpgen.EventStore, io.Closer, error) {
	if memstore.IsPostgresURL(db) {
		ctx, cancel := context.WithTimeout(ctx, openTimeout)
		defer cancel()
		s, err := pgcluster.OpenEventStore(ctx, db)
		if err != nil {
			return nil, nil, err
		}
		return s, s, nil
	}
	s, err := eventstore.Open(ctx, db)
	if err != nil {
		return nil, nil, err
	}
	return s, s, nil
}

// skipEvents moves the events of graph to its change feed's head without
// recording any: an import is not told entity by entity (it may hold far
// more changes than the feed keeps).
func skipEvents(ctx context.Context, db string, graphs *memstore.Graphs, graph string) error {
	s, release, err := graphs.UseExisting(ctx, graph)
	if err != nil {
		return err
	}
	defer release()
	head, err := s.Head(ctx)
	if err != nil || head == 0 {
		return err
	}
	events, closer, err := openEvents(ctx, db)
	if err != nil {
		return err
	}
	defer closer.Close()
	if err := events.AppendFeed(ctx, component.FeedSource(graph), head, nil, nil); err != nil && !errors.Is(err, mcpgen.ErrFeedRecorded) {
		return fmt.Errorf("move past the imported changes: %w", err)
	}
	return nil
}

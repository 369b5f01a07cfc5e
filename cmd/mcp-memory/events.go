package main

import (
	"context"
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

// skipEvents moves the events of graph past the changes it holds without
// recording any: an import is not told entity by entity (it may hold far
// more changes than the feed keeps).
func skipEvents(ctx context.Context, db string, graphs *memstore.Graphs, graph string) error {
	events, closer, err := openEvents(ctx, db)
	if err != nil {
		return err
	}
	defer closer.Close()
	err = component.SkipEvents(ctx, graphs, graph, func(ctx context.Context, source string, at int64) error {
		from, _, err := events.FeedCursor(ctx, source)
		if err != nil || from >= at {
			return err
		}
		return events.AppendFeed(ctx, source, from, at, nil, nil)
	})
	if err != nil {
		return fmt.Errorf("move past the imported changes: %w", err)
	}
	return nil
}

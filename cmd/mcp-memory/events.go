package main

import (
	"context"
	"io"

	"github.com/mcpgen/mcpgen"
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

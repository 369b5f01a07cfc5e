// Package eventstore keeps the events of an mcpgen server (the event log,
// the webhook subscriptions and the delivery outbox; see
// [mcpgen.EventStore]) in a SQLite file, so that a cursor, a subscription
// and an event owed to a webhook survive a restart or a crash of the
// process. Replicas share theirs on PostgreSQL instead
// (pgcluster.OpenEventStore).
//
//	st, err := eventstore.Open(ctx, "events.db")
//	...
//	defer st.Close() // after srv.Close
//	srv := notes.New(store, mcpgen.Options{Events: mcpgen.EventOptions{Store: st}})
//
// The tables (mcp_events, mcp_event_head, mcp_event_subscriptions,
// mcp_event_outbox) may share a file with other data: mcp-memory keeps
// them in its graph store's file.
package eventstore

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	_ "modernc.org/sqlite" // the pure-Go SQLite driver

	"github.com/mcpgen/mcpgen"
	"github.com/mcpgen/mcpgen/internal/eventsql"
)

// Store is the event store on one SQLite file.
type Store struct {
	*eventsql.Store
}

var _ mcpgen.EventStore = Store{}

// busyTimeout is how long a write waits for another writer of the file
// (a graph store sharing it, say).
const busyTimeout = 10 * time.Second

// Open opens (creating and migrating) the event store in the SQLite file
// at path, in WAL mode. The caller closes it after the server.
func Open(ctx context.Context, path string) (Store, error) {
	dsn := fmt.Sprintf("file:%s?_pragma=busy_timeout(%d)&_pragma=journal_mode(WAL)&_pragma=synchronous(FULL)&_txlock=immediate", path, busyTimeout.Milliseconds())
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return Store{}, fmt.Errorf("event store %s: %w", path, err)
	}
	// One connection: SQLite has one writer, and the store's
	// transactions are short.
	db.SetMaxOpenConns(1)
	s, err := eventsql.New(ctx, db, eventsql.SQLite, "mcp_", true)
	if err != nil {
		db.Close()
		return Store{}, fmt.Errorf("event store %s: %w", path, err)
	}
	return Store{s}, nil
}

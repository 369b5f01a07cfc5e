package pgcluster

import (
	"context"
	"fmt"
	"net/url"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/mcpgen/mcpgen"
	"github.com/mcpgen/mcpgen/internal/cluster/pgcluster"
	"github.com/mcpgen/mcpgen/internal/eventsql"
	"github.com/mcpgen/mcpgen/pgdsn"
)

// EventStore is the events of a deployment ([mcpgen.EventStore]) in
// PostgreSQL, shared by its replicas: each event is in one log whatever
// replica emitted it, any replica serves any cursor, and each delivery
// owed to a webhook is claimed by one replica at a time (SELECT … FOR
// UPDATE SKIP LOCKED, with a lease that another replica takes over when
// the claiming one dies), so that every subscription gets every event
// once, not once per replica.
type EventStore struct {
	*eventsql.Store
}

var _ mcpgen.EventStore = EventStore{}

// OpenEventStore connects to the database at url (the same URL as
// [Open]'s, schema parameter included) and migrates the event tables
// (mcp_events, mcp_event_head, mcp_event_subscriptions,
// mcp_event_outbox) in its schema. The caller closes it after the server.
func OpenEventStore(ctx context.Context, rawURL string) (EventStore, error) {
	red := Redact(rawURL)
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
		return EventStore{}, fmt.Errorf("event store URL %s: want postgres://user@host:port/database", red)
	}
	schema := pgcluster.SchemaOf(u) // and drops the schema parameter
	cfg, err := pgx.ParseConfig(u.String())
	if err != nil {
		return EventStore{}, fmt.Errorf("event store URL %s: %s", red, pgdsn.Scrub(err.Error(), rawURL))
	}
	if cfg.ConnectTimeout == 0 {
		cfg.ConnectTimeout = 10 * time.Second
	}
	db := stdlib.OpenDB(*cfg)
	db.SetMaxOpenConns(4)
	ident := pgx.Identifier{schema}.Sanitize()
	s, err := eventsql.New(ctx, db, eventsql.Postgres, ident+".mcp_", true)
	if err != nil {
		db.Close()
		return EventStore{}, fmt.Errorf("event store %s: %w: %s", red, mcpgen.ErrUnavailable, pgdsn.Scrub(err.Error(), rawURL))
	}
	return EventStore{s}, nil
}

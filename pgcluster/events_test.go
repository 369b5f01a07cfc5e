package pgcluster_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/mcpgen/mcpgen"
	"github.com/mcpgen/mcpgen/internal/eventsql/storetest"
	"github.com/mcpgen/mcpgen/pgcluster"
)

// eventsTestURL is MCP_TEST_POSTGRES with a fresh schema, dropped at
// cleanup; the test is skipped when PostgreSQL is unreachable (failed
// under CI=true).
func eventsTestURL(t testing.TB) string {
	t.Helper()
	base := os.Getenv("MCP_TEST_POSTGRES")
	if base == "" {
		base = "postgres://postgres@127.0.0.1:5432/test?sslmode=disable"
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, base)
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("PostgreSQL unreachable under CI=true: %v", err)
		}
		t.Skipf("PostgreSQL unreachable (set MCP_TEST_POSTGRES): %v", err)
	}
	conn.Close(ctx)
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	schema := "events_" + hex.EncodeToString(b)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if conn, err := pgx.Connect(ctx, base); err == nil {
			_, _ = conn.Exec(ctx, "DROP SCHEMA IF EXISTS "+pgx.Identifier{schema}.Sanitize()+" CASCADE")
			conn.Close(ctx)
		}
	})
	u, _ := url.Parse(base)
	q := u.Query()
	q.Set("schema", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

func TestPostgresEventStore(t *testing.T) {
	storetest.Run(t, func(t *testing.T) mcpgen.EventStore {
		s, err := pgcluster.OpenEventStore(context.Background(), eventsTestURL(t))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	})
}

// BenchmarkEmit is the cost of one event on PostgreSQL (see the root
// package's BenchmarkEmit); docs/bench/log.md has the numbers.
func BenchmarkEmit(b *testing.B) {
	for _, subs := range []int{0, 1} {
		b.Run(fmt.Sprintf("subscriptions=%d", subs), func(b *testing.B) {
			s, err := pgcluster.OpenEventStore(context.Background(), eventsTestURL(b))
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			storetest.Bench(b, s, subs)
		})
	}
}

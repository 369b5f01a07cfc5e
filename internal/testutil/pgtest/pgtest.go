// Package pgtest finds the PostgreSQL server tests use and gives each test
// a schema of its own.
//
// The server is $MCP_TEST_POSTGRES (default
// postgres://postgres@127.0.0.1:5432/test?sslmode=disable). When it cannot
// be reached, [URL] skips the test with a line saying so, except under
// CI=true, where the test fails: CI must not pass by skipping.
package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// Default is the server used when MCP_TEST_POSTGRES is not set.
const Default = "postgres://postgres@127.0.0.1:5432/test?sslmode=disable"

// Server returns the URL of the test server.
func Server() string {
	if u := os.Getenv("MCP_TEST_POSTGRES"); u != "" {
		return u
	}
	return Default
}

// URL returns the test server's URL with a fresh schema parameter
// (schema=<prefix>_<random>), for packages that take it (pgcluster), and
// the schema's name. The schema is dropped when the test ends.
func URL(t testing.TB, prefix string) (string, string) {
	t.Helper()
	schema := newSchema(t, prefix, false)
	return withParam(t, "schema", schema), schema
}

// SearchPathURL creates a fresh schema (<prefix>_<random>), dropped when
// the test ends, and returns the test server's URL whose search_path
// selects it, for stores that use the connection's current schema
// (mcp-memory's PostgreSQL store).
func SearchPathURL(t testing.TB, prefix string) string {
	t.Helper()
	return withParam(t, "search_path", newSchema(t, prefix, true))
}

// newSchema names a fresh schema, creates it when create is set, and
// drops it when the test ends.
func newSchema(t testing.TB, prefix string, create bool) string {
	t.Helper()
	conn := Connect(t)
	var b [6]byte
	_, _ = rand.Read(b[:])
	schema := strings.ToLower(prefix) + "_" + hex.EncodeToString(b[:])
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_, _ = conn.Exec(ctx, "DROP SCHEMA IF EXISTS "+pgx.Identifier{schema}.Sanitize()+" CASCADE")
		// The schemas named after it go too: a memory store's named
		// graphs (memstore.Graphs) live in schemas "<schema>_g_…".
		var more []string
		_ = conn.QueryRow(ctx, `SELECT coalesce(array_agg(nspname::text), '{}') FROM pg_namespace WHERE starts_with(nspname, $1)`, schema+"_g_").Scan(&more)
		for _, m := range more {
			_, _ = conn.Exec(ctx, "DROP SCHEMA IF EXISTS "+pgx.Identifier{m}.Sanitize()+" CASCADE")
		}
		conn.Close(ctx)
	})
	if create {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if _, err := conn.Exec(ctx, "CREATE SCHEMA "+pgx.Identifier{schema}.Sanitize()); err != nil {
			t.Fatalf("create schema %s: %v", schema, err)
		}
	}
	return schema
}

// withParam returns the test server's URL with one query parameter set.
func withParam(t testing.TB, key, value string) string {
	base := Server()
	u, err := url.Parse(base)
	if err != nil {
		t.Fatalf("MCP_TEST_POSTGRES %q: %v", base, err)
	}
	q := u.Query()
	q.Set(key, value)
	u.RawQuery = q.Encode()
	return u.String()
}

// Connect opens a plain connection to the test server, or skips (fails
// under CI=true) when it is unreachable. The caller closes it.
func Connect(t testing.TB) *pgx.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, Server())
	if err != nil {
		msg := "PostgreSQL unreachable at " + redact(Server()) + " (set MCP_TEST_POSTGRES): " + err.Error()
		if os.Getenv("CI") == "true" {
			t.Fatal(msg + "; CI=true requires it")
		}
		t.Skip("SKIP: " + msg)
	}
	return conn
}

func redact(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return "(unparsable URL)"
	}
	return u.Redacted()
}

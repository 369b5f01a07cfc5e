package harness

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/mcpgen/mcpgen/pgdsn"
)

// This file gives mcp-memory's PostgreSQL store a fresh schema per run, for
// the memory and concurrent-agents workloads: mcp-memory keeps its tables
// (memory_*) in the first schema of the URL's search_path, and, given a
// postgres:// --db, runs its cluster backend in the same schema, so one
// DROP SCHEMA ... CASCADE removes everything a run left.

// Store names, as the report shows them.
const (
	StoreSQLite   = "SQLite"
	StorePostgres = "PostgreSQL"
)

// postgresUnreachable returns why mcp-memory cannot run on the PostgreSQL
// server at base ("" when it can): no URL, a URL that does not parse, or a
// server that does not answer.
func postgresUnreachable(ctx context.Context, base string) string {
	if base == "" {
		return "no PostgreSQL URL given (-postgres, env MCP_TEST_POSTGRES)"
	}
	if _, err := url.Parse(base); err != nil {
		return fmt.Sprintf("PostgreSQL URL %s: %v", pgdsn.Redact(base), err)
	}
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	conn, err := pgx.Connect(cctx, base)
	if err != nil {
		msg := strings.Join(strings.Fields(pgdsn.Scrub(err.Error(), base)), " ") // pgx's are several lines
		return fmt.Sprintf("PostgreSQL unreachable at %s: %s", pgdsn.Redact(base), msg)
	}
	_ = conn.Close(cctx)
	return ""
}

// memorySchema is a schema of its own on the PostgreSQL server, created
// for one mcp-memory store.
type memorySchema struct {
	base, name string
	URL        string // base with search_path set to the schema: mcp-memory's --db
}

// newMemorySchema creates a schema named mcpbench_<prefix>_<random> on the
// server at base.
func newMemorySchema(ctx context.Context, base, prefix string) (*memorySchema, error) {
	u, err := url.Parse(base)
	if err != nil {
		return nil, fmt.Errorf("PostgreSQL URL %s: %v", pgdsn.Redact(base), err)
	}
	s := &memorySchema{base: base, name: "mcpbench_" + prefix + "_" + randHex()}
	q := u.Query()
	q.Set("search_path", s.name)
	u.RawQuery = q.Encode()
	s.URL = u.String()
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := s.exec(ctx, "CREATE SCHEMA "+pgx.Identifier{s.name}.Sanitize()); err != nil {
		return nil, fmt.Errorf("create schema %s: %w", s.name, err)
	}
	return s, nil
}

// Drop removes the schema and everything in it.
func (s *memorySchema) Drop() error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return s.exec(ctx, "DROP SCHEMA IF EXISTS "+pgx.Identifier{s.name}.Sanitize()+" CASCADE")
}

// Size is the bytes the schema's tables take, with their indexes and
// TOAST: the PostgreSQL counterpart of a SQLite file's size (0 when it
// cannot be read).
func (s *memorySchema) Size() int64 {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, s.base)
	if err != nil {
		return 0
	}
	defer conn.Close(ctx)
	var n int64
	err = conn.QueryRow(ctx, `SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0)::bigint
		FROM pg_class c JOIN pg_namespace ns ON ns.oid = c.relnamespace
		WHERE ns.nspname = $1 AND c.relkind IN ('r', 'm')`, s.name).Scan(&n)
	if err != nil {
		return 0
	}
	return n
}

func (s *memorySchema) exec(ctx context.Context, sql string) error {
	conn, err := pgx.Connect(ctx, s.base)
	if err != nil {
		return fmt.Errorf("%s", pgdsn.Scrub(err.Error(), s.base))
	}
	defer conn.Close(ctx)
	_, err = conn.Exec(ctx, sql)
	return err
}

package memstore

import (
	"context"
	"errors"
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
)

// pgGraphs keeps each named graph in a schema of its own, sharing the
// default graph's connection pool: a named graph's transactions begin by
// putting its schema first in the search_path. The registry is a table of
// the default graph's schema.
type pgGraphs struct {
	main *Postgres
}

// key is "<schema>_g_<hash>", the default graph's schema (cut to keep
// within PostgreSQL's 63 bytes) naming its graphs' schemas.
func (b *pgGraphs) key(name string) string {
	base := b.main.schema
	for len(base) > 36 {
		_, size := utf8.DecodeLastRuneInString(base)
		base = base[:len(base)-size]
	}
	return graphKey(base+"_g_", b.main.schema, name)
}

func (b *pgGraphs) register(ctx context.Context, rec graphRecord, limit int) (graphRecord, error) {
	out := rec
	err := pgx.BeginFunc(ctx, b.main.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtextextended('mcp-memory graphs ' || current_schema(), 0))`); err != nil {
			return err
		}
		var key, owner string
		var at int64
		err := tx.QueryRow(ctx, `SELECT schema, owner, created_at FROM memory_graphs WHERE name = $1`, pgEnc(rec.name)).Scan(&key, &owner, &at)
		if err == nil {
			out = graphRecord{name: rec.name, key: key, owner: pgDec(owner), created: time.Unix(0, at).UTC()}
			return nil
		}
		if !errors.Is(err, pgx.ErrNoRows) {
			return err
		}
		var n int
		if err := tx.QueryRow(ctx, `SELECT count(*) FROM memory_graphs`).Scan(&n); err != nil {
			return err
		}
		if n >= limit {
			return tooManyGraphs(rec.name, n)
		}
		_, err = tx.Exec(ctx, `INSERT INTO memory_graphs (name, schema, owner, created_at) VALUES ($1, $2, $3, $4)`,
			pgEnc(rec.name), rec.key, pgEnc(rec.owner), rec.created.UnixNano())
		return err
	})
	if err != nil && !errors.Is(err, ErrLimit) {
		err = pgUnreachable(ctx, fmt.Errorf("memstore: graph registry: %w", err))
	}
	return out, err
}

func (b *pgGraphs) lookup(ctx context.Context, name string) (graphRecord, bool, error) {
	rec := graphRecord{name: name}
	var at int64
	err := b.main.pool.QueryRow(ctx, `SELECT schema, owner, created_at FROM memory_graphs WHERE name = $1`, pgEnc(name)).Scan(&rec.key, &rec.owner, &at)
	if errors.Is(err, pgx.ErrNoRows) {
		return rec, false, nil
	}
	if err != nil {
		return rec, false, pgUnreachable(ctx, fmt.Errorf("memstore: graph registry: %w", err))
	}
	rec.owner, rec.created = pgDec(rec.owner), time.Unix(0, at).UTC()
	return rec, true, nil
}

func (b *pgGraphs) records(ctx context.Context) ([]graphRecord, error) {
	var recs []graphRecord
	err := b.main.read(ctx, func(tx pgx.Tx) error {
		return pgEachRow(ctx, tx, `SELECT name, schema, owner, created_at FROM memory_graphs`, nil, func(r pgx.Rows) error {
			var rec graphRecord
			var at int64
			if err := r.Scan(&rec.name, &rec.key, &rec.owner, &at); err != nil {
				return err
			}
			rec.name, rec.owner, rec.created = pgDec(rec.name), pgDec(rec.owner), time.Unix(0, at).UTC()
			recs = append(recs, rec)
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("memstore: graph registry: %w", err)
	}
	return recs, nil
}

// open returns a store on rec's schema, creating and migrating it.
func (b *pgGraphs) open(ctx context.Context, rec graphRecord) (Store, error) {
	m := b.main
	path := pgx.Identifier{rec.key}.Sanitize() + ", " + m.searchPath
	s := &Postgres{pool: m.pool, retention: m.retention, history: m.history, schema: rec.key, searchPath: path,
		beginWrite: "BEGIN; SET LOCAL search_path TO " + path,
		beginRead:  "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; SET LOCAL search_path TO " + path}
	s.ops = ops{eng: s, d: postgresDialect}
	// Under a lock: replicas creating the same schema at once would
	// otherwise collide in the catalog despite IF NOT EXISTS.
	err := pgx.BeginFunc(ctx, m.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtextextended('mcp-memory schema ' || $1::text, 0))`, rec.key); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `CREATE SCHEMA IF NOT EXISTS `+pgx.Identifier{rec.key}.Sanitize())
		return err
	})
	if err != nil {
		return nil, pgUnreachable(ctx, err)
	}
	if err := m.pool.QueryRow(ctx, `SELECT hashtextextended('mcp-memory write ' || $1::text, 0)`, rec.key).Scan(&s.writeLock); err != nil {
		return nil, pgUnreachable(ctx, err)
	}
	if err := s.migrate(ctx); err != nil {
		return nil, err
	}
	return s, nil
}

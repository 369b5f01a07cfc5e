package memstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"time"
)

// sqliteGraphs keeps each named graph in a database file of its own, in
// the directory dir beside the default graph's file, and the registry in
// the default graph's file.
type sqliteGraphs struct {
	main *SQLite
	dir  string
	opts []Option
}

func (b *sqliteGraphs) key(name string) string { return graphKey("g-", "", name) + ".db" }

func (b *sqliteGraphs) register(ctx context.Context, rec graphRecord, limit int) (graphRecord, error) {
	out := rec
	err := b.main.write(ctx, func(w *writer) error {
		var key, owner string
		var at int64
		found, err := w.queryRow(`SELECT file, owner, created_at FROM graphs WHERE name = ?`, []any{rec.name}, &key, &owner, &at)
		if err != nil {
			return err
		}
		if found {
			out = graphRecord{name: rec.name, key: key, owner: owner, created: time.Unix(0, at).UTC()}
			return nil
		}
		var n int
		if _, err := w.queryRow(`SELECT count(*) FROM graphs`, nil, &n); err != nil {
			return err
		}
		if n >= limit {
			return tooManyGraphs(rec.name, n)
		}
		_, err = w.exec(`INSERT INTO graphs(name, file, owner, created_at) VALUES (?, ?, ?, ?)`, rec.name, rec.key, rec.owner, rec.created.UnixNano())
		return err
	})
	return out, err
}

func (b *sqliteGraphs) lookup(ctx context.Context, name string) (graphRecord, bool, error) {
	rec := graphRecord{name: name}
	found := false
	err := b.main.read(ctx, func(tx *txn) error {
		var at int64
		err := tx.QueryRowContext(ctx, `SELECT file, owner, created_at FROM graphs WHERE name = ?`, name).Scan(&rec.key, &rec.owner, &at)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		found, rec.created = err == nil, time.Unix(0, at).UTC()
		return err
	})
	if err != nil {
		return rec, false, fmt.Errorf("memstore: graph registry: %w", err)
	}
	return rec, found, nil
}

func (b *sqliteGraphs) records(ctx context.Context) ([]graphRecord, error) {
	var recs []graphRecord
	err := b.main.read(ctx, func(tx *txn) error {
		rows, err := tx.QueryContext(ctx, `SELECT name, file, owner, created_at FROM graphs`)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var rec graphRecord
			var at int64
			if err := rows.Scan(&rec.name, &rec.key, &rec.owner, &at); err != nil {
				return err
			}
			rec.created = time.Unix(0, at).UTC()
			recs = append(recs, rec)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("memstore: graph registry: %w", err)
	}
	return recs, nil
}

func (b *sqliteGraphs) open(_ context.Context, rec graphRecord) (Store, error) {
	return Open(filepath.Join(b.dir, rec.key), b.opts...)
}

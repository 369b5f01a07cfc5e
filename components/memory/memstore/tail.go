package memstore

import (
	"context"
	"database/sql"
	"fmt"
)

// The search indexes lag behind the tables by a short tail. Entities with
// an id above search_tail.names_upto are not in search_names yet, and
// observations above obs_upto not in search_obs; searches check those
// rows directly (tailCandidates). A write that leaves more than tailMax
// rows in a tail indexes that whole tail in its transaction, and the
// merger indexes what is left in idle time (tidy.go).
//
// Why: every commit that inserts into an FTS5 index writes a new segment
// (its leaf, the index's structure record, merge work) and its pages to
// the WAL; that was about a third of a small create_entities call. Now
// most small writes touch no search index at all, the ones that do write
// one segment for many calls, and searches meet fewer segments.

// defaultTailMax is the largest tail a write leaves behind, per index
// (SQLite.tailMax; tests lower it): a search reads and lower-cases at most
// this many names and observations, tens of microseconds, and a stream of
// small writes indexes once per several calls.
const defaultTailMax = 32

// tail is where the search indexes end.
type tail struct {
	namesUpto, obsUpto int64 // the highest indexed entity and observation ids
	maxEntity, maxObs  int64 // the highest stored ones
}

// size is the number of rows (an upper bound, with deletions) past the
// larger of the two ends.
func (t tail) size() int64 { return max(t.maxEntity-t.namesUpto, t.maxObs-t.obsUpto) }

// queryRower is a transaction or a connection pool.
type queryRower interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// loadTail reads where the search indexes end.
func loadTail(ctx context.Context, q queryRower) (tail, error) {
	var t tail
	err := q.QueryRowContext(ctx, `SELECT names_upto, obs_upto,
		(SELECT coalesce(max(id), 0) FROM entities), (SELECT coalesce(max(id), 0) FROM observations) FROM search_tail`).
		Scan(&t.namesUpto, &t.obsUpto, &t.maxEntity, &t.maxObs)
	if err != nil {
		return tail{}, fmt.Errorf("memstore: search tail: %w", err)
	}
	return t, nil
}

// indexTail puts the rows past t's ends into the search indexes, in id
// order (FTS5 appends increasing rowids cheaply), and moves the ends. The
// rows are all read before the first insert, so that no other statement
// is open on the connection while FTS5 takes them.
func (w *writer) indexTail(t tail) error {
	names, err := w.nameDocs(t.namesUpto, t.maxEntity)
	if err != nil {
		return err
	}
	var obs []doc
	err = eachRow(w.ctx, w.tx, `SELECT id, content FROM observations WHERE id > ? ORDER BY id`, []any{t.obsUpto}, func(r *sql.Rows) error {
		var d doc
		var content string
		err := r.Scan(&d.id, &content)
		d.text = jsLower(content)
		obs = append(obs, d)
		return err
	})
	if err != nil {
		return fmt.Errorf("memstore: index observations: %w", err)
	}
	for _, d := range names {
		if _, err := w.exec(`INSERT INTO search_names(rowid, text) VALUES (?, ?)`, d.id, d.text); err != nil {
			return err
		}
	}
	for _, d := range obs {
		if _, err := w.exec(`INSERT INTO search_obs(rowid, text) VALUES (?, ?)`, d.id, d.text); err != nil {
			return err
		}
	}
	_, err = w.exec(`UPDATE search_tail SET names_upto = ?, obs_upto = ?`, t.maxEntity, t.maxObs)
	return err
}

// doc is one row of a search index: its rowid and text.
type doc struct {
	id   int64
	text string
}

// nameDocs reads the names index rows of the entities with ids in
// (from, upTo], in id order.
func (w *writer) nameDocs(from, upTo int64) ([]doc, error) {
	var names []doc
	err := eachRow(w.ctx, w.tx, `SELECT id, name, entity_type FROM entities WHERE id > ? AND id <= ? ORDER BY id`, []any{from, upTo}, func(r *sql.Rows) error {
		var d doc
		var name, kind string
		err := r.Scan(&d.id, &name, &kind)
		d.text = headerText(name, kind)
		names = append(names, d)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("memstore: read names to index: %w", err)
	}
	return names, nil
}

// indexLongTail indexes the tails in transaction tx if one is longer than
// s.tailMax, and after a bulk write also merges index segments.
func (s *SQLite) indexLongTail(ctx context.Context, tx *txn) error {
	t, err := loadTail(ctx, tx)
	if err != nil || t.size() <= s.tailMax {
		return err
	}
	w := &writer{ctx: ctx, tx: tx}
	if err := w.indexTail(t); err != nil {
		return err
	}
	if t.size() < s.bulkRows {
		return nil
	}
	_, err = w.mergeIndexes(int(t.size() / bulkMergeRows))
	return err
}

// A search pays a seek per index segment, and each bulk write (an
// import, a create_entities of thousands) leaves a large segment that
// FTS5's automerge lets pile up (13 per index after growing to 1,000,000
// entities in batches of 5,000) until the merger's idle time. So a write
// that indexes at least bulkIndexRows rows of one index (SQLite.bulkRows;
// tests change it) also merges, one leaf page per bulkMergeRows rows: at
// 1,000,000 entities 3 segments instead of 13, for growth 25% longer
// (docs/bench/log.md item 48). Smaller writes pay nothing.
const (
	bulkIndexRows = 1000
	bulkMergeRows = 10
)

// clampTailAfterDeletes lowers the ends of the search indexes to the
// highest stored ids once a call deleted rows (it read the ends, see
// indexed): SQLite gives a new row the highest id plus one, so an id
// deleted at the top comes back, and must come back in the tail (its
// index entry went with the deleted row).
func (w *writer) clampTailAfterDeletes() error {
	if w.ends == nil {
		return nil
	}
	_, err := w.exec(`UPDATE search_tail SET
		names_upto = min(names_upto, (SELECT coalesce(max(id), 0) FROM entities)),
		obs_upto = min(obs_upto, (SELECT coalesce(max(id), 0) FROM observations))`)
	w.ends = nil
	return err
}

// indexed reports where the search indexes end, for deletions: a row past
// the end has no index entry to delete. It is read once per call.
func (w *writer) indexed() (tail, error) {
	if w.ends == nil {
		t, err := loadTail(w.ctx, w.tx)
		if err != nil {
			return tail{}, err
		}
		w.ends = &t
	}
	return *w.ends, nil
}

// tailCandidates adds to set the ids of the entities in the tails whose
// name, type or observation contains the lower-cased q.
func tailCandidates(ctx context.Context, tx *txn, q string, set map[int64]bool) error {
	err := addMatches(ctx, tx, `SELECT id, name, entity_type FROM entities WHERE id > (SELECT names_upto FROM search_tail)`, nil, q, set)
	if err != nil {
		return err
	}
	return addMatches(ctx, tx, `SELECT entity_id, content, '' FROM observations WHERE id > (SELECT obs_upto FROM search_tail)`, nil, q, set)
}

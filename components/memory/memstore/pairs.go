package memstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// Stores made before the names index held four-character runs (pieces.go)
// are brought up to date in the background rather than at Open, where
// rewriting every row took about a minute at 1,000,000 entities (long
// enough for a client to give up on starting the server, which would roll
// the work back). Migration 5 records in meta row pairs_pending the
// highest entity id whose names index row may still lack its pair
// characters; rows indexed later have them. The merger (tidy.go) rewrites
// pairsChunk rows per step, from that id down, and deletes the row when it
// reaches the bottom. Until then searches ask the names index for
// trigrams only, which every row holds, so results stay exact throughout.

// pairsChunk is the number of names index rows one merger step rewrites:
// about 70 ms at 1,000,000 entities, the longest a write then waits.
const pairsChunk = 500

// pairsPending returns the highest entity id whose names index row may
// lack its pair characters, or 0 if every row has them.
func pairsPending(ctx context.Context, q queryRower) (int64, error) {
	var upTo int64
	err := q.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = 'pairs_pending'`).Scan(&upTo)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("memstore: pairs pending: %w", err)
	}
	return upTo, nil
}

// addPairs rewrites the names index rows of the pairsChunk highest entity
// ids at or below upTo (pairsPending) with their pair characters.
func (w *writer) addPairs(upTo int64) error {
	from := max(upTo-pairsChunk, 0)
	rows, err := w.nameDocs(from, upTo)
	if err != nil {
		return err
	}
	for _, d := range rows {
		if _, err := w.exec(`DELETE FROM search_names WHERE rowid = ?`, d.id); err != nil {
			return err
		}
		if _, err := w.exec(`INSERT INTO search_names(rowid, text) VALUES (?, ?)`, d.id, d.text); err != nil {
			return err
		}
	}
	if from == 0 {
		_, err = w.exec(`DELETE FROM meta WHERE key = 'pairs_pending'`)
	} else {
		_, err = w.exec(`UPDATE meta SET value = ? WHERE key = 'pairs_pending'`, from)
	}
	return err
}

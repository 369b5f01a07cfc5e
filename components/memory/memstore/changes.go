package memstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"time"
)

// DefaultChangesPage is the number of changes Changes returns when
// limit <= 0.
const DefaultChangesPage = 100

// Head implements Store. The value is the highest Seq ever assigned, even
// if that change has since been pruned.
func (s *SQLite) Head(ctx context.Context) (int64, error) {
	var head int64
	err := s.read(ctx, func(tx *txn) error {
		var err error
		head, err = headSeq(ctx, tx)
		return err
	})
	return head, err
}

func headSeq(ctx context.Context, tx *txn) (int64, error) {
	var head int64
	err := tx.QueryRowContext(ctx, `SELECT seq FROM sqlite_sequence WHERE name = 'changes'`).Scan(&head)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("memstore: head: %w", err)
	}
	return head, nil
}

// Changes implements Store. It returns the changes with Seq > since, oldest
// first, at most limit of them (limit <= 0 means DefaultChangesPage; it is
// capped at MaxChangesPage), and next, the Seq of the last change returned
// (since itself when none is). Callers loop until next equals Head.
//
// The feed keeps only the most recent changes (see WithChangeRetention).
// Since 0 is the starting cursor and always works: it answers from the
// oldest change kept, whose Seq is then greater than 1 when older ones were
// pruned. If some changes after another since have been pruned, Changes
// returns an error wrapping ErrHistoryPruned: the caller should re-read the
// graph and resume from Head (or start over from 0). A since greater than
// Head is an error wrapping ErrInvalid (a cursor from another database).
func (s *SQLite) Changes(ctx context.Context, since int64, limit int) ([]Change, int64, error) {
	if since < 0 {
		return nil, since, fmt.Errorf("%w: change cursor %d is negative", ErrInvalid, since)
	}
	if limit <= 0 {
		limit = DefaultChangesPage
	}
	limit = min(limit, MaxChangesPage)
	changes := []Change{}
	next := since
	err := s.read(ctx, func(tx *txn) error {
		head, err := headSeq(ctx, tx)
		if err != nil {
			return err
		}
		if since > head {
			return fmt.Errorf("%w: change cursor %d is ahead of the newest change %d", ErrInvalid, since, head)
		}
		if since == head {
			return nil
		}
		var oldest sql.NullInt64
		if err := tx.QueryRowContext(ctx, `SELECT min(seq) FROM changes`).Scan(&oldest); err != nil {
			return fmt.Errorf("memstore: changes: %w", err)
		}
		if since == 0 && !oldest.Valid {
			next = head // nothing is kept: the feed starts now
			return nil
		}
		if since > 0 && (!oldest.Valid || since < oldest.Int64-1) {
			return prunedError(since, oldest.Int64, head)
		}
		rows, err := tx.QueryContext(ctx, `SELECT seq, kind, subject, detail, rel_to, rel_type, task_id, at, author
			FROM changes WHERE seq > ? ORDER BY seq LIMIT ?`, since, limit)
		if err != nil {
			return fmt.Errorf("memstore: changes: %w", err)
		}
		defer rows.Close()
		for rows.Next() {
			var c Change
			var kind string
			var relTo, relType sql.NullString
			var taskID sql.NullInt64
			var at int64
			if err := rows.Scan(&c.Seq, &kind, &c.Subject, &c.Detail, &relTo, &relType, &taskID, &at, &c.Author); err != nil {
				return fmt.Errorf("memstore: changes: %w", err)
			}
			c.Kind = ChangeKind(kind)
			if relTo.Valid {
				c.Relation = &Relation{From: c.Subject, To: relTo.String, RelationType: relType.String}
			}
			c.TaskID = taskID.Int64
			c.At = time.Unix(0, at).UTC()
			changes = append(changes, c)
			next = c.Seq
		}
		if err := rows.Err(); err != nil {
			return fmt.Errorf("memstore: changes: %w", err)
		}
		return nil
	})
	if err != nil {
		return nil, since, err
	}
	return changes, next, nil
}

// prunedError says that the changes after since were discarded, and how to
// go on.
func prunedError(since, oldest, head int64) error {
	return fmt.Errorf("%w: changes after %d were discarded; the oldest kept is %d (head %d): re-read the graph and continue from %d, or start over from 0",
		ErrHistoryPruned, since, oldest, head, head)
}

// History implements Store.
func (s *SQLite) History(ctx context.Context, name string, limit int) ([]Change, error) {
	if err := checkName("name", name); err != nil {
		return nil, err
	}
	out := []Change{}
	err := s.read(ctx, func(tx *txn) error {
		return scanHistory(ctx, tx, `SELECT entity, seq, kind, detail, rel_from, rel_to, rel_type, author, at
			FROM history WHERE entity = ? ORDER BY id DESC LIMIT ?`, []any{name, historyLimit(limit)}, func(_ string, c Change) error {
			out = append(out, c)
			return nil
		})
	})
	slices.Reverse(out)
	return out, err
}

// WalkHistory implements Store.
func (s *SQLite) WalkHistory(ctx context.Context, fn func(entity string, c Change) error) error {
	return s.read(ctx, func(tx *txn) error {
		return scanHistory(ctx, tx, `SELECT entity, seq, kind, detail, rel_from, rel_to, rel_type, author, at FROM history ORDER BY id`, nil, fn)
	})
}

// scanHistory runs a query of history rows and hands each to fn.
func scanHistory(ctx context.Context, tx *txn, query string, args []any, fn func(entity string, c Change) error) error {
	rows, err := tx.QueryContext(ctx, query, args...)
	if err != nil {
		return fmt.Errorf("memstore: history: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var c Change
		var entity, kind string
		var relFrom, relTo, relType sql.NullString
		var at int64
		if err := rows.Scan(&entity, &c.Seq, &kind, &c.Detail, &relFrom, &relTo, &relType, &c.Author, &at); err != nil {
			return fmt.Errorf("memstore: history: %w", err)
		}
		c.Subject, c.Kind, c.At = entity, ChangeKind(kind), time.Unix(0, at).UTC()
		if relFrom.Valid {
			c.Subject = relFrom.String
			c.Relation = &Relation{From: relFrom.String, To: relTo.String, RelationType: relType.String}
		}
		if err := fn(entity, c); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("memstore: history: %w", err)
	}
	return nil
}

// historyLimit is the number of history rows History returns for limit.
func historyLimit(limit int) int {
	if limit <= 0 || limit > MaxHistoryPage {
		return MaxHistoryPage
	}
	return limit
}

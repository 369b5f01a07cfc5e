package memstore

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"
)

// Tasks and the change feed of Postgres, with the semantics of SQLite's
// (tasks.go, changes.go).

// CreateTask implements Store.
func (s *Postgres) CreateTask(ctx context.Context, nt NewTask) (Task, error) {
	nt, err := prepareNewTask(nt)
	if err != nil {
		return Task{}, err
	}
	var t Task
	err = s.write(ctx, func(w *pgWriter) error {
		var id int64
		if err := w.queryRow(`INSERT INTO memory_tasks (title, status, notes, created_at, updated_at) VALUES ($1, $2, $3, $4, $4) RETURNING id`,
			[]any{pgEnc(nt.Title), string(nt.Status), pgEnc(nt.Notes), w.now}, &id); err != nil {
			return err
		}
		t = createdTask(id, nt, w.now)
		w.setTaskEntities(id, t.Entities)
		w.logChange(ChangeTaskCreated, nt.Title, string(nt.Status), nil, id)
		return nil
	})
	if err != nil {
		return Task{}, err
	}
	return t, nil
}

// UpdateTask implements Store. An update that changes nothing records no
// change and keeps UpdatedAt.
func (s *Postgres) UpdateTask(ctx context.Context, id int64, u TaskUpdate) (Task, error) {
	if err := validateTaskUpdate(u); err != nil {
		return Task{}, err
	}
	var t Task
	err := s.write(ctx, func(w *pgWriter) error {
		if err := w.flush(); err != nil {
			return err
		}
		cur, err := pgLoadTask(w.ctx, w.tx, id)
		if err != nil {
			return err
		}
		next, detail, entsChanged := applyTaskUpdate(cur, u, w.now)
		if detail == "" {
			t = cur
			return nil
		}
		w.queue(`UPDATE memory_tasks SET title = $1, status = $2, notes = $3, updated_at = $4 WHERE id = $5`,
			pgEnc(next.Title), string(next.Status), pgEnc(next.Notes), w.now, id)
		if entsChanged {
			w.queue(`DELETE FROM memory_task_entities WHERE task_id = $1`, id)
			w.setTaskEntities(id, next.Entities)
		}
		t = next
		w.logChange(ChangeTaskUpdated, next.Title, detail, nil, id)
		return nil
	})
	if err != nil {
		return Task{}, err
	}
	return t, nil
}

// GetTask implements Store.
func (s *Postgres) GetTask(ctx context.Context, id int64) (Task, error) {
	var t Task
	err := s.read(ctx, func(tx pgx.Tx) error {
		var err error
		t, err = pgLoadTask(ctx, tx, id)
		return err
	})
	return t, err
}

// ListTasks implements Store.
func (s *Postgres) ListTasks(ctx context.Context, f TaskFilter) ([]Task, error) {
	if err := validateTaskFilter(f); err != nil {
		return nil, err
	}
	var args []any
	q := taskListQuery(f, "memory_tasks", "memory_task_entities", func(v any) string {
		args = append(args, v)
		return fmt.Sprintf("$%d", len(args))
	}, pgEnc)
	tasks := []Task{}
	err := s.read(ctx, func(tx pgx.Tx) error {
		err := pgEachRow(ctx, tx, q, args, func(r pgx.Rows) error {
			t, err := pgScanTask(r)
			if err != nil {
				return err
			}
			tasks = append(tasks, t)
			return nil
		})
		if err != nil {
			return fmt.Errorf("memstore: list tasks: %w", err)
		}
		if len(tasks) == 0 {
			return nil
		}
		ids := make([]int64, len(tasks))
		for i, t := range tasks {
			ids[i] = t.ID
		}
		link := taskLinks(tasks)
		err = pgEachRow(ctx, tx, `SELECT task_id, entity_name FROM memory_task_entities WHERE task_id = ANY($1) ORDER BY task_id, pos`, []any{ids}, func(r pgx.Rows) error {
			var id int64
			var name string
			if err := r.Scan(&id, &name); err != nil {
				return err
			}
			link(id, pgDec(name))
			return nil
		})
		if err != nil {
			return fmt.Errorf("memstore: list tasks: %w", err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return tasks, nil
}

// setTaskEntities queues the rows linking task id to names, in order.
func (w *pgWriter) setTaskEntities(id int64, names []string) {
	for i, n := range names {
		w.queue(`INSERT INTO memory_task_entities (task_id, pos, entity_name) VALUES ($1, $2, $3)`, id, i, pgEnc(n))
	}
}

// pgScanTask reads the columns id, title, status, notes, created_at,
// updated_at; Entities is left empty.
func pgScanTask(r pgx.Row) (Task, error) {
	var id, created, updated int64
	var title, status, notes string
	if err := r.Scan(&id, &title, &status, &notes, &created, &updated); err != nil {
		return Task{}, err
	}
	return taskFromColumns(id, pgDec(title), status, pgDec(notes), created, updated), nil
}

// pgLoadTask reads task id with its linked entities.
func pgLoadTask(ctx context.Context, tx pgx.Tx, id int64) (Task, error) {
	t, err := pgScanTask(tx.QueryRow(ctx, `SELECT `+taskColumns+` FROM memory_tasks WHERE id = $1`, id))
	if errors.Is(err, pgx.ErrNoRows) {
		return Task{}, fmt.Errorf("%w: task %d", ErrNotFound, id)
	}
	if err != nil {
		return Task{}, fmt.Errorf("memstore: load task: %w", err)
	}
	err = pgEachRow(ctx, tx, `SELECT entity_name FROM memory_task_entities WHERE task_id = $1 ORDER BY pos`, []any{id}, func(r pgx.Rows) error {
		var n string
		err := r.Scan(&n)
		t.Entities = append(t.Entities, pgDec(n))
		return err
	})
	if err != nil {
		return Task{}, fmt.Errorf("memstore: load task: %w", err)
	}
	return t, nil
}

// Head implements Store: the highest Seq ever assigned, even if that
// change has since been pruned.
func (s *Postgres) Head(ctx context.Context) (int64, error) {
	var head int64
	err := s.read(ctx, func(tx pgx.Tx) error {
		if err := tx.QueryRow(ctx, `SELECT head FROM memory_feed`).Scan(&head); err != nil {
			return fmt.Errorf("memstore: head: %w", err)
		}
		return nil
	})
	return head, err
}

// Changes implements Store, with the semantics of SQLite.Changes. Since
// writers are serialized and the head is advanced in the same transaction
// as the changes, a cursor taken on one replica is valid on every other.
func (s *Postgres) Changes(ctx context.Context, since int64, limit int) ([]Change, int64, error) {
	if since < 0 {
		return nil, since, fmt.Errorf("%w: change cursor %d is negative", ErrInvalid, since)
	}
	if limit <= 0 {
		limit = DefaultChangesPage
	}
	limit = min(limit, MaxChangesPage)
	changes := []Change{}
	next := since
	err := s.read(ctx, func(tx pgx.Tx) error {
		var head int64
		var oldest *int64
		if err := tx.QueryRow(ctx, `SELECT head, (SELECT min(seq) FROM memory_changes) FROM memory_feed`).Scan(&head, &oldest); err != nil {
			return fmt.Errorf("memstore: changes: %w", err)
		}
		if since > head {
			return fmt.Errorf("%w: change cursor %d is ahead of the newest change %d", ErrInvalid, since, head)
		}
		if since == head {
			return nil
		}
		if since == 0 && oldest == nil {
			next = head // nothing is kept: the feed starts now
			return nil
		}
		if since > 0 && (oldest == nil || since < *oldest-1) {
			var o int64
			if oldest != nil {
				o = *oldest
			}
			return prunedError(since, o, head)
		}
		err := pgEachRow(ctx, tx, `SELECT seq, kind, subject, detail, rel_to, rel_type, task_id, at, author
			FROM memory_changes WHERE seq > $1 ORDER BY seq LIMIT $2`, []any{since, limit}, func(r pgx.Rows) error {
			var c Change
			var kind string
			var relTo, relType *string
			var taskID *int64
			var at int64
			if err := r.Scan(&c.Seq, &kind, &c.Subject, &c.Detail, &relTo, &relType, &taskID, &at, &c.Author); err != nil {
				return err
			}
			c.Kind = ChangeKind(kind)
			c.Subject, c.Detail, c.Author = pgDec(c.Subject), pgDec(c.Detail), pgDec(c.Author)
			if relTo != nil && relType != nil {
				c.Relation = &Relation{From: c.Subject, To: pgDec(*relTo), RelationType: pgDec(*relType)}
			}
			if taskID != nil {
				c.TaskID = *taskID
			}
			c.At = time.Unix(0, at).UTC()
			changes = append(changes, c)
			next = c.Seq
			return nil
		})
		if err != nil {
			return fmt.Errorf("memstore: changes: %w", err)
		}
		return nil
	})
	if err != nil {
		return nil, since, err
	}
	return changes, next, nil
}

// History implements Store.
func (s *Postgres) History(ctx context.Context, name string, limit int) ([]Change, error) {
	if err := checkName("name", name); err != nil {
		return nil, err
	}
	out := []Change{}
	err := s.read(ctx, func(tx pgx.Tx) error {
		return pgScanHistory(ctx, tx, `SELECT entity, seq, kind, detail, rel_from, rel_to, rel_type, author, at
			FROM memory_history WHERE entity = $1 ORDER BY id DESC LIMIT $2`, []any{pgEnc(name), historyLimit(limit)}, func(_ string, c Change) error {
			out = append(out, c)
			return nil
		})
	})
	slices.Reverse(out)
	return out, err
}

// WalkHistory implements Store.
func (s *Postgres) WalkHistory(ctx context.Context, fn func(entity string, c Change) error) error {
	return s.read(ctx, func(tx pgx.Tx) error {
		return pgScanHistory(ctx, tx, `SELECT entity, seq, kind, detail, rel_from, rel_to, rel_type, author, at FROM memory_history ORDER BY id`, nil, fn)
	})
}

// pgScanHistory runs a query of history rows and hands each to fn.
func pgScanHistory(ctx context.Context, tx pgx.Tx, query string, args []any, fn func(entity string, c Change) error) error {
	err := pgEachRow(ctx, tx, query, args, func(r pgx.Rows) error {
		var c Change
		var entity, kind string
		var relFrom, relTo, relType *string
		var at int64
		if err := r.Scan(&entity, &c.Seq, &kind, &c.Detail, &relFrom, &relTo, &relType, &c.Author, &at); err != nil {
			return err
		}
		entity = pgDec(entity)
		c.Subject, c.Kind, c.At = entity, ChangeKind(kind), time.Unix(0, at).UTC()
		c.Detail, c.Author = pgDec(c.Detail), pgDec(c.Author)
		if relFrom != nil && relTo != nil && relType != nil {
			c.Subject = pgDec(*relFrom)
			c.Relation = &Relation{From: c.Subject, To: pgDec(*relTo), RelationType: pgDec(*relType)}
		}
		return fn(entity, c)
	})
	if err != nil {
		return fmt.Errorf("memstore: history: %w", err)
	}
	return nil
}

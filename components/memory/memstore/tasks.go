package memstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
)

// querier is what task loading needs from *sql.Tx.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

func validateTaskTitle(title string) error {
	if title == "" {
		return fmt.Errorf("%w: task title is empty", ErrInvalid)
	}
	return checkName("title", title)
}

func validateTaskStatus(s TaskStatus) error {
	if !s.Valid() {
		return fmt.Errorf("%w: task status %q is not one of open, in_progress, blocked, done", ErrInvalid, s)
	}
	return nil
}

// validateNewTask checks a NewTask whose empty status was defaulted.
func validateNewTask(nt NewTask) error {
	if err := validateTaskTitle(nt.Title); err != nil {
		return err
	}
	if err := validateTaskStatus(nt.Status); err != nil {
		return err
	}
	if err := checkObservation("notes", nt.Notes); err != nil {
		return err
	}
	return validateNames("entities", nt.Entities)
}

// CreateTask implements Store.
func (s *SQLite) CreateTask(ctx context.Context, nt NewTask) (Task, error) {
	if nt.Status == "" {
		nt.Status = TaskOpen
	}
	if err := validateNewTask(nt); err != nil {
		return Task{}, err
	}
	var t Task
	err := s.write(ctx, func(w *writer) error {
		id, err := w.insert(`INSERT INTO tasks(title, status, notes, created_at, updated_at) VALUES (?, ?, ?, ?, ?)`,
			nt.Title, string(nt.Status), nt.Notes, w.now, w.now)
		if err != nil {
			return err
		}
		ents := dedupe(nt.Entities)
		if err := w.setTaskEntities(id, ents); err != nil {
			return err
		}
		at := time.Unix(0, w.now).UTC()
		t = Task{ID: id, Title: nt.Title, Status: nt.Status, Notes: nt.Notes, Entities: ents, CreatedAt: at, UpdatedAt: at}
		return w.logChange(ChangeTaskCreated, nt.Title, string(nt.Status), nil, id)
	})
	if err != nil {
		return Task{}, err
	}
	return t, nil
}

// validateTaskUpdate checks the fields an update sets, as every store does
// before it opens a transaction.
func validateTaskUpdate(u TaskUpdate) error {
	if u.Title != nil {
		if err := validateTaskTitle(*u.Title); err != nil {
			return err
		}
	}
	if u.Status != nil {
		if err := validateTaskStatus(*u.Status); err != nil {
			return err
		}
	}
	if u.Notes != nil {
		if err := checkObservation("notes", *u.Notes); err != nil {
			return err
		}
	}
	if u.Entities != nil {
		return validateNames("entities", *u.Entities)
	}
	return nil
}

// applyTaskUpdate returns cur with u applied, what changed (for the change
// feed; empty when nothing did) and whether the linked entities changed.
func applyTaskUpdate(cur Task, u TaskUpdate) (next Task, what []string, entsChanged bool) {
	next = cur
	if u.Title != nil && *u.Title != cur.Title {
		next.Title = *u.Title
		what = append(what, "title")
	}
	if u.Status != nil && *u.Status != cur.Status {
		next.Status = *u.Status
		what = append(what, fmt.Sprintf("status %s -> %s", cur.Status, *u.Status))
	}
	if u.Notes != nil && *u.Notes != cur.Notes {
		next.Notes = *u.Notes
		what = append(what, "notes")
	}
	if u.Entities != nil {
		if ents := dedupe(*u.Entities); !slices.Equal(ents, cur.Entities) {
			next.Entities = ents
			entsChanged = true
			what = append(what, "entities")
		}
	}
	return next, what, entsChanged
}

// UpdateTask implements Store. An update that changes nothing records no
// change and keeps UpdatedAt.
func (s *SQLite) UpdateTask(ctx context.Context, id int64, u TaskUpdate) (Task, error) {
	if err := validateTaskUpdate(u); err != nil {
		return Task{}, err
	}
	var t Task
	err := s.write(ctx, func(w *writer) error {
		cur, err := loadTask(w.ctx, w.tx, id)
		if err != nil {
			return err
		}
		next, what, entsChanged := applyTaskUpdate(cur, u)
		if len(what) == 0 {
			t = cur
			return nil
		}
		next.UpdatedAt = time.Unix(0, w.now).UTC()
		if _, err := w.exec(`UPDATE tasks SET title = ?, status = ?, notes = ?, updated_at = ? WHERE id = ?`,
			next.Title, string(next.Status), next.Notes, w.now, id); err != nil {
			return err
		}
		if entsChanged {
			if _, err := w.exec(`DELETE FROM task_entities WHERE task_id = ?`, id); err != nil {
				return err
			}
			if err := w.setTaskEntities(id, next.Entities); err != nil {
				return err
			}
		}
		t = next
		return w.logChange(ChangeTaskUpdated, next.Title, strings.Join(what, "; "), nil, id)
	})
	if err != nil {
		return Task{}, err
	}
	return t, nil
}

// GetTask implements Store.
func (s *SQLite) GetTask(ctx context.Context, id int64) (Task, error) {
	var t Task
	err := s.read(ctx, func(tx *txn) error {
		var err error
		t, err = loadTask(ctx, tx, id)
		return err
	})
	return t, err
}

// validateTaskFilter checks a ListTasks filter, as every store does.
func validateTaskFilter(f TaskFilter) error {
	if f.Status != "" {
		if err := validateTaskStatus(f.Status); err != nil {
			return err
		}
	}
	return checkName("entity", f.Entity)
}

// ListTasks implements Store.
func (s *SQLite) ListTasks(ctx context.Context, f TaskFilter) ([]Task, error) {
	if err := validateTaskFilter(f); err != nil {
		return nil, err
	}
	q := `SELECT id, title, status, notes, created_at, updated_at FROM tasks WHERE 1 = 1`
	var args []any
	if f.ActiveOnly {
		q += ` AND status <> 'done'`
	}
	if f.Status != "" {
		q += ` AND status = ?`
		args = append(args, string(f.Status))
	}
	if f.Entity != "" {
		q += ` AND id IN (SELECT task_id FROM task_entities WHERE entity_name = ?)`
		args = append(args, f.Entity)
	}
	q += ` ORDER BY id`
	if f.Limit > 0 {
		q += ` LIMIT ?`
		args = append(args, f.Limit)
	}
	tasks := []Task{}
	err := s.read(ctx, func(tx *txn) error {
		pos := map[int64]int{}
		err := eachRow(ctx, tx, q, args, func(rows *sql.Rows) error {
			t, err := scanTask(rows)
			if err != nil {
				return err
			}
			pos[t.ID] = len(tasks)
			tasks = append(tasks, t)
			return nil
		})
		if err != nil {
			return fmt.Errorf("memstore: list tasks: %w", err)
		}
		ids := make([]int64, len(tasks))
		for i, t := range tasks {
			ids[i] = t.ID
		}
		for chunk := range slices.Chunk(ids, inChunk) {
			ph, args := inList(chunk)
			err := eachRow(ctx, tx, `SELECT task_id, entity_name FROM task_entities WHERE task_id IN (`+ph+`) ORDER BY task_id, pos`, args, func(rows *sql.Rows) error {
				var id int64
				var name string
				if err := rows.Scan(&id, &name); err != nil {
					return err
				}
				i := pos[id]
				tasks[i].Entities = append(tasks[i].Entities, name)
				return nil
			})
			if err != nil {
				return fmt.Errorf("memstore: list tasks: %w", err)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return tasks, nil
}

func (w *writer) setTaskEntities(id int64, names []string) error {
	for i, n := range names {
		if _, err := w.exec(`INSERT INTO task_entities(task_id, pos, entity_name) VALUES (?, ?, ?)`, id, i, n); err != nil {
			return err
		}
	}
	return nil
}

type scanner interface{ Scan(dest ...any) error }

// scanTask reads the columns id, title, status, notes, created_at,
// updated_at; Entities is left empty.
func scanTask(r scanner) (Task, error) {
	var t Task
	var status string
	var created, updated int64
	if err := r.Scan(&t.ID, &t.Title, &status, &t.Notes, &created, &updated); err != nil {
		return Task{}, err
	}
	t.Status = TaskStatus(status)
	t.CreatedAt = time.Unix(0, created).UTC()
	t.UpdatedAt = time.Unix(0, updated).UTC()
	t.Entities = []string{}
	return t, nil
}

// loadTask reads task id with its linked entities.
func loadTask(ctx context.Context, q querier, id int64) (Task, error) {
	t, err := scanTask(q.QueryRowContext(ctx, `SELECT id, title, status, notes, created_at, updated_at FROM tasks WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return Task{}, fmt.Errorf("%w: task %d", ErrNotFound, id)
	}
	if err != nil {
		return Task{}, fmt.Errorf("memstore: load task: %w", err)
	}
	rows, err := q.QueryContext(ctx, `SELECT entity_name FROM task_entities WHERE task_id = ? ORDER BY pos`, id)
	if err != nil {
		return Task{}, fmt.Errorf("memstore: load task: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return Task{}, fmt.Errorf("memstore: load task: %w", err)
		}
		t.Entities = append(t.Entities, n)
	}
	if err := rows.Err(); err != nil {
		return Task{}, fmt.Errorf("memstore: load task: %w", err)
	}
	return t, nil
}

package memstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
)

// querier is what task loading needs from *sql.Tx.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// CreateTask implements Store.
func (s *SQLite) CreateTask(ctx context.Context, nt NewTask) (Task, error) {
	nt, err := prepareNewTask(nt)
	if err != nil {
		return Task{}, err
	}
	var t Task
	err = s.write(ctx, func(w *writer) error {
		id, err := w.insert(`INSERT INTO tasks(title, status, notes, created_at, updated_at) VALUES (?, ?, ?, ?, ?)`,
			nt.Title, string(nt.Status), nt.Notes, w.now, w.now)
		if err != nil {
			return err
		}
		t = createdTask(id, nt, w.now)
		if err := w.setTaskEntities(id, t.Entities); err != nil {
			return err
		}
		return w.logChange(ChangeTaskCreated, nt.Title, string(nt.Status), nil, id)
	})
	if err != nil {
		return Task{}, err
	}
	return t, nil
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
		next, detail, entsChanged := applyTaskUpdate(cur, u, w.now)
		if detail == "" {
			t = cur
			return nil
		}
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
		return w.logChange(ChangeTaskUpdated, next.Title, detail, nil, id)
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

// ListTasks implements Store.
func (s *SQLite) ListTasks(ctx context.Context, f TaskFilter) ([]Task, error) {
	if err := validateTaskFilter(f); err != nil {
		return nil, err
	}
	var args []any
	q := taskListQuery(f, "tasks", "task_entities", func(v any) string {
		args = append(args, v)
		return "?"
	}, func(s string) string { return s })
	tasks := []Task{}
	err := s.read(ctx, func(tx *txn) error {
		err := eachRow(ctx, tx, q, args, func(rows *sql.Rows) error {
			t, err := scanTask(rows)
			if err != nil {
				return err
			}
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
		link := taskLinks(tasks)
		for chunk := range slices.Chunk(ids, inChunk) {
			ph, args := inList(chunk)
			err := eachRow(ctx, tx, `SELECT task_id, entity_name FROM task_entities WHERE task_id IN (`+ph+`) ORDER BY task_id, pos`, args, func(rows *sql.Rows) error {
				var id int64
				var name string
				if err := rows.Scan(&id, &name); err != nil {
					return err
				}
				link(id, name)
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
	var id, created, updated int64
	var title, status, notes string
	if err := r.Scan(&id, &title, &status, &notes, &created, &updated); err != nil {
		return Task{}, err
	}
	return taskFromColumns(id, title, status, notes, created, updated), nil
}

// loadTask reads task id with its linked entities.
func loadTask(ctx context.Context, q querier, id int64) (Task, error) {
	t, err := scanTask(q.QueryRowContext(ctx, `SELECT `+taskColumns+` FROM tasks WHERE id = ?`, id))
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

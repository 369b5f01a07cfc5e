package memstore

// The task statements of the SQLite engine (writeTx, see ops.go).

// insertTask implements writeTx.
func (w *writer) insertTask(nt NewTask) (int64, error) {
	return w.insert(`INSERT INTO tasks(title, status, notes, created_at, updated_at) VALUES (?, ?, ?, ?, ?)`,
		nt.Title, string(nt.Status), nt.Notes, w.now, w.now)
}

// updateTask implements writeTx.
func (w *writer) updateTask(t Task) error {
	_, err := w.exec(`UPDATE tasks SET title = ?, status = ?, notes = ?, updated_at = ? WHERE id = ?`,
		t.Title, string(t.Status), t.Notes, w.now, t.ID)
	return err
}

// linkTask implements writeTx.
func (w *writer) linkTask(id int64, names []string, replace bool) error {
	if replace {
		if _, err := w.exec(`DELETE FROM task_entities WHERE task_id = ?`, id); err != nil {
			return err
		}
	}
	for i, n := range names {
		if _, err := w.exec(`INSERT INTO task_entities(task_id, pos, entity_name) VALUES (?, ?, ?)`, id, i, n); err != nil {
			return err
		}
	}
	return nil
}

package memstore

// The task statements of the PostgreSQL engine (writeTx, see ops.go).

// insertTask implements writeTx.
func (w *pgWriter) insertTask(nt NewTask) (int64, error) {
	var id int64
	err := w.queryRow(`INSERT INTO memory_tasks (title, status, notes, created_at, updated_at) VALUES ($1, $2, $3, $4, $4) RETURNING id`,
		[]any{pgEnc(nt.Title), string(nt.Status), pgEnc(nt.Notes), w.now}, &id)
	return id, err
}

// updateTask implements writeTx.
func (w *pgWriter) updateTask(t Task) error {
	w.queue(`UPDATE memory_tasks SET title = $1, status = $2, notes = $3, updated_at = $4 WHERE id = $5`,
		pgEnc(t.Title), string(t.Status), pgEnc(t.Notes), w.now, t.ID)
	return nil
}

// linkTask implements writeTx.
func (w *pgWriter) linkTask(id int64, names []string, replace bool) error {
	if replace {
		w.queue(`DELETE FROM memory_task_entities WHERE task_id = $1`, id)
	}
	for i, n := range names {
		w.queue(`INSERT INTO memory_task_entities (task_id, pos, entity_name) VALUES ($1, $2, $3)`, id, i, pgEnc(n))
	}
	return nil
}

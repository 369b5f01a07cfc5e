package memstore

import "testing"

func TestRenderForEachEngine(t *testing.T) {
	const q = `SELECT id FROM {tasks} JOIN {task_entities} ON task_id = id WHERE id > ? LIMIT ?`
	for _, c := range []struct {
		prefix string
		dollar bool
		want   string
	}{
		{"", false, `SELECT id FROM tasks JOIN task_entities ON task_id = id WHERE id > ? LIMIT ?`},
		{"memory_", true, `SELECT id FROM memory_tasks JOIN memory_task_entities ON task_id = id WHERE id > $1 LIMIT $2`},
	} {
		if got := render(q, c.prefix, c.dollar); got != c.want {
			t.Errorf("render(%q, %v) = %q, want %q", c.prefix, c.dollar, got, c.want)
		}
	}
	if got, want := postgresDialect.history, `SELECT entity, seq, kind, detail, rel_from, rel_to, rel_type, author, at FROM memory_history WHERE entity = $1 ORDER BY id DESC LIMIT $2`; got != want {
		t.Errorf("postgresDialect.history = %q, want %q", got, want)
	}
}

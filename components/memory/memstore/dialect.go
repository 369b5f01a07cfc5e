package memstore

import (
	"slices"
	"strconv"
	"strings"
)

// dialect is what tells the two engines' SQL apart where the operations
// (ops.go) run the same query on both: the tables' names, the
// placeholders, how a string is stored (PostgreSQL text cannot hold NUL,
// see pgEnc), the few statements written differently, and how a set of
// ids is matched. Each engine has one value of it, made once; the
// queries both engines share are written once, below, in SQLite's
// spelling ({name} for a table, ? for an argument) and rendered for each.
type dialect struct {
	// enc encodes a string as the text columns store it; dec reverses it.
	enc, dec func(string) string
	// arg is the placeholder of the nth argument (from 1).
	arg func(n int) string
	// anyID matches column against ids: conditions, each with its
	// arguments, whose results together are the rows matched (SQLite's
	// are IN lists of at most inChunk ids, PostgreSQL's one = ANY).
	anyID func(column string, ids []int64) []condition

	tasks, taskEntities string // the tables of tasks and of their linked entities

	// The statements, rendered for the engine.
	loadTask       string // the task with id ?, columns taskColumns
	loadTaskLinks  string // the entity names linked to task ?, in order
	taskLinks      string // task_id, entity_name of the tasks matched, to complete with a condition
	taskLinksOrder string // ends taskLinks
	head           string // the newest change's Seq, 0 when none
	feed           string // head and the oldest Seq kept (NULL when none)
	changes        string // the changes after ?, at most ?, oldest first
	history        string // the newest ? history rows of entity ?, newest first
	walkHistory    string // every history row, oldest first
	entityNames    string // name, name_fold from name_fold ? on, in order, at most ?
	maxRelationID  string // the highest relation id, 0 when none
	graphCounts    string // the numbers of entities, relations and observations
}

// condition is a WHERE condition with its arguments.
type condition struct {
	sql  string
	args []any
}

// The statements both engines run, in SQLite's spelling (see render).
const (
	sqlLoadTask       = `SELECT ` + taskColumns + ` FROM {tasks} WHERE id = ?`
	sqlLoadTaskLinks  = `SELECT entity_name FROM {task_entities} WHERE task_id = ? ORDER BY pos`
	sqlTaskLinks      = `SELECT task_id, entity_name FROM {task_entities} WHERE `
	sqlTaskLinksOrder = ` ORDER BY task_id, pos`
	sqlChanges        = `SELECT seq, kind, subject, detail, rel_to, rel_type, task_id, at, author
		FROM {changes} WHERE seq > ? ORDER BY seq LIMIT ?`
	sqlHistoryColumns = `SELECT entity, seq, kind, detail, rel_from, rel_to, rel_type, author, at FROM {history}`
	sqlHistory        = sqlHistoryColumns + ` WHERE entity = ? ORDER BY id DESC LIMIT ?`
	sqlWalkHistory    = sqlHistoryColumns + ` ORDER BY id`
	sqlMaxRelationID  = `SELECT coalesce(max(id), 0) FROM {relations}`
	sqlGraphCounts    = `SELECT (SELECT count(*) FROM {entities}), (SELECT count(*) FROM {relations}), (SELECT count(*) FROM {observations})`
)

// sqliteDialect is SQLite's: tables without prefix, ? placeholders,
// strings stored as they are.
var sqliteDialect = func() *dialect {
	d := &dialect{
		enc: plainText, dec: plainText,
		arg: func(int) string { return "?" },
		anyID: func(column string, ids []int64) []condition {
			var out []condition
			for chunk := range slices.Chunk(ids, inChunk) {
				ph, args := inList(chunk)
				out = append(out, condition{column + ` IN (` + ph + `)`, args})
			}
			return out
		},
		head: `SELECT coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'changes'), 0)`,
		feed: `SELECT coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'changes'), 0), (SELECT min(seq) FROM changes)`,
		// The names with the prefix come first; LIMIT ends the scan.
		entityNames: `SELECT name, name_fold FROM entities WHERE name_fold >= ? ORDER BY name_fold, name LIMIT ?`,
	}
	d.renderShared("", false)
	return d
}()

// postgresDialect is PostgreSQL's: tables named memory_*, $n
// placeholders, strings through pgEnc.
var postgresDialect = func() *dialect {
	d := &dialect{
		enc: pgEnc, dec: pgDec,
		arg: func(n int) string { return "$" + strconv.Itoa(n) },
		anyID: func(column string, ids []int64) []condition {
			return []condition{{column + ` = ANY($1)`, []any{ids}}}
		},
		head: `SELECT head FROM memory_feed`,
		feed: `SELECT head, (SELECT min(seq) FROM memory_changes) FROM memory_feed`,
		// The index holds the first 100 characters of name_fold;
		// ordering by them and then by the whole value is the same as
		// ordering by the whole value.
		entityNames: `SELECT name, name_fold FROM memory_entities
			WHERE left(name_fold, 100) >= left($1, 100) AND name_fold >= $1
			ORDER BY left(name_fold, 100), name_fold, name LIMIT $2`,
	}
	d.renderShared("memory_", true)
	return d
}()

// renderShared sets the statements both engines share, rendered with
// prefix before each table's name and, when dollar, $n placeholders.
func (d *dialect) renderShared(prefix string, dollar bool) {
	r := func(q string) string { return render(q, prefix, dollar) }
	d.tasks, d.taskEntities = prefix+"tasks", prefix+"task_entities"
	d.loadTask, d.loadTaskLinks = r(sqlLoadTask), r(sqlLoadTaskLinks)
	d.taskLinks, d.taskLinksOrder = r(sqlTaskLinks), sqlTaskLinksOrder
	d.changes, d.history, d.walkHistory = r(sqlChanges), r(sqlHistory), r(sqlWalkHistory)
	d.maxRelationID, d.graphCounts = r(sqlMaxRelationID), r(sqlGraphCounts)
}

// render turns a statement in SQLite's spelling into an engine's: each
// {table} becomes prefix+table and, when dollar, the nth ? becomes $n.
// The statements hold no ? or brace inside a string literal.
func render(q, prefix string, dollar bool) string {
	var b strings.Builder
	n := 0
	for i := 0; i < len(q); i++ {
		switch c := q[i]; {
		case c == '{':
			end := strings.IndexByte(q[i:], '}')
			b.WriteString(prefix)
			b.WriteString(q[i+1 : i+end])
			i += end
		case c == '?' && dollar:
			n++
			b.WriteString("$" + strconv.Itoa(n))
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// plainText is SQLite's enc and dec: its text holds any string.
func plainText(s string) string { return s }

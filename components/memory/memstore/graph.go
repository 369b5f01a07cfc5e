package memstore

import (
	"cmp"
	"database/sql"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// The SQLite engine's write transaction (writeTx, see ops.go): on the
// single writer connection every lookup is an indexed query on a
// prepared statement, cheap in process, so the set-wise parts of writeTx
// are loops of them.

// callTime implements writeTx.
func (w *writer) callTime() int64 { return w.now }

// each implements querier.
func (w *writer) each(query string, args []any, scan func(scanner) error) error {
	st, err := w.stmt(query)
	if err != nil {
		return err
	}
	rows, err := st.QueryContext(w.ctx, args...)
	if err != nil {
		return fmt.Errorf("memstore: %w", err)
	}
	defer rows.Close()
	return scanRows(rows, func(r *sql.Rows) error { return scan(r) })
}

// row implements querier.
func (w *writer) row(query string, args []any, dest ...any) (bool, error) {
	return w.queryRow(query, args, dest...)
}

// entitiesNamed implements writeTx.
func (w *writer) entitiesNamed(names []string) (map[string]storedEntity, error) {
	out := make(map[string]storedEntity, len(names))
	for _, name := range names {
		if _, ok := out[name]; ok {
			continue
		}
		var e storedEntity
		found, err := w.queryRow(`SELECT id, entity_type FROM entities WHERE name = ?`, []any{name}, &e.id, &e.entityType)
		if err != nil {
			return nil, err
		}
		if found {
			out[name] = e
		}
	}
	return out, nil
}

// observationsOf implements writeTx.
func (w *writer) observationsOf(ents map[string]storedEntity) (map[int64][]storedObservation, error) {
	out := make(map[int64][]storedObservation, len(ents))
	for _, e := range ents {
		obs, err := w.observations(e.id)
		if err != nil {
			return nil, err
		}
		out[e.id] = obs
	}
	return out, nil
}

// relationsWithKeys implements writeTx.
func (w *writer) relationsWithKeys(rels []Relation, maxID int64) (map[Relation][]int64, error) {
	if maxID <= 0 {
		maxID = math.MaxInt64
	}
	out := map[Relation][]int64{}
	for _, r := range rels {
		if _, ok := out[r]; ok {
			continue
		}
		ids, err := appendIDs(w, nil, `SELECT id FROM relations WHERE from_name = ? AND to_name = ? AND relation_type = ? AND id <= ? ORDER BY id`,
			[]any{r.From, r.To, r.RelationType, maxID})
		if err != nil {
			return nil, err
		}
		out[r] = ids
	}
	return out, nil
}

// relationsTouching implements writeTx.
func (w *writer) relationsTouching(names []string) ([]storedRelation, error) {
	byID := map[int64]storedRelation{}
	for _, name := range names {
		err := w.each(`SELECT id, from_name, to_name, relation_type FROM relations WHERE from_name = ?1
			UNION ALL SELECT id, from_name, to_name, relation_type FROM relations WHERE to_name = ?1 AND from_name <> ?1`,
			[]any{name}, func(row scanner) error {
				var r storedRelation
				err := row.Scan(&r.id, &r.From, &r.To, &r.RelationType)
				byID[r.id] = r
				return err
			})
		if err != nil {
			return nil, err
		}
	}
	rels := make([]storedRelation, 0, len(byID))
	for _, r := range byID {
		rels = append(rels, r)
	}
	slices.SortFunc(rels, func(a, b storedRelation) int { return cmp.Compare(a.id, b.id) })
	return rels, nil
}

// insertEntities implements writeTx.
func (w *writer) insertEntities(es []Entity) error {
	for _, e := range es {
		if _, err := w.insertEntity(e); err != nil {
			return err
		}
	}
	return nil
}

// insertObservations implements writeTx.
func (w *writer) insertObservations(obs []newObservation) error {
	for _, o := range obs {
		if err := w.insertObservation(o.entityID, o.content); err != nil {
			return err
		}
	}
	return nil
}

// insertRelations implements writeTx.
func (w *writer) insertRelations(rels []Relation) error {
	for _, r := range rels {
		if err := w.insertRelation(r); err != nil {
			return err
		}
	}
	return nil
}

// deleteObservations implements writeTx, with their search index rows.
func (w *writer) deleteObservations(entityID int64, gone []storedObservation) error {
	if len(gone) == 0 {
		return nil
	}
	ends, err := w.indexed()
	if err != nil {
		return err
	}
	for _, o := range gone {
		if o.id <= ends.obsUpto {
			if _, err := w.exec(`DELETE FROM search_obs WHERE rowid = ?`, o.id); err != nil {
				return err
			}
		}
		if _, err := w.exec(`DELETE FROM observations WHERE id = ?`, o.id); err != nil {
			return err
		}
		w.ops = append(w.ops, mirrorOp{kind: opDelObs, owner: entityID, a: o.content})
	}
	return nil
}

// deleteRelations implements writeTx.
func (w *writer) deleteRelations(ids []int64) error {
	for _, id := range ids {
		if _, err := w.exec(`DELETE FROM relations WHERE id = ?`, id); err != nil {
			return err
		}
		w.ops = append(w.ops, mirrorOp{kind: opDelRel, id: id})
	}
	return nil
}

// deleted implements writeTx: the search tail follows the deletions.
func (w *writer) deleted() error { return w.clampTailAfterDeletes() }

// observations returns the observations of entity id in insertion order.
func (w *writer) observations(id int64) ([]storedObservation, error) {
	st, err := w.stmt(`SELECT id, content FROM observations WHERE entity_id = ? ORDER BY id`)
	if err != nil {
		return nil, err
	}
	rows, err := st.QueryContext(w.ctx, id)
	if err != nil {
		return nil, fmt.Errorf("memstore: %w", err)
	}
	defer rows.Close()
	var out []storedObservation
	for rows.Next() {
		var o storedObservation
		if err := rows.Scan(&o.id, &o.content); err != nil {
			return nil, fmt.Errorf("memstore: %w", err)
		}
		out = append(out, o)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("memstore: %w", err)
	}
	return out, nil
}

// insertEntity stores e (observations verbatim) and indexes it for search,
// unless an entity of that name exists; inserted reports which.
func (w *writer) insertEntity(e Entity) (inserted bool, err error) {
	res, err := w.exec(`INSERT INTO entities(name, entity_type, name_fold) VALUES (?, ?, ?) ON CONFLICT (name) DO NOTHING`,
		e.Name, e.EntityType, strings.ToLower(e.Name))
	if err != nil {
		return false, err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return false, err
	}
	id, err := res.LastInsertId()
	if err != nil {
		return false, err
	}
	w.ops = append(w.ops, mirrorOp{kind: opAddEntity, id: id, a: e.Name, b: e.EntityType})
	for _, o := range e.Observations {
		if err := w.insertObservation(id, o); err != nil {
			return false, err
		}
	}
	return true, nil
}

// insertObservation appends one observation to entity id (the search
// index gets it later, see tail.go).
func (w *writer) insertObservation(entityID int64, content string) error {
	if _, err := w.exec(`INSERT INTO observations(entity_id, content) VALUES (?, ?)`, entityID, content); err != nil {
		return err
	}
	w.ops = append(w.ops, mirrorOp{kind: opAddObs, owner: entityID, a: content})
	return nil
}

// deleteEntity implements writeTx: entity e, its observations and their
// index rows.
func (w *writer) deleteEntity(e storedEntity) error {
	id := e.id
	obs, err := w.observations(id)
	if err != nil {
		return err
	}
	ends, err := w.indexed()
	if err != nil {
		return err
	}
	for _, o := range obs {
		if o.id > ends.obsUpto {
			continue
		}
		if _, err := w.exec(`DELETE FROM search_obs WHERE rowid = ?`, o.id); err != nil {
			return err
		}
	}
	if id <= ends.namesUpto {
		if _, err := w.exec(`DELETE FROM search_names WHERE rowid = ?`, id); err != nil {
			return err
		}
	}
	if _, err := w.exec(`DELETE FROM observations WHERE entity_id = ?`, id); err != nil {
		return err
	}
	if _, err = w.exec(`DELETE FROM entities WHERE id = ?`, id); err != nil {
		return err
	}
	w.ops = append(w.ops, mirrorOp{kind: opDelEntity, id: id})
	return nil
}

// insertRelation stores one relation.
func (w *writer) insertRelation(r Relation) error {
	id, err := w.insert(`INSERT INTO relations(from_name, to_name, relation_type) VALUES (?, ?, ?)`, r.From, r.To, r.RelationType)
	if err != nil {
		return err
	}
	w.ops = append(w.ops, mirrorOp{kind: opAddRel, id: id, a: r.From, b: r.To, c: r.RelationType})
	return nil
}

// rebuildSearch recreates both search indexes from the tables, each as
// one segment.
func (w *writer) rebuildSearch() error {
	for _, q := range []string{
		`INSERT INTO search_names(search_names) VALUES ('delete-all')`,
		`INSERT INTO search_obs(search_obs) VALUES ('delete-all')`,
		`UPDATE search_tail SET names_upto = 0, obs_upto = 0`,
		`DELETE FROM meta WHERE key = 'pairs_pending'`, // all rows get them now
	} {
		if _, err := w.exec(q); err != nil {
			return err
		}
	}
	t, err := loadTail(w.ctx, w.tx)
	if err != nil {
		return err
	}
	if err := w.indexTail(t); err != nil {
		return err
	}
	// One segment per index: a search seeks every segment for each of its
	// trigrams, and one segment made searches 2.5-3x cheaper in process.
	// Cheap here, where the whole index was just written anyway.
	for _, q := range []string{
		`INSERT INTO search_names(search_names) VALUES ('optimize')`,
		`INSERT INTO search_obs(search_obs) VALUES ('optimize')`,
	} {
		if _, err := w.exec(q); err != nil {
			return err
		}
	}
	return nil
}

// headerText is the search_names text of an entity's name and type, with
// their four-character runs (pairText). The newlines may let a query
// match across fields, which the exact re-check in SearchNodes filters
// out.
func headerText(name, entityType string) string {
	return pairText(jsLower(name), jsLower(entityType))
}

// logChange implements writeTx: it appends one row to the change feed
// and to the history of each entity it concerns.
func (w *writer) logChange(kind ChangeKind, subject, detail string, rel *Relation, taskID int64) error {
	var relTo, relType, tid any
	if rel != nil {
		subject, relTo, relType = rel.From, rel.To, rel.RelationType
	}
	if taskID != 0 {
		tid = taskID
	}
	if w.author == "" {
		w.author = authorOf(w.ctx)
	}
	detail = truncate(detail, MaxChangeDetailBytes)
	seq, err := w.insert(`INSERT INTO changes(kind, subject, detail, rel_to, rel_type, task_id, at, author) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
		string(kind), subject, detail, relTo, relType, tid, w.now, w.author)
	if err != nil {
		return err
	}
	w.changes++
	for _, e := range historyEntities(kind, subject, rel) {
		if err := w.addHistory(historyLine{Entity: e, Seq: seq, Kind: kind, Detail: detail, Relation: rel, Author: w.author, At: time.Unix(0, w.now)}); err != nil {
			return err
		}
	}
	return nil
}

// addHistory implements writeTx.
func (w *writer) addHistory(h historyLine) error {
	var from, to, typ any
	if r := h.Relation; r != nil {
		from, to, typ = r.From, r.To, r.RelationType
	}
	_, err := w.exec(`INSERT INTO history(entity, seq, kind, detail, rel_from, rel_to, rel_type, author, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		h.Entity, h.Seq, string(h.Kind), h.Detail, from, to, typ, h.Author, h.At.UnixNano())
	return err
}

// truncate cuts s to at most n bytes at a character boundary, ending in "…"
// when it cut.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	const ell = "…"
	cut := n - len(ell)
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + ell
}

// dedupe returns list without repeats, keeping first occurrences in order;
// never nil.
func dedupe(list []string) []string {
	out := make([]string, 0, len(list))
	seen := make(map[string]bool, len(list))
	for _, s := range list {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

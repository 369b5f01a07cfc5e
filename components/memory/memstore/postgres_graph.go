package memstore

import (
	"errors"
	"strings"

	"github.com/jackc/pgx/v5"
)

// The PostgreSQL engine's write transaction (writeTx, see ops.go): since
// every write holds the schema's write lock, it reads what a call needs
// in a few set-wise queries and queues its inserts and deletes (see
// pgWriter.queue).

// callTime implements writeTx.
func (w *pgWriter) callTime() int64 { return w.now }

// each implements querier.
func (w *pgWriter) each(query string, args []any, scan func(scanner) error) error {
	return w.query(query, args, func(r pgx.Rows) error { return scan(r) })
}

// row implements querier.
func (w *pgWriter) row(query string, args []any, dest ...any) (bool, error) {
	err := w.queryRow(query, args, dest...)
	if errors.Is(err, pgx.ErrNoRows) {
		return false, nil
	}
	return err == nil, err
}

// deleteEntity implements writeTx; the observations go with the entity
// (ON DELETE CASCADE).
func (w *pgWriter) deleteEntity(e storedEntity) error {
	w.queue(`DELETE FROM memory_entities WHERE id = $1`, e.id)
	return nil
}

// deleteObservations implements writeTx.
func (w *pgWriter) deleteObservations(_ int64, gone []storedObservation) error {
	for _, o := range gone {
		w.queue(`DELETE FROM memory_observations WHERE id = $1`, o.id)
	}
	return nil
}

// deleteRelations implements writeTx.
func (w *pgWriter) deleteRelations(ids []int64) error {
	w.queue(`DELETE FROM memory_relations WHERE id = ANY($1)`, ids)
	return nil
}

// deleted implements writeTx: nothing follows deletions here.
func (w *pgWriter) deleted() error { return nil }

// entitiesNamed implements writeTx.
func (w *pgWriter) entitiesNamed(names []string) (map[string]storedEntity, error) {
	out := make(map[string]storedEntity, len(names))
	if len(names) == 0 {
		return out, nil
	}
	keys := make([][]byte, len(names))
	for i, n := range names {
		keys[i] = nameKey(n)
	}
	err := w.query(`SELECT id, name, entity_type FROM memory_entities WHERE name_key = ANY($1)`, []any{keys}, func(r pgx.Rows) error {
		var e storedEntity
		var name string
		if err := r.Scan(&e.id, &name, &e.entityType); err != nil {
			return err
		}
		e.entityType = pgDec(e.entityType)
		out[pgDec(name)] = e
		return nil
	})
	return out, err
}

// observationsOf implements writeTx.
func (w *pgWriter) observationsOf(ents map[string]storedEntity) (map[int64][]storedObservation, error) {
	out := make(map[int64][]storedObservation, len(ents))
	if len(ents) == 0 {
		return out, nil
	}
	ids := make([]int64, 0, len(ents))
	for _, e := range ents {
		ids = append(ids, e.id)
	}
	err := w.query(`SELECT id, entity_id, content FROM memory_observations WHERE entity_id = ANY($1) ORDER BY entity_id, id`, []any{ids}, func(r pgx.Rows) error {
		var o storedObservation
		var eid int64
		if err := r.Scan(&o.id, &eid, &o.content); err != nil {
			return err
		}
		o.content = pgDec(o.content)
		out[eid] = append(out[eid], o)
		return nil
	})
	return out, err
}

// relationsWithKeys implements writeTx.
func (w *pgWriter) relationsWithKeys(rels []Relation, maxID int64) (map[Relation][]int64, error) {
	out := map[Relation][]int64{}
	if len(rels) == 0 {
		return out, nil
	}
	keys := make([][]byte, len(rels))
	for i, r := range rels {
		keys[i] = relationKey(r)
	}
	q := `SELECT id, from_name, to_name, relation_type FROM memory_relations WHERE triple_key = ANY($1)`
	args := []any{keys}
	if maxID > 0 {
		q += ` AND id <= $2`
		args = append(args, maxID)
	}
	err := w.query(q+` ORDER BY id`, args, func(r pgx.Rows) error {
		var id int64
		var rel Relation
		if err := r.Scan(&id, &rel.From, &rel.To, &rel.RelationType); err != nil {
			return err
		}
		rel = decodeRelation(rel)
		out[rel] = append(out[rel], id)
		return nil
	})
	return out, err
}

// relationsTouching implements writeTx.
func (w *pgWriter) relationsTouching(names []string) ([]storedRelation, error) {
	var out []storedRelation
	if len(names) == 0 {
		return out, nil
	}
	enc := encodeAll(names)
	err := w.query(`SELECT id, from_name, to_name, relation_type FROM memory_relations WHERE from_name = ANY($1) OR to_name = ANY($1) ORDER BY id`,
		[]any{enc}, func(r pgx.Rows) error {
			var sr storedRelation
			if err := r.Scan(&sr.id, &sr.From, &sr.To, &sr.RelationType); err != nil {
				return err
			}
			sr.Relation = decodeRelation(sr.Relation)
			out = append(out, sr)
			return nil
		})
	return out, err
}

// insertEntities implements writeTx.
func (w *pgWriter) insertEntities(es []Entity) error {
	ids, err := w.allocIDs("memory_entities_seq", len(es))
	if err != nil {
		return err
	}
	var obs []newObservation
	rows := make([][]any, len(es))
	for i, e := range es {
		rows[i] = []any{ids[i], pgEnc(e.Name), nameKey(e.Name), pgEnc(e.EntityType), pgEnc(strings.ToLower(e.Name)), pgEnc(pgHeaderText(e.Name, e.EntityType))}
		for _, o := range e.Observations {
			obs = append(obs, newObservation{entityID: ids[i], content: o})
		}
	}
	err = w.insertRows("memory_entities", []string{"id", "name", "name_key", "entity_type", "name_fold", "search"}, rows)
	if err != nil {
		return err
	}
	return w.insertObservations(obs)
}

// insertObservations implements writeTx.
func (w *pgWriter) insertObservations(obs []newObservation) error {
	ids, err := w.allocIDs("memory_observations_seq", len(obs))
	if err != nil {
		return err
	}
	rows := make([][]any, len(obs))
	for i, o := range obs {
		rows[i] = []any{ids[i], o.entityID, pgEnc(o.content), obsSearch(o.content)}
	}
	return w.insertRows("memory_observations", []string{"id", "entity_id", "content", "search"}, rows)
}

// insertRelations implements writeTx.
func (w *pgWriter) insertRelations(rels []Relation) error {
	ids, err := w.allocIDs("memory_relations_seq", len(rels))
	if err != nil {
		return err
	}
	rows := make([][]any, len(rels))
	for i, r := range rels {
		rows[i] = []any{ids[i], pgEnc(r.From), pgEnc(r.To), pgEnc(r.RelationType), relationKey(r)}
	}
	return w.insertRows("memory_relations", []string{"id", "from_name", "to_name", "relation_type", "triple_key"}, rows)
}

// decodeRelation applies pgDec to the three strings of r.
func decodeRelation(r Relation) Relation {
	return Relation{From: pgDec(r.From), To: pgDec(r.To), RelationType: pgDec(r.RelationType)}
}

// encodeAll applies pgEnc to every string of list.
func encodeAll(list []string) []string {
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = pgEnc(s)
	}
	return out
}

// pgHeaderText is the text memory_entities.search holds for an entity,
// before pgEnc. A query spanning the newline can make a false candidate,
// which entityMatches rejects.
func pgHeaderText(name, entityType string) string {
	return jsLower(name) + "\n" + jsLower(entityType)
}

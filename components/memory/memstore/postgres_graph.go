package memstore

import (
	"context"
	"io"
	"strings"

	"github.com/jackc/pgx/v5"
)

// The graph operations of Postgres. They follow SQLite's (graph.go) step
// for step and record the same changes in the same order; since every
// write holds the schema's write lock, they read what they need in a few
// set-wise queries first and then queue their inserts and deletes.

// CreateEntities implements Store.
func (s *Postgres) CreateEntities(ctx context.Context, entities []Entity) ([]Entity, error) {
	if err := validateEntities(entities); err != nil {
		return nil, err
	}
	var created []Entity
	err := s.write(ctx, func(w *pgWriter) error {
		existing, err := w.entitiesNamed(entityNames(entities))
		if err != nil {
			return err
		}
		created = newEntities(entities, func(name string) bool {
			_, ok := existing[name]
			return ok
		})
		if err := w.insertEntities(created); err != nil {
			return err
		}
		for _, e := range created {
			w.logChange(ChangeEntityCreated, e.Name, e.EntityType, nil, 0)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return created, nil
}

// CreateRelations implements Store.
func (s *Postgres) CreateRelations(ctx context.Context, relations []Relation) ([]Relation, error) {
	if err := validateRelations(relations); err != nil {
		return nil, err
	}
	var created []Relation
	err := s.write(ctx, func(w *pgWriter) error {
		existing, err := w.relationsWithKeys(relations, 0)
		if err != nil {
			return err
		}
		created, _ = newRelations(relations, func(r Relation) (bool, error) { return len(existing[r]) > 0, nil })
		if err := w.insertRelations(created); err != nil {
			return err
		}
		for _, r := range created {
			w.logChange(ChangeRelationCreated, r.From, "", &r, 0)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return created, nil
}

// AddObservations implements Store.
func (s *Postgres) AddObservations(ctx context.Context, adds []ObservationAdd) ([]AddedObservations, error) {
	err := validateObservationLists("observations", "contents", len(adds), func(i int) (string, []string) {
		return adds[i].EntityName, adds[i].Contents
	})
	if err != nil {
		return nil, err
	}
	var results []AddedObservations
	err = s.write(ctx, func(w *pgWriter) error {
		names := make([]string, len(adds))
		for i, a := range adds {
			names[i] = a.EntityName
		}
		ents, err := w.entitiesNamed(names)
		if err != nil {
			return err
		}
		obs, err := w.observationsOf(ents)
		if err != nil {
			return err
		}
		var fresh []newObservation
		results, fresh, err = planObservationAdds(adds, func(name string) (int64, []storedObservation, bool, error) {
			e, ok := ents[name]
			return e.id, obs[e.id], ok, nil
		})
		if err != nil {
			return err
		}
		if err := w.insertObservations(fresh); err != nil {
			return err
		}
		for _, r := range results {
			for _, c := range r.AddedObservations {
				w.logChange(ChangeObservationAdded, r.EntityName, c, nil, 0)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return results, nil
}

// DeleteEntities implements Store.
func (s *Postgres) DeleteEntities(ctx context.Context, names []string) error {
	if err := validateNames("entityNames", names); err != nil {
		return err
	}
	names = dedupe(names)
	return s.write(ctx, func(w *pgWriter) error {
		ents, err := w.entitiesNamed(names)
		if err != nil {
			return err
		}
		rels, err := w.relationsTouching(names)
		if err != nil {
			return err
		}
		for _, d := range planEntityDeletes(names, ents, rels) {
			if d.found {
				// Observations go with the entity (ON DELETE CASCADE).
				w.queue(`DELETE FROM memory_entities WHERE id = $1`, d.entity.id)
				w.logChange(ChangeEntityDeleted, d.name, d.entity.entityType, nil, 0)
			}
			for _, r := range d.relations {
				w.queue(`DELETE FROM memory_relations WHERE id = $1`, r.id)
				w.logChange(ChangeRelationDeleted, r.From, "", &r.Relation, 0)
			}
		}
		return nil
	})
}

// DeleteObservations implements Store.
func (s *Postgres) DeleteObservations(ctx context.Context, deletions []ObservationDelete) error {
	err := validateObservationLists("deletions", "observations", len(deletions), func(i int) (string, []string) {
		return deletions[i].EntityName, deletions[i].Observations
	})
	if err != nil {
		return err
	}
	return s.write(ctx, func(w *pgWriter) error {
		names := make([]string, len(deletions))
		for i, d := range deletions {
			names[i] = d.EntityName
		}
		ents, err := w.entitiesNamed(names)
		if err != nil {
			return err
		}
		obs, err := w.observationsOf(ents)
		if err != nil {
			return err
		}
		for _, d := range deletions {
			e, ok := ents[d.EntityName]
			if !ok || len(d.Observations) == 0 {
				continue
			}
			gone, kept, deleted := observationsToDelete(obs[e.id], d.Observations)
			for _, o := range gone {
				w.queue(`DELETE FROM memory_observations WHERE id = $1`, o.id)
			}
			obs[e.id] = kept
			for _, o := range deleted {
				w.logChange(ChangeObservationDeleted, d.EntityName, o, nil, 0)
			}
		}
		return nil
	})
}

// DeleteRelations implements Store.
func (s *Postgres) DeleteRelations(ctx context.Context, relations []Relation) error {
	if err := validateRelations(relations); err != nil {
		return err
	}
	return s.write(ctx, func(w *pgWriter) error {
		existing, err := w.relationsWithKeys(relations, 0)
		if err != nil {
			return err
		}
		for _, r := range relations {
			ids := existing[r]
			if len(ids) == 0 {
				continue
			}
			w.queue(`DELETE FROM memory_relations WHERE id = ANY($1)`, ids)
			delete(existing, r)
			w.logChange(ChangeRelationDeleted, r.From, "", &r, 0)
		}
		return nil
	})
}

// Import implements Store, with the semantics of SQLite.Import.
func (s *Postgres) Import(ctx context.Context, r io.Reader) (ImportStats, error) {
	var stats ImportStats
	items, history, ignored, err := parseJSONL(r)
	if err != nil {
		return stats, err
	}
	err = s.write(ctx, func(w *pgWriter) error {
		// The file's history first: it is older than what the import does.
		for _, h := range history {
			w.addHistory(h)
		}
		var preMax int64
		if err := w.queryRow(`SELECT coalesce(max(id), 0) FROM memory_relations`, nil, &preMax); err != nil {
			return err
		}
		var names []string
		var rels []Relation
		for _, it := range items {
			if it.entity != nil {
				names = append(names, it.entity.Name)
			} else {
				rels = append(rels, *it.relation)
			}
		}
		existingEnts, err := w.entitiesNamed(names)
		if err != nil {
			return err
		}
		existingRels := map[Relation][]int64{}
		if preMax > 0 { // else there was nothing before the import
			if existingRels, err = w.relationsWithKeys(rels, preMax); err != nil {
				return err
			}
		}
		accepted, st, err := planImport(items, ignored, func(name string) (bool, error) {
			_, ok := existingEnts[name]
			return ok, nil
		}, func(r Relation) (bool, error) { return len(existingRels[r]) > 0, nil })
		if err != nil {
			return err
		}
		stats = st
		stats.History = len(history)
		var ents []Entity
		var newRels []Relation
		for _, it := range accepted {
			if it.entity != nil {
				ents = append(ents, *it.entity)
			} else {
				newRels = append(newRels, *it.relation)
			}
		}
		if err := w.insertEntities(ents); err != nil {
			return err
		}
		if err := w.insertRelations(newRels); err != nil {
			return err
		}
		// The changes in file order, as SQLite records them.
		for _, it := range accepted {
			if it.entity != nil {
				w.logChange(ChangeEntityCreated, it.entity.Name, it.entity.EntityType, nil, 0)
			} else {
				w.logChange(ChangeRelationCreated, it.relation.From, "", it.relation, 0)
			}
		}
		return nil
	})
	if err != nil {
		return ImportStats{}, err
	}
	return stats, nil
}

// Export implements Store. It writes one consistent snapshot.
func (s *Postgres) Export(ctx context.Context, w io.Writer) error { return exportGraph(ctx, s, w) }

// entityNames returns the names of es.
func entityNames(es []Entity) []string {
	names := make([]string, len(es))
	for i, e := range es {
		names[i] = e.Name
	}
	return names
}

// entitiesNamed returns the stored entities among names, by name.
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

// observationsOf returns the observations of ents by entity id, each list
// in insertion order.
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

// relationsWithKeys returns the ids of the stored relations equal to any
// of rels, by relation; when maxID > 0 only relations with id <= maxID.
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

// relationsTouching returns the relations whose from or to is among
// names, in insertion order.
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

// insertEntities queues the insertion of es, which must all be new, with
// their observations verbatim, in order.
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

// insertObservations queues the insertion of obs, in order.
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

// insertRelations queues the insertion of rels, in order.
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

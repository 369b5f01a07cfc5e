package memstore

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// CreateEntities implements Store.
func (s *SQLite) CreateEntities(ctx context.Context, entities []Entity) ([]Entity, error) {
	if err := validateEntities(entities); err != nil {
		return nil, err
	}
	created := make([]Entity, 0, len(entities))
	err := s.write(ctx, func(w *writer) error {
		created = created[:0]
		for _, e := range entities {
			// Names already stored, including earlier in this batch, are
			// skipped by the insert itself.
			stored := entityToStore(e)
			inserted, err := w.insertEntity(stored)
			if err != nil {
				return err
			}
			if !inserted {
				continue
			}
			if err := w.logChange(ChangeEntityCreated, e.Name, e.EntityType, nil, 0); err != nil {
				return err
			}
			created = append(created, stored)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return created, nil
}

// CreateRelations implements Store.
func (s *SQLite) CreateRelations(ctx context.Context, relations []Relation) ([]Relation, error) {
	if err := validateRelations(relations); err != nil {
		return nil, err
	}
	created := make([]Relation, 0, len(relations))
	err := s.write(ctx, func(w *writer) error {
		var err error
		created, err = newRelations(relations, func(r Relation) (bool, error) {
			var one int
			return w.queryRow(`SELECT 1 FROM relations WHERE from_name = ? AND to_name = ? AND relation_type = ? LIMIT 1`,
				[]any{r.From, r.To, r.RelationType}, &one)
		})
		if err != nil {
			return err
		}
		for _, r := range created {
			if err := w.insertRelation(r); err != nil {
				return err
			}
			if err := w.logChange(ChangeRelationCreated, r.From, "", &r, 0); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return created, nil
}

// AddObservations implements Store.
func (s *SQLite) AddObservations(ctx context.Context, adds []ObservationAdd) ([]AddedObservations, error) {
	err := validateObservationLists("observations", "contents", len(adds), func(i int) (string, []string) {
		return adds[i].EntityName, adds[i].Contents
	})
	if err != nil {
		return nil, err
	}
	var results []AddedObservations
	err = s.write(ctx, func(w *writer) error {
		var fresh []newObservation
		var err error
		results, fresh, err = planObservationAdds(adds, func(name string) (int64, []storedObservation, bool, error) {
			id, ok, err := w.entityID(name)
			if err != nil || !ok {
				return 0, nil, false, err
			}
			obs, err := w.observations(id)
			return id, obs, true, err
		})
		if err != nil {
			return err
		}
		for _, o := range fresh {
			if err := w.insertObservation(o.entityID, o.content); err != nil {
				return err
			}
		}
		for _, r := range results {
			for _, c := range r.AddedObservations {
				if err := w.logChange(ChangeObservationAdded, r.EntityName, c, nil, 0); err != nil {
					return err
				}
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
func (s *SQLite) DeleteEntities(ctx context.Context, names []string) error {
	if err := validateNames("entityNames", names); err != nil {
		return err
	}
	names = dedupe(names)
	return s.write(ctx, func(w *writer) error {
		ents := make(map[string]storedEntity, len(names))
		byID := map[int64]storedRelation{}
		for _, name := range names {
			var e storedEntity
			found, err := w.queryRow(`SELECT id, entity_type FROM entities WHERE name = ?`, []any{name}, &e.id, &e.entityType)
			if err != nil {
				return err
			}
			if found {
				ents[name] = e
			}
			rels, err := w.relationsTouching(name)
			if err != nil {
				return err
			}
			for _, r := range rels {
				byID[r.id] = r
			}
		}
		rels := make([]storedRelation, 0, len(byID))
		for _, r := range byID {
			rels = append(rels, r)
		}
		slices.SortFunc(rels, func(a, b storedRelation) int { return cmp.Compare(a.id, b.id) })
		for _, d := range planEntityDeletes(names, ents, rels) {
			if d.found {
				if err := w.deleteEntity(d.entity.id); err != nil {
					return err
				}
				if err := w.logChange(ChangeEntityDeleted, d.name, d.entity.entityType, nil, 0); err != nil {
					return err
				}
			}
			for _, r := range d.relations {
				if _, err := w.exec(`DELETE FROM relations WHERE id = ?`, r.id); err != nil {
					return err
				}
				w.ops = append(w.ops, mirrorOp{kind: opDelRel, id: r.id})
				if err := w.logChange(ChangeRelationDeleted, r.From, "", &r.Relation, 0); err != nil {
					return err
				}
			}
		}
		return w.clampTailAfterDeletes()
	})
}

// DeleteObservations implements Store.
func (s *SQLite) DeleteObservations(ctx context.Context, deletions []ObservationDelete) error {
	err := validateObservationLists("deletions", "observations", len(deletions), func(i int) (string, []string) {
		return deletions[i].EntityName, deletions[i].Observations
	})
	if err != nil {
		return err
	}
	return s.write(ctx, func(w *writer) error {
		for _, d := range deletions {
			id, ok, err := w.entityID(d.EntityName)
			if err != nil {
				return err
			}
			if !ok || len(d.Observations) == 0 {
				continue
			}
			obs, err := w.observations(id)
			if err != nil {
				return err
			}
			ends, err := w.indexed()
			if err != nil {
				return err
			}
			gone, _, deleted := observationsToDelete(obs, d.Observations)
			for _, o := range gone {
				if o.id <= ends.obsUpto {
					if _, err := w.exec(`DELETE FROM search_obs WHERE rowid = ?`, o.id); err != nil {
						return err
					}
				}
				if _, err := w.exec(`DELETE FROM observations WHERE id = ?`, o.id); err != nil {
					return err
				}
				w.ops = append(w.ops, mirrorOp{kind: opDelObs, owner: id, a: o.content})
			}
			for _, o := range deleted {
				if err := w.logChange(ChangeObservationDeleted, d.EntityName, o, nil, 0); err != nil {
					return err
				}
			}
		}
		return w.clampTailAfterDeletes()
	})
}

// DeleteRelations implements Store.
func (s *SQLite) DeleteRelations(ctx context.Context, relations []Relation) error {
	if err := validateRelations(relations); err != nil {
		return err
	}
	return s.write(ctx, func(w *writer) error {
		for _, r := range relations {
			st, err := w.stmt(`DELETE FROM relations WHERE from_name = ? AND to_name = ? AND relation_type = ? RETURNING id`)
			if err != nil {
				return err
			}
			n := 0
			rows, err := st.QueryContext(w.ctx, r.From, r.To, r.RelationType)
			if err != nil {
				return fmt.Errorf("memstore: %w", err)
			}
			for rows.Next() {
				var id int64
				if err := rows.Scan(&id); err != nil {
					rows.Close()
					return fmt.Errorf("memstore: %w", err)
				}
				w.ops = append(w.ops, mirrorOp{kind: opDelRel, id: id})
				n++
			}
			rows.Close()
			if err := rows.Err(); err != nil {
				return fmt.Errorf("memstore: %w", err)
			}
			if n > 0 {
				if err := w.logChange(ChangeRelationDeleted, r.From, "", &r, 0); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

// entityID looks an entity up by exact name.
func (w *writer) entityID(name string) (id int64, found bool, err error) {
	found, err = w.queryRow(`SELECT id FROM entities WHERE name = ?`, []any{name}, &id)
	return id, found, err
}

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

// deleteEntity removes entity id, its observations and their index rows.
func (w *writer) deleteEntity(id int64) error {
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

// relationsTouching returns the relations whose from or to is name, in
// insertion order.
func (w *writer) relationsTouching(name string) ([]storedRelation, error) {
	st, err := w.stmt(`SELECT id, from_name, to_name, relation_type FROM relations WHERE from_name = ?1
		UNION ALL SELECT id, from_name, to_name, relation_type FROM relations WHERE to_name = ?1 AND from_name <> ?1
		ORDER BY 1`)
	if err != nil {
		return nil, err
	}
	rows, err := st.QueryContext(w.ctx, name)
	if err != nil {
		return nil, fmt.Errorf("memstore: %w", err)
	}
	defer rows.Close()
	var out []storedRelation
	for rows.Next() {
		var r storedRelation
		if err := rows.Scan(&r.id, &r.From, &r.To, &r.RelationType); err != nil {
			return nil, fmt.Errorf("memstore: %w", err)
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("memstore: %w", err)
	}
	return out, nil
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

// logChange appends one row to the change feed, and to the history of
// each entity it concerns, recorded as made by the call's author. For
// relation changes the subject is the relation's From.
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

// addHistory appends a row to an entity's history.
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

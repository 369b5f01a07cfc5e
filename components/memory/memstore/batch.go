package memstore

// The rules of the write calls, shared by the stores: which items of a
// batch are acted on, which are skipped (already stored, or repeated
// earlier in the batch), in which order, and what the call returns and
// records in the change feed. Each store finds out what is stored its own
// way (SQLite row by row on its single writer, PostgreSQL set-wise under
// the schema's write lock) and writes the plan with its own statements.

// storedObservation is one stored observation with its row id.
type storedObservation struct {
	id      int64
	content string
}

// storedRelation is a stored relation with its row id.
type storedRelation struct {
	id int64
	Relation
}

// storedEntity is what writes need to know about a stored entity.
type storedEntity struct {
	id         int64
	entityType string
}

// newObservation is an observation to insert.
type newObservation struct {
	entityID int64
	content  string
}

// entityToStore is e as create_entities stores and returns it: its
// observations without repeats (first occurrences, in order).
func entityToStore(e Entity) Entity {
	return Entity{Name: e.Name, EntityType: e.EntityType, Observations: dedupe(e.Observations)}
}

// newEntities returns what create_entities stores, in order: each entity
// whose name is neither stored nor earlier in the batch, as entityToStore
// makes it; never nil.
func newEntities(entities []Entity, stored func(name string) bool) []Entity {
	out := make([]Entity, 0, len(entities))
	seen := make(map[string]bool, len(entities))
	for _, e := range entities {
		if stored(e.Name) || seen[e.Name] {
			continue
		}
		seen[e.Name] = true
		out = append(out, entityToStore(e))
	}
	return out
}

// newRelations returns what create_relations stores and returns, in
// order: the first occurrence in the batch of each relation not stored;
// never nil. stored is asked once per distinct relation.
func newRelations(relations []Relation, stored func(Relation) (bool, error)) ([]Relation, error) {
	out := make([]Relation, 0, len(relations))
	seen := make(map[Relation]bool, len(relations))
	for _, r := range relations {
		if seen[r] {
			continue
		}
		seen[r] = true
		exists, err := stored(r)
		if err != nil {
			return nil, err
		}
		if !exists {
			out = append(out, r)
		}
	}
	return out, nil
}

// planObservationAdds applies add_observations' rule: every entity named
// must be stored (else an *EntityNotFoundError for the first one missing),
// and each content not yet among the entity's observations, stored or
// added earlier in the call, is added. It returns the call's result, one
// AddedObservations per item in order, and the observations to insert in
// the same order (which is also the order of their changes). lookup is
// asked once per distinct name for the entity's id and stored
// observations.
func planObservationAdds(adds []ObservationAdd, lookup func(name string) (id int64, stored []storedObservation, found bool, err error)) ([]AddedObservations, []newObservation, error) {
	type state struct {
		id   int64
		have map[string]bool
	}
	states := map[string]*state{}
	results := make([]AddedObservations, 0, len(adds))
	var fresh []newObservation
	for _, a := range adds {
		st := states[a.EntityName]
		if st == nil {
			id, stored, found, err := lookup(a.EntityName)
			if err != nil {
				return nil, nil, err
			}
			if !found {
				return nil, nil, &EntityNotFoundError{Name: a.EntityName}
			}
			st = &state{id: id, have: make(map[string]bool, len(stored))}
			for _, o := range stored {
				st.have[o.content] = true
			}
			states[a.EntityName] = st
		}
		added := []string{}
		for _, c := range a.Contents {
			if st.have[c] {
				continue
			}
			st.have[c] = true
			fresh = append(fresh, newObservation{entityID: st.id, content: c})
			added = append(added, c)
		}
		results = append(results, AddedObservations{EntityName: a.EntityName, AddedObservations: added})
	}
	return results, fresh, nil
}

// observationsToDelete applies delete_observations' rule to one item:
// of an entity's stored observations (in insertion order) those equal to
// one of doomed go. It returns them, the observations kept, and the
// contents to record as deleted, in the order doomed names them, each
// once.
func observationsToDelete(stored []storedObservation, doomed []string) (gone, kept []storedObservation, deleted []string) {
	set := make(map[string]bool, len(doomed))
	for _, o := range doomed {
		set[o] = true
	}
	removed := map[string]bool{}
	for _, o := range stored {
		if set[o.content] {
			gone = append(gone, o)
			removed[o.content] = true
		} else {
			kept = append(kept, o)
		}
	}
	for _, o := range dedupe(doomed) {
		if removed[o] {
			deleted = append(deleted, o)
		}
	}
	return gone, kept, deleted
}

// entityDeletion is one step of a delete_entities call, for one name: the
// entity, when one is stored under it, and then the relations touching
// the name that no earlier step deleted, in insertion order.
type entityDeletion struct {
	name      string
	entity    storedEntity
	found     bool
	relations []storedRelation
}

// planEntityDeletes applies delete_entities' rule: for each name, once and
// in order, the entity goes (when stored) and, like the reference, every
// relation touching the name goes, even when no entity has it (dangling
// relations). ents are the stored entities among names; rels the stored
// relations touching any of them, ascending by id.
func planEntityDeletes(names []string, ents map[string]storedEntity, rels []storedRelation) []entityDeletion {
	touching := map[string][]int{} // name -> indexes into rels, ascending id
	for i, r := range rels {
		touching[r.From] = append(touching[r.From], i)
		if r.To != r.From {
			touching[r.To] = append(touching[r.To], i)
		}
	}
	gone := make([]bool, len(rels))
	var steps []entityDeletion
	for _, name := range dedupe(names) {
		d := entityDeletion{name: name}
		d.entity, d.found = ents[name]
		for _, i := range touching[name] {
			if !gone[i] {
				gone[i] = true
				d.relations = append(d.relations, rels[i])
			}
		}
		steps = append(steps, d)
	}
	return steps
}

// planImport applies Import's rule to a parsed file: an entity is skipped
// when its name is stored or earlier in the file, a relation when it was
// stored before the import (repeats within the file are kept, as are
// repeated observations, so that a file the reference wrote round-trips
// byte for byte). It returns the lines to add, in file order (the order
// of their changes too), and the stats. entityStored and relationStored
// say what was stored before the import.
func planImport(items []jsonlItem, ignored int, entityStored func(name string) (bool, error), relationStored func(Relation) (bool, error)) ([]jsonlItem, ImportStats, error) {
	stats := ImportStats{IgnoredLines: ignored}
	accepted := make([]jsonlItem, 0, len(items))
	seen := map[string]bool{}
	for _, it := range items {
		switch {
		case it.entity != nil:
			name := it.entity.Name
			skip := seen[name]
			if !skip {
				stored, err := entityStored(name)
				if err != nil {
					return nil, ImportStats{}, err
				}
				skip = stored
			}
			if skip {
				stats.SkippedEntities++
				continue
			}
			seen[name] = true
			stats.Entities++
		case it.relation != nil:
			stored, err := relationStored(*it.relation)
			if err != nil {
				return nil, ImportStats{}, err
			}
			if stored {
				stats.SkippedRelations++
				continue
			}
			stats.Relations++
		}
		accepted = append(accepted, it)
	}
	return accepted, stats, nil
}

package memstore

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
)

// The Store operations, each written once over the engine's parts: SQLite
// (sqlite.go, graph.go, search.go, ...) and PostgreSQL (postgres*.go)
// each supply an engine, whose transactions find and change rows their
// own way (SQLite row by row on its single writer, with its search
// indexes and in-memory mirror; PostgreSQL set-wise under the schema's
// write lock, pipelined), and a dialect (dialect.go) for the statements
// both run alike. The rules of what a call does (batch.go, taskrules.go,
// match.go, assemble.go) are shared too, so both engines behave alike by
// construction.

// engine is what a storage engine supplies to ops.
type engine interface {
	// update runs fn in one write transaction: committed when fn
	// returns nil, nothing changed when it fails.
	update(ctx context.Context, fn func(w writeTx) error) error
	// view runs fn in one read-only transaction: one consistent
	// snapshot.
	view(ctx context.Context, fn func(r readTx) error) error
}

// scanner is a row to scan: *sql.Rows, *sql.Row, pgx.Rows, pgx.Row.
type scanner interface{ Scan(dest ...any) error }

// querier runs the statements of a dialect in a transaction.
type querier interface {
	// each runs query and calls scan for every row.
	each(query string, args []any, scan func(scanner) error) error
	// row runs a single-row query into dest; found is false on no rows.
	row(query string, args []any, dest ...any) (found bool, err error)
}

// appendIDs runs query, whose rows are one id each, and appends the ids
// to ids.
func appendIDs(q querier, ids []int64, query string, args []any) ([]int64, error) {
	err := q.each(query, args, func(row scanner) error {
		var id int64
		err := row.Scan(&id)
		ids = append(ids, id)
		return err
	})
	return ids, err
}

// rows is what both drivers' query results share.
type rows interface {
	Next() bool
	Err() error
}

// scanRows calls scan for every row of rs and reports the first error of
// a scan or the iteration; the caller closes rs.
func scanRows[R rows](rs R, scan func(R) error) error {
	for rs.Next() {
		if err := scan(rs); err != nil {
			return err
		}
	}
	return rs.Err()
}

// writeTx is a write transaction of an engine. The set-wise lookups take
// what a whole call needs at once; inserts and deletes may be sent later
// (PostgreSQL pipelines them), but before the next query.
type writeTx interface {
	querier
	// callTime is the call's time in Unix nanoseconds, the same for all
	// its changes.
	callTime() int64
	// entitiesNamed returns the stored entities among names, by name.
	entitiesNamed(names []string) (map[string]storedEntity, error)
	// observationsOf returns the observations of ents by entity id, each
	// list in insertion order.
	observationsOf(ents map[string]storedEntity) (map[int64][]storedObservation, error)
	// relationsWithKeys returns the ids of the stored relations equal to
	// any of rels, by relation, ascending; when maxID > 0 only ids up to
	// maxID.
	relationsWithKeys(rels []Relation, maxID int64) (map[Relation][]int64, error)
	// relationsTouching returns the relations whose from or to is among
	// names, in insertion order.
	relationsTouching(names []string) ([]storedRelation, error)
	// insertEntities stores es, all new, with their observations, in
	// order.
	insertEntities(es []Entity) error
	// insertObservations stores obs, in order.
	insertObservations(obs []newObservation) error
	// insertRelations stores rels, in order.
	insertRelations(rels []Relation) error
	// deleteEntity removes e and its observations.
	deleteEntity(e storedEntity) error
	// deleteObservations removes gone, observations of entity entityID.
	deleteObservations(entityID int64, gone []storedObservation) error
	// deleteRelations removes the relations with these ids.
	deleteRelations(ids []int64) error
	// deleted ends a call that deleted rows.
	deleted() error
	// logChange records a change in the feed and in the history of each
	// entity it concerns (see historyEntities), as made by the call's
	// author. For relation changes the subject is the relation's From.
	logChange(kind ChangeKind, subject, detail string, rel *Relation, taskID int64) error
	// addHistory records a row of an entity's history.
	addHistory(h historyLine) error
	// insertTask stores a task made now and returns its id.
	insertTask(nt NewTask) (int64, error)
	// updateTask stores t's title, status and notes, updated now.
	updateTask(t Task) error
	// linkTask links task id to names, in order, replacing its links
	// when replace is set.
	linkTask(id int64, names []string, replace bool) error
}

// readTx is a read transaction of an engine.
type readTx interface {
	querier
	// candidates returns, in insertion order, the entities that may
	// match the lowered query q (searchQuery): at least all that do.
	candidates(q string) ([]Entity, error)
	// named returns the stored entities among names (no repeats), in
	// insertion order.
	named(names []string) ([]Entity, error)
	// relationsOf returns, in insertion order, the relations with at
	// least one end among the names of ents.
	relationsOf(ents []Entity) ([]Relation, error)
	// walk hands every entity and then every relation, in insertion
	// order, to the callbacks (see Store.WalkGraph).
	walk(entity func(Entity) error, relation func(Relation) error) error
	// graph returns the whole graph in insertion order: walk's, or read
	// the way that is cheaper when the whole graph is held anyway.
	graph() (Graph, error)
}

// ops implements the Store operations over an engine; SQLite and
// Postgres embed it.
type ops struct {
	eng engine
	d   *dialect
}

// CreateEntities implements Store.
func (s *ops) CreateEntities(ctx context.Context, entities []Entity) ([]Entity, error) {
	if err := validateEntities(entities); err != nil {
		return nil, err
	}
	var created []Entity
	err := s.eng.update(ctx, func(w writeTx) error {
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
			if err := w.logChange(ChangeEntityCreated, e.Name, e.EntityType, nil, 0); err != nil {
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

// CreateRelations implements Store.
func (s *ops) CreateRelations(ctx context.Context, relations []Relation) ([]Relation, error) {
	if err := validateRelations(relations); err != nil {
		return nil, err
	}
	var created []Relation
	err := s.eng.update(ctx, func(w writeTx) error {
		existing, err := w.relationsWithKeys(relations, 0)
		if err != nil {
			return err
		}
		created, _ = newRelations(relations, func(r Relation) (bool, error) { return len(existing[r]) > 0, nil })
		if err := w.insertRelations(created); err != nil {
			return err
		}
		for _, r := range created {
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
func (s *ops) AddObservations(ctx context.Context, adds []ObservationAdd) ([]AddedObservations, error) {
	err := validateObservationLists("observations", "contents", len(adds), func(i int) (string, []string) {
		return adds[i].EntityName, adds[i].Contents
	})
	if err != nil {
		return nil, err
	}
	var results []AddedObservations
	err = s.eng.update(ctx, func(w writeTx) error {
		names := make([]string, len(adds))
		for i, a := range adds {
			names[i] = a.EntityName
		}
		ents, obs, err := entitiesWithObservations(w, names)
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

// entitiesWithObservations returns the stored entities among names, by
// name, and their observations, by entity id.
func entitiesWithObservations(w writeTx, names []string) (map[string]storedEntity, map[int64][]storedObservation, error) {
	ents, err := w.entitiesNamed(names)
	if err != nil {
		return nil, nil, err
	}
	obs, err := w.observationsOf(ents)
	return ents, obs, err
}

// DeleteEntities implements Store.
func (s *ops) DeleteEntities(ctx context.Context, names []string) error {
	if err := validateNames("entityNames", names); err != nil {
		return err
	}
	names = dedupe(names)
	return s.eng.update(ctx, func(w writeTx) error {
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
				if err := w.deleteEntity(d.entity); err != nil {
					return err
				}
				if err := w.logChange(ChangeEntityDeleted, d.name, d.entity.entityType, nil, 0); err != nil {
					return err
				}
			}
			for _, r := range d.relations {
				if err := w.deleteRelations([]int64{r.id}); err != nil {
					return err
				}
				if err := w.logChange(ChangeRelationDeleted, r.From, "", &r.Relation, 0); err != nil {
					return err
				}
			}
		}
		return w.deleted()
	})
}

// DeleteObservations implements Store.
func (s *ops) DeleteObservations(ctx context.Context, deletions []ObservationDelete) error {
	err := validateObservationLists("deletions", "observations", len(deletions), func(i int) (string, []string) {
		return deletions[i].EntityName, deletions[i].Observations
	})
	if err != nil {
		return err
	}
	return s.eng.update(ctx, func(w writeTx) error {
		names := make([]string, len(deletions))
		for i, d := range deletions {
			names[i] = d.EntityName
		}
		ents, obs, err := entitiesWithObservations(w, names)
		if err != nil {
			return err
		}
		for _, d := range deletions {
			e, ok := ents[d.EntityName]
			if !ok || len(d.Observations) == 0 {
				continue
			}
			gone, kept, deleted := observationsToDelete(obs[e.id], d.Observations)
			if err := w.deleteObservations(e.id, gone); err != nil {
				return err
			}
			obs[e.id] = kept
			for _, o := range deleted {
				if err := w.logChange(ChangeObservationDeleted, d.EntityName, o, nil, 0); err != nil {
					return err
				}
			}
		}
		return w.deleted()
	})
}

// DeleteRelations implements Store.
func (s *ops) DeleteRelations(ctx context.Context, relations []Relation) error {
	if err := validateRelations(relations); err != nil {
		return err
	}
	return s.eng.update(ctx, func(w writeTx) error {
		existing, err := w.relationsWithKeys(relations, 0)
		if err != nil {
			return err
		}
		for _, r := range relations {
			ids := existing[r]
			if len(ids) == 0 {
				continue
			}
			if err := w.deleteRelations(ids); err != nil {
				return err
			}
			delete(existing, r)
			if err := w.logChange(ChangeRelationDeleted, r.From, "", &r, 0); err != nil {
				return err
			}
		}
		return nil
	})
}

// Import implements Store. It parses the whole input first, then adds
// everything in one transaction, so a malformed line (error wrapping
// ErrInvalid, naming the line) or an over-limit value (ErrLimit) changes
// nothing.
//
// Like the reference's loader it skips blank lines and ignores objects whose
// "type" is neither "entity" nor "relation", except the "history" lines of
// ExportWithHistory, which join the audit trail (older than the import's
// own changes). Entities whose name already
// exists, in the store or earlier in the file, are skipped. Relations already
// in the store before the import are skipped, but repeats within the file
// and repeated observations are kept as they are, so that importing a file
// written by the reference into an empty store and exporting it reproduces
// the file byte for byte.
func (s *ops) Import(ctx context.Context, r io.Reader) (ImportStats, error) {
	var stats ImportStats
	items, history, ignored, err := parseJSONL(r)
	if err != nil {
		return stats, err
	}
	err = s.eng.update(ctx, func(w writeTx) error {
		// The file's history first: it is older than what the import does.
		for _, h := range history {
			if err := w.addHistory(h); err != nil {
				return err
			}
		}
		var preMax int64
		if _, err := w.row(s.d.maxRelationID, nil, &preMax); err != nil {
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
		// The changes in file order.
		for _, it := range accepted {
			if it.entity != nil {
				err = w.logChange(ChangeEntityCreated, it.entity.Name, it.entity.EntityType, nil, 0)
			} else {
				err = w.logChange(ChangeRelationCreated, it.relation.From, "", it.relation, 0)
			}
			if err != nil {
				return err
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
func (s *ops) Export(ctx context.Context, w io.Writer) error {
	g, err := s.ReadGraph(ctx)
	if err != nil {
		return err
	}
	return WriteJSONL(w, g)
}

// counts measures the graph, for Graphs.List.
func (s *ops) counts(ctx context.Context) (GraphInfo, error) {
	var info GraphInfo
	err := s.eng.view(ctx, func(r readTx) error {
		_, err := r.row(s.d.graphCounts, nil, &info.Entities, &info.Relations, &info.Observations)
		return err
	})
	return info, err
}

// entityNames returns the names of es.
func entityNames(es []Entity) []string {
	names := make([]string, len(es))
	for i, e := range es {
		names[i] = e.Name
	}
	return names
}

// ReadGraph implements Store.
func (s *ops) ReadGraph(ctx context.Context) (Graph, error) {
	var g Graph
	err := s.eng.view(ctx, func(r readTx) error {
		var err error
		g, err = r.graph()
		return err
	})
	return g, err
}

// walkedGraph collects the graph that walk hands out.
func walkedGraph(walk func(entity func(Entity) error, relation func(Relation) error) error) (Graph, error) {
	g := Graph{Entities: []Entity{}, Relations: []Relation{}}
	err := walk(func(e Entity) error {
		e.Observations = append(make([]string, 0, len(e.Observations)), e.Observations...)
		g.Entities = append(g.Entities, e)
		return nil
	}, func(r Relation) error {
		g.Relations = append(g.Relations, r)
		return nil
	})
	if err != nil {
		return Graph{}, err
	}
	return g, nil
}

// WalkGraph implements Store.
func (s *ops) WalkGraph(ctx context.Context, entity func(Entity) error, relation func(Relation) error) error {
	return s.eng.view(ctx, func(r readTx) error { return r.walk(entity, relation) })
}

// SearchNodes implements Store: the engine finds the candidates (a
// trigram index serves queries of three or more characters), and the
// reference's predicate (entityMatches) decides.
func (s *ops) SearchNodes(ctx context.Context, query string) (Graph, error) {
	q, err := searchQuery(query)
	if err != nil {
		return Graph{}, err
	}
	var g Graph
	err = s.eng.view(ctx, func(r readTx) error {
		cands, err := r.candidates(q)
		if err != nil {
			return err
		}
		g, err = withRelations(r, matchingEntities(cands, q))
		return err
	})
	return g, err
}

// OpenNodes implements Store.
func (s *ops) OpenNodes(ctx context.Context, names []string) (Graph, error) {
	names, err := openNodesNames(names)
	if err != nil {
		return Graph{}, err
	}
	var g Graph
	err = s.eng.view(ctx, func(r readTx) error {
		ents, err := r.named(names)
		if err != nil {
			return err
		}
		g, err = withRelations(r, ents)
		return err
	})
	return g, err
}

// withRelations is the graph of ents and the relations touching them.
func withRelations(r readTx, ents []Entity) (Graph, error) {
	rels, err := r.relationsOf(ents)
	if err != nil {
		return Graph{}, err
	}
	return Graph{Entities: ents, Relations: rels}, nil
}

// EntityNames implements Store. limit <= 0 means DefaultEntityNamesLimit;
// limit is capped at MaxBatch. Matching folds case with strings.ToLower.
func (s *ops) EntityNames(ctx context.Context, prefix string, limit int) ([]string, error) {
	limit, err := entityNamesLimit(prefix, limit)
	if err != nil {
		return nil, err
	}
	fold := s.d.enc(strings.ToLower(prefix))
	names := []string{}
	err = s.eng.view(ctx, func(r readTx) error {
		// The names with the prefix are the first rows.
		err := r.each(s.d.entityNames, []any{fold, limit}, func(row scanner) error {
			var name, nf string
			if err := row.Scan(&name, &nf); err != nil {
				return err
			}
			if strings.HasPrefix(nf, fold) && len(names) < limit {
				names = append(names, s.d.dec(name))
			}
			return nil
		})
		if err != nil {
			return fmt.Errorf("memstore: entity names: %w", err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return names, nil
}

// CreateTask implements Store.
func (s *ops) CreateTask(ctx context.Context, nt NewTask) (Task, error) {
	nt, err := prepareNewTask(nt)
	if err != nil {
		return Task{}, err
	}
	var t Task
	err = s.eng.update(ctx, func(w writeTx) error {
		id, err := w.insertTask(nt)
		if err != nil {
			return err
		}
		t = createdTask(id, nt, w.callTime())
		if err := w.linkTask(id, t.Entities, false); err != nil {
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
func (s *ops) UpdateTask(ctx context.Context, id int64, u TaskUpdate) (Task, error) {
	if err := validateTaskUpdate(u); err != nil {
		return Task{}, err
	}
	var t Task
	err := s.eng.update(ctx, func(w writeTx) error {
		cur, err := s.loadTask(w, id)
		if err != nil {
			return err
		}
		next, detail, entsChanged := applyTaskUpdate(cur, u, w.callTime())
		if detail == "" {
			t = cur
			return nil
		}
		if err := w.updateTask(next); err != nil {
			return err
		}
		if entsChanged {
			if err := w.linkTask(id, next.Entities, true); err != nil {
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
func (s *ops) GetTask(ctx context.Context, id int64) (Task, error) {
	var t Task
	err := s.eng.view(ctx, func(r readTx) error {
		var err error
		t, err = s.loadTask(r, id)
		return err
	})
	return t, err
}

// ListTasks implements Store.
func (s *ops) ListTasks(ctx context.Context, f TaskFilter) ([]Task, error) {
	if err := validateTaskFilter(f); err != nil {
		return nil, err
	}
	var args []any
	q := taskListQuery(f, s.d.tasks, s.d.taskEntities, func(v any) string {
		args = append(args, v)
		return s.d.arg(len(args))
	}, s.d.enc)
	tasks := []Task{}
	err := s.eng.view(ctx, func(r readTx) error {
		err := r.each(q, args, func(row scanner) error {
			t, err := s.scanTask(row)
			tasks = append(tasks, t)
			return err
		})
		if err != nil {
			return fmt.Errorf("memstore: list tasks: %w", err)
		}
		ids := make([]int64, len(tasks))
		for i, t := range tasks {
			ids[i] = t.ID
		}
		if len(ids) == 0 {
			return nil
		}
		link := taskLinks(tasks)
		for _, c := range s.d.anyID("task_id", ids) {
			err := r.each(s.d.taskLinks+c.sql+s.d.taskLinksOrder, c.args, func(row scanner) error {
				var id int64
				var name string
				err := row.Scan(&id, &name)
				link(id, s.d.dec(name))
				return err
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

// scanTask reads the columns taskColumns; Entities is left empty.
func (s *ops) scanTask(r scanner) (Task, error) {
	var id, created, updated int64
	var title, status, notes string
	if err := r.Scan(&id, &title, &status, &notes, &created, &updated); err != nil {
		return Task{}, err
	}
	return taskFromColumns(id, s.d.dec(title), status, s.d.dec(notes), created, updated), nil
}

// loadTask reads task id with its linked entities.
func (s *ops) loadTask(q querier, id int64) (Task, error) {
	var t Task
	var found bool
	err := q.each(s.d.loadTask, []any{id}, func(row scanner) error {
		var err error
		t, err = s.scanTask(row)
		found = true
		return err
	})
	if err != nil {
		return Task{}, fmt.Errorf("memstore: load task: %w", err)
	}
	if !found {
		return Task{}, fmt.Errorf("%w: task %d", ErrNotFound, id)
	}
	err = q.each(s.d.loadTaskLinks, []any{id}, func(row scanner) error {
		var n string
		err := row.Scan(&n)
		t.Entities = append(t.Entities, s.d.dec(n))
		return err
	})
	if err != nil {
		return Task{}, fmt.Errorf("memstore: load task: %w", err)
	}
	return t, nil
}

// Head implements Store. The value is the highest Seq ever assigned, even
// if that change has since been pruned.
func (s *ops) Head(ctx context.Context) (int64, error) {
	var head int64
	err := s.eng.view(ctx, func(r readTx) error {
		if _, err := r.row(s.d.head, nil, &head); err != nil {
			return fmt.Errorf("memstore: head: %w", err)
		}
		return nil
	})
	return head, err
}

// Changes implements Store. It returns the changes with Seq > since, oldest
// first, at most limit of them (limit <= 0 means DefaultChangesPage; it is
// capped at MaxChangesPage), and next, the Seq of the last change returned
// (since itself when none is). Callers loop until next equals Head.
//
// The feed keeps only the most recent changes (see WithChangeRetention).
// Since 0 is the starting cursor and always works: it answers from the
// oldest change kept, whose Seq is then greater than 1 when older ones were
// pruned. If some changes after another since have been pruned, Changes
// returns an error wrapping ErrHistoryPruned: the caller should re-read the
// graph and resume from Head (or start over from 0). A since greater than
// Head is an error wrapping ErrInvalid (a cursor from another database).
// Writes are serialized and advance the head in the same transaction as
// their changes, so on PostgreSQL a cursor taken on one replica is valid
// on every other.
func (s *ops) Changes(ctx context.Context, since int64, limit int) ([]Change, int64, error) {
	if since < 0 {
		return nil, since, fmt.Errorf("%w: change cursor %d is negative", ErrInvalid, since)
	}
	if limit <= 0 {
		limit = DefaultChangesPage
	}
	limit = min(limit, MaxChangesPage)
	changes := []Change{}
	next := since
	err := s.eng.view(ctx, func(r readTx) error {
		var head int64
		var oldest *int64
		if _, err := r.row(s.d.feed, nil, &head, &oldest); err != nil {
			return fmt.Errorf("memstore: changes: %w", err)
		}
		if since > head {
			return fmt.Errorf("%w: change cursor %d is ahead of the newest change %d", ErrInvalid, since, head)
		}
		if since == head {
			return nil
		}
		if since == 0 && oldest == nil {
			next = head // nothing is kept: the feed starts now
			return nil
		}
		if since > 0 && (oldest == nil || since < *oldest-1) {
			var o int64
			if oldest != nil {
				o = *oldest
			}
			return prunedError(since, o, head)
		}
		err := r.each(s.d.changes, []any{since, limit}, func(row scanner) error {
			var c Change
			var kind string
			var relTo, relType *string
			var taskID *int64
			var at int64
			if err := row.Scan(&c.Seq, &kind, &c.Subject, &c.Detail, &relTo, &relType, &taskID, &at, &c.Author); err != nil {
				return err
			}
			c.Kind = ChangeKind(kind)
			c.Subject, c.Detail, c.Author = s.d.dec(c.Subject), s.d.dec(c.Detail), s.d.dec(c.Author)
			if relTo != nil && relType != nil {
				c.Relation = &Relation{From: c.Subject, To: s.d.dec(*relTo), RelationType: s.d.dec(*relType)}
			}
			if taskID != nil {
				c.TaskID = *taskID
			}
			c.At = time.Unix(0, at).UTC()
			changes = append(changes, c)
			next = c.Seq
			return nil
		})
		if err != nil {
			return fmt.Errorf("memstore: changes: %w", err)
		}
		return nil
	})
	if err != nil {
		return nil, since, err
	}
	return changes, next, nil
}

// History implements Store.
func (s *ops) History(ctx context.Context, name string, limit int) ([]Change, error) {
	if err := checkName("name", name); err != nil {
		return nil, err
	}
	out := []Change{}
	err := s.eng.view(ctx, func(r readTx) error {
		return s.scanHistory(r, s.d.history, []any{s.d.enc(name), historyLimit(limit)}, func(_ string, c Change) error {
			out = append(out, c)
			return nil
		})
	})
	slices.Reverse(out)
	return out, err
}

// WalkHistory implements Store.
func (s *ops) WalkHistory(ctx context.Context, fn func(entity string, c Change) error) error {
	return s.eng.view(ctx, func(r readTx) error { return s.scanHistory(r, s.d.walkHistory, nil, fn) })
}

// scanHistory runs a query of history rows and hands each to fn.
func (s *ops) scanHistory(q querier, query string, args []any, fn func(entity string, c Change) error) error {
	var stop error
	err := q.each(query, args, func(row scanner) error {
		var c Change
		var entity, kind string
		var relFrom, relTo, relType *string
		var at int64
		if err := row.Scan(&entity, &c.Seq, &kind, &c.Detail, &relFrom, &relTo, &relType, &c.Author, &at); err != nil {
			return err
		}
		entity = s.d.dec(entity)
		c.Subject, c.Kind, c.At = entity, ChangeKind(kind), time.Unix(0, at).UTC()
		c.Detail, c.Author = s.d.dec(c.Detail), s.d.dec(c.Author)
		if relFrom != nil && relTo != nil && relType != nil {
			c.Subject = s.d.dec(*relFrom)
			c.Relation = &Relation{From: c.Subject, To: s.d.dec(*relTo), RelationType: s.d.dec(*relType)}
		}
		stop = fn(entity, c)
		return stop
	})
	if err != nil && (stop == nil || !errors.Is(err, stop)) {
		return fmt.Errorf("memstore: history: %w", err)
	}
	return err
}

package memstore

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
)

// inChunk is the number of parameters per IN (...) list. Larger sets are
// read in chunks of index lookups, unless they are a large part of the
// table, in which case one sequential scan is cheaper (see loadEntitiesByID
// and relationsOf).
const inChunk = 500

// DefaultEntityNamesLimit is the number of names EntityNames returns when
// limit <= 0.
const DefaultEntityNamesLimit = 100

// ReadGraph implements Store.
func (s *SQLite) ReadGraph(ctx context.Context) (Graph, error) {
	g := Graph{Entities: []Entity{}, Relations: []Relation{}}
	err := s.WalkGraph(ctx, func(e Entity) error {
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

// SearchNodes implements Store.
func (s *SQLite) SearchNodes(ctx context.Context, query string) (Graph, error) {
	q, err := searchQuery(query)
	if err != nil {
		return Graph{}, err
	}
	var g Graph
	err = s.read(ctx, func(tx *txn) error {
		m, done, err := s.mirrorAt(ctx, tx)
		defer done()
		if err != nil {
			return fmt.Errorf("memstore: search: %w", err)
		}
		var cands []Entity
		if utf8.RuneCountInString(q) >= 3 && !strings.ContainsRune(q, 0) {
			ids, err := s.searchCandidates(ctx, tx, m, q)
			if err != nil {
				return err
			}
			cands, err = loadEntitiesByID(ctx, tx, m, ids)
		} else {
			// The trigram index cannot serve queries shorter than three
			// characters, nor carry NUL: check every entity.
			cands, err = loadAllEntities(ctx, tx, nil)
		}
		if err != nil {
			return err
		}
		ents := matchingEntities(cands, q)
		rels, err := relationsOf(ctx, tx, m, ents)
		if err != nil {
			return err
		}
		g = Graph{Entities: ents, Relations: rels}
		return nil
	})
	return g, err
}

// searchCandidates returns, sorted, the ids of the entities whose name,
// type or an observation contains the lower-cased query q (of at least
// three characters, without NUL). The trigram indexes find the rows that
// may (each row they return is checked here, from the row's own text,
// which costs less than loading its entity; names from the mirror m when
// it is not nil), and the rows not yet indexed are checked directly
// (tailCandidates).
func (s *SQLite) searchCandidates(ctx context.Context, tx *txn, m *mirrorData, q string) ([]int64, error) {
	names, obs, err := s.samples.get(ctx, tx)
	if err != nil {
		return nil, err
	}
	if !s.pairs.Load() {
		// Nothing makes rows pending again once none is (pairs.go).
		pending, err := pairsPending(ctx, tx)
		if err != nil {
			return nil, err
		}
		s.pairs.Store(pending == 0)
	}
	set := map[int64]bool{}
	namesMatch := []any{matchExpr(q, names, s.pairs.Load())}
	if m != nil {
		err = eachRow(ctx, tx, `SELECT rowid FROM search_names WHERE search_names MATCH ?`, namesMatch, func(rows *sql.Rows) error {
			var id int64
			err := rows.Scan(&id)
			if i, ok := m.entPos[id]; ok {
				if e := &m.ents[i]; eitherContains(m.str(e.name), m.str(e.kind), q) {
					set[id] = true
				}
			}
			return err
		})
	} else {
		err = addMatches(ctx, tx, `SELECT e.id, e.name, e.entity_type FROM search_names AS f JOIN entities AS e ON e.id = f.rowid WHERE search_names MATCH ?`, namesMatch, q, set)
	}
	if err == nil {
		err = addMatches(ctx, tx, `SELECT o.entity_id, o.content, '' FROM search_obs AS f JOIN observations AS o ON o.id = f.rowid WHERE search_obs MATCH ?`,
			[]any{matchExpr(q, obs, false)}, q, set)
	}
	if err == nil {
		err = tailCandidates(ctx, tx, q, set)
	}
	if err != nil {
		return nil, fmt.Errorf("memstore: search: %w", err)
	}
	ids := make([]int64, 0, len(set))
	for id := range set {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids, nil
}

// addMatches runs query, whose rows are an entity id and two of its texts
// (name and type, or an observation and ”), and adds to set the ids of
// the rows whose lower-cased texts contain q.
func addMatches(ctx context.Context, tx *txn, query string, args []any, q string, set map[int64]bool) error {
	return eachRow(ctx, tx, query, args, func(rows *sql.Rows) error {
		var id int64
		var a, b string
		err := rows.Scan(&id, &a, &b)
		if eitherContains(a, b, q) {
			set[id] = true
		}
		return err
	})
}

// OpenNodes implements Store.
func (s *SQLite) OpenNodes(ctx context.Context, names []string) (Graph, error) {
	names, err := openNodesNames(names)
	if err != nil {
		return Graph{}, err
	}
	var g Graph
	err = s.read(ctx, func(tx *txn) error {
		m, done, err := s.mirrorAt(ctx, tx)
		defer done()
		if err != nil {
			return fmt.Errorf("memstore: open nodes: %w", err)
		}
		if m != nil {
			g = m.openNodes(names)
			return nil
		}
		var ids []int64
		for chunk := range slices.Chunk(names, inChunk) {
			ph, args := inList(chunk)
			err := eachRow(ctx, tx, `SELECT id FROM entities WHERE name IN (`+ph+`)`, args, func(rows *sql.Rows) error {
				var id int64
				err := rows.Scan(&id)
				ids = append(ids, id)
				return err
			})
			if err != nil {
				return fmt.Errorf("memstore: open nodes: %w", err)
			}
		}
		slices.Sort(ids)
		ents, err := loadEntitiesByID(ctx, tx, nil, ids)
		if err != nil {
			return err
		}
		rels, err := relationsOf(ctx, tx, nil, ents)
		if err != nil {
			return err
		}
		g = Graph{Entities: ents, Relations: rels}
		return nil
	})
	return g, err
}

// EntityNames implements Store. limit <= 0 means DefaultEntityNamesLimit;
// limit is capped at MaxBatch. Matching folds case with strings.ToLower.
func (s *SQLite) EntityNames(ctx context.Context, prefix string, limit int) ([]string, error) {
	limit, err := entityNamesLimit(prefix, limit)
	if err != nil {
		return nil, err
	}
	fold := strings.ToLower(prefix)
	names := []string{}
	err = s.read(ctx, func(tx *txn) error {
		rows, err := tx.QueryContext(ctx, `SELECT name, name_fold FROM entities WHERE name_fold >= ? ORDER BY name_fold, name`, fold)
		if err != nil {
			return fmt.Errorf("memstore: entity names: %w", err)
		}
		defer rows.Close()
		for rows.Next() && len(names) < limit {
			var name, nf string
			if err := rows.Scan(&name, &nf); err != nil {
				return fmt.Errorf("memstore: entity names: %w", err)
			}
			if !strings.HasPrefix(nf, fold) {
				break
			}
			names = append(names, name)
		}
		if err := rows.Err(); err != nil {
			return fmt.Errorf("memstore: entity names: %w", err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return names, nil
}

// loadAllEntities reads every entity with its observations in insertion
// order; when keep is non-nil only ids in keep are returned.
func loadAllEntities(ctx context.Context, tx *txn, keep map[int64]bool) ([]Entity, error) {
	l := newEntityList(len(keep))
	err := eachRow(ctx, tx, `SELECT id, name, entity_type FROM entities ORDER BY id`, nil, func(rows *sql.Rows) error {
		var id int64
		var name, etype string
		if err := rows.Scan(&id, &name, &etype); err != nil {
			return err
		}
		if keep == nil || keep[id] {
			l.addEntity(id, name, etype)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("memstore: read entities: %w", err)
	}
	if len(l.entities()) == 0 {
		return l.entities(), nil
	}
	err = eachRow(ctx, tx, `SELECT entity_id, content FROM observations ORDER BY id`, nil, func(rows *sql.Rows) error {
		var id int64
		var c string
		err := rows.Scan(&id, &c)
		l.addObservation(id, c)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("memstore: read observations: %w", err)
	}
	return l.entities(), nil
}

// loadEntitiesByID reads the entities with the given ascending ids, with
// their observations, in insertion order: from the mirror m when it is not
// nil, else from the tables.
func loadEntitiesByID(ctx context.Context, tx *txn, m *mirrorData, ids []int64) ([]Entity, error) {
	if m != nil {
		at := make([]int32, 0, len(ids))
		for _, id := range ids {
			if i, ok := m.entPos[id]; ok {
				at = append(at, int32(i))
			}
		}
		return m.entities(at), nil
	}
	if len(ids) == 0 {
		return []Entity{}, nil
	}
	var maxID int64
	if err := tx.QueryRowContext(ctx, `SELECT coalesce(max(id), 0) FROM entities`).Scan(&maxID); err != nil {
		return nil, fmt.Errorf("memstore: read entities: %w", err)
	}
	if int64(len(ids))*3 > maxID { // a third of the table or more: scan
		keep := make(map[int64]bool, len(ids))
		for _, id := range ids {
			keep[id] = true
		}
		return loadAllEntities(ctx, tx, keep)
	}
	l := newEntityList(len(ids))
	for chunk := range slices.Chunk(ids, inChunk) {
		ph, args := inList(chunk)
		err := eachRow(ctx, tx, `SELECT id, name, entity_type FROM entities WHERE id IN (`+ph+`) ORDER BY id`, args, func(rows *sql.Rows) error {
			var id int64
			var name, etype string
			err := rows.Scan(&id, &name, &etype)
			l.addEntity(id, name, etype)
			return err
		})
		if err != nil {
			return nil, fmt.Errorf("memstore: read entities: %w", err)
		}
		err = eachRow(ctx, tx, `SELECT entity_id, content FROM observations WHERE entity_id IN (`+ph+`) ORDER BY entity_id, id`, args, func(rows *sql.Rows) error {
			var id int64
			var c string
			err := rows.Scan(&id, &c)
			l.addObservation(id, c)
			return err
		})
		if err != nil {
			return nil, fmt.Errorf("memstore: read observations: %w", err)
		}
	}
	return l.entities(), nil
}

// relationsOf returns, in insertion order, the relations with at least one
// end among the names of ents (the reference's rule for both search_nodes
// and open_nodes): from the mirror m when it is not nil, else from the
// tables.
func relationsOf(ctx context.Context, tx *txn, m *mirrorData, ents []Entity) ([]Relation, error) {
	if m != nil {
		return m.relationsOf(ents), nil
	}
	if len(ents) == 0 {
		return []Relation{}, nil
	}
	names := entityNameSet(ents)
	// Each name costs two index probes; scanning costs one step per
	// relation.
	var maxID int64
	if err := tx.QueryRowContext(ctx, `SELECT coalesce(max(id), 0) FROM relations`).Scan(&maxID); err != nil {
		return nil, fmt.Errorf("memstore: read relations: %w", err)
	}
	if scanRelationsCheaper(len(names), maxID) {
		return scanRelations(ctx, tx, names)
	}
	list := make([]string, 0, len(names))
	for n := range names {
		list = append(list, n)
	}
	found := map[int64]Relation{}
	for chunk := range slices.Chunk(list, inChunk) {
		ph, args := inList(chunk)
		for _, q := range []string{
			`SELECT id, from_name, to_name, relation_type FROM relations WHERE from_name IN (` + ph + `)`,
			`SELECT id, from_name, to_name, relation_type FROM relations WHERE to_name IN (` + ph + `)`,
		} {
			err := eachRow(ctx, tx, q, args, func(rows *sql.Rows) error {
				var id int64
				var r Relation
				err := rows.Scan(&id, &r.From, &r.To, &r.RelationType)
				found[id] = r
				return err
			})
			if err != nil {
				return nil, fmt.Errorf("memstore: read relations: %w", err)
			}
		}
	}
	ids := make([]int64, 0, len(found))
	for id := range found {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	rels := make([]Relation, len(ids))
	for i, id := range ids {
		rels[i] = found[id]
	}
	return rels, nil
}

// scanRelations reads all relations in insertion order, keeping only those
// touching names when names is non-nil.
func scanRelations(ctx context.Context, tx *txn, names map[string]bool) ([]Relation, error) {
	rows, err := tx.QueryContext(ctx, `SELECT from_name, to_name, relation_type FROM relations ORDER BY id`)
	if err != nil {
		return nil, fmt.Errorf("memstore: read relations: %w", err)
	}
	defer rows.Close()
	rels := []Relation{}
	for rows.Next() {
		var r Relation
		if err := rows.Scan(&r.From, &r.To, &r.RelationType); err != nil {
			return nil, fmt.Errorf("memstore: read relations: %w", err)
		}
		if relationTouches(names, r) {
			rels = append(rels, r)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("memstore: read relations: %w", err)
	}
	return rels, nil
}

// eachRow runs query and calls scan for every row, closing the rows and
// reporting the first error of the query, a scan or the iteration.
func eachRow(ctx context.Context, tx *txn, query string, args []any, scan func(*sql.Rows) error) error {
	rows, err := tx.QueryContext(ctx, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := scan(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}

// WalkGraph implements Store. It reads the in-memory mirror of the graph
// when that is at the version of the read transaction's snapshot (see
// mirror), and the tables otherwise.
func (s *SQLite) WalkGraph(ctx context.Context, entity func(Entity) error, relation func(Relation) error) error {
	return s.read(ctx, func(tx *txn) error {
		seq, err := feedSeq(ctx, tx)
		if err != nil {
			return fmt.Errorf("memstore: read graph: %w", err)
		}
		if ok, err := s.mirror.walk(ctx, tx, seq, entity, relation); ok || err != nil {
			return err
		}
		return walkTables(ctx, tx, entity, relation)
	})
}

// walkTables walks the graph from the tables: one query over entities
// joined with their observations (in id order, the observations by the
// entity index), then one over relations.
func walkTables(ctx context.Context, tx *txn, entity func(Entity) error, relation func(Relation) error) error {
	{
		rows, err := tx.QueryContext(ctx, `SELECT e.id, e.name, e.entity_type, o.content
			FROM entities AS e LEFT JOIN observations AS o ON o.entity_id = e.id ORDER BY e.id, o.id`)
		if err != nil {
			return fmt.Errorf("memstore: read entities: %w", err)
		}
		defer rows.Close()
		g := entityRows{emit: entity}
		for rows.Next() {
			var id int64
			var name, etype string
			var content sql.NullString
			if err := rows.Scan(&id, &name, &etype, &content); err != nil {
				return fmt.Errorf("memstore: read entities: %w", err)
			}
			if err := g.add(id, name, etype, content.String, content.Valid); err != nil {
				return err
			}
		}
		if err := rows.Err(); err != nil {
			return fmt.Errorf("memstore: read entities: %w", err)
		}
		if err := g.end(); err != nil {
			return err
		}
		rows.Close()
		return eachRow(ctx, tx, `SELECT from_name, to_name, relation_type FROM relations ORDER BY id`, nil, func(rows *sql.Rows) error {
			var r Relation
			if err := rows.Scan(&r.From, &r.To, &r.RelationType); err != nil {
				return fmt.Errorf("memstore: read relations: %w", err)
			}
			return relation(r)
		})
	}
}

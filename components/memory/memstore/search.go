package memstore

import (
	"context"
	"database/sql"
	"errors"
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

// probeAlways is the most ids (loadEntitiesByID) or names (relationsOf)
// that are looked up by index without first asking the table's highest
// id, which decides between index lookups and one scan: so few lookups
// cost at most tens of index descents, and the scan wins only on a table
// of a few dozen rows, where both are cheap. The question is not free:
// a query, and after another connection's commit (the event store's,
// after every write of mcp-memory) has emptied the connection's page
// cache, a descent of the table's right edge, a page read a level
// (docs/bench/log.md, item 68).
const probeAlways = 32

// DefaultEntityNamesLimit is the number of names EntityNames returns when
// limit <= 0.
const DefaultEntityNamesLimit = 100

// sqliteView is a read transaction of the SQLite engine (readTx, see
// ops.go). Searches and lookups read the in-memory mirror when it holds
// exactly the transaction's snapshot (taken on first use, see mirrorAt,
// and held until release), the tables otherwise.
type sqliteView struct {
	s       *SQLite
	ctx     context.Context
	tx      *txn
	m       *mirrorData // the mirror, when taken and at the snapshot
	taken   bool        // mirrorAt was asked
	release func()      // gives the mirror back
}

// mirror returns the mirror at the snapshot, or nil.
func (v *sqliteView) mirror() (*mirrorData, error) {
	if !v.taken {
		v.taken = true
		var err error
		if v.m, v.release, err = v.s.mirrorAt(v.ctx, v.tx); err != nil {
			return nil, fmt.Errorf("memstore: mirror: %w", err)
		}
	}
	return v.m, nil
}

// each implements querier.
func (v *sqliteView) each(query string, args []any, scan func(scanner) error) error {
	return eachRow(v.ctx, v.tx, query, args, func(rows *sql.Rows) error { return scan(rows) })
}

// row implements querier.
func (v *sqliteView) row(query string, args []any, dest ...any) (bool, error) {
	err := v.tx.QueryRowContext(v.ctx, query, args...).Scan(dest...)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	return err == nil, err
}

// candidates implements readTx: the trigram indexes serve queries of
// three or more characters without NUL; shorter ones (and ones with NUL)
// check every entity.
func (v *sqliteView) candidates(q string) ([]Entity, error) {
	m, err := v.mirror()
	if err != nil {
		return nil, err
	}
	if utf8.RuneCountInString(q) < 3 || strings.ContainsRune(q, 0) {
		return loadAllEntities(v.ctx, v.tx, nil)
	}
	ids, err := v.s.searchCandidates(v.ctx, v.tx, m, q)
	if err != nil {
		return nil, err
	}
	return loadEntitiesByID(v.ctx, v.tx, m, ids)
}

// named implements readTx.
func (v *sqliteView) named(names []string) ([]Entity, error) {
	m, err := v.mirror()
	if err != nil {
		return nil, err
	}
	if m != nil {
		return m.named(names), nil
	}
	var ids []int64
	for chunk := range slices.Chunk(names, inChunk) {
		ph, args := inList(chunk)
		var err error
		if ids, err = appendIDs(v, ids, `SELECT id FROM entities WHERE name IN (`+ph+`)`, args); err != nil {
			return nil, fmt.Errorf("memstore: open nodes: %w", err)
		}
	}
	slices.Sort(ids)
	return loadEntitiesByID(v.ctx, v.tx, nil, ids)
}

// relationsOf implements readTx.
func (v *sqliteView) relationsOf(ents []Entity) ([]Relation, error) {
	m, err := v.mirror()
	if err != nil {
		return nil, err
	}
	return relationsOf(v.ctx, v.tx, m, ents)
}

// graph implements readTx: walk's graph (from the mirror, usually).
func (v *sqliteView) graph() (Graph, error) { return walkedGraph(v.walk) }

// walk implements readTx from the mirror when it is at the snapshot's
// version (loading it if need be, see mirror.walk), else from the
// tables. It must not follow mirror in the same transaction.
func (v *sqliteView) walk(entity func(Entity) error, relation func(Relation) error) error {
	seq, err := feedSeq(v.ctx, v.tx)
	if err != nil {
		return fmt.Errorf("memstore: read graph: %w", err)
	}
	if ok, err := v.s.mirror.walk(v.ctx, v.tx, seq, entity, relation); ok || err != nil {
		return err
	}
	return walkTables(v.ctx, v.tx, entity, relation)
}

// searchCandidates returns, sorted, the ids of the entities whose name,
// type or an observation contains the lower-cased query q (of at least
// three characters, without NUL). The trigram indexes find the rows that
// may (each row they return is checked here, from the row's own text,
// which costs less than loading its entity; names from the mirror m when
// it is not nil), and the rows not yet indexed are checked directly
// (tailCandidates). An index that holds its query's probe piece in no row
// (matchQuery) is not asked further.
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
	namesExpr, namesProbe := matchQuery(q, names, s.pairs.Load())
	obsExpr, obsProbe := matchQuery(q, obs, false)
	var namesAny, obsAny bool
	if namesAny, err = ftsHolds(ctx, tx, "search_names", namesProbe); err == nil {
		obsAny, err = ftsHolds(ctx, tx, "search_obs", obsProbe)
	}
	namesMatch := []any{namesExpr}
	switch {
	case err != nil || !namesAny:
	case m != nil:
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
	default:
		err = addMatches(ctx, tx, `SELECT e.id, e.name, e.entity_type FROM search_names AS f JOIN entities AS e ON e.id = f.rowid WHERE search_names MATCH ?`, namesMatch, q, set)
	}
	if err == nil && obsAny {
		err = addMatches(ctx, tx, `SELECT o.entity_id, o.content, '' FROM search_obs AS f JOIN observations AS o ON o.id = f.rowid WHERE search_obs MATCH ?`,
			[]any{obsExpr}, q, set)
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

// ftsHolds reports whether the search index table holds a row with the
// FTS5 term probe (matchQuery); an empty probe holds.
func ftsHolds(ctx context.Context, tx *txn, table, probe string) (bool, error) {
	if probe == "" {
		return true, nil
	}
	var one int
	err := tx.QueryRowContext(ctx, `SELECT 1 FROM `+table+` WHERE `+table+` MATCH ? LIMIT 1`, probe).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	return err == nil, err
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
	if len(ids) > probeAlways {
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
	if len(names) > probeAlways {
		var maxID int64
		if err := tx.QueryRowContext(ctx, `SELECT coalesce(max(id), 0) FROM relations`).Scan(&maxID); err != nil {
			return nil, fmt.Errorf("memstore: read relations: %w", err)
		}
		if scanRelationsCheaper(len(names), maxID) {
			return scanRelations(ctx, tx, names)
		}
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
	return scanRows(rows, scan)
}

// walkTables walks the graph from the tables: the entities with their
// observations (walkEntities), then the relations, each in one ordered
// pass over its table.
func walkTables(ctx context.Context, tx *txn, entity func(Entity) error, relation func(Relation) error) error {
	if err := walkEntities(ctx, tx, entity); err != nil {
		return err
	}
	return eachRow(ctx, tx, `SELECT from_name, to_name, relation_type FROM relations ORDER BY id`, nil, func(rows *sql.Rows) error {
		var r Relation
		if err := rows.Scan(&r.From, &r.To, &r.RelationType); err != nil {
			return fmt.Errorf("memstore: read relations: %w", err)
		}
		return relation(r)
	})
}

// walkEntities walks the entities with their observations: one ordered
// pass over each table (the observations by the entity index), merged by
// entity id. Joining the two tables instead sends an entity's name and
// type again with each of its observations, and each value read through
// the driver costs: the join made read_graph of 100,000 entities ~1.3x
// slower (docs/bench/log.md, item 61).
func walkEntities(ctx context.Context, tx *txn, entity func(Entity) error) error {
	ents, err := tx.QueryContext(ctx, `SELECT id, name, entity_type FROM entities ORDER BY id`)
	if err != nil {
		return fmt.Errorf("memstore: read entities: %w", err)
	}
	defer ents.Close()
	obs, err := tx.QueryContext(ctx, `SELECT entity_id, content FROM observations ORDER BY entity_id, id`)
	if err != nil {
		return fmt.Errorf("memstore: read observations: %w", err)
	}
	defer obs.Close()
	var (
		oid     int64
		content string
		e       Entity
	)
	next := func() (bool, error) {
		if !obs.Next() {
			return false, obs.Err()
		}
		return true, obs.Scan(&oid, &content)
	}
	have, err := next()
	for err == nil && ents.Next() {
		var id int64
		if err = ents.Scan(&id, &e.Name, &e.EntityType); err != nil {
			break
		}
		e.Observations = e.Observations[:0]
		for ; err == nil && have && oid <= id; have, err = next() {
			if oid == id {
				e.Observations = append(e.Observations, content)
			}
		}
		if err != nil {
			break
		}
		if err := entity(e); err != nil {
			return err // the caller's, as is
		}
	}
	if err == nil {
		err = ents.Err()
	}
	if err != nil {
		return fmt.Errorf("memstore: read entities: %w", err)
	}
	return nil
}

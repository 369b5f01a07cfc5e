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
	return walkTables(v.ctx, v.tx, &v.s.tables, seq, entity, relation)
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
// observations, then the relations, each in one ordered pass over its
// table. The rows are read on a goroutine of their own (readBatches) and
// handed over in batches, so that reading them and what the callbacks do
// with them (read_graph's rendering) run at once on two cores. They are
// read through tr, the store's tableReader, when it is free and at the
// snapshot of tx, whose change feed ends at seq; otherwise through tx's
// connection, from the driver directly (driverRows). Either way the
// goroutine has ended when walkTables returns (docs/bench/log.md, item
// 69).
func walkTables(ctx context.Context, tx *txn, tr *tableReader, seq int64, entity func(Entity) error, relation func(Relation) error) error {
	full := make(chan *walkBatch, 1)
	free := make(chan *walkBatch, 3)
	for range cap(free) {
		free <- &walkBatch{}
	}
	stop := make(chan struct{})
	var readErr error
	go func() {
		defer close(full)
		read := func(q tableQuerier) error { return readBatches(q, free, full, stop) }
		if tr != nil {
			if ok, err := tr.walk(ctx, seq, read); ok {
				readErr = err
				return
			}
		}
		readErr = tx.raw(func(dc any) error { return read(driverQuerier(ctx, dc)) })
	}()
	defer func() {
		// Also after a callback's error or panic: the reader ends before
		// tx does.
		close(stop)
		for range full {
		}
	}()
	for b := range full {
		if err := b.walk(entity, relation); err != nil {
			return err // the caller's, as is
		}
		free <- b
	}
	return readErr
}

// walkBatch is a run of entities (with their observations) or of
// relations read from the tables, handed from readBatches to walkTables.
type walkBatch struct {
	ents  []Entity // Observations are set from obs and ends
	obs   []string
	ends  []int // ends[i]: the end in obs of ents[i]'s observations
	rels  []Relation
	bytes int // the texts' length
}

// A walkBatch is handed over once it holds walkBatchRows rows or
// walkBatchBytes bytes of text, which bounds what the walk holds (three
// batches) whatever the texts' sizes.
const (
	walkBatchRows  = 1024
	walkBatchBytes = 1 << 20
)

// full reports whether b is to be handed over.
func (b *walkBatch) full() bool {
	return len(b.ents)+len(b.obs)+len(b.rels) >= walkBatchRows || b.bytes >= walkBatchBytes
}

// walk hands b's entities and relations to the callbacks.
func (b *walkBatch) walk(entity func(Entity) error, relation func(Relation) error) error {
	start := 0
	for i, e := range b.ents {
		e.Observations = b.obs[start:b.ends[i]:b.ends[i]]
		start = b.ends[i]
		if err := entity(e); err != nil {
			return err
		}
	}
	for _, r := range b.rels {
		if err := relation(r); err != nil {
			return err
		}
	}
	return nil
}

// errWalkStopped ends readBatches when walkTables stops early.
var errWalkStopped = errors.New("memstore: walk stopped")

// readBatches reads the entities with their observations (readEntities),
// then the relations, in batches taken from free and sent to full, until
// done or stop is closed.
func readBatches(q tableQuerier, free <-chan *walkBatch, full chan<- *walkBatch, stop <-chan struct{}) error {
	var b *walkBatch
	take := func() error {
		select {
		case b = <-free:
			b.ents, b.obs, b.ends, b.rels, b.bytes = b.ents[:0], b.obs[:0], b.ends[:0], b.rels[:0], 0
			return nil
		case <-stop:
			return errWalkStopped
		}
	}
	send := func() error {
		select {
		case full <- b:
			return take()
		case <-stop:
			return errWalkStopped
		}
	}
	if err := take(); err != nil {
		return err
	}
	err := readEntities(q, func(id int64, name, kind string) error {
		if b.full() {
			if err := send(); err != nil {
				return err
			}
		}
		b.ents = append(b.ents, Entity{Name: name, EntityType: kind})
		b.ends = append(b.ends, len(b.obs))
		b.bytes += len(name) + len(kind)
		return nil
	}, func(content string) {
		b.obs = append(b.obs, content)
		b.ends[len(b.ends)-1]++
		b.bytes += len(content)
	})
	if err != nil {
		return err
	}
	if len(b.ents) > 0 {
		if err := send(); err != nil {
			return err
		}
	}
	rows, err := q(`SELECT from_name, to_name, relation_type FROM relations ORDER BY id`)
	if err != nil {
		return fmt.Errorf("memstore: read relations: %w", err)
	}
	defer rows.close()
	for {
		ok, err := rows.next()
		var r Relation
		if ok {
			if r.From, err = rows.text(0); err == nil {
				if r.To, err = rows.text(1); err == nil {
					r.RelationType, err = rows.text(2)
				}
			}
		}
		if err != nil {
			return fmt.Errorf("memstore: read relations: %w", err)
		}
		if !ok {
			break
		}
		if b.full() {
			if err := send(); err != nil {
				return err
			}
		}
		b.rels = append(b.rels, r)
		b.bytes += len(r.From) + len(r.To) + len(r.RelationType)
	}
	if len(b.rels) > 0 {
		select {
		case full <- b:
		case <-stop:
			return errWalkStopped
		}
	}
	return nil
}

// readEntities reads the entities, each handed to entity and then its
// observations, in insertion order, to observation: one ordered pass
// over each table (the observations by the entity index), merged by
// entity id. Joining the two tables instead sends an entity's name and
// type again with each of its observations, and each value read through
// the driver costs: the join made read_graph of 100,000 entities ~1.3x
// slower (docs/bench/log.md, item 61).
func readEntities(q tableQuerier, entity func(id int64, name, kind string) error, observation func(content string)) error {
	ents, err := q(`SELECT id, name, entity_type FROM entities ORDER BY id`)
	if err != nil {
		return fmt.Errorf("memstore: read entities: %w", err)
	}
	defer ents.close()
	obs, err := q(`SELECT entity_id, content FROM observations ORDER BY entity_id, id`)
	if err != nil {
		return fmt.Errorf("memstore: read observations: %w", err)
	}
	defer obs.close()
	var (
		oid     int64
		content string
	)
	next := func() (bool, error) {
		ok, err := obs.next()
		if ok {
			if oid, err = obs.int64(0); err == nil {
				content, err = obs.text(1)
			}
		}
		return ok, err
	}
	have, err := next()
	for err == nil {
		var ok bool
		var id int64
		var name, kind string
		if ok, err = ents.next(); !ok || err != nil {
			break
		}
		if id, err = ents.int64(0); err == nil {
			if name, err = ents.text(1); err == nil {
				kind, err = ents.text(2)
			}
		}
		if err != nil {
			break
		}
		if err := entity(id, name, kind); err != nil {
			return err // walkTables', as is
		}
		for ; err == nil && have && oid <= id; have, err = next() {
			if oid == id {
				observation(content)
			}
		}
	}
	if err != nil {
		return fmt.Errorf("memstore: read entities: %w", err)
	}
	return nil
}

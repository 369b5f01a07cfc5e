package memstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"sync"
	"unsafe"
)

// mirror is an in-memory copy of the graph (entities with their
// observations, relations, all with their row ids, in id order) that
// WalkGraph reads instead of the tables: reading every row back through
// the SQLite driver costs about 0.7 µs a row, several times what rendering
// it costs, and read_graph reads them all. open_nodes and search_nodes
// look names up in it too (mirror_lookup.go).
//
// Consistency: the mirror is at a version, the last Seq of the change feed
// it reflects (every change to the graph, by this process or another one
// sharing the file, logs a change, and Seq values only grow). A reader uses
// the mirror only when the version equals the Seq its own read transaction
// sees, so it reads exactly its snapshot; otherwise it reads the tables. A
// write batch that started at the mirror's version applies its row changes
// after its commit and moves the version to its own last Seq; if another
// process wrote in between, the mirror is dropped and reloaded by the next
// reader. The SQLite file stays the only source of truth.
//
// Layout: every string lives in one append-only byte arena and the
// records refer to it by offset, so the mirror holds no pointers for the
// garbage collector to trace (a million entities as Go strings and
// structs made every GC cycle walk hundreds of MB); strings handed out are
// read-only views of the arena, whose bytes never change once written.
// Deleted records and their bytes are reclaimed by compact.
//
// Budget: the mirror holds the whole graph, so it is held only while it
// takes at most budget bytes (WithMirrorBytes). A graph that outgrows it
// (while loading, or by writes) is dropped from memory and read from the
// tables from then on, until the store is opened again: reads of a large
// graph cost more CPU, but what the graph can make the process hold
// stays bounded.
type mirror struct {
	mu      sync.RWMutex
	valid   bool
	version int64
	budget  int  // bytes the mirror may take; negative: no bound
	over    bool // the graph outgrew budget: the mirror is not loaded again
	mirrorData
}

// DefaultMirrorBytes is how much memory a SQLite store's in-memory mirror
// of the graph may take unless WithMirrorBytes says otherwise: about
// 130,000 entities with three short observations and a relation each (at
// 100,000 such entities the mirror takes ~38 MB and the server peaks at
// ~104 MB, a sixth of the reference server's; docs/bench/log.md, item
// 63). Past it, the graph is read from the tables.
const DefaultMirrorBytes = 48 << 20

// WithMirrorBytes bounds the memory the in-memory mirror of the graph may
// take (SQLite; see DefaultMirrorBytes); a larger graph is read from the
// tables. Negative: no bound.
func WithMirrorBytes(n int) Option { return func(o *options) { o.mirrorBytes = n } }

// mapEntry is roughly what one entry of the mirror's maps takes: key,
// value and the map's overhead.
const mapEntry = 24

// size estimates the memory the records take: the arena, the record
// arrays and the indexes.
func (m *mirrorData) size() int {
	return cap(m.arena) + cap(m.ents)*int(unsafe.Sizeof(mEntity{})) + cap(m.obs)*int(unsafe.Sizeof(mObs{})) +
		cap(m.rels)*int(unsafe.Sizeof(mRelation{})) +
		(len(m.entPos)+len(m.relPos)+len(m.byName)+len(m.relFrom)+len(m.relTo))*mapEntry
}

// overBudget reports whether the records take more than the budget, or
// the arena is full.
func (m *mirror) overBudget() bool { return m.full || m.budget >= 0 && m.size() > m.budget }

// giveUp drops the mirror for good: the graph outgrew the budget.
func (m *mirror) giveUp() {
	m.drop()
	m.over = true
}

// mirrorData is the mirror's records.
type mirrorData struct {
	arena   []byte
	full    bool          // a string did not fit in the arena (put)
	deadB   int           // arena bytes no longer referenced
	ents    []mEntity     // id order; id 0 where deleted
	entPos  map[int64]int // entity id -> index in ents
	deadEnt int
	obs     []mObs // observations, linked per entity in order
	deadObs int
	rels    []mRelation   // id order; id 0 where deleted
	relPos  map[int64]int // relation id -> index in rels
	deadRel int

	// Indexes for the point reads (mirror_lookup.go), keyed by a hash of
	// a name: the newest record with that hash, older ones chained from
	// it. Deleted records stay in their chains (id 0) until compact.
	byName  map[uint64]int32 // entity name -> index in ents; chain: sameHash
	relFrom map[uint64]int32 // relation from -> index in rels; chain: nextFrom
	relTo   map[uint64]int32 // relation to -> index in rels; chain: nextTo
}

// span is a string in the arena. Offsets are 32 bits, which keeps the
// records small (a third of the mirror was padding and offsets before):
// an arena that would outgrow them makes the mirror give up (full), as a
// budget does.
type span struct {
	off, n uint32
}

type mEntity struct {
	id          int64
	name, kind  span
	first, last int32 // observation list (indexes in obs), -1 when empty
	nobs        int32
	sameHash    int32 // the next older entity whose name hashes the same, or -1
}

type mObs struct {
	s    span
	next int32 // the entity's next observation, -1 at the end
}

type mRelation struct {
	id               int64
	from, to, typ    span
	nextFrom, nextTo int32 // the next older relation whose from (to) hashes the same, or -1
}

// maxArena is the most bytes the arena may hold (span's offsets); a
// variable for the tests.
var maxArena = math.MaxUint32

// put appends s to the arena; an arena that would hold more than
// maxArena bytes is marked full instead (overBudget).
func (m *mirrorData) put(s string) span {
	if len(m.arena)+len(s) > maxArena {
		m.full = true
		return span{}
	}
	sp := span{uint32(len(m.arena)), uint32(len(s))}
	m.arena = append(m.arena, s...)
	return sp
}

// str is a read-only view of a span.
func (m *mirrorData) str(sp span) string {
	if sp.n == 0 {
		return ""
	}
	return unsafe.String(&m.arena[sp.off], int(sp.n))
}

func (m *mirrorData) addEntity(id int64, name, kind string) {
	i := int32(len(m.ents))
	m.entPos[id] = int(i)
	m.ents = append(m.ents, mEntity{id: id, name: m.put(name), kind: m.put(kind), first: -1, last: -1,
		sameHash: chain(m.byName, name, i)})
}

func (m *mirrorData) addObs(e *mEntity, content string) {
	i := int32(len(m.obs))
	m.obs = append(m.obs, mObs{s: m.put(content), next: -1})
	if e.last < 0 {
		e.first = i
	} else {
		m.obs[e.last].next = i
	}
	e.last = i
	e.nobs++
}

func (m *mirrorData) addRelation(id int64, from, to, typ string) {
	i := int32(len(m.rels))
	m.relPos[id] = int(i)
	m.rels = append(m.rels, mRelation{id: id, from: m.put(from), to: m.put(to), typ: m.put(typ),
		nextFrom: chain(m.relFrom, from, i), nextTo: chain(m.relTo, to, i)})
}

// mirrorOp is one row change of a write, applied to the mirror after the
// commit.
type mirrorOp struct {
	kind    mirrorOpKind
	id      int64  // entity or relation id
	owner   int64  // the entity of an observation
	a, b, c string // name, type (entity); content (observation); from, to, type (relation)
	// An observation is removed by its content: the mirror keeps no
	// observation ids, and removing the first equal one per deleted row
	// leaves what the table holds.
}

type mirrorOpKind uint8

const (
	opAddEntity mirrorOpKind = iota
	opDelEntity
	opAddObs
	opDelObs
	opAddRel
	opDelRel
)

// feedSeq is the newest Seq of the change feed as tx sees it (0 before
// the first change), the version the mirror is compared with.
func feedSeq(ctx context.Context, q queryRower) (int64, error) {
	var seq int64
	err := q.QueryRowContext(ctx, `SELECT coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'changes'), 0)`).Scan(&seq)
	return seq, err
}

// walk hands the graph to the callbacks from the mirror if it is at
// version seq, loading it first when it is not loaded; ok is false when
// the mirror cannot serve that snapshot (a write not yet applied, or
// another process's), and the caller reads the tables.
func (m *mirror) walk(ctx context.Context, tx *txn, seq int64, entity func(Entity) error, relation func(Relation) error) (ok bool, err error) {
	m.mu.RLock()
	if !m.valid {
		over := m.over
		m.mu.RUnlock()
		if over {
			return false, nil
		}
		if err := m.load(ctx, tx, seq); err != nil {
			return false, err
		}
		m.mu.RLock()
	}
	defer m.mu.RUnlock()
	if !m.valid || m.version != seq {
		return false, nil
	}
	var obs []string
	for i := range m.ents {
		me := &m.ents[i]
		if me.id == 0 {
			continue
		}
		obs = obs[:0]
		for j := me.first; j >= 0; j = m.obs[j].next {
			obs = append(obs, m.str(m.obs[j].s))
		}
		if err := entity(Entity{Name: m.str(me.name), EntityType: m.str(me.kind), Observations: obs}); err != nil {
			return true, err
		}
	}
	for i := range m.rels {
		r := &m.rels[i]
		if r.id == 0 {
			continue
		}
		if err := relation(Relation{From: m.str(r.from), To: m.str(r.to), RelationType: m.str(r.typ)}); err != nil {
			return true, err
		}
	}
	return true, nil
}

// load fills the mirror from the snapshot of tx, whose version is seq,
// unless another reader loaded it meanwhile. Under a budget, the records
// are allocated once, at the sizes estimateMirror gives, not grown by
// doubling: growing held the old and the new arrays at once and left up
// to half of each unused, which at 100,000 entities was ~15 MB of the
// peak RSS.
func (m *mirror) load(ctx context.Context, tx *txn, seq int64) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.valid || m.over {
		return nil
	}
	var est mirrorEstimate
	if m.budget >= 0 {
		// Without a budget, highest ids far above the row counts (many
		// deleted rows) would allocate for rows that are not there.
		var err error
		if est, err = estimateMirror(ctx, tx); err != nil {
			return err
		}
		if est.bytes() > m.budget {
			// Not part-way either: the peak RSS would keep what was loaded.
			m.giveUp()
			return nil
		}
	}
	m.resize(est)
	n := 0 // rows read
	checkBudget := func() error {
		if n++; n%4096 == 0 && m.overBudget() {
			return errOverBudget
		}
		return nil
	}
	// One ordered pass over each table, as walkEntities reads them; the
	// texts are copied into the arena from the rows' own bytes.
	err := eachRow(ctx, tx, `SELECT id, name, entity_type FROM entities ORDER BY id`, nil, func(rows *sql.Rows) error {
		if err := checkBudget(); err != nil {
			return err
		}
		var id int64
		var name, kind sql.RawBytes
		if err := rows.Scan(&id, &name, &kind); err != nil {
			return err
		}
		m.addEntity(id, unsafe.String(unsafe.SliceData(name), len(name)), unsafe.String(unsafe.SliceData(kind), len(kind)))
		return nil
	})
	if err == nil {
		cur := 0 // the index in ents of the observations' entity
		err = eachRow(ctx, tx, `SELECT entity_id, content FROM observations ORDER BY entity_id, id`, nil, func(rows *sql.Rows) error {
			if err := checkBudget(); err != nil {
				return err
			}
			var id int64
			var content sql.RawBytes
			if err := rows.Scan(&id, &content); err != nil {
				return err
			}
			for cur < len(m.ents) && m.ents[cur].id < id {
				cur++
			}
			if cur < len(m.ents) && m.ents[cur].id == id {
				m.addObs(&m.ents[cur], unsafe.String(unsafe.SliceData(content), len(content)))
			}
			return nil
		})
	}
	if err == nil {
		err = eachRow(ctx, tx, `SELECT id, from_name, to_name, relation_type FROM relations ORDER BY id`, nil, func(rows *sql.Rows) error {
			if err := checkBudget(); err != nil {
				return err
			}
			var id int64
			var from, to, typ sql.RawBytes
			if err := rows.Scan(&id, &from, &to, &typ); err != nil {
				return err
			}
			m.addRelation(id, unsafe.String(unsafe.SliceData(from), len(from)), unsafe.String(unsafe.SliceData(to), len(to)),
				unsafe.String(unsafe.SliceData(typ), len(typ)))
			return nil
		})
	}
	if err == nil && m.overBudget() {
		err = errOverBudget
	}
	switch {
	case errors.Is(err, errOverBudget):
		m.giveUp() // the caller reads the tables
		return nil
	case err != nil:
		m.drop()
		return err
	}
	m.valid, m.version = true, seq
	return nil
}

// mirrorEstimate is what estimateMirror finds: the tables' highest ids
// (at least their row counts) and the average lengths of their newest
// rows' texts.
type mirrorEstimate struct {
	ents, obs, rels              int64
	entBytes, obsBytes, relBytes float64
}

// textBytes is the arena's estimated size.
func (e mirrorEstimate) textBytes() int {
	return int(float64(e.ents)*e.entBytes + float64(e.obs)*e.obsBytes + float64(e.rels)*e.relBytes)
}

// bytes is the mirror's estimated size, as size would count it.
func (e mirrorEstimate) bytes() int {
	return e.textBytes() + int(e.ents)*(int(unsafe.Sizeof(mEntity{}))+2*mapEntry) +
		int(e.obs)*int(unsafe.Sizeof(mObs{})) + int(e.rels)*(int(unsafe.Sizeof(mRelation{}))+3*mapEntry)
}

// estimateMirror estimates the mirror of tx's graph without reading the
// graph.
func estimateMirror(ctx context.Context, tx *txn) (mirrorEstimate, error) {
	var e mirrorEstimate
	err := tx.QueryRowContext(ctx, `SELECT
		coalesce((SELECT max(id) FROM entities), 0),
		coalesce((SELECT max(id) FROM observations), 0),
		coalesce((SELECT max(id) FROM relations), 0),
		coalesce((SELECT avg(length(CAST(name AS BLOB)) + length(CAST(entity_type AS BLOB))) FROM (SELECT name, entity_type FROM entities ORDER BY id DESC LIMIT 100)), 0),
		coalesce((SELECT avg(length(CAST(content AS BLOB))) FROM (SELECT content FROM observations ORDER BY id DESC LIMIT 100)), 0),
		coalesce((SELECT avg(length(CAST(from_name AS BLOB)) + length(CAST(to_name AS BLOB)) + length(CAST(relation_type AS BLOB))) FROM (SELECT from_name, to_name, relation_type FROM relations ORDER BY id DESC LIMIT 100)), 0)`).
		Scan(&e.ents, &e.obs, &e.rels, &e.entBytes, &e.obsBytes, &e.relBytes)
	if err != nil {
		return e, fmt.Errorf("memstore: size the mirror: %w", err)
	}
	return e, nil
}

// errOverBudget stops loading a mirror that would take more than its
// budget.
var errOverBudget = errors.New("memstore: the graph is larger than the mirror's budget")

// apply brings the mirror from version from to version to with the row
// changes of a committed write batch. A mirror at another version than
// from missed a write (another process's) and is dropped; one not loaded
// stays so.
func (m *mirror) apply(from, to int64, ops []mirrorOp) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if !m.valid || from >= 0 && (from == to || m.version == to) {
		return // not loaded, nothing changed, or reloaded with the batch in
	}
	if from < 0 || to < 0 || m.version != from {
		m.drop()
		return
	}
	for _, op := range ops {
		switch op.kind {
		case opAddEntity:
			m.addEntity(op.id, op.a, op.b)
		case opDelEntity:
			if i, ok := m.entPos[op.id]; ok {
				e := &m.ents[i]
				m.deadB += int(e.name.n + e.kind.n)
				for j := e.first; j >= 0; j = m.obs[j].next {
					m.deadB += int(m.obs[j].s.n)
					m.deadObs++
				}
				*e = mEntity{sameHash: e.sameHash} // stays in its name's chain
				delete(m.entPos, op.id)
				m.deadEnt++
			}
		case opAddObs:
			if i, ok := m.entPos[op.owner]; ok {
				m.addObs(&m.ents[i], op.a)
			}
		case opDelObs:
			if i, ok := m.entPos[op.owner]; ok {
				m.delObs(&m.ents[i], op.a)
			}
		case opAddRel:
			m.addRelation(op.id, op.a, op.b, op.c)
		case opDelRel:
			if i, ok := m.relPos[op.id]; ok {
				r := &m.rels[i]
				m.deadB += int(r.from.n + r.to.n + r.typ.n)
				*r = mRelation{nextFrom: r.nextFrom, nextTo: r.nextTo} // stays in its chains
				delete(m.relPos, op.id)
				m.deadRel++
			}
		}
	}
	m.version = to
	if m.overBudget() {
		m.giveUp()
		return
	}
	if m.deadB > 1<<20 && m.deadB > len(m.arena)/2 || m.deadEnt > 1024 && m.deadEnt > len(m.ents)/2 ||
		m.deadObs > 1024 && m.deadObs > len(m.obs)/2 || m.deadRel > 1024 && m.deadRel > len(m.rels)/2 {
		m.compact()
	}
}

// delObs unlinks e's first observation equal to content.
func (m *mirrorData) delObs(e *mEntity, content string) {
	prev := int32(-1)
	for j := e.first; j >= 0; prev, j = j, m.obs[j].next {
		if m.str(m.obs[j].s) != content {
			continue
		}
		next := m.obs[j].next
		if prev < 0 {
			e.first = next
		} else {
			m.obs[prev].next = next
		}
		if e.last == j {
			e.last = prev
		}
		e.nobs--
		m.deadB += int(m.obs[j].s.n)
		m.deadObs++
		return
	}
}

// compact rebuilds the mirror without its deleted records and bytes, into
// new arrays (views handed out earlier keep the old arena alive and
// unchanged).
func (m *mirror) compact() {
	old := m.mirrorData
	m.resize(mirrorEstimate{ents: int64(len(old.ents) - old.deadEnt), obs: int64(len(old.obs) - old.deadObs),
		rels: int64(len(old.rels) - old.deadRel)})
	m.arena = make([]byte, 0, len(old.arena)-old.deadB)
	for i := range old.ents {
		e := &old.ents[i]
		if e.id == 0 {
			continue
		}
		m.addEntity(e.id, old.str(e.name), old.str(e.kind))
		ne := &m.ents[len(m.ents)-1]
		for j := e.first; j >= 0; j = old.obs[j].next {
			m.addObs(ne, old.str(old.obs[j].s))
		}
	}
	for i := range old.rels {
		r := &old.rels[i]
		if r.id != 0 {
			m.addRelation(r.id, old.str(r.from), old.str(r.to), old.str(r.typ))
		}
	}
}

// reset empties the mirror's records (not its validity or version).
func (m *mirrorData) reset() { m.resize(mirrorEstimate{}) }

// resize empties the mirror's records and makes room for the records
// and texts of est.
func (m *mirrorData) resize(est mirrorEstimate) {
	m.arena, m.full, m.deadB = make([]byte, 0, est.textBytes()+est.textBytes()/16), false, 0
	m.ents, m.entPos, m.deadEnt = make([]mEntity, 0, est.ents), make(map[int64]int, est.ents), 0
	m.obs, m.deadObs = make([]mObs, 0, est.obs), 0
	m.rels, m.relPos, m.deadRel = make([]mRelation, 0, est.rels), make(map[int64]int, est.rels), 0
	m.byName = make(map[uint64]int32, est.ents)
	m.relFrom, m.relTo = make(map[uint64]int32, est.rels), make(map[uint64]int32, est.rels)
}

// drop forgets the mirror; the next reader reloads it.
func (m *mirror) drop() {
	m.valid = false
	m.reset()
}

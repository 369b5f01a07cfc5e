package memstore

import (
	"context"
	"database/sql"
	"slices"
	"sync"
)

// mirror is an in-memory copy of the graph (entities with their
// observations, relations, all with their row ids, in id order) that
// WalkGraph reads instead of the tables: reading every row back through
// the SQLite driver costs about 0.7 µs a row, several times what rendering
// it costs, and read_graph reads them all.
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
type mirror struct {
	mu      sync.RWMutex
	valid   bool
	version int64
	ents    []*mEntity    // id order; nil where deleted
	entPos  map[int64]int // entity id -> index in ents
	deadEnt int
	rels    []mRelation   // id order; id 0 where deleted
	relPos  map[int64]int // relation id -> index in rels
	deadRel int
}

type mEntity struct {
	id         int64
	name, kind string
	obs        []string
}

type mRelation struct {
	id int64
	Relation
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
func feedSeq(ctx context.Context, q interface {
	QueryRowContext(context.Context, string, ...any) *sql.Row
}) (int64, error) {
	var seq int64
	err := q.QueryRowContext(ctx, `SELECT coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'changes'), 0)`).Scan(&seq)
	return seq, err
}

// walk hands the graph to the callbacks from the mirror if it is at
// version seq, loading it first when it is not loaded; ok is false when
// the mirror cannot serve that snapshot (a write not yet applied, or
// another process's), and the caller reads the tables.
func (m *mirror) walk(ctx context.Context, tx *sql.Tx, seq int64, entity func(Entity) error, relation func(Relation) error) (ok bool, err error) {
	m.mu.RLock()
	if !m.valid {
		m.mu.RUnlock()
		if err := m.load(ctx, tx, seq); err != nil {
			return false, err
		}
		m.mu.RLock()
	}
	defer m.mu.RUnlock()
	if !m.valid || m.version != seq {
		return false, nil
	}
	var e Entity
	for _, me := range m.ents {
		if me == nil {
			continue
		}
		e.Name, e.EntityType, e.Observations = me.name, me.kind, me.obs
		if err := entity(e); err != nil {
			return true, err
		}
	}
	for _, r := range m.rels {
		if r.id == 0 {
			continue
		}
		if err := relation(r.Relation); err != nil {
			return true, err
		}
	}
	return true, nil
}

// load fills the mirror from the snapshot of tx, whose version is seq,
// unless another reader loaded it meanwhile.
func (m *mirror) load(ctx context.Context, tx *sql.Tx, seq int64) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.valid {
		return nil
	}
	m.ents, m.entPos, m.deadEnt = nil, map[int64]int{}, 0
	m.rels, m.relPos, m.deadRel = nil, map[int64]int{}, 0
	var cur *mEntity
	err := eachRow(ctx, tx, `SELECT e.id, e.name, e.entity_type, o.content
		FROM entities AS e LEFT JOIN observations AS o ON o.entity_id = e.id ORDER BY e.id, o.id`, nil, func(rows *sql.Rows) error {
		var id int64
		var name, kind string
		var content sql.NullString
		if err := rows.Scan(&id, &name, &kind, &content); err != nil {
			return err
		}
		if cur == nil || cur.id != id {
			cur = &mEntity{id: id, name: name, kind: kind}
			m.entPos[id] = len(m.ents)
			m.ents = append(m.ents, cur)
		}
		if content.Valid {
			cur.obs = append(cur.obs, content.String)
		}
		return nil
	})
	if err != nil {
		return err
	}
	err = eachRow(ctx, tx, `SELECT id, from_name, to_name, relation_type FROM relations ORDER BY id`, nil, func(rows *sql.Rows) error {
		var r mRelation
		if err := rows.Scan(&r.id, &r.From, &r.To, &r.RelationType); err != nil {
			return err
		}
		m.relPos[r.id] = len(m.rels)
		m.rels = append(m.rels, r)
		return nil
	})
	if err != nil {
		return err
	}
	m.valid, m.version = true, seq
	return nil
}

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
			m.entPos[op.id] = len(m.ents)
			m.ents = append(m.ents, &mEntity{id: op.id, name: op.a, kind: op.b})
		case opDelEntity:
			if i, ok := m.entPos[op.id]; ok {
				m.ents[i] = nil
				delete(m.entPos, op.id)
				m.deadEnt++
			}
		case opAddObs:
			if i, ok := m.entPos[op.owner]; ok {
				e := m.ents[i]
				e.obs = append(e.obs, op.a)
			}
		case opDelObs:
			if i, ok := m.entPos[op.owner]; ok {
				e := m.ents[i]
				if j := slices.Index(e.obs, op.a); j >= 0 {
					e.obs = slices.Delete(e.obs, j, j+1)
				}
			}
		case opAddRel:
			m.relPos[op.id] = len(m.rels)
			m.rels = append(m.rels, mRelation{op.id, Relation{From: op.a, To: op.b, RelationType: op.c}})
		case opDelRel:
			if i, ok := m.relPos[op.id]; ok {
				m.rels[i].id = 0
				delete(m.relPos, op.id)
				m.deadRel++
			}
		}
	}
	m.version = to
	m.compact()
}

// compact removes deleted slots once they are half of a list.
func (m *mirror) compact() {
	if m.deadEnt > 1024 && m.deadEnt > len(m.ents)/2 {
		live := make([]*mEntity, 0, len(m.ents)-m.deadEnt)
		for _, e := range m.ents {
			if e != nil {
				m.entPos[e.id] = len(live)
				live = append(live, e)
			}
		}
		m.ents, m.deadEnt = live, 0
	}
	if m.deadRel > 1024 && m.deadRel > len(m.rels)/2 {
		live := make([]mRelation, 0, len(m.rels)-m.deadRel)
		for _, r := range m.rels {
			if r.id != 0 {
				m.relPos[r.id] = len(live)
				live = append(live, r)
			}
		}
		m.rels, m.deadRel = live, 0
	}
}

// drop forgets the mirror; the next reader reloads it.
func (m *mirror) drop() {
	m.valid = false
	m.ents, m.entPos, m.rels, m.relPos = nil, nil, nil, nil
}

package memstore

import (
	"context"
	"hash/maphash"
	"slices"
)

// Point reads from the mirror. On a large store every open_nodes or
// search_nodes would otherwise read a few dozen B-tree pages that are not
// in SQLite's page cache (the entity row, its observations, its relations
// both ways, and one row per search candidate), each a pread and a page
// parse: at 1,000,000 entities that made these calls about twice as slow as
// at 1,000. When the mirror holds the read's snapshot they look names and
// ids up in memory instead; otherwise they read the tables as before.

var nameSeed = maphash.MakeSeed()

// nameHash is the key of a name in the mirror's name indexes (a variable
// so that a test can make every name collide).
var nameHash = func(name string) uint64 { return maphash.String(nameSeed, name) }

// chain makes record i the newest of those whose key is name in index and
// returns the one it displaces (-1 for none), which i's chain link keeps.
func chain(index map[uint64]int32, name string, i int32) int32 {
	h := nameHash(name)
	prev, ok := index[h]
	index[h] = i
	if !ok {
		return -1
	}
	return prev
}

// head is the newest record whose key hashes as name's does, or -1.
func head(index map[uint64]int32, name string) int32 {
	if i, ok := index[nameHash(name)]; ok {
		return i
	}
	return -1
}

// mirrorAt returns the mirror, read-locked, when it holds exactly the
// snapshot tx reads, and nil otherwise; done unlocks it either way. A
// mirror being loaded (seconds on a large graph) or applying a write is
// not waited for: the tables serve that read.
func (s *SQLite) mirrorAt(ctx context.Context, tx *txn) (m *mirrorData, done func(), err error) {
	if !s.mirror.mu.TryRLock() {
		return nil, func() {}, nil
	}
	done = s.mirror.mu.RUnlock
	if !s.mirror.valid {
		return nil, done, nil
	}
	seq, err := feedSeq(ctx, tx)
	if err != nil || seq != s.mirror.version {
		return nil, done, err
	}
	return &s.mirror.mirrorData, done, nil
}

// named1 is the index in ents of the live entity called name, or -1.
func (m *mirrorData) named1(name string) int32 {
	for i := head(m.byName, name); i >= 0; i = m.ents[i].sameHash {
		if e := &m.ents[i]; e.id != 0 && m.str(e.name) == name {
			return i
		}
	}
	return -1
}

// entity is ents[i] as an Entity; its strings are views of the arena.
func (m *mirrorData) entity(i int32) Entity {
	e := &m.ents[i]
	obs := make([]string, 0, e.nobs)
	for j := e.first; j >= 0; j = m.obs[j].next {
		obs = append(obs, m.str(m.obs[j].s))
	}
	return Entity{Name: m.str(e.name), EntityType: m.str(e.kind), Observations: obs}
}

// entities returns the entities at the indexes in ents, in id order.
func (m *mirrorData) entities(at []int32) []Entity {
	slices.Sort(at)
	ents := make([]Entity, len(at))
	for k, i := range at {
		ents[k] = m.entity(i)
	}
	return ents
}

// named is the live entities among names (no repeats), in insertion
// order.
func (m *mirrorData) named(names []string) []Entity {
	at := make([]int32, 0, len(names))
	for _, n := range names {
		if i := m.named1(n); i >= 0 {
			at = append(at, i)
		}
	}
	return m.entities(at)
}

// relationsOf is relationsOf on the mirror: in insertion order, the
// relations with at least one end among ents' names.
func (m *mirrorData) relationsOf(ents []Entity) []Relation {
	seen := map[int32]bool{}
	var at []int32
	for _, e := range ents {
		for i := head(m.relFrom, e.Name); i >= 0; i = m.rels[i].nextFrom {
			if r := &m.rels[i]; r.id != 0 && !seen[i] && m.str(r.from) == e.Name {
				seen[i] = true
				at = append(at, i)
			}
		}
		for i := head(m.relTo, e.Name); i >= 0; i = m.rels[i].nextTo {
			if r := &m.rels[i]; r.id != 0 && !seen[i] && m.str(r.to) == e.Name {
				seen[i] = true
				at = append(at, i)
			}
		}
	}
	slices.Sort(at)
	rels := make([]Relation, len(at))
	for k, i := range at {
		r := &m.rels[i]
		rels[k] = Relation{From: m.str(r.from), To: m.str(r.to), RelationType: m.str(r.typ)}
	}
	return rels
}

package memstore

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"
)

// segments returns the number of FTS5 segments of each search index: the
// distinct segment ids in the rowids of its %_data pages (FTS5 puts the
// segment id above the low 37 bits; rowids below 2^37 are the structure
// and averages records).
func segments(t *testing.T, s *SQLite) (names, obs int) {
	t.Helper()
	ctx := context.Background()
	mustNil(t, s.r.QueryRowContext(ctx, `SELECT count(DISTINCT id >> 37) FROM search_names_data WHERE id >> 37 > 0`).Scan(&names))
	mustNil(t, s.r.QueryRowContext(ctx, `SELECT count(DISTINCT id >> 37) FROM search_obs_data WHERE id >> 37 > 0`).Scan(&obs))
	return names, obs
}

// smallWrites makes one-entity commits numbered from to to-1 (each leaves
// a new segment in both search indexes) and mirrors them in m.
func smallWrites(t *testing.T, s *SQLite, m *refModel, from, to int) {
	t.Helper()
	for i := from; i < to; i++ {
		e := []Entity{{fmt.Sprintf("entity-%04d", i), []string{"person", "City"}[i%2], []string{fmt.Sprintf("likes tea %d", i*7919)}}}
		must[[]Entity](t)(s.CreateEntities(bg, e))
		m.CreateEntities(e)
	}
}

// testMergeSearchKeepsResults checks that merging the search indexes
// leaves few segments and changes no search result.
func testMergeSearchKeepsResults(t *testing.T) {
	sqliteOnly(t, "")
	s, _ := openSQLiteTest(t)
	s.stopTidy()  // merge only when the test says so
	s.tailMax = 0 // index every write (tail.go)
	var m refModel
	smallWrites(t, s, &m, 0, 9)
	queries := []string{"entity-0004", "ENTITY-00", "city", "tea 7", "likes", "son", "nothing"}
	check := func(when string) {
		for _, q := range queries {
			assertGraph(t, fmt.Sprintf("%s: SearchNodes(%q)", when, q), must[Graph](t)(s.SearchNodes(bg, q)), m.SearchNodes(q))
		}
	}
	check("before merging")
	n0, o0 := segments(t, s)
	if n0 < 9 || o0 < 9 {
		t.Fatalf("segments before merging: %d/%d, want a segment per write", n0, o0)
	}
	mustNil(t, s.mergeSearch(bg))
	n1, o1 := segments(t, s)
	t.Logf("segments: names %d -> %d, observations %d -> %d", n0, n1, o0, o1)
	// Same-level pairs merge: at most one segment per level remains.
	if n1 > 3 || o1 > 3 || n1 >= n0 || o1 >= o0 {
		t.Fatalf("segments after merging: names %d -> %d, observations %d -> %d", n0, n1, o0, o1)
	}
	check("after merging")
	mustNil(t, s.DeleteEntities(bg, []string{"entity-0004", "entity-0007"}))
	m.DeleteEntities([]string{"entity-0004", "entity-0007"})
	smallWrites(t, s, &m, 9, 12)
	check("after more writes")
}

// testSearchMergedWhenQuiet checks that the merger runs by itself once
// writes stop: it merges the segments the writes left, and indexes the
// rows they left unindexed (tail.go).
func testSearchMergedWhenQuiet(t *testing.T) {
	sqliteOnly(t, "")
	s, _ := openSQLiteTest(t)
	s.tailMax = 0 // index every write: a segment each
	var m refModel
	smallWrites(t, s, &m, 0, 9)
	waitFor := func(what string, done func() bool) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); !done(); time.Sleep(10 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("%s after the writes stopped", what)
			}
		}
	}
	waitFor("segments not merged", func() bool {
		n, o := segments(t, s)
		return n <= 3 && o <= 3
	})
	s.tailMax = defaultTailMax
	smallWrites(t, s, &m, 9, 12)
	if tl := must[tail](t)(loadTail(bg, s.r)); tl.size() != 3 {
		t.Fatalf("tail after three small writes: %+v", tl)
	}
	waitFor("tail not indexed", func() bool { return must[tail](t)(loadTail(bg, s.r)).size() == 0 })
	for _, q := range []string{"entity-0003", "entity-0010", "tea", "CITY"} {
		assertGraph(t, fmt.Sprintf("SearchNodes(%q)", q), must[Graph](t)(s.SearchNodes(bg, q)), m.SearchNodes(q))
	}
}

// testUsermergeMigration opens a store of schema version 1 and checks that
// migration 2 sets usermerge=2 on both search indexes, migration 3 counts
// everything as indexed, migration 4 rebuilds them without positions
// (keeping usermerge=2), and the data is kept and found.
func testUsermergeMigration(t *testing.T) {
	sqliteOnly(t, "")
	s, path := openSQLiteTest(t)
	var m refModel
	smallWrites(t, s, &m, 0, 10)
	// Make it a version 1 store: everything indexed, and none of what
	// migrations 2 and 3 add.
	mustNil(t, s.mergeSearch(bg))
	_, err := s.wc.c.ExecContext(context.Background(), `DROP TABLE search_tail;
		DELETE FROM search_names_config WHERE k = 'usermerge';
		DELETE FROM search_obs_config WHERE k = 'usermerge';
		PRAGMA user_version = 1;`+undoMigration6)
	mustNil(t, err)
	mustNil(t, s.Close())
	s2 := must[*SQLite](t)(Open(path))
	defer s2.Close()
	if tl := must[tail](t)(loadTail(bg, s2.r)); tl.size() != 0 || tl.namesUpto != 10 || tl.obsUpto != 10 {
		t.Fatalf("search tail after migration 3: %+v", tl)
	}
	for _, table := range []string{"search_names", "search_obs"} {
		var v int
		mustNil(t, s2.r.QueryRowContext(context.Background(), `SELECT v FROM `+table+`_config WHERE k = 'usermerge'`).Scan(&v))
		if v != 2 {
			t.Fatalf("%s usermerge = %d, want 2", table, v)
		}
		var def string
		mustNil(t, s2.r.QueryRowContext(context.Background(), `SELECT sql FROM sqlite_master WHERE name = ?`, table).Scan(&def))
		if !strings.Contains(def, "detail = none") {
			t.Fatalf("%s after migration 4: %s", table, def)
		}
	}
	for _, q := range []string{"entity-0003", "tea", "person"} {
		assertGraph(t, fmt.Sprintf("SearchNodes(%q)", q), must[Graph](t)(s2.SearchNodes(bg, q)), m.SearchNodes(q))
	}
}

// testBulkWritesMergeSegments: writes that each index thousands of rows
// merge segments as they go (tail.go, bulkIndexRows), so a graph grown in
// bulk has few segments without waiting for the merger; results stay the
// reference's.
func testBulkWritesMergeSegments(t *testing.T) {
	if testing.Short() {
		t.Skip("slow (grows two stores to 36,000 entities); runs without -short")
	}
	sqliteOnly(t, "")
	grow := func(bulkRows int64) (*SQLite, refModel) {
		s, _ := openSQLiteTest(t, WithSyncNormal())
		s.stopTidy() // no idle-time merging
		s.bulkRows = bulkRows
		var m refModel
		for b := range 24 {
			ents := make([]Entity, 1500)
			for i := range ents {
				n := b*len(ents) + i
				ents[i] = Entity{fmt.Sprintf("entity-%05d", n), "person", []string{fmt.Sprintf("likes tea %d", n*7919)}}
			}
			must[[]Entity](t)(s.CreateEntities(bg, ents))
			m.CreateEntities(ents)
		}
		return s, m
	}
	plain, _ := grow(1 << 62) // FTS5's automerge alone
	s, m := grow(bulkIndexRows)
	n0, o0 := segments(t, plain)
	n, o := segments(t, s)
	t.Logf("segments after 24 bulk writes: names %d, observations %d (automerge alone: %d, %d)", n, o, n0, o0)
	if n >= n0 || o > o0 || n > 4 || o > 4 {
		t.Fatalf("segments after 24 bulk writes: names %d, observations %d; automerge alone left %d, %d", n, o, n0, o0)
	}
	for _, q := range []string{"entity-01234", "ENTITY-2", "tea 99", "nothing"} {
		assertGraph(t, fmt.Sprintf("SearchNodes(%q)", q), must[Graph](t)(s.SearchNodes(bg, q)), m.SearchNodes(q))
	}
}

// undoMigration6 removes what migration 6 adds, for tests that make a
// store of an older version.
const undoMigration6 = `
	ALTER TABLE changes DROP COLUMN author;
	DROP TABLE history;
	DROP TABLE graphs;`

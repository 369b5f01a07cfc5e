package memstore

import (
	"os"
	"testing"
)

// testWALPreallocated checks that a new store's WAL is already as long as
// it gets between checkpoints, so that small commits write over it instead
// of growing it, that reopening after a clean close (which deletes the WAL)
// does the same, and that the filler leaves nothing behind.
func testWALPreallocated(t *testing.T) {
	sqliteOnly(t, "")
	s, path := openSQLiteTest(t)
	walSize := func() int64 {
		st, err := os.Stat(path + "-wal")
		if err != nil {
			t.Fatal(err)
		}
		return st.Size()
	}
	want := int64(walFrames * walFrameBytes)
	if got := walSize(); got < want {
		t.Fatalf("WAL after Open: %d bytes, want at least %d", got, want)
	}
	before := walSize()
	var m refModel
	smallWrites(t, s, &m, 0, 50)
	if got := walSize(); got != before {
		t.Fatalf("WAL grew from %d to %d bytes over 50 small writes", before, got)
	}
	var n int
	mustNil(t, s.r.QueryRow(`SELECT count(*) FROM meta WHERE key = 'wal_prealloc'`).Scan(&n))
	if n != 0 {
		t.Fatalf("the filler row is still in meta")
	}
	assertGraph(t, "ReadGraph", must[Graph](t)(s.ReadGraph(bg)), m.g)
	mustNil(t, s.Close())
	if _, err := os.Stat(path + "-wal"); !os.IsNotExist(err) {
		t.Fatalf("WAL after a clean close: %v", err)
	}
	s2 := must[*SQLite](t)(Open(path))
	defer s2.Close()
	if got := walSize(); got < want {
		t.Fatalf("WAL after reopening: %d bytes, want at least %d", got, want)
	}
	assertGraph(t, "ReadGraph after reopening", must[Graph](t)(s2.ReadGraph(bg)), m.g)
}

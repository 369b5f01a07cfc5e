package memstore

import (
	"fmt"
	"testing"
)

// TestPreparedStatementsStayFew opens and searches with every list length
// up to past an IN chunk: the statements each connection keeps prepared
// stay a handful per query, since IN lists come in padded sizes.
func TestPreparedStatementsStayFew(t *testing.T) {
	s, _ := openSQLiteTest(t, WithReadConns(1))
	var ents []Entity
	for i := range 700 {
		ents = append(ents, Entity{Name: fmt.Sprintf("e%d", i), EntityType: "t", Observations: []string{"o"}})
	}
	must[[]Entity](t)(s.CreateEntities(bg, ents))
	for n := 1; n <= len(ents); n += 7 {
		names := make([]string, n)
		for i := range names {
			names[i] = ents[i].Name
		}
		g := must[Graph](t)(s.OpenNodes(bg, names))
		if len(g.Entities) != n {
			t.Fatalf("OpenNodes(%d names) found %d", n, len(g.Entities))
		}
	}
	s.wconn.Lock()
	n := len(s.wc.stmts)
	s.wconn.Unlock()
	// Each IN query comes in sizes 1, 2, 4, ..., 512 (inChunk is 500).
	if n > 60 {
		t.Fatalf("the write connection holds %d prepared statements", n)
	}
	if n < 5 {
		t.Fatalf("the write connection holds %d prepared statements: reads do not use it", n)
	}
}

func TestInListPadsToPowersOfTwo(t *testing.T) {
	for _, c := range []struct{ n, want int }{{1, 1}, {2, 2}, {3, 4}, {5, 8}, {500, 512}} {
		vals := make([]int, c.n)
		for i := range vals {
			vals[i] = i
		}
		ph, args := inList(vals)
		if len(args) != c.want || len(ph) != 3*c.want-2 {
			t.Fatalf("inList(%d values) = %q, %d args", c.n, ph, len(args))
		}
		if args[len(args)-1] != c.n-1 || args[0] != 0 {
			t.Fatalf("inList(%d values) args %v", c.n, args)
		}
	}
}

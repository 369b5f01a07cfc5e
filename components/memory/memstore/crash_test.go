package memstore

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
)

const crashChildEnv = "MEMSTORE_CRASH_CHILD_DB"

// crashChild is the body of the child process: several goroutines write
// forever, printing "ack <name>" after each call returns successfully,
// until the parent kills the process.
func crashChild(path string) {
	s, err := openWhere(path)
	if err != nil {
		fmt.Println("open:", err)
		os.Exit(2)
	}
	var mu sync.Mutex
	ack := func(name string) {
		mu.Lock()
		defer mu.Unlock()
		// Unbuffered write to the pipe: the parent sees it even if we are
		// killed right after.
		os.Stdout.WriteString("ack " + name + "\n")
	}
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				name := fmt.Sprintf("w%d-%d", w, i)
				// Two observations in one call: after the crash an entity
				// must have both or not exist at all.
				if _, err := s.CreateEntities(bg, []Entity{{name, "crash", []string{"alpha " + name, "beta " + name}}}); err != nil {
					fmt.Println("error:", err)
					os.Exit(3)
				}
				ack(name)
				if _, err := s.CreateRelations(bg, []Relation{{name, "hub", "points_to"}}); err != nil {
					fmt.Println("error:", err)
					os.Exit(3)
				}
				ack("rel " + name)
			}
		}()
	}
	wg.Wait()
}

// testCrashKeepsAcknowledgedWrites re-executes the test binary as a child
// that writes and acknowledges continuously, kills it with SIGKILL after a
// number of acknowledgements, then reopens the database and checks that
// every acknowledged write is there and nothing is half-written.
func testCrashKeepsAcknowledgedWrites(t *testing.T) {
	path := filepath.Join(t.TempDir(), "crash.db")
	if engineOf(t) == enginePostgres {
		path = postgresTestURL(t)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$") // TestMain runs crashChild
	cmd.Env = append(os.Environ(), crashChildEnv+"="+path)
	cmd.Stderr = os.Stderr
	stdout, err := cmd.StdoutPipe()
	mustNil(t, err)
	mustNil(t, cmd.Start())

	acked := map[string]bool{}
	ackedRels := map[string]bool{}
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		line := sc.Text()
		name, ok := strings.CutPrefix(line, "ack ")
		if !ok {
			t.Fatalf("child: %s", line)
		}
		if rel, ok := strings.CutPrefix(name, "rel "); ok {
			ackedRels[rel] = true
		} else {
			acked[name] = true
		}
		if len(acked)+len(ackedRels) == 400 {
			mustNil(t, cmd.Process.Signal(syscall.SIGKILL))
			break
		}
	}
	// Drain acknowledgements already in the pipe: those writes were
	// acknowledged before the kill too.
	for sc.Scan() {
		if name, ok := strings.CutPrefix(sc.Text(), "ack "); ok {
			if rel, ok := strings.CutPrefix(name, "rel "); ok {
				ackedRels[rel] = true
			} else {
				acked[name] = true
			}
		}
	}
	err = cmd.Wait()
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		t.Fatalf("child did not die by SIGKILL: %v", err)
	}

	s := reopenTest(t, path)
	if s, ok := s.(*SQLite); ok {
		var integrity string
		mustNil(t, s.wc.c.QueryRowContext(context.Background(), "PRAGMA integrity_check").Scan(&integrity))
		if integrity != "ok" {
			t.Fatalf("integrity_check: %s", integrity)
		}
		for _, fts := range []string{"search_names", "search_obs"} {
			_, err = s.wc.c.ExecContext(context.Background(), "INSERT INTO "+fts+"("+fts+", rank) VALUES ('integrity-check', 0)")
			mustNil(t, err)
		}
	}

	g := readGraph(t, s)
	have := map[string]bool{}
	for _, e := range g.Entities {
		have[e.Name] = true
		if len(e.Observations) != 2 || e.Observations[0] != "alpha "+e.Name || e.Observations[1] != "beta "+e.Name {
			t.Fatalf("half-written entity %+v", e)
		}
	}
	haveRel := map[string]bool{}
	for _, r := range g.Relations {
		haveRel[r.From] = true
	}
	for name := range acked {
		if !have[name] {
			t.Errorf("acknowledged entity %s lost", name)
		}
	}
	for name := range ackedRels {
		if !haveRel[name] {
			t.Errorf("acknowledged relation from %s lost", name)
		}
	}
	// The search index agrees with the tables.
	if got := must[Graph](t)(s.SearchNodes(bg, "BETA W")); len(got.Entities) != len(g.Entities) {
		t.Fatalf("search finds %d of %d entities", len(got.Entities), len(g.Entities))
	}
	// And the store is writable again.
	must[[]Entity](t)(s.CreateEntities(bg, []Entity{{"after", "t", nil}}))
	t.Logf("%d acknowledged entities, %d relations; %d entities survived", len(acked), len(ackedRels), len(g.Entities))
}

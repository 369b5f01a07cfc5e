package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/internal/testutil/pgtest"
)

// Tests that exercise the store run on both stores through eachStore.
// PostgreSQL is found through MCP_TEST_POSTGRES (default
// postgres://postgres@127.0.0.1:5432/test?sslmode=disable); when it is
// unreachable the "postgres" subtests are skipped, saying so, except under
// CI=true, where they fail (internal/testutil/pgtest). Under -short they
// are skipped too: TestReplicasShareGraphAndChangeFeed and TestStoreOutage
// keep PostgreSQL in the short loop.

// newDBFunc returns a fresh --db value for a store named name.
type newDBFunc func(t *testing.T, name string) string

// eachStore runs fn as the subtests "sqlite" (a file in a temporary
// directory) and "postgres" (a fresh schema per store).
func eachStore(t *testing.T, fn func(t *testing.T, newDB newDBFunc)) {
	t.Run("sqlite", func(t *testing.T) {
		fn(t, func(t *testing.T, name string) string { return filepath.Join(t.TempDir(), name+".db") })
	})
	t.Run("postgres", func(t *testing.T) {
		if testing.Short() {
			t.Skip("slow (re-runs the test on PostgreSQL); runs without -short")
		}
		postgresTestURL(t) // skip (or fail in CI) before starting anything
		fn(t, func(t *testing.T, name string) string { return postgresTestURL(t) })
	})
}

// postgresTestURL creates a fresh schema in the test database, dropped at
// cleanup, and returns a URL whose search_path selects it.
func postgresTestURL(t *testing.T) string {
	t.Helper()
	return pgtest.SearchPathURL(t, "mcpmem")
}

// TestUnreachablePostgresExitsNamingURL starts the binary on a database
// that refuses connections: it exits with status 1 and a message naming
// the URL without its password.
func TestUnreachablePostgresExitsNamingURL(t *testing.T) {
	bin := sharedBinary(t)
	for _, args := range [][]string{{}, {"export"}} {
		cmd := exec.Command(bin, append([]string{"--db", "postgres://mem:t0psecret@127.0.0.1:1/memory?sslmode=disable"}, args...)...)
		cmd.Stdin = strings.NewReader("")
		out, err := cmd.CombinedOutput()
		if code := cmd.ProcessState.ExitCode(); code != 1 {
			t.Fatalf("%v: exit %d (%v), want 1:\n%s", args, code, err, out)
		}
		msg := string(out)
		if strings.Contains(msg, "t0psecret") || !strings.Contains(msg, "postgres://mem:xxxxx@127.0.0.1:1/memory") || !strings.Contains(msg, "connect") {
			t.Fatalf("%v: the message must name the URL without its password:\n%s", args, msg)
		}
	}
}

func TestClusterURL(t *testing.T) {
	const pg = "postgres://u@h/db"
	for _, c := range []struct{ db, cluster, want string }{
		{"memory.db", "", ""},
		{"memory.db", "postgres://other/x", "postgres://other/x"},
		{pg, "", pg},
		{"postgresql://u@h/db", "", "postgresql://u@h/db"},
		{pg, "postgres://other/x", "postgres://other/x"},
	} {
		if got := clusterURL(c.db, c.cluster); got != c.want {
			t.Errorf("clusterURL(%q, %q) = %q, want %q", c.db, c.cluster, got, c.want)
		}
	}
}

// TestReplicasShareGraphAndChangeFeed runs two mcp-memory replicas on one
// PostgreSQL database: what a client writes through one is read through
// the other, a change-feed cursor from one is followed on the other, and a
// legacy session's memory://session/delta on one replica lists the changes
// made through the other.
func TestReplicasShareGraphAndChangeFeed(t *testing.T) {
	bin := sharedBinary(t)
	db := postgresTestURL(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	endA, _ := startHTTPServer(t, bin, db, &syncBuffer{})
	endB, _ := startHTTPServer(t, bin, db, &syncBuffer{})
	a := connect(ctx, t, &mcp.StreamableClientTransport{Endpoint: endA, DisableStandaloneSSE: true}, legacyVersion)
	b := connect(ctx, t, &mcp.StreamableClientTransport{Endpoint: endB, DisableStandaloneSSE: true}, legacyVersion)

	type delta struct {
		Since, Next int64
		Changes     []struct {
			Seq           int64
			Kind, Subject string
		}
	}
	readDelta := func(s *mcp.ClientSession, uri string) delta {
		t.Helper()
		r, err := s.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
		if err != nil {
			t.Fatalf("read %s: %v", uri, err)
		}
		var d delta
		if len(r.Contents) != 1 || json.Unmarshal([]byte(r.Contents[0].Text), &d) != nil {
			t.Fatalf("%s: %+v", uri, r.Contents)
		}
		return d
	}
	summary := func(d delta) string {
		var parts []string
		for _, c := range d.Changes {
			parts = append(parts, fmt.Sprintf("%d:%s:%s", c.Seq, c.Kind, c.Subject))
		}
		return strings.Join(parts, " ")
	}

	start := readDelta(b, "memory://changes/0")
	if o := callTool(ctx, a, "create_entities", entities(ent("Ada", "person", "wrote the first program"), ent("Engine", "machine"))); o.IsError {
		t.Fatal(o)
	}
	if o := callTool(ctx, a, "create_relations", relations(rel("Ada", "Engine", "programmed"))); o.IsError {
		t.Fatal(o)
	}
	d := readDelta(b, fmt.Sprintf("memory://changes/%d", start.Next))
	if got, want := summary(d), "1:entity_created:Ada 2:entity_created:Engine 3:relation_created:Ada"; got != want {
		t.Fatalf("changes on B after writes on A: %s, want %s", got, want)
	}
	if o := callTool(ctx, b, "add_observations", observations(add("Engine", "analytical"))); o.IsError {
		t.Fatal(o)
	}
	if got, want := summary(readDelta(a, fmt.Sprintf("memory://changes/%d", d.Next))), "4:observation_added:Engine"; got != want {
		t.Fatalf("changes on A after a write on B: %s, want %s", got, want)
	}
	if got, want := summary(readDelta(b, "memory://session/delta")), "1:entity_created:Ada 2:entity_created:Engine 3:relation_created:Ada 4:observation_added:Engine"; got != want {
		t.Fatalf("B's session delta: %s, want %s", got, want)
	}
	ga := callTool(ctx, a, "read_graph", map[string]any{})
	gb := callTool(ctx, b, "read_graph", map[string]any{})
	if ga.IsError || canon(ga.Structured) != canon(gb.Structured) || len(mustGraph(t, gb).Entities) != 2 {
		t.Fatalf("graphs differ:\n A %s\n B %s", ga, gb)
	}
	if o := callTool(ctx, b, "search_nodes", query("ANALYTICAL")); o.IsError || len(mustGraph(t, o).Entities) != 1 {
		t.Fatalf("search on B: %s", o)
	}
}

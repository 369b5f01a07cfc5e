package main

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/components/memory/memstore" // also registers the "sqlite" driver for the integrity check
)

// TestDurabilityKill9 runs 16 concurrent HTTP clients (half legacy
// sessions, half stateless 2026-07-28) that create entities and add
// observations in a loop, kills the server with SIGKILL mid-stream, restarts
// it on the same file and checks that every acknowledged write is there,
// that every entity has all or none of the observations it was created
// with, that the file passes SQLite's integrity check, and that no client
// ever saw a lock error; on both stores.
func TestDurabilityKill9(t *testing.T) { eachStore(t, testDurabilityKill9) }

func testDurabilityKill9(t *testing.T, newDB newDBFunc) {
	const (
		clients      = 16
		maxIters     = 400 // per client: the test is bounded even if the kill comes late
		minAcksFirst = 64  // acknowledged writes before the kill timer starts
	)
	bin := sharedBinary(t)
	db := newDB(t, "memory")
	var stderr syncBuffer
	endpoint, cmd := startHTTPServer(t, bin, db, &stderr)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()

	type ack struct {
		entity string
		obs    []string // observations acknowledged for the entity, initial ones first
	}
	var (
		mu      sync.Mutex
		acked   = map[string]*ack{}
		errs    []string // every error text any client saw
		killed  atomic.Bool
		nAcks   atomic.Int64
		preKill []string // errors seen before the kill: none allowed
	)
	recordErr := func(client int, what string, text string) {
		mu.Lock()
		defer mu.Unlock()
		msg := fmt.Sprintf("client %d %s: %s", client, what, text)
		errs = append(errs, msg)
		if !killed.Load() {
			preKill = append(preKill, msg)
		}
	}

	var wg sync.WaitGroup
	for c := range clients {
		version := legacyVersion
		if c%2 == 1 {
			version = "" // stateless 2026-07-28
		}
		tr := &mcp.StreamableClientTransport{Endpoint: endpoint, MaxRetries: -1, DisableStandaloneSSE: true, HTTPClient: &http.Client{Timeout: 20 * time.Second}}
		client := mcp.NewClient(&mcp.Implementation{Name: fmt.Sprintf("durability-%d", c), Version: "1.0.0"}, nil)
		s, err := client.Connect(ctx, tr, &mcp.ClientSessionOptions{ProtocolVersion: version})
		if err != nil {
			t.Fatalf("client %d (%q): connect: %v", c, version, err)
		}
		defer s.Close()
		wg.Add(1)
		go func() {
			defer wg.Done()
			var mine []string
			for i := 0; i < maxIters && ctx.Err() == nil; i++ {
				name := fmt.Sprintf("c%02d-%04d", c, i)
				initial := []string{"alpha " + name, "beta " + name}
				o := callTool(ctx, s, "create_entities", entities(ent(name, "durable", initial...)))
				if o.IsError {
					recordErr(c, "create_entities", o.Text)
					return
				}
				mu.Lock()
				acked[name] = &ack{entity: name, obs: initial}
				mu.Unlock()
				nAcks.Add(1)
				mine = append(mine, name)
				target := mine[len(mine)-1-(i*7)%len(mine)] // this one or an earlier one
				extra := fmt.Sprintf("extra %d by %d", i, c)
				o = callTool(ctx, s, "add_observations", observations(add(target, extra)))
				if o.IsError {
					recordErr(c, "add_observations", o.Text)
					return
				}
				mu.Lock()
				acked[target].obs = append(acked[target].obs, extra)
				mu.Unlock()
				nAcks.Add(1)
			}
		}()
	}

	// Kill mid-stream: once some writes went through, after a random delay.
	seed := time.Now().UnixNano()
	delay := time.Duration(rand.New(rand.NewPCG(uint64(seed), 1)).IntN(1500)) * time.Millisecond
	t.Logf("kill delay %v (seed %d)", delay, seed)
	for nAcks.Load() < minAcksFirst && ctx.Err() == nil {
		time.Sleep(5 * time.Millisecond)
	}
	time.Sleep(delay)
	mu.Lock()
	killed.Store(true)
	mu.Unlock()
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatalf("kill: %v", err)
	}
	cmd.Wait()
	atKill := nAcks.Load()
	wg.Wait()
	if ctx.Err() != nil {
		t.Fatalf("clients did not finish in time: %v", ctx.Err())
	}
	t.Logf("%d writes acknowledged by %d clients before SIGKILL (%d after it was sent), %d errors", nAcks.Load(), clients, nAcks.Load()-atKill, len(errs))
	if len(errs) > 0 {
		t.Logf("first error after the kill: %s", errs[0])
	}
	if len(preKill) > 0 {
		t.Errorf("errors before the kill:\n%s", preKill)
	}
	for _, e := range errs {
		if isLockError(e) {
			t.Errorf("a client saw a lock error: %s", e)
		}
	}
	if strings.Contains(stderr.String(), "DATA RACE") {
		t.Errorf("the server (built with -race) reported a data race:\n%s", lastBytes(stderr.String(), 8000))
	}
	if isLockError(stderr.String()) {
		t.Errorf("the server logged a lock error:\n%s", lastBytes(stderr.String(), 4000))
	}
	if nAcks.Load() >= clients*maxIters*2 {
		t.Errorf("every client finished all %d iterations before the kill: the kill did not happen mid-stream", maxIters)
	}

	// A SQLite file must open cleanly and be consistent (PostgreSQL
	// checks itself).
	if !memstore.IsPostgresURL(db) {
		raw, err := sql.Open("sqlite", db)
		if err != nil {
			t.Fatal(err)
		}
		var check string
		if err := raw.QueryRow("PRAGMA integrity_check").Scan(&check); err != nil || check != "ok" {
			t.Fatalf("integrity_check after SIGKILL: %q %v", check, err)
		}
		raw.Close()
	}

	// Restart on the same file and look for every acknowledged write.
	endpoint, _ = startHTTPServer(t, bin, db, &stderr)
	s := connect(ctx, t, &mcp.StreamableClientTransport{Endpoint: endpoint, MaxRetries: -1, DisableStandaloneSSE: true}, legacyVersion)
	g := mustGraph(t, callTool(ctx, s, "read_graph", map[string]any{}))
	stored := map[string][]string{}
	for _, e := range g.Entities {
		stored[e.Name] = e.Observations
	}
	for name, a := range acked {
		obs, ok := stored[name]
		if !ok {
			t.Errorf("acknowledged entity %s is missing after the restart", name)
			continue
		}
		for _, o := range a.obs {
			if !slices.Contains(obs, o) {
				t.Errorf("acknowledged observation %q of %s is missing after the restart (has %q)", o, name, obs)
			}
		}
	}
	for _, e := range g.Entities {
		if e.EntityType != "durable" {
			t.Errorf("unexpected entity %+v", e)
			continue
		}
		// Each create_entities call is atomic: its initial observations
		// all came with it.
		if !slices.Contains(e.Observations, "alpha "+e.Name) || !slices.Contains(e.Observations, "beta "+e.Name) {
			t.Errorf("entity %s has only part of its initial observations: %q", e.Name, e.Observations)
		}
	}
	t.Logf("%d entities after the restart, %d acknowledged", len(g.Entities), len(acked))

	// open_nodes agrees with read_graph, and the store takes writes again.
	var some []string
	for name := range acked {
		if some = append(some, name); len(some) == 20 {
			break
		}
	}
	og := mustGraph(t, callTool(ctx, s, "open_nodes", names("names", some...)))
	if len(og.Entities) != len(some) {
		t.Errorf("open_nodes %v after the restart found %d entities", some, len(og.Entities))
	}
	if o := callTool(ctx, s, "create_entities", entities(ent("after-restart", "durable", "alpha after-restart", "beta after-restart"))); o.IsError {
		t.Errorf("write after the restart: %s", o.Text)
	}
}

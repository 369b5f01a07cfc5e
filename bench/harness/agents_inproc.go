package harness

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/components/memory/memstore"
)

// InProcessResult is the agents' mix run with the store in process: the
// limit the same operations reach without MCP, JSON or HTTP.
type InProcessResult struct {
	Ops     int
	Elapsed time.Duration
	Latency map[string][]time.Duration
	Summary map[string]OpSummary `json:"-"`
	Errors  []string
	CPU     time.Duration // the process's CPU time during the run
	Procs   int           // GOMAXPROCS
	Runs    int           // runs merged (mergeInProcess)
}

// mergeInProcess adds up runs as one.
func mergeInProcess(runs []*InProcessResult) *InProcessResult {
	m := &InProcessResult{Latency: map[string][]time.Duration{}, Runs: len(runs)}
	for _, r := range runs {
		m.Elapsed += r.Elapsed
		m.CPU += r.CPU
		m.Errors = append(m.Errors, r.Errors...)
		m.Procs = r.Procs
		for t, ds := range r.Latency {
			m.Latency[t] = append(m.Latency[t], ds...)
		}
	}
	m.Ops, m.Summary = summarize(m.Latency)
	return m
}

// RunAgentsInProcess runs the concurrent-agents workload against store
// directly, in this process: clients goroutines each make the calls an
// agent of RunAgents makes (the same mix, arguments and read-your-writes
// checks) as method calls on store, for d. read_graph is a WalkGraph, as
// the component does it. cmd/agents-inproc runs it pinned to the server's
// core, which is how RunAgents reports it beside the HTTP figure.
//
// Agents are numbered from first: a second run on the same store with
// other numbers writes other entities.
func RunAgentsInProcess(ctx context.Context, store memstore.Store, first, clients int, d time.Duration) *InProcessResult {
	res := &InProcessResult{Procs: runtime.GOMAXPROCS(0), Runs: 1}
	lats := map[string][]time.Duration{}
	var mu sync.Mutex
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	cpu0 := selfCPU()
	start := time.Now()
	var wg sync.WaitGroup
	for i := first; i < first+clients; i++ {
		wg.Go(func() {
			a := &agent{id: i, rng: rand.New(rand.NewPCG(uint64(i), 42)), ents: map[string][]string{}}
			lat := map[string][]time.Duration{}
			var errs []string
			for ctx.Err() == nil {
				c := a.step()
				t0 := time.Now()
				err := c.callStore(context.WithoutCancel(ctx), store)
				d := time.Since(t0)
				if err != nil {
					errs = append(errs, fmt.Sprintf("agent %d %s %s: %v", i, c.tool, snippet([]byte(c.args)), err))
					if len(errs) > 5 {
						break
					}
					continue
				}
				c.acked()
				lat[c.tool] = append(lat[c.tool], d)
			}
			mu.Lock()
			defer mu.Unlock()
			for t, ds := range lat {
				lats[t] = append(lats[t], ds...)
			}
			res.Errors = append(res.Errors, errs...)
		})
	}
	wg.Wait()
	res.Elapsed = time.Since(start)
	res.CPU = selfCPU() - cpu0
	res.Latency = lats
	res.Ops, res.Summary = summarize(lats)
	return res
}

// summarize sorts each operation's latencies and returns the total count
// and each operation's percentiles.
func summarize(lats map[string][]time.Duration) (int, map[string]OpSummary) {
	n, sum := 0, map[string]OpSummary{}
	for t, ds := range lats {
		slices.Sort(ds)
		sum[t] = OpSummary{N: len(ds), P50: ds[len(ds)/2], P99: ds[min(len(ds)-1, len(ds)*99/100)]}
		n += len(ds)
	}
	return n, sum
}

// callStore makes the call as a method call on store and checks its
// answer as checkText does the MCP answer's.
func (c *agentCall) callStore(ctx context.Context, store memstore.Store) error {
	var g memstore.Graph
	var err error
	switch c.tool {
	case "create_entities":
		ents := make([]memstore.Entity, len(c.ents))
		for i, e := range c.ents {
			ents[i] = memstore.Entity(e)
		}
		created, err := store.CreateEntities(ctx, ents)
		if err == nil && len(created) != len(ents) {
			err = fmt.Errorf("%d entities, want %d", len(created), len(ents))
		}
		return err
	case "add_observations":
		_, err = store.AddObservations(ctx, []memstore.ObservationAdd{{EntityName: c.own, Contents: []string{c.obs}}})
		return err
	case "create_relations":
		_, err = store.CreateRelations(ctx, []memstore.Relation{{From: c.own, To: c.other, RelationType: c.rel}})
		return err
	case "delete_observations":
		return store.DeleteObservations(ctx, []memstore.ObservationDelete{{EntityName: c.own, Observations: []string{c.obs}}})
	case "delete_entities":
		return store.DeleteEntities(ctx, []string{c.own})
	case "read_graph":
		return store.WalkGraph(ctx, func(memstore.Entity) error { return nil }, func(memstore.Relation) error { return nil })
	case "search_nodes":
		g, err = store.SearchNodes(ctx, c.own)
	case "open_nodes":
		g, err = store.OpenNodes(ctx, []string{c.own})
	default:
		return fmt.Errorf("unknown tool %s", c.tool)
	}
	if err != nil {
		return err
	}
	var mg memGraph
	for _, e := range g.Entities {
		mg.Entities = append(mg.Entities, memEntity(e))
	}
	return c.checkGraph(mg)
}

// runAgentsInProcess runs cmd/agents-inproc (cfg.InProcess) for d on the
// store inproc.db in dir, agents numbered from first, pinned to the
// server's core, and returns what it measured.
func runAgentsInProcess(ctx context.Context, cfg AgentsConfig, dir string, first int, d time.Duration) (*InProcessResult, error) {
	srv, err := Start(ctx, Spec{Name: "agents-inproc", Bin: cfg.InProcess, Args: []string{
		"-db", filepath.Join(dir, "inproc.db"), "-first", strconv.Itoa(first), "-clients", strconv.Itoa(cfg.Clients), "-duration", d.String(),
	}}, cfg.Cores, false)
	if err != nil {
		return nil, err
	}
	defer srv.Stop()
	out, err := srv.Stdout.ReadBytes('\n')
	if err != nil {
		return nil, fmt.Errorf("agents-inproc: %v; stderr: %s", err, srv.Stderr())
	}
	var res InProcessResult
	if err := json.Unmarshal(out, &res); err != nil {
		return nil, fmt.Errorf("agents-inproc: %v; it wrote %s; stderr: %s", err, snippet(out), srv.Stderr())
	}
	res.Ops, res.Summary = summarize(res.Latency)
	return &res, nil
}

// ServeAgentsInProcess is cmd/agents-inproc: it opens the SQLite store at
// path, runs RunAgentsInProcess and writes the result as JSON to w.
func ServeAgentsInProcess(ctx context.Context, path string, first, clients int, d time.Duration, w io.Writer) error {
	store, err := memstore.Open(path)
	if err != nil {
		return err
	}
	res := RunAgentsInProcess(ctx, store, first, clients, d)
	if err := store.Close(); err != nil {
		res.Errors = append(res.Errors, "close: "+err.Error())
	}
	return json.NewEncoder(w).Encode(res)
}

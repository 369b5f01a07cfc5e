package harness

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
)

// AgentsConfig is the concurrent-agents workload: Clients agents share
// one mcp-memory over Streamable HTTP (2026-07-28, stateless) for
// Duration, each mixing writes to its own entities with reads; afterwards
// the acknowledged writes are replayed one at a time, in the order they
// were acknowledged, into a fresh mcp-memory over stdio, and both graphs
// must be equal. The store is SQLite, or PostgreSQL when Postgres is set
// (each mcp-memory then on a fresh schema, dropped afterwards).
type AgentsConfig struct {
	McpMemory string
	Postgres  string // PostgreSQL server; empty: SQLite
	Clients   int
	Duration  time.Duration
	Cores     Cores
	Log       io.Writer `json:"-"`
}

// AgentsResult is what the workload measured.
type AgentsResult struct {
	Config    AgentsConfig
	Store     string // StoreSQLite or StorePostgres
	Ops       int
	Elapsed   time.Duration
	Latency   map[string][]time.Duration `json:"-"`
	Summary   map[string]OpSummary
	Errors    []string
	Acked     int    // acknowledged writes replayed
	Entities  int    // entities in the graph afterwards
	Equal     bool   // the graph equals the serial replay's
	Diff      string // first difference when not
	PeakRSSMB float64
}

// OpSummary is the count and latency percentiles of one operation.
type OpSummary struct {
	N        int
	P50, P99 time.Duration
}

// agentOp is one acknowledged write: the tool and its arguments.
type agentOp struct {
	at   time.Time
	tool string
	args string
}

// agent is one client's view of its own entities: what it expects the
// server to hold for them (nobody else writes them).
type agent struct {
	id   int
	rng  *rand.Rand
	next int                 // next entity number
	ents map[string][]string // own entity -> observations, in order
	seq  int
}

func (a *agent) name(n int) string { return fmt.Sprintf("agent%02d-entity%05d", a.id, n) }

// someEntity returns one of the agent's entities, or "" when it has none.
func (a *agent) someEntity() string {
	if len(a.ents) == 0 {
		return ""
	}
	names := make([]string, 0, len(a.ents))
	for n := range a.ents {
		names = append(names, n)
	}
	sort.Strings(names)
	return names[a.rng.IntN(len(names))]
}

// step picks the next call: the tool, its arguments, whether it writes,
// and how to check the answer's text and update the agent's model once
// acknowledged.
func (a *agent) step() (tool, args string, write bool, check func(text []byte) error) {
	a.seq++
	obs := fmt.Sprintf("observation %d of agent %d", a.seq, a.id)
	own := a.someEntity()
	switch r := a.rng.IntN(100); {
	case r < 30 || own == "":
		n := 1 + a.rng.IntN(3)
		var ents []memEntity
		for range n {
			ents = append(ents, memEntity{Name: a.name(a.next), EntityType: "note", Observations: []string{obs}})
			a.next++
		}
		b, _ := json.Marshal(map[string]any{"entities": ents})
		return "create_entities", string(b), true, func(text []byte) error {
			if err := countIs(text, "entities", n); err != nil {
				return err
			}
			for _, e := range ents {
				a.ents[e.Name] = []string{obs}
			}
			return nil
		}
	case r < 50:
		b, _ := json.Marshal(map[string]any{"observations": []map[string]any{{"entityName": own, "contents": []string{obs}}}})
		return "add_observations", string(b), true, func([]byte) error {
			a.ents[own] = append(a.ents[own], obs)
			return nil
		}
	case r < 60:
		other := a.someEntity()
		b, _ := json.Marshal(map[string]any{"relations": []memRelation{{From: own, To: other, RelationType: fmt.Sprintf("rel%d", a.seq%5)}}})
		return "create_relations", string(b), true, func([]byte) error { return nil }
	case r < 65 && len(a.ents[own]) > 0:
		o := a.ents[own][0]
		b, _ := json.Marshal(map[string]any{"deletions": []map[string]any{{"entityName": own, "observations": []string{o}}}})
		return "delete_observations", string(b), true, func([]byte) error {
			a.ents[own] = slices.DeleteFunc(a.ents[own], func(s string) bool { return s == o })
			return nil
		}
	case r < 68:
		b, _ := json.Marshal(map[string]any{"entityNames": []string{own}})
		return "delete_entities", string(b), true, func([]byte) error {
			delete(a.ents, own)
			return nil
		}
	case r < 84:
		b, _ := json.Marshal(map[string]any{"query": own})
		return "search_nodes", string(b), false, a.expect(own)
	case r < 99:
		b, _ := json.Marshal(map[string]any{"names": []string{own}})
		return "open_nodes", string(b), false, a.expect(own)
	default:
		return "read_graph", `{}`, false, func(text []byte) error {
			var g memGraph
			return json.Unmarshal(text, &g)
		}
	}
}

// expect checks that a read shows the agent's entity name exactly as the
// agent last wrote it (read-your-writes).
func (a *agent) expect(name string) func([]byte) error {
	want := slices.Clone(a.ents[name])
	return func(text []byte) error {
		var g memGraph
		if err := json.Unmarshal(text, &g); err != nil {
			return err
		}
		for _, e := range g.Entities {
			if e.Name == name {
				if !slices.Equal(e.Observations, want) {
					return fmt.Errorf("%s has observations %q, want %q", name, e.Observations, want)
				}
				return nil
			}
		}
		return fmt.Errorf("%s missing", name)
	}
}

// RunAgents runs the workload.
func RunAgents(ctx context.Context, cfg AgentsConfig) (*AgentsResult, error) {
	res := &AgentsResult{Config: cfg, Store: StoreSQLite, Latency: map[string][]time.Duration{}, Summary: map[string]OpSummary{}}
	tmp, err := os.MkdirTemp("", "mcpbench-agents-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	// newDB returns a fresh store for mcp-memory's --db: a file, or a
	// schema dropped when RunAgents returns (after the servers stopped:
	// deferred earlier, it runs later).
	newDB := func(name string) (string, error) { return filepath.Join(tmp, name+".db"), nil }
	if cfg.Postgres != "" {
		res.Store = StorePostgres
		var schemas []*memorySchema
		defer func() {
			for _, s := range schemas {
				_ = s.Drop()
			}
		}()
		newDB = func(name string) (string, error) {
			// Not ctx: the replay's schema is made after the workload's
			// timeout ended it.
			s, err := newMemorySchema(context.Background(), cfg.Postgres, "agents_"+name)
			if err != nil {
				return "", err
			}
			schemas = append(schemas, s)
			return s.URL, nil
		}
	}
	liveDB, err := newDB("live")
	if err != nil {
		return nil, err
	}
	srv, err := Start(ctx, Spec{Name: "mcp-memory", Bin: cfg.McpMemory, Args: []string{"--db", liveDB, "--log-level", "error"}}, cfg.Cores, true)
	if err != nil {
		return nil, err
	}
	defer srv.Stop()
	client := NewHTTPClient()
	url := "http://" + srv.Addr + "/mcp"

	var (
		mu    sync.Mutex
		acked []agentOp
	)
	ctx, cancel := context.WithTimeout(ctx, cfg.Duration)
	defer cancel()
	start := time.Now()
	var wg sync.WaitGroup
	for i := range cfg.Clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			caller, _ := DialHTTP(ctx, client, url, true, 0)
			a := &agent{id: i, rng: rand.New(rand.NewPCG(uint64(i), 42)), ents: map[string][]string{}}
			lat := map[string][]time.Duration{}
			var errs []string
			var mine []agentOp
			for id := int64(1); ctx.Err() == nil; id++ {
				tool, args, write, check := a.step()
				body := fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":%s,%s}}`, id, tool, args, modernMeta)
				t0 := time.Now()
				raw, err := caller.Call(context.WithoutCancel(ctx), "tools/call", tool, id, body)
				d := time.Since(t0)
				if err == nil {
					var text []byte
					if text, err = toolText(raw, id); err == nil {
						err = check(text)
					}
				}
				if err != nil {
					errs = append(errs, fmt.Sprintf("agent %d %s %s: %v", i, tool, snippet([]byte(args)), err))
					if len(errs) > 5 {
						break
					}
					continue
				}
				lat[tool] = append(lat[tool], d)
				if write {
					mine = append(mine, agentOp{at: time.Now(), tool: tool, args: args})
				}
			}
			mu.Lock()
			defer mu.Unlock()
			for t, ds := range lat {
				res.Latency[t] = append(res.Latency[t], ds...)
			}
			res.Errors = append(res.Errors, errs...)
			acked = append(acked, mine...)
		}()
	}
	wg.Wait()
	res.Elapsed = time.Since(start)
	for t, ds := range res.Latency {
		slices.Sort(ds)
		res.Summary[t] = OpSummary{N: len(ds), P50: ds[len(ds)/2], P99: ds[min(len(ds)-1, len(ds)*99/100)]}
		res.Ops += len(ds)
	}
	if rss, err := srv.PeakRSS(); err == nil {
		res.PeakRSSMB = float64(rss) / (1 << 20)
	}
	live, err := readGraphVia(context.Background(), &httpGraphReader{url: url})
	if err != nil {
		return nil, fmt.Errorf("read the graph afterwards: %w", err)
	}
	res.Entities = len(live.Entities)

	// Serial replay: acknowledged writes in acknowledgement order (each
	// agent's in its own order; agents touch disjoint entities).
	sort.SliceStable(acked, func(i, j int) bool { return acked[i].at.Before(acked[j].at) })
	res.Acked = len(acked)
	replayDB, err := newDB("replay")
	if err != nil {
		return nil, err
	}
	rsrv, err := Start(context.Background(), Spec{Name: "replay", Bin: cfg.McpMemory, Args: []string{"--db", replayDB, "--log-level", "error"}}, Cores{}, false)
	if err != nil {
		return nil, err
	}
	defer rsrv.Stop()
	conn, err := DialStdio(context.Background(), rsrv, true)
	if err != nil {
		return nil, err
	}
	mc := &memClient{c: conn, id: 1}
	for _, op := range acked {
		if _, _, err := mc.call(context.Background(), op.tool, json.RawMessage(op.args)); err != nil {
			return nil, fmt.Errorf("replay %s %s: %w", op.tool, snippet([]byte(op.args)), err)
		}
	}
	replayed, err := readGraphVia(context.Background(), mc)
	if err != nil {
		return nil, fmt.Errorf("read the replayed graph: %w", err)
	}
	res.Equal, res.Diff = sameGraph(live, replayed)
	return res, nil
}

// toolText returns the text block of a successful tools/call answer.
func toolText(raw []byte, id int64) ([]byte, error) {
	res, err := openEnvelope(raw, id)
	if err != nil {
		return nil, err
	}
	var r callResult
	if err := json.Unmarshal(res, &r); err != nil {
		return nil, err
	}
	if r.IsError || len(r.Content) == 0 {
		return nil, fmt.Errorf("tool error: %s", snippet(res))
	}
	return []byte(r.Content[0].Text), nil
}

type graphReader interface {
	call(ctx context.Context, tool string, args any) (json.RawMessage, time.Duration, error)
}

type httpGraphReader struct{ url string }

func (h *httpGraphReader) call(ctx context.Context, tool string, args any) (json.RawMessage, time.Duration, error) {
	caller, _ := DialHTTP(ctx, NewHTTPClient(), h.url, true, 0)
	body := fmt.Appendf(nil, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":%q,"arguments":{},%s}}`, tool, modernMeta)
	raw, err := caller.Call(ctx, "tools/call", tool, 1, body)
	if err != nil {
		return nil, 0, err
	}
	text, err := toolText(raw, 1)
	return text, 0, err
}

func readGraphVia(ctx context.Context, r graphReader) (memGraph, error) {
	text, _, err := r.call(ctx, "read_graph", map[string]any{})
	if err != nil {
		return memGraph{}, err
	}
	var g memGraph
	err = json.Unmarshal(text, &g)
	return g, err
}

// sameGraph compares two graphs as sets of entities (each with its
// observations in order) and relations: agents write concurrently, so
// the order of entities and relations between agents may differ.
func sameGraph(a, b memGraph) (bool, string) {
	key := func(g memGraph) ([]string, []string) {
		var es, rs []string
		for _, e := range g.Entities {
			es = append(es, e.Name+"\x00"+e.EntityType+"\x00"+strings.Join(e.Observations, "\x01"))
		}
		for _, r := range g.Relations {
			rs = append(rs, r.From+"\x00"+r.To+"\x00"+r.RelationType)
		}
		slices.Sort(es)
		slices.Sort(rs)
		return es, rs
	}
	ae, ar := key(a)
	be, br := key(b)
	if d := firstDiff(ae, be); d != "" {
		return false, "entities: " + d
	}
	if d := firstDiff(ar, br); d != "" {
		return false, "relations: " + d
	}
	return true, ""
}

func firstDiff(a, b []string) string {
	for i := range max(len(a), len(b)) {
		var x, y string
		if i < len(a) {
			x = a[i]
		}
		if i < len(b) {
			y = b[i]
		}
		if x != y {
			return fmt.Sprintf("item %d: live %q, replay %q (%d vs %d items)", i, x, y, len(a), len(b))
		}
	}
	return ""
}

// AgentsMarkdown renders the workload's results, one per store, side by
// side; skipped says why a store did not run, if one did not.
func AgentsMarkdown(rs []*AgentsResult, skipped string) string {
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	if len(rs) == 0 {
		return ""
	}
	cfg := rs[0].Config
	p("## Concurrent agents over HTTP\n\n")
	p("%d clients share one mcp-memory over Streamable HTTP (2026-07-28, no session) for %s, the server pinned to one core: each writes only its own entities (create_entities 30%%, add_observations 20%%, create_relations 10%%, delete_observations 5%%, delete_entities 3%%) and reads (search_nodes 16%%, open_nodes 15%%, both checked against what the agent last wrote; read_graph 1%%). ", cfg.Clients, cfg.Duration)
	p("Afterwards the acknowledged writes are replayed one at a time, in acknowledgement order, into a fresh mcp-memory on the same kind of store, and the two graphs are compared. ")
	p("The workload runs once per store: SQLite (a file on the local disk) and PostgreSQL (a fresh schema on the local server, whose processes are not pinned and use the other core too).\n\n")
	for _, r := range rs {
		p("- **%s**: %d operations in %s: **%.0f ops/s**, %d errors. %d acknowledged writes replayed; the graph (%d entities) %s. Peak RSS of mcp-memory %.0f MB.\n",
			r.Store, r.Ops, r.Elapsed.Round(time.Millisecond), float64(r.Ops)/r.Elapsed.Seconds(), len(r.Errors), r.Acked, r.Entities,
			map[bool]string{true: "**equals the serial replay**", false: "**differs from the serial replay**: " + r.Diff}[r.Equal], r.PeakRSSMB)
	}
	if skipped != "" {
		p("- **%s**: not run: %s.\n", StorePostgres, skipped)
	}
	p("\n| op |")
	for _, r := range rs {
		p(" %s calls | p50 | p99 |", r.Store)
	}
	p("\n|---|%s\n", strings.Repeat("---:|---:|---:|", len(rs)))
	seen := map[string]bool{}
	var ops []string
	for _, r := range rs {
		for op := range r.Summary {
			if !seen[op] {
				seen[op] = true
				ops = append(ops, op)
			}
		}
	}
	sort.Strings(ops)
	for _, op := range ops {
		p("| %s |", op)
		for _, r := range rs {
			if s, ok := r.Summary[op]; ok {
				p(" %d | %s | %s |", s.N, fmtDur(s.P50), fmtDur(s.P99))
			} else {
				p(" – | – | – |")
			}
		}
		p("\n")
	}
	for _, r := range rs {
		for _, e := range r.Errors {
			p("\n**Error** (%s): %s\n", r.Store, e)
		}
	}
	return b.String()
}

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
	"strconv"
	"strings"
	"sync"
	"time"

	fastjson "github.com/segmentio/encoding/json"
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
	// InProcess is cmd/agents-inproc: when set, the same mix is also run
	// by as many goroutines calling the store in a process pinned to the
	// server's core (RunAgentsInProcess), for half of Duration before the
	// HTTP run and half after, on one store, and reported beside: the
	// disk's fsync latency drifts on a shared machine, and bracketing
	// the HTTP run keeps the ratio fair.
	// It runs on SQLite only (memstore.SQLite in the process).
	InProcess string
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
	// ServerCPU and LoadCPU are the CPU time the server and this process
	// (the load generator) used during the run: whether the server's core
	// was the limit.
	ServerCPU, LoadCPU time.Duration
	// ServerWait and LoadWait are how long their threads waited, ready
	// to run, for a CPU during the run (other processes, or another of
	// their threads, held it): /proc/PID/task/*/schedstat.
	ServerWait, LoadWait time.Duration
	// FsyncP50 and FsyncP90 are the disk's fsync latency (32 KiB) in the
	// stores' directory, measured before the runs: what a group commit
	// waits for.
	FsyncP50, FsyncP90 time.Duration
	// InProcess is the in-process baseline (nil when not run).
	InProcess *InProcessResult
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
	// names are ents' keys, sorted: someEntity picks among them.
	// Sorting the map's keys at every pick cost 0.09 ms at 300 entities
	// and 0.4 ms at 1,000 (one or two picks a call; an agent has ~1,000
	// after 30 s), as much CPU as the server spends on a call.
	names []string
	seq   int
}

func (a *agent) name(n int) string { return fmt.Sprintf("agent%02d-entity%05d", a.id, n) }

// someEntity returns one of the agent's entities, or "" when it has none.
func (a *agent) someEntity() string {
	if len(a.names) == 0 {
		return ""
	}
	return a.names[a.rng.IntN(len(a.names))]
}

// created records a new entity of the agent's. Names grow with a.next
// (zero-padded), so appending keeps names sorted.
func (a *agent) created(name string, obs []string) {
	if _, ok := a.ents[name]; !ok {
		i, _ := slices.BinarySearch(a.names, name)
		a.names = slices.Insert(a.names, i, name)
	}
	a.ents[name] = obs
}

// deleted forgets one of the agent's entities.
func (a *agent) deleted(name string) {
	delete(a.ents, name)
	if i, ok := slices.BinarySearch(a.names, name); ok {
		a.names = slices.Delete(a.names, i, i+1)
	}
}

// agentCall is one call an agent makes: the tool, its arguments as JSON
// (for HTTP) and typed (for the store, agents_inproc.go), and what its
// answer must show.
type agentCall struct {
	tool  string
	args  string
	write bool
	ents  []memEntity // create_entities
	own   string      // the agent's entity the call is about
	other string      // create_relations: the other end
	obs   string      // add_observations, delete_observations
	rel   string      // create_relations: the type
	want  []string    // search_nodes, open_nodes: own's observations as last acknowledged
	acked func()      // updates the agent's model once acknowledged
}

// checkText checks the text block of a call's answer over MCP, given as
// it came (a JSON string). read_graph's is only checked to be a string:
// its graph is the whole graph, compared in full with the replay's at the
// end, and decoding megabytes of it at each call made the load generator,
// pinned to one core, the bottleneck of the run (docs/bench/log.md, item
// 54); the in-process baseline does not look at the graph either.
func (c *agentCall) checkText(encoded json.RawMessage) error {
	if c.tool == "read_graph" {
		if len(encoded) < 2 || encoded[0] != '"' {
			return fmt.Errorf("read_graph: the text is not a string: %s", snippet(encoded))
		}
		return nil
	}
	text, err := unquote(encoded)
	if err != nil {
		return err
	}
	switch c.tool {
	case "create_entities":
		return countIs(text, "entities", len(c.ents))
	case "search_nodes", "open_nodes":
		var g memGraph
		if err := json.Unmarshal(text, &g); err != nil {
			return err
		}
		return c.checkGraph(g)
	}
	return nil
}

// checkGraph checks a read's graph: own must be there with the
// observations the agent last wrote (read-your-writes).
func (c *agentCall) checkGraph(g memGraph) error {
	if c.tool == "read_graph" {
		return nil
	}
	for _, e := range g.Entities {
		if e.Name == c.own {
			if !slices.Equal(e.Observations, c.want) {
				return fmt.Errorf("%s has observations %q, want %q", c.own, e.Observations, c.want)
			}
			return nil
		}
	}
	return fmt.Errorf("%s missing", c.own)
}

// step picks the next call.
func (a *agent) step() *agentCall {
	a.seq++
	obs := fmt.Sprintf("observation %d of agent %d", a.seq, a.id)
	own := a.someEntity()
	c := &agentCall{own: own, obs: obs, acked: func() {}}
	switch r := a.rng.IntN(100); {
	case r < 30 || own == "":
		n := 1 + a.rng.IntN(3)
		for range n {
			c.ents = append(c.ents, memEntity{Name: a.name(a.next), EntityType: "note", Observations: []string{obs}})
			a.next++
		}
		b, _ := json.Marshal(map[string]any{"entities": c.ents})
		c.tool, c.args, c.write = "create_entities", string(b), true
		c.acked = func() {
			for _, e := range c.ents {
				a.created(e.Name, []string{obs})
			}
		}
	case r < 50:
		b, _ := json.Marshal(map[string]any{"observations": []map[string]any{{"entityName": own, "contents": []string{obs}}}})
		c.tool, c.args, c.write = "add_observations", string(b), true
		c.acked = func() { a.ents[own] = append(a.ents[own], obs) }
	case r < 60:
		c.other, c.rel = a.someEntity(), fmt.Sprintf("rel%d", a.seq%5)
		b, _ := json.Marshal(map[string]any{"relations": []memRelation{{From: own, To: c.other, RelationType: c.rel}}})
		c.tool, c.args, c.write = "create_relations", string(b), true
	case r < 65 && len(a.ents[own]) > 0:
		o := a.ents[own][0]
		c.obs = o
		b, _ := json.Marshal(map[string]any{"deletions": []map[string]any{{"entityName": own, "observations": []string{o}}}})
		c.tool, c.args, c.write = "delete_observations", string(b), true
		c.acked = func() { a.ents[own] = slices.DeleteFunc(a.ents[own], func(s string) bool { return s == o }) }
	case r < 68:
		b, _ := json.Marshal(map[string]any{"entityNames": []string{own}})
		c.tool, c.args, c.write = "delete_entities", string(b), true
		c.acked = func() { a.deleted(own) }
	case r < 84:
		b, _ := json.Marshal(map[string]any{"query": own})
		c.tool, c.args, c.want = "search_nodes", string(b), slices.Clone(a.ents[own])
	case r < 99:
		b, _ := json.Marshal(map[string]any{"names": []string{own}})
		c.tool, c.args, c.want = "open_nodes", string(b), slices.Clone(a.ents[own])
	default:
		c.tool, c.args = "read_graph", `{}`
	}
	return c
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
	res.FsyncP50, res.FsyncP90, _ = fsyncProbe(tmp, 30)
	if cfg.Postgres != "" {
		cfg.InProcess = "" // the baseline calls memstore.SQLite
	}
	var inproc []*InProcessResult
	if cfg.InProcess != "" {
		first, err := runAgentsInProcess(ctx, cfg, tmp, 0, cfg.Duration/2)
		if err != nil {
			return nil, fmt.Errorf("in-process baseline: %w", err)
		}
		inproc = append(inproc, first)
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
	cpu0, _ := srv.CPU()
	self0 := selfCPU()
	wait0, lwait0 := procWait(srv.Pid()), procWait(os.Getpid())
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
				c := a.step()
				body := fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":%s,%s}}`, id, c.tool, c.args, modernMeta)
				t0 := time.Now()
				raw, err := caller.Call(context.WithoutCancel(ctx), "tools/call", c.tool, id, body)
				d := time.Since(t0)
				if err == nil {
					var text json.RawMessage
					if text, err = toolAnswer(raw, id); err == nil {
						err = c.checkText(text)
					}
				}
				if err != nil {
					errs = append(errs, fmt.Sprintf("agent %d %s %s: %v", i, c.tool, snippet([]byte(c.args)), err))
					if len(errs) > 5 {
						break
					}
					continue
				}
				c.acked()
				lat[c.tool] = append(lat[c.tool], d)
				if c.write {
					mine = append(mine, agentOp{at: time.Now(), tool: c.tool, args: c.args})
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
	if cpu1, err := srv.CPU(); err == nil {
		res.ServerCPU = cpu1 - cpu0
	}
	res.LoadCPU = selfCPU() - self0
	res.ServerWait, res.LoadWait = procWait(srv.Pid())-wait0, procWait(os.Getpid())-lwait0
	if cfg.InProcess != "" {
		// The second half: other agents (their own entities) on the same
		// store, so that its graph has grown as the HTTP run's has.
		second, err := runAgentsInProcess(ctx, cfg, tmp, cfg.Clients, cfg.Duration-cfg.Duration/2)
		if err != nil {
			return nil, fmt.Errorf("in-process baseline: %w", err)
		}
		res.InProcess = mergeInProcess(append(inproc, second))
	}
	res.Ops, res.Summary = summarize(res.Latency)
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

// toolAnswer checks a tools/call answer's envelope (its id, a result, not
// a tool error, a text block first) and returns the text block still
// encoded, a JSON string. It decodes envelope and result in one pass with
// segmentio's decoder, skipping structuredContent: a read_graph answer
// holds the whole graph twice, and decoding it with encoding/json (which
// first scans the whole input to validate it) three times (envelope,
// result, text) was most of the load generator's CPU.
func toolAnswer(raw []byte, id int64) (json.RawMessage, error) {
	var e struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Result  *struct {
			Content []struct {
				Type string          `json:"type"`
				Text json.RawMessage `json:"text"`
			} `json:"content"`
			IsError bool `json:"isError"`
		} `json:"result"`
		Error *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := fastjson.Unmarshal(raw, &e); err != nil {
		return nil, fmt.Errorf("undecodable response %s: %v", snippet(raw), err)
	}
	if got, err := strconv.ParseInt(string(e.ID), 10, 64); err != nil || got != id {
		return nil, fmt.Errorf("response id %s, want %d", e.ID, id)
	}
	if e.Error != nil {
		return nil, fmt.Errorf("error %d: %s", e.Error.Code, e.Error.Message)
	}
	if e.JSONRPC != "2.0" || e.Result == nil {
		return nil, fmt.Errorf("not a result: %s", snippet(raw))
	}
	if e.Result.IsError || len(e.Result.Content) == 0 || e.Result.Content[0].Type != "text" {
		return nil, fmt.Errorf("tool error: %s", snippet(raw))
	}
	return e.Result.Content[0].Text, nil
}

// toolText returns the text block of a successful tools/call answer,
// decoded.
func toolText(raw []byte, id int64) ([]byte, error) {
	encoded, err := toolAnswer(raw, id)
	if err != nil {
		return nil, err
	}
	return unquote(encoded)
}

// unquote decodes a text block as toolAnswer returns it.
func unquote(encoded json.RawMessage) ([]byte, error) {
	var s string
	if err := fastjson.Unmarshal(encoded, &s); err != nil {
		return nil, fmt.Errorf("undecodable text %s: %v", snippet(encoded), err)
	}
	return []byte(s), nil
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
	var in *InProcessResult // the in-process baseline, beside the SQLite run
	for _, r := range rs {
		if r.Elapsed > 0 {
			el := r.Elapsed.Seconds()
			p("\nCPU during the %s run: the server %.0f%% of its core (%s per operation), the load generator %.0f%% of its own; their threads waited, ready to run, for their core %.0f%% and %.0f%% of the run (summed over threads: other processes, or another of their own threads, held it). fsync of 32 KiB on the stores' disk before the runs: %s p50, %s p90 (each SQLite group commit waits for one).\n",
				r.Store, 100*r.ServerCPU.Seconds()/el, fmtDur(r.ServerCPU/time.Duration(max(r.Ops, 1))), 100*r.LoadCPU.Seconds()/el,
				100*r.ServerWait.Seconds()/el, 100*r.LoadWait.Seconds()/el, fmtDur(r.FsyncP50), fmtDur(r.FsyncP90))
		}
		if x := r.InProcess; x != nil && x.Elapsed > 0 && x.Ops > 0 && r.Elapsed > 0 {
			in = x
			httpRate, inRate := float64(r.Ops)/r.Elapsed.Seconds(), float64(x.Ops)/x.Elapsed.Seconds()
			p("\n**In process**, the same mix made by %d goroutines calling the store (memstore.SQLite, the same durability: one fsync per group commit) in one process pinned to the same core (GOMAXPROCS %d, as mcp-memory sets it there), half before the %s HTTP run and half after on the same store, for %s in all: %d operations, **%.0f ops/s**, %d errors; CPU %.0f%% of the core (%s per operation). ",
				cfg.Clients, x.Procs, r.Store, x.Elapsed.Round(time.Millisecond), x.Ops, inRate, len(x.Errors),
				100*x.CPU.Seconds()/x.Elapsed.Seconds(), fmtDur(x.CPU/time.Duration(x.Ops)))
			p("**HTTP / in process = %.2f** (%s).\n", httpRate/inRate, r.Store)
		}
	}
	p("\n| op |")
	for _, r := range rs {
		p(" %s calls | p50 | p99 |", r.Store)
	}
	cols := len(rs)
	if in != nil {
		p(" in process calls | p50 | p99 |")
		cols++
	}
	p("\n|---|%s\n", strings.Repeat("---:|---:|---:|", cols))
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
		if in != nil {
			t := in.Summary[op]
			p(" %d | %s | %s |", t.N, fmtDur(t.P50), fmtDur(t.P99))
		}
		p("\n")
	}
	if in != nil {
		for _, e := range in.Errors {
			p("\n**Error** (in process): %s\n", e)
		}
	}
	for _, r := range rs {
		for _, e := range r.Errors {
			p("\n**Error** (%s): %s\n", r.Store, e)
		}
	}
	return b.String()
}

package harness

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"
)

// MemoryConfig is the memory workload: mcp-memory on SQLite, mcp-memory
// on PostgreSQL and the reference @modelcontextprotocol/server-memory over
// stdio, the graph grown to each size in batches, then each operation
// timed several times.
type MemoryConfig struct {
	McpMemory string // mcp-memory binary
	// Postgres is the PostgreSQL server mcp-memory also runs on (a fresh
	// schema, dropped afterwards); empty: SQLite only.
	Postgres   string
	Node       string // Node 22; empty: the reference is skipped
	Reference  string // the reference's dist/index.js
	RefVersion string
	Sizes      []int // ascending entity counts
	Reps       int   // timings per operation and size
	// ReadGraphReps is the number of read_graph timings (the whole graph,
	// tens of MB at 100,000 entities).
	ReadGraphReps int
	Batch         int           // entities per create_entities while growing
	Observations  int           // observations per entity while growing (default 2)
	RefBudget     time.Duration // the reference stops growing after this
	Budget        time.Duration // the same bound for mcp-memory (default 3 min)
	// RefMaxCall stops the reference after the first size at which one of
	// its timed calls took longer than this (0: no limit).
	RefMaxCall time.Duration
	Cores      Cores
	Log        io.Writer `json:"-"`
}

// memWarmup is the number of untimed rounds of the small operations at
// each size before the timed ones.
const memWarmup = 2

// MemoryOps are the timed operations, in report order.
var MemoryOps = []string{"create_entities", "add_observations", "search_nodes", "open_nodes", "read_graph"}

// Memory target names.
const (
	MemMcpMemory = "mcp-memory"            // on SQLite
	MemPostgres  = "mcp-memory PostgreSQL" // on PostgreSQL
	MemReference = "reference"
)

// MemoryResult holds the median latency of each operation per target and
// size.
type MemoryResult struct {
	Config  MemoryConfig
	Targets []string
	Latency map[string]map[int]map[string]time.Duration // target -> size -> op -> median
	Grow    map[string]map[int]time.Duration            // target -> size -> time to grow from the previous size
	Files   map[string]map[int]int64                    // target -> size -> bytes of its store on disk
	PeakAt  map[string]map[int]int64                    // target -> size -> peak RSS up to the end of that size's timings
	Fsync   map[int][2]time.Duration                    // size -> the disk's fsync p50 and p90 after mcp-memory's timings there
	RSS     map[string]int64
	Notes   []string
	Errors  []string
}

// RunMemory runs the memory workload.
func RunMemory(ctx context.Context, cfg MemoryConfig) (*MemoryResult, error) {
	if cfg.Observations <= 0 {
		cfg.Observations = 2
	}
	res := &MemoryResult{Config: cfg, Latency: map[string]map[int]map[string]time.Duration{}, Grow: map[string]map[int]time.Duration{}, Files: map[string]map[int]int64{}, PeakAt: map[string]map[int]int64{}, Fsync: map[int][2]time.Duration{}, RSS: map[string]int64{}}
	tmp, err := os.MkdirTemp("", "mcpbench-memory-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	sqliteFiles := []string{filepath.Join(tmp, "memory.db"), filepath.Join(tmp, "memory.db-wal")}
	targets := []memoryTarget{{
		spec:     Spec{Name: MemMcpMemory, Bin: cfg.McpMemory, Args: []string{"--db", sqliteFiles[0], "--log-level", "error"}},
		size:     func() int64 { return filesSize(sqliteFiles) },
		fsyncDir: tmp,
	}}
	if cfg.Postgres != "" {
		schema, err := newMemorySchema(ctx, cfg.Postgres, "memory")
		if err != nil {
			res.Errors = append(res.Errors, fmt.Sprintf("memory %s: %v", MemPostgres, err))
		} else {
			defer schema.Drop()
			targets = append(targets, memoryTarget{
				spec: Spec{Name: MemPostgres, Bin: cfg.McpMemory, Args: []string{"--db", schema.URL, "--log-level", "error"}},
				size: schema.Size,
			})
		}
	}
	if cfg.Node != "" && cfg.Reference != "" {
		refFile := filepath.Join(tmp, "memory.jsonl")
		targets = append(targets, memoryTarget{
			spec: Spec{Name: MemReference, Bin: cfg.Node, Args: []string{cfg.Reference}, Env: []string{"MEMORY_FILE_PATH=" + refFile}},
			size: func() int64 { return filesSize([]string{refFile}) },
		})
	} else {
		res.Notes = append(res.Notes, "The reference server was not run (no Node 22 or no @modelcontextprotocol/server-memory given).")
	}
	for _, t := range targets {
		res.Targets = append(res.Targets, t.spec.Name)
		if err := runMemoryTarget(ctx, cfg, t, res); err != nil {
			res.Errors = append(res.Errors, fmt.Sprintf("memory %s: %v", t.spec.Name, err))
		}
	}
	if len(res.Fsync) > 0 {
		res.Notes = append(res.Notes, fsyncNote(cfg.Sizes, res.Fsync))
	}
	return res, nil
}

// memoryTarget is one server of the memory workload and how to measure
// the size of its store.
type memoryTarget struct {
	spec Spec
	size func() int64 // bytes of the store
	// fsyncDir, when set, is where the disk's fsync latency is probed
	// after each size's timings (the SQLite store's directory).
	fsyncDir string
}

// memClient is a stdio connection with the memory tools on top.
type memClient struct {
	c  *StdioConn
	id int64
}

func (m *memClient) call(ctx context.Context, tool string, args any) (json.RawMessage, time.Duration, error) {
	a, err := json.Marshal(args)
	if err != nil {
		return nil, 0, err
	}
	m.id++
	body := fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":%s}}`, m.id, tool, a)
	t0 := time.Now()
	raw, at, err := m.c.CallAt(ctx, "tools/call", tool, m.id, body)
	d := at.Sub(t0)
	if err != nil {
		return nil, d, fmt.Errorf("%s: %w", tool, err)
	}
	res, err := openEnvelope(raw, m.id)
	if err != nil {
		return nil, d, fmt.Errorf("%s: %w", tool, err)
	}
	var r callResult
	if err := json.Unmarshal(res, &r); err != nil {
		return nil, d, fmt.Errorf("%s: %v", tool, err)
	}
	if r.IsError || len(r.Content) == 0 || r.Content[0].Type != "text" {
		return nil, d, fmt.Errorf("%s: tool error: %s", tool, snippet(res))
	}
	return json.RawMessage(r.Content[0].Text), d, nil
}

type memEntity struct {
	Name         string   `json:"name"`
	EntityType   string   `json:"entityType"`
	Observations []string `json:"observations"`
}

type memRelation struct {
	From         string `json:"from"`
	To           string `json:"to"`
	RelationType string `json:"relationType"`
}

type memGraph struct {
	Entities  []memEntity   `json:"entities"`
	Relations []memRelation `json:"relations"`
}

// entityName is entity i's name: two words and the number, so that names
// are as varied as a real graph's (a shared prefix such as "ent-000" would
// make every name share trigrams, the worst case for a trigram index).
func entityName(i int) string {
	h := uint32(i)*2654435761 + 12345
	return fmt.Sprintf("%s-%d-%s", nameWords[h>>27], i, nameWords[(h>>22)&31])
}

var nameWords = [32]string{
	"amber", "birch", "cobalt", "delta", "ember", "fjord", "garnet", "harbor",
	"indigo", "juniper", "kestrel", "lumen", "maple", "nimbus", "onyx", "pepper",
	"quartz", "raven", "sierra", "tundra", "umber", "violet", "willow", "xenon",
	"yarrow", "zephyr", "atlas", "basalt", "cedar", "dune", "echo", "flint",
}

func newEntity(i, observations int) memEntity {
	obs := []string{fmt.Sprintf("created by the benchmark as number %d", i), fmt.Sprintf("tag t%03d", i%997), fmt.Sprintf("seen in region r%02d", i%53)}
	for len(obs) < observations {
		obs = append(obs, fmt.Sprintf("note %d about entity %d", len(obs), i))
	}
	return memEntity{Name: entityName(i), EntityType: []string{"person", "project", "service", "document"}[i%4], Observations: obs[:observations]}
}

// filesSize is the total size of the files that exist among paths.
func filesSize(paths []string) int64 {
	var n int64
	for _, p := range paths {
		if st, err := os.Stat(p); err == nil {
			n += st.Size()
		}
	}
	return n
}

func runMemoryTarget(ctx context.Context, cfg MemoryConfig, t memoryTarget, res *MemoryResult) error {
	spec := t.spec
	logf := func(format string, args ...any) {
		if cfg.Log != nil {
			fmt.Fprintf(cfg.Log, "memory %-21s "+format+"\n", append([]any{spec.Name}, args...)...)
		}
	}
	start := time.Now()
	srv, err := Start(ctx, spec, cfg.Cores, false)
	if err != nil {
		return err
	}
	defer srv.Stop()
	conn, err := DialStdio(ctx, srv, true)
	if err != nil {
		return fmt.Errorf("%w (stderr: %s)", err, snippet([]byte(srv.Stderr())))
	}
	conn.Timeout = 2 * time.Minute
	mc := &memClient{c: conn, id: 1}
	res.Latency[spec.Name] = map[int]map[string]time.Duration{}
	res.Grow[spec.Name] = map[int]time.Duration{}
	res.Files[spec.Name] = map[int]int64{}
	res.PeakAt[spec.Name] = map[int]int64{}
	defer func() {
		if rss, err := srv.PeakRSS(); err == nil {
			res.RSS[spec.Name] = rss
		}
	}()
	budget := cfg.Budget
	if budget <= 0 {
		budget = 3 * time.Minute
	}
	if spec.Name == MemReference {
		budget = cfg.RefBudget
	}
	have, extra := 0, 0
	for _, size := range cfg.Sizes {
		g0 := time.Now()
		for have < size {
			if budget > 0 && time.Since(start) > budget {
				res.Notes = append(res.Notes, fmt.Sprintf("%s was capped at %d entities: growing it to %d did not fit the %s budget.", spec.Name, have+extra, size, budget))
				logf("capped at %d entities (budget %s)", have+extra, budget)
				return nil
			}
			n := min(cfg.Batch, size-have)
			ents := make([]memEntity, n)
			rels := make([]memRelation, 0, n)
			for i := range n {
				ents[i] = newEntity(have+i, cfg.Observations)
				if have+i > 0 {
					rels = append(rels, memRelation{From: entityName(have + i), To: entityName(have + i - 1), RelationType: "follows"})
				}
			}
			out, _, err := mc.call(ctx, "create_entities", map[string]any{"entities": ents})
			if err != nil {
				return fmt.Errorf("growing to %d: %w", size, err)
			}
			if err := countIs(out, "entities", n); err != nil {
				return fmt.Errorf("growing to %d: create_entities: %w", size, err)
			}
			if len(rels) > 0 {
				if _, _, err := mc.call(ctx, "create_relations", map[string]any{"relations": rels}); err != nil {
					return fmt.Errorf("growing to %d: %w", size, err)
				}
			}
			have += n
		}
		res.Grow[spec.Name][size] = time.Since(g0)
		res.Files[spec.Name][size] = t.size()
		logf("%7d entities after %.1fs", size, time.Since(g0).Seconds())
		lat := map[string][]time.Duration{}
		// memWarmup untimed rounds first (on targets past the timed
		// ones'), so that no size's timings carry the first calls' costs
		// (statements prepared, buffers and caches filled), which fell on
		// the first size alone.
		for k := range memWarmup + cfg.Reps {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			rep, timed := k-memWarmup, k >= memWarmup
			if !timed {
				rep = cfg.Reps + k
			}
			record := func(op string, d time.Duration) {
				if timed {
					lat[op] = append(lat[op], d)
				}
			}
			// create_entities: 10 new entities.
			ents := make([]memEntity, 10)
			for i := range ents {
				ents[i] = memEntity{Name: fmt.Sprintf("new-%d-%d-%d", size, rep, i), EntityType: "note", Observations: []string{"added while timing"}}
			}
			out, d, err := mc.call(ctx, "create_entities", map[string]any{"entities": ents})
			if err == nil {
				err = countIs(out, "entities", 10)
			}
			if err != nil {
				return fmt.Errorf("at %d: %w", size, err)
			}
			extra += 10
			record("create_entities", d)

			// add_observations: one new observation on each of 5 entities.
			var adds []map[string]any
			for i := range 5 {
				adds = append(adds, map[string]any{"entityName": entityName((rep*7919 + i*104729) % size), "contents": []string{fmt.Sprintf("observed at size %d, rep %d", size, rep)}})
			}
			out, d, err = mc.call(ctx, "add_observations", map[string]any{"observations": adds})
			if err != nil {
				return fmt.Errorf("at %d: %w", size, err)
			}
			record("add_observations", d)

			// search_nodes: one entity's name, which matches it alone.
			target := entityName((rep*15485863 + 17) % size)
			out, d, err = mc.call(ctx, "search_nodes", map[string]any{"query": target})
			if err == nil {
				err = graphHas(out, target, 1)
			}
			if err != nil {
				return fmt.Errorf("at %d: search_nodes: %w", size, err)
			}
			record("search_nodes", d)

			// open_nodes: 5 names.
			var names []string
			for i := range 5 {
				names = append(names, entityName((rep*31+i*size/5)%size))
			}
			out, d, err = mc.call(ctx, "open_nodes", map[string]any{"names": names})
			if err == nil {
				err = graphHas(out, names[0], 5)
			}
			if err != nil {
				return fmt.Errorf("at %d: open_nodes: %w", size, err)
			}
			record("open_nodes", d)

		}
		// read_graph last, so that its large answers do not disturb the
		// timings of the small operations.
		rgReps := cfg.ReadGraphReps
		if size >= 500_000 {
			rgReps = min(rgReps, 2) // hundreds of MB each, decoded by the client too
		}
		for range rgReps {
			out, d, err := mc.call(ctx, "read_graph", map[string]any{})
			if err == nil {
				err = countIs(out, "entities", have+extra)
			}
			if err != nil {
				return fmt.Errorf("at %d: read_graph: %w", size, err)
			}
			lat["read_graph"] = append(lat["read_graph"], d)
		}
		res.Latency[spec.Name][size] = map[string]time.Duration{}
		var slowest time.Duration
		for op, ds := range lat {
			res.Latency[spec.Name][size][op] = medianD(ds)
			slowest = max(slowest, slices.Max(ds))
		}
		logf("%7d entities timed: %s", size, fmtOps(res.Latency[spec.Name][size]))
		if rss, err := srv.PeakRSS(); err == nil {
			res.PeakAt[spec.Name][size] = rss
		}
		if t.fsyncDir != "" {
			if p50, p90, err := fsyncProbe(t.fsyncDir, 50); err == nil {
				res.Fsync[size] = [2]time.Duration{p50, p90}
			}
		}
		if spec.Name == MemReference && cfg.RefMaxCall > 0 && slowest > cfg.RefMaxCall && size != cfg.Sizes[len(cfg.Sizes)-1] {
			res.Notes = append(res.Notes, fmt.Sprintf("%s was stopped after %d entities: a call took %s there (limit %s).", spec.Name, size, fmtDur(slowest), cfg.RefMaxCall))
			logf("stopped after %d entities: a call took %s", size, fmtDur(slowest))
			return nil
		}
	}
	return nil
}

// countIs checks that the JSON object text has n items under key (or, as
// the reference's create_entities answers, is an array of n items).
func countIs(text json.RawMessage, key string, n int) error {
	var arr []json.RawMessage
	if json.Unmarshal(text, &arr) == nil {
		if len(arr) != n {
			return fmt.Errorf("%d %s, want %d", len(arr), key, n)
		}
		return nil
	}
	var m map[string][]json.RawMessage
	if err := json.Unmarshal(text, &m); err != nil {
		return fmt.Errorf("result %s: %v", snippet(text), err)
	}
	if len(m[key]) != n {
		return fmt.Errorf("%d %s, want %d", len(m[key]), key, n)
	}
	return nil
}

// graphHas checks that a graph has n entities, one of them named name.
func graphHas(text json.RawMessage, name string, n int) error {
	var g memGraph
	if err := json.Unmarshal(text, &g); err != nil {
		return fmt.Errorf("result %s: %v", snippet(text), err)
	}
	if len(g.Entities) != n {
		return fmt.Errorf("%d entities, want %d", len(g.Entities), n)
	}
	for _, e := range g.Entities {
		if e.Name == name {
			return nil
		}
	}
	return fmt.Errorf("%s missing from the result", name)
}

func fmtOps(m map[string]time.Duration) string {
	var parts []string
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s %s", k, fmtDur(m[k])))
	}
	return strings.Join(parts, ", ")
}

package harness

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Target names in the report.
const (
	TargetMcpgen = "mcpgen"
	TargetGoSDK  = "go-sdk"
	TargetMcpGo  = "mcp-go"
	TargetRaw    = "raw"
)

// Options are what cmd/mcpbench (and the smoke test) choose.
type Options struct {
	BinDir     string // mcp-bench, mcp-memory, peer-gosdk, peer-mcpgo, peer-raw
	Out        string // report directory; empty: none written
	Smoke      bool
	Rounds     int
	Window     time.Duration
	Warmup     time.Duration
	Only       string // parts: throughput, memory, cluster, client, agents (empty: all)
	Targets    string
	ModesFlag  string
	Node       string // Node 22, for the reference memory server
	RefMemory  string // its dist/index.js
	RefVersion string
	MemSizes   string
	MemObs     int           // observations per entity in the memory workload
	MemBudget  time.Duration // time mcp-memory may take in all (0: 3 min)
	RefMaxCall time.Duration // stop the reference after a size where a call took longer
	RefBudget  time.Duration
	// OutName is the report's file name in Out (default results.md).
	OutName string
	// AgentsClients and AgentsDuration shape the concurrent-agents
	// workload (part "agents").
	AgentsClients  int
	AgentsDuration time.Duration
	GenFile        string
	// Extra adds throughput targets: "name=path,..." for builds of
	// mcp-bench to compare (a change to internal/ against HEAD, say); they
	// appear in the full table and the chart, not in the headline.
	Extra string
	// ClusterWorkloads limits the cluster suite to these workloads
	// ("echo,notify", say; empty: echo, ingest and notify).
	ClusterWorkloads string
	// ClusterDB is the PostgreSQL server of the cluster suite (a fresh
	// schema per topology); unreachable: the suite is skipped, with a note.
	ClusterDB string
	// Postgres is the PostgreSQL server mcp-memory runs on in the memory
	// and agents workloads, beside SQLite (a fresh schema per store,
	// dropped afterwards); empty or unreachable: SQLite only, with a
	// visible "skipped" line (under CI=true, a failure).
	Postgres string
	Log      io.Writer
}

// Report is what Run produced.
type Report struct {
	Markdown     string
	Failures     int
	FailureNotes []string
	Suite        *SuiteResult
	Memory       *MemoryResult
	Cluster      *ClusterResult
	Client       *ClientResult
	Agents       []*AgentsResult // one per store: SQLite, then PostgreSQL
	// PostgresSkipped says why the memory and agents workloads did not run
	// on PostgreSQL ("" when they did or were not asked for).
	PostgresSkipped string
}

// Targets returns the throughput targets found in binDir.
func Targets(binDir string) []Target {
	return []Target{
		{Spec: Spec{Name: TargetMcpgen, Bin: filepath.Join(binDir, "mcp-bench"), Args: []string{"--log-level", "error"}}},
		{Spec: Spec{Name: TargetRaw, Bin: filepath.Join(binDir, "peer-raw")}},
		// go-sdk serves 2026-07-28 only from its stateless handler, and
		// legacy sessions only from its stateful one.
		{Spec: Spec{Name: TargetGoSDK, Bin: filepath.Join(binDir, "peer-gosdk")}, ModeArgs: map[Mode][]string{ModernHTTP: {"--stateless"}}},
		{Spec: Spec{Name: TargetMcpGo, Bin: filepath.Join(binDir, "peer-mcpgo")}},
	}
}

// AllModes are the modes in report order.
var AllModes = []Mode{ModernHTTP, LegacyHTTP, Stdio}

// AllWorkloads are the workloads in report order.
var AllWorkloads = []Workload{Echo, Ingest, List}

// Run runs what o asks for and builds the report.
func Run(ctx context.Context, o Options) (*Report, error) {
	cores := DefaultCores()
	if err := cores.PinSelf(); err != nil {
		return nil, fmt.Errorf("pin the load generator: %w", err)
	}
	parts := splitList(o.Only)
	want := func(p string) bool { return len(parts) == 0 || slices.Contains(parts, p) }
	rep := &Report{}
	meta := collectMeta(o, cores)

	if want("throughput") {
		cfg := SuiteConfig{
			Modes: AllModes, Workloads: AllWorkloads, Concurrency: []int{1, 32},
			Rounds: o.Rounds, Cores: cores, Log: o.Log,
			Cell: CellConfig{Warmup: o.Warmup, Window: o.Window, MaxCalls: 200_000},
		}
		if o.Smoke {
			cfg.Rounds = 1
			cfg.Cell = CellConfig{Warmup: 20 * time.Millisecond, Window: 60 * time.Millisecond, MaxCalls: 400}
		}
		for _, t := range Targets(o.BinDir) {
			if names := splitList(o.Targets); len(names) > 0 && !slices.Contains(names, t.Name) {
				continue
			}
			if _, err := os.Stat(t.Bin); err != nil {
				return nil, fmt.Errorf("target %s: %w (build it first: scripts/bench.sh does)", t.Name, err)
			}
			cfg.Targets = append(cfg.Targets, t)
		}
		for _, e := range splitList(o.Extra) {
			name, path, ok := strings.Cut(e, "=")
			if !ok {
				return nil, fmt.Errorf("-extra %q: want name=path", e)
			}
			cfg.Targets = append(cfg.Targets, Target{Spec: Spec{Name: name, Bin: path, Args: []string{"--log-level", "error"}}})
		}
		if modes := splitList(o.ModesFlag); len(modes) > 0 {
			cfg.Modes = nil
			for _, m := range modes {
				cfg.Modes = append(cfg.Modes, Mode(m))
			}
		}
		rep.Suite = RunSuite(ctx, cfg)
		rep.Failures += rep.Suite.Failures()
		rep.FailureNotes = append(rep.FailureNotes, rep.Suite.Errors...)
		for k, rs := range rep.Suite.Cells {
			for _, c := range rs {
				if c.Failures > 0 {
					rep.FailureNotes = append(rep.FailureNotes, fmt.Sprintf("%s %s %s c=%d: %d wrong; first: %s", k.Target, k.Mode, k.Workload, k.Conc, c.Failures, c.FirstErr))
				}
			}
		}
	}
	var postgres string // mcp-memory's PostgreSQL server, when reachable
	if (want("memory") || want("agents")) && ctx.Err() == nil {
		if why := postgresUnreachable(ctx, o.Postgres); why != "" {
			rep.PostgresSkipped = why
			if o.Log != nil {
				fmt.Fprintf(o.Log, "SKIPPED mcp-memory on PostgreSQL (memory and agents workloads on SQLite only): %s\n", why)
			}
			if os.Getenv("CI") == "true" {
				rep.Failures++
				rep.FailureNotes = append(rep.FailureNotes, "mcp-memory on PostgreSQL skipped under CI=true: "+why)
			}
		} else {
			postgres = o.Postgres
		}
	}
	if want("memory") && ctx.Err() == nil {
		mcfg := MemoryConfig{Postgres: postgres,
			McpMemory: filepath.Join(o.BinDir, "mcp-memory"), Node: o.Node, Reference: o.RefMemory, RefVersion: o.RefVersion,
			Reps: 15, ReadGraphReps: 5, Batch: 5000, Observations: o.MemObs, RefBudget: o.RefBudget, Budget: o.MemBudget,
			RefMaxCall: o.RefMaxCall, Cores: cores, Log: o.Log,
		}
		for _, s := range splitList(o.MemSizes) {
			n, err := strconv.Atoi(s)
			if err != nil {
				return nil, fmt.Errorf("-mem-sizes: %v", err)
			}
			mcfg.Sizes = append(mcfg.Sizes, n)
		}
		if o.Smoke {
			mcfg.Sizes, mcfg.Reps, mcfg.ReadGraphReps, mcfg.Batch, mcfg.RefBudget = []int{50}, 1, 1, 25, 30*time.Second
		}
		m, err := RunMemory(ctx, mcfg)
		if err != nil {
			return nil, err
		}
		rep.Memory = m
		if rep.PostgresSkipped != "" {
			m.Notes = append(m.Notes, fmt.Sprintf("mcp-memory on PostgreSQL was not run: %s.", rep.PostgresSkipped))
		}
		rep.Failures += len(m.Errors)
		rep.FailureNotes = append(rep.FailureNotes, m.Errors...)
	}
	if want("cluster") && ctx.Err() == nil {
		ccfg := ClusterConfig{
			BinDir: o.BinDir, DB: o.ClusterDB, Modes: []Mode{ModernHTTP, LegacyHTTP}, Workloads: []Workload{Echo, Ingest, Notify},
			Conc: 8, Rounds: o.Rounds, Cores: cores, Log: o.Log,
			Cell: CellConfig{Warmup: o.Warmup, Window: o.Window, MaxCalls: 200_000},
		}
		if ws := splitList(o.ClusterWorkloads); len(ws) > 0 {
			ccfg.Workloads = nil
			for _, w := range ws {
				ccfg.Workloads = append(ccfg.Workloads, Workload(w))
			}
		}
		if o.Smoke {
			ccfg.Rounds, ccfg.Conc = 1, 2
			ccfg.Cell = CellConfig{Warmup: 20 * time.Millisecond, Window: 60 * time.Millisecond, MaxCalls: 200}
		}
		rep.Cluster = RunCluster(ctx, ccfg)
		rep.Failures += rep.Cluster.Failures()
		rep.FailureNotes = append(rep.FailureNotes, rep.Cluster.Errors...)
		for k, cs := range rep.Cluster.Cells {
			for _, c := range cs {
				if c.Failures > 0 {
					rep.FailureNotes = append(rep.FailureNotes, fmt.Sprintf("cluster %s %s %s: %d wrong; first: %s", k.Topology, k.Mode, k.Workload, c.Failures, c.FirstErr))
				}
			}
		}
		if rep.Cluster.Skipped != "" && os.Getenv("CI") == "true" {
			rep.Failures++
			rep.FailureNotes = append(rep.FailureNotes, "cluster suite skipped under CI=true: "+rep.Cluster.Skipped)
		}
	}
	if want("client") && ctx.Err() == nil {
		raw := filepath.Join(o.BinDir, "peer-raw")
		if _, err := os.Stat(raw); err != nil {
			return nil, fmt.Errorf("client benchmark: %w (build it first: scripts/bench.sh does)", err)
		}
		kcfg := ClientConfig{Raw: raw, Clients: Clients, Modes: ClientModes, Workloads: ClientWorkloads,
			Rounds: o.Rounds, Cores: cores, Log: o.Log,
			Cell: CellConfig{Warmup: o.Warmup, Window: o.Window, MaxCalls: 200_000},
		}
		if o.Smoke {
			kcfg.Rounds = 1
			kcfg.Cell = CellConfig{Warmup: 10 * time.Millisecond, Window: 30 * time.Millisecond, MaxCalls: 50}
		}
		rep.Client = RunClients(ctx, kcfg)
		rep.Failures += rep.Client.Failures()
		rep.FailureNotes = append(rep.FailureNotes, rep.Client.Errors...)
		for k, cs := range rep.Client.Cells {
			for _, c := range cs {
				if c.Failures > 0 {
					rep.FailureNotes = append(rep.FailureNotes, fmt.Sprintf("client %s %s %s: %d wrong; first: %s", k.Client, k.Mode, k.Workload, c.Failures, c.FirstErr))
				}
			}
		}
	}
	if want("agents") && ctx.Err() == nil {
		acfg := AgentsConfig{McpMemory: filepath.Join(o.BinDir, "mcp-memory"), InProcess: filepath.Join(o.BinDir, "agents-inproc"), Clients: o.AgentsClients, Duration: o.AgentsDuration, Cores: cores, Log: o.Log}
		if acfg.Clients <= 0 {
			acfg.Clients = 16
		}
		if acfg.Duration <= 0 {
			acfg.Duration = 30 * time.Second
		}
		if o.Smoke {
			acfg.Duration = time.Second
		}
		dbs := []string{""}
		if postgres != "" {
			dbs = append(dbs, postgres)
		}
		for _, db := range dbs {
			if ctx.Err() != nil {
				break
			}
			acfg.Postgres = db
			a, err := RunAgents(ctx, acfg)
			if err != nil {
				return nil, fmt.Errorf("agents on %s: %w", map[bool]string{true: StorePostgres, false: StoreSQLite}[db != ""], err)
			}
			rep.Agents = append(rep.Agents, a)
			rep.Failures += len(a.Errors)
			for _, e := range a.Errors {
				rep.FailureNotes = append(rep.FailureNotes, "agents on "+a.Store+": "+e)
			}
			if in := a.InProcess; in != nil {
				rep.Failures += len(in.Errors)
				for _, e := range in.Errors {
					rep.FailureNotes = append(rep.FailureNotes, "agents in process: "+e)
				}
				if in.Ops == 0 {
					rep.Failures++
					rep.FailureNotes = append(rep.FailureNotes, "agents in process: no operation answered")
				}
			}
			if !a.Equal {
				rep.Failures++
				rep.FailureNotes = append(rep.FailureNotes, "agents on "+a.Store+": the graph differs from the serial replay: "+a.Diff)
			}
		}
	}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	rep.Markdown = Markdown(meta, rep, o)
	if rep.Cluster != nil {
		rep.Markdown += "\n" + rep.Cluster.Markdown()
	}
	if rep.Client != nil {
		rep.Markdown += "\n" + rep.Client.Markdown()
	}
	if o.Out != "" {
		if err := os.MkdirAll(o.Out, 0o755); err != nil {
			return nil, err
		}
		name := o.OutName
		if name == "" {
			name = "results.md"
		}
		if err := os.WriteFile(filepath.Join(o.Out, name), []byte(rep.Markdown), 0o644); err != nil {
			return nil, err
		}
		if rep.Suite != nil {
			if err := Chart(rep.Suite, filepath.Join(o.Out, "cpu-per-request.png")); err != nil {
				return nil, fmt.Errorf("chart: %w", err)
			}
		}
		if rep.Client != nil {
			if err := ClientChart(rep.Client, filepath.Join(o.Out, "client-cpu-per-call.png")); err != nil {
				return nil, fmt.Errorf("client chart: %w", err)
			}
		}
		if err := writeRaw(filepath.Join(o.Out, "raw"), rep); err != nil {
			return nil, err
		}
	}
	return rep, nil
}

func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// writeRaw keeps every round of every cell (without latency samples) as
// JSON under dir (docs/bench/raw/, not committed), for a closer look.
func writeRaw(dir string, rep *Report) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	type row struct {
		CellKey
		Round                     int
		Requests, Failures        int
		WindowMs, CPUMs           float64
		CPUPerReqUs, P50Us, P99Us float64
	}
	var rows []row
	if rep.Suite != nil {
		for k, cs := range rep.Suite.Cells {
			for _, c := range cs {
				rows = append(rows, row{k, c.Round, c.Requests, c.Failures, float64(c.Window.Microseconds()) / 1000, float64(c.CPU.Microseconds()) / 1000,
					float64(c.CPUPerReq().Nanoseconds()) / 1000, float64(c.Percentile(50).Nanoseconds()) / 1000, float64(c.Percentile(99).Nanoseconds()) / 1000})
			}
		}
	}
	b, err := json.MarshalIndent(map[string]any{"suite": rows, "memory": rep.Memory, "agents": rep.Agents}, "", " ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "results.json"), b, 0o644)
}

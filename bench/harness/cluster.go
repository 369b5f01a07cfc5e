package harness

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/mcpgen/mcpgen/internal/cluster/pgcluster"
	"github.com/mcpgen/mcpgen/internal/testutil/rrproxy"
	"github.com/mcpgen/mcpgen/pgdsn"
)

// This file is the cluster benchmark: what sharing state through the
// PostgreSQL backend (--cluster) costs against keeping it in process, for
// echo, ingest (mcp-bench) and a tool that notifies (mcp-everything's
// test_trigger_tool_change, with one listen stream open on every replica),
// over modern and legacy HTTP. Every topology is reached through the same
// round-robin proxy (in the load generator's process), so latencies compare
// like for like; CPU per request is the replicas' CPU plus PostgreSQL's,
// and the database's share is shown apart. PostgreSQL's is the CPU of the
// backends that serve the replicas' connections (found by the
// application_name the suite gives them): other clients of the same
// server do not count, nor do its background processes (WAL writer,
// checkpointer), which it shares with them. The proxy runs in the load
// generator's process, whose CPU is not counted.
//
// A control topology, three replicas with no backend, runs the stateless
// era's echo and ingest (which need no shared state): what three processes
// on the servers' one core cost against one, apart from anything the
// cluster adds. Each replica wakes for about every request it gets, where
// one process serving eight clients handles several per wake-up, and on
// one core each wake-up of another process finds its caches cold (log.md
// item 70).

// Topology is how many replicas run, and whether they share a database.
type Topology struct {
	Name     string
	Replicas int
	Cluster  bool
}

// Topologies are the cluster suite's, in report order.
var Topologies = []Topology{
	{Name: "in-process", Replicas: 1},
	{Name: "in-process x3", Replicas: 3},
	{Name: "postgres x1", Replicas: 1, Cluster: true},
	{Name: "postgres x3", Replicas: 3, Cluster: true},
}

// Serves reports whether the topology runs workload w in mode m. Replicas
// without a backend share nothing, so several of them serve only what
// needs no shared state: the stateless era's echo and ingest (a legacy
// session lives on the replica that opened it, and a notification would
// reach the listen stream of one replica only).
func (t Topology) Serves(m Mode, w Workload) bool {
	return t.Cluster || t.Replicas == 1 || m == ModernHTTP && w != Notify
}

// ClusterConfig is the cluster suite.
type ClusterConfig struct {
	BinDir    string // mcp-bench and mcp-everything
	DB        string // PostgreSQL URL; each topology gets a fresh schema
	Modes     []Mode
	Workloads []Workload // Echo, Ingest, Notify
	Conc      int
	Rounds    int
	Cell      CellConfig
	Cores     Cores
	Log       io.Writer
}

// ClusterKey names one cell.
type ClusterKey struct {
	Topology string
	Mode     Mode
	Workload Workload
}

// ClusterCell is one measured cell: the replicas' and the database's CPU.
type ClusterCell struct {
	CellResult
	DBCPU time.Duration
}

// ClusterResult holds every round of every cell.
type ClusterResult struct {
	Config  ClusterConfig
	Cells   map[ClusterKey][]ClusterCell
	Errors  []string
	Skipped string // why the suite did not run (no database)
}

// Failures counts wrong answers and cells that could not run.
func (r *ClusterResult) Failures() int {
	n := len(r.Errors)
	for _, cs := range r.Cells {
		for _, c := range cs {
			n += c.Failures
		}
	}
	return n
}

// multiCPU sums the CPU of the replicas and of the database backends
// that serve them. RunCell reads it at the start and the end of the
// window. PostgreSQL runs a process per connection, and they come and go
// (a pool opening one): the database's share counts, per process, what
// it used between the two readings.
type multiCPU struct {
	servers        []*Server
	db             *pgx.Conn // to find the backends; nil: in process
	app            string    // the replicas' application_name
	dbPrev, dbLast map[int]time.Duration
	dbTotal        time.Duration // the database's running total, as counted
}

// dbWindow is the database's CPU between the last two readings.
func (m *multiCPU) dbWindow() time.Duration { return dbDelta(m.dbPrev, m.dbLast) }

func dbDelta(prev, last map[int]time.Duration) time.Duration {
	var d time.Duration
	for pid, c := range last {
		d += c - prev[pid] // a process that is new counts from zero
	}
	return d
}

func (m *multiCPU) CPU() (time.Duration, error) {
	var total time.Duration
	for _, s := range m.servers {
		c, err := s.CPU()
		if err != nil {
			return 0, err
		}
		total += c
	}
	if m.db == nil {
		return total, nil
	}
	last, err := m.backendCPU()
	if err != nil {
		return 0, err
	}
	m.dbPrev, m.dbLast = m.dbLast, last
	if m.dbPrev != nil {
		m.dbTotal += dbDelta(m.dbPrev, m.dbLast)
	}
	return total + m.dbTotal, nil
}

// backendCPU is the CPU time of the PostgreSQL backends serving the
// replicas, by pid, read from /proc (the database runs on this machine).
func (m *multiCPU) backendCPU() (map[int]time.Duration, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	rows, err := m.db.Query(ctx, `SELECT pid FROM pg_stat_activity WHERE application_name = $1`, m.app)
	if err != nil {
		return nil, fmt.Errorf("the replicas' database backends: %w", err)
	}
	pids, err := pgx.CollectRows(rows, pgx.RowTo[int32])
	if err != nil {
		return nil, fmt.Errorf("the replicas' database backends: %w", err)
	}
	total := map[int]time.Duration{}
	for _, pid := range pids {
		if c, err := procCPU(int(pid)); err == nil {
			total[int(pid)] = c
		}
	}
	return total, nil
}

// RunCluster runs the cluster suite. Without a reachable database it
// records why and runs nothing.
func RunCluster(ctx context.Context, cfg ClusterConfig) *ClusterResult {
	res := &ClusterResult{Config: cfg, Cells: map[ClusterKey][]ClusterCell{}}
	logf := func(format string, args ...any) {
		if cfg.Log != nil {
			fmt.Fprintf(cfg.Log, format+"\n", args...)
		}
	}
	if err := pingDB(ctx, cfg.DB); err != nil {
		res.Skipped = fmt.Sprintf("PostgreSQL unreachable at %s: %v", pgcluster.Redact(cfg.DB), err)
		logf("cluster suite skipped: %s", res.Skipped)
		return res
	}
	client := NewHTTPClient()
	for round := 0; round < cfg.Rounds && ctx.Err() == nil; round++ {
		for _, top := range Topologies {
			for _, bin := range []string{"mcp-bench", "mcp-everything"} {
				var ws []Workload
				for _, w := range cfg.Workloads {
					if (w == Notify) == (bin == "mcp-everything") && top.servesAny(cfg.Modes, w) {
						ws = append(ws, w)
					}
				}
				if len(ws) == 0 {
					continue
				}
				if err := res.runTopology(ctx, cfg, client, top, bin, ws, round); err != nil {
					msg := fmt.Sprintf("round %d, %s, %s: %v", round+1, top.Name, bin, err)
					res.Errors = append(res.Errors, msg)
					logf("ERROR %s", msg)
				}
			}
		}
		logf("cluster round %d/%d done", round+1, cfg.Rounds)
	}
	return res
}

// servesAny reports whether the topology runs w in any of modes.
func (t Topology) servesAny(modes []Mode, w Workload) bool {
	for _, m := range modes {
		if t.Serves(m, w) {
			return true
		}
	}
	return false
}

func pingDB(ctx context.Context, db string) error {
	if _, err := url.Parse(db); err != nil {
		return err
	}
	probe := fmt.Sprintf("%s%sschema=bench_probe_%s", db, sep(db), randHex())
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	b, err := pgcluster.Open(cctx, probe, nil)
	if err != nil {
		return err
	}
	_ = b.Close()
	return pgcluster.DropSchema(cctx, probe)
}

func sep(u string) string {
	if strings.Contains(u, "?") {
		return "&"
	}
	return "?"
}

func randHex() string {
	var b [5]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// runTopology starts the replicas of one binary, measures its workloads in
// every mode, and stops them.
func (res *ClusterResult) runTopology(ctx context.Context, cfg ClusterConfig, client *http.Client, top Topology, bin string, ws []Workload, round int) error {
	var args []string
	meter := &multiCPU{}
	if top.Cluster {
		name := "bench_" + randHex()
		schemaURL := fmt.Sprintf("%s%sschema=%s", cfg.DB, sep(cfg.DB), name)
		defer func() {
			dctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			_ = pgcluster.DropSchema(dctx, schemaURL)
		}()
		// The replicas' connections carry the schema's name, so that
		// their backends can be told from other clients'.
		args = []string{"--cluster", schemaURL + "&application_name=mcpbench_" + name}
		meter.app = "mcpbench_" + name
		cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		conn, err := pgx.Connect(cctx, cfg.DB)
		cancel()
		if err != nil {
			return fmt.Errorf("database %s: %s", pgcluster.Redact(cfg.DB), pgdsn.Scrub(err.Error(), cfg.DB))
		}
		defer conn.Close(context.Background())
		meter.db = conn
	}
	var backends []string
	for i := 0; i < top.Replicas; i++ {
		spec := Spec{Name: fmt.Sprintf("%s %s #%d", bin, top.Name, i+1), Bin: filepath.Join(cfg.BinDir, bin),
			Args: append([]string{"--log-level", "error"}, args...)}
		srv, err := Start(ctx, spec, cfg.Cores, true)
		if err != nil {
			return err
		}
		defer srv.Stop()
		meter.servers = append(meter.servers, srv)
		backends = append(backends, "http://"+srv.Addr)
	}
	proxy, err := rrproxy.Start(backends...)
	if err != nil {
		return err
	}
	defer proxy.Close()
	if bin == "mcp-everything" {
		// One listen stream per replica, so that every notification is
		// delivered somewhere on every replica.
		lctx, cancel := context.WithCancel(ctx)
		defer cancel()
		for _, b := range backends {
			if err := openListen(lctx, b+"/mcp"); err != nil {
				return fmt.Errorf("listen: %w", err)
			}
		}
	}
	for _, mode := range cfg.Modes {
		for _, w := range ws {
			if !top.Serves(mode, w) {
				continue
			}
			callers := make([]Caller, cfg.Conc)
			for i := range callers {
				c, err := DialHTTP(ctx, client, proxy.URL()+"/mcp", mode == ModernHTTP, int64(i+1))
				if err != nil {
					return fmt.Errorf("%s %s: %w", mode, w, err)
				}
				callers[i] = c
			}
			cell := RunCell(ctx, meter, callers, w, mode == ModernHTTP, cfg.Cell)
			cell.Round = round
			for _, c := range callers {
				c.Close()
			}
			key := ClusterKey{top.Name, mode, w}
			res.Cells[key] = append(res.Cells[key], ClusterCell{CellResult: cell, DBCPU: meter.dbWindow()})
			if cell.Failures > 0 && cfg.Log != nil {
				fmt.Fprintf(cfg.Log, "FAIL cluster %s %s %s: %d wrong answers; first: %s\n", top.Name, mode, w, cell.Failures, cell.FirstErr)
			}
			for _, s := range meter.servers {
				if s.Exited() {
					return fmt.Errorf("a replica exited during %s %s: %s", mode, w, snippet([]byte(s.Stderr())))
				}
			}
		}
	}
	return nil
}

// openListen opens a subscriptions/listen stream and drains it in the
// background until ctx ends.
func openListen(ctx context.Context, u string) error {
	body := `{"jsonrpc":"2.0","id":1,"method":"subscriptions/listen","params":{"notifications":{"toolsListChanged":true},` + modernMeta + `}}`
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, bytes.NewReader([]byte(body)))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", modernVersion)
	req.Header.Set("Mcp-Method", "subscriptions/listen")
	resp, err := (&http.Client{}).Do(req)
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		resp.Body.Close()
		return fmt.Errorf("status %d", resp.StatusCode)
	}
	r := bufio.NewReader(resp.Body)
	if _, err := r.ReadString('\n'); err != nil { // the acknowledgement has begun
		resp.Body.Close()
		return err
	}
	go func() {
		defer resp.Body.Close()
		_, _ = io.Copy(io.Discard, r)
	}()
	return nil
}

// ClusterSummary is the median over rounds of one cell.
type ClusterSummary struct {
	CPUPerReq, DBPerReq time.Duration
	P50, P99            time.Duration
	RPS                 float64
	Failures            int
}

// Summarize takes the medians over rounds.
func (r *ClusterResult) Summarize(k ClusterKey) (ClusterSummary, bool) {
	cs := r.Cells[k]
	if len(cs) == 0 {
		return ClusterSummary{}, false
	}
	med := func(f func(ClusterCell) float64) float64 {
		v := make([]float64, len(cs))
		for i, c := range cs {
			v[i] = f(c)
		}
		sort.Float64s(v)
		return v[len(v)/2]
	}
	var s ClusterSummary
	s.CPUPerReq = time.Duration(med(func(c ClusterCell) float64 { return float64(c.CPUPerReq()) }))
	s.DBPerReq = time.Duration(med(func(c ClusterCell) float64 {
		if c.Requests == 0 {
			return 0
		}
		return float64(c.DBCPU) / float64(c.Requests)
	}))
	s.P50 = time.Duration(med(func(c ClusterCell) float64 { return float64(c.Percentile(50)) }))
	s.P99 = time.Duration(med(func(c ClusterCell) float64 { return float64(c.Percentile(99)) }))
	s.RPS = med(func(c ClusterCell) float64 { return c.RPS() })
	for _, c := range cs {
		s.Failures += c.Failures
	}
	return s, true
}

// Markdown renders the cluster table.
func (r *ClusterResult) Markdown() string {
	var b strings.Builder
	b.WriteString("## Cluster backend: in-process against PostgreSQL\n\n")
	if r.Skipped != "" {
		fmt.Fprintf(&b, "Not run: %s.\n\n", r.Skipped)
		return b.String()
	}
	fmt.Fprintf(&b, "c=%d workers through a round-robin proxy; CPU per request counts the replicas and the PostgreSQL backends serving their connections (their share apart; other clients of the database and its background processes not counted; the proxy runs in the load generator and is not counted); medians of %d rounds. *in-process x3* is three replicas without a backend, all on the servers' core like the others: it serves only the stateless era's echo and ingest, and shows what three processes cost against one apart from anything the cluster adds.\n\n", r.Config.Conc, r.Config.Rounds)
	b.WriteString("| mode | workload | topology | CPU/req | of which PostgreSQL | p50 | p99 | req/s | CPU vs in-process |\n|---|---|---|---:|---:|---:|---:|---:|---:|\n")
	for _, m := range r.Config.Modes {
		for _, w := range r.Config.Workloads {
			base, _ := r.Summarize(ClusterKey{Topologies[0].Name, m, w})
			for _, top := range Topologies {
				s, ok := r.Summarize(ClusterKey{top.Name, m, w})
				if !ok {
					continue
				}
				ratio := "1.00x"
				if base.CPUPerReq > 0 && top.Name != Topologies[0].Name {
					ratio = fmt.Sprintf("%.2fx", float64(s.CPUPerReq)/float64(base.CPUPerReq))
				}
				fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %.0f | %s |\n", m, w, top.Name,
					us(s.CPUPerReq), us(s.DBPerReq), us(s.P50), us(s.P99), s.RPS, ratio)
			}
		}
	}
	b.WriteString("\n")
	return b.String()
}

func us(d time.Duration) string { return fmt.Sprintf("%.0f µs", float64(d.Nanoseconds())/1000) }

package harness

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"slices"
	"sort"
	"time"
)

// Target is one server under test: how to start it, and the modes it can
// serve.
type Target struct {
	Spec
	Modes    []Mode            // nil: all
	ModeArgs map[Mode][]string // extra arguments in a mode
}

func (t Target) serves(m Mode) bool { return t.Modes == nil || slices.Contains(t.Modes, m) }

// SuiteConfig is the throughput benchmark: every target, mode, workload and
// concurrency, in rounds; each round starts every target afresh, in a
// rotated order, so that drift on a shared machine hits all of them alike.
type SuiteConfig struct {
	Targets     []Target
	Modes       []Mode
	Workloads   []Workload
	Concurrency []int
	Rounds      int
	Cell        CellConfig
	Cores       Cores
	Log         io.Writer
}

// CellKey names one cell of the matrix.
type CellKey struct {
	Target   string
	Mode     Mode
	Workload Workload
	Conc     int
}

// SuiteResult holds every round of every cell, and the peak RSS of each
// server process.
type SuiteResult struct {
	Config SuiteConfig
	Cells  map[CellKey][]CellResult
	RSS    map[string]map[Mode][]int64 // target -> mode -> per round, bytes
	Errors []string                    // failures to start or connect
}

// Failures counts the wrong or missing answers over the whole run, and the
// cells that could not run at all.
func (r *SuiteResult) Failures() int {
	n := len(r.Errors)
	for _, rs := range r.Cells {
		for _, c := range rs {
			n += c.Failures
		}
	}
	return n
}

// RunSuite runs the throughput benchmark. In each round and mode every
// target is started (a fresh process each), and then each cell (workload,
// concurrency) is measured on all targets back to back, in an order rotated
// by round, so that compared numbers are seconds apart, not minutes: on a
// shared, drifting machine that matters more than anything else.
func RunSuite(ctx context.Context, cfg SuiteConfig) *SuiteResult {
	res := &SuiteResult{Config: cfg, Cells: map[CellKey][]CellResult{}, RSS: map[string]map[Mode][]int64{}}
	logf := func(format string, args ...any) {
		if cfg.Log != nil {
			fmt.Fprintf(cfg.Log, format+"\n", args...)
		}
	}
	client := NewHTTPClient()
	for round := 0; round < cfg.Rounds && ctx.Err() == nil; round++ {
		order := slices.Clone(cfg.Targets)
		for i := 0; i < round%max(1, len(order)); i++ {
			order = append(order[1:], order[0])
		}
		for _, mode := range cfg.Modes {
			start := time.Now()
			var running []*running
			for _, t := range order {
				if !t.serves(mode) || ctx.Err() != nil {
					continue
				}
				r, err := startTarget(ctx, cfg, t, mode)
				if err != nil {
					msg := fmt.Sprintf("round %d, %s, %s: %v", round+1, t.Name, mode, err)
					res.Errors = append(res.Errors, msg)
					logf("ERROR %s", msg)
					continue
				}
				running = append(running, r)
			}
			for _, w := range cfg.Workloads {
				for _, conc := range cfg.Concurrency {
					for _, r := range running {
						if r.failed || ctx.Err() != nil {
							continue
						}
						if err := r.cell(ctx, cfg, res, client, w, conc, round); err != nil {
							msg := fmt.Sprintf("round %d, %s, %s: %v", round+1, r.t.Name, mode, err)
							res.Errors = append(res.Errors, msg)
							logf("ERROR %s", msg)
							r.failed = true
						}
					}
				}
			}
			for _, r := range running {
				if rss, err := r.srv.PeakRSS(); err == nil && !r.failed {
					if res.RSS[r.t.Name] == nil {
						res.RSS[r.t.Name] = map[Mode][]int64{}
					}
					res.RSS[r.t.Name][mode] = append(res.RSS[r.t.Name][mode], rss)
				}
				r.srv.Stop()
			}
			logf("round %d/%d %-12s %d targets %5.1fs", round+1, cfg.Rounds, mode, len(running), time.Since(start).Seconds())
		}
	}
	return res
}

// running is a started target in one mode.
type running struct {
	t      Target
	mode   Mode
	srv    *Server
	stdio  *StdioConn
	failed bool
}

func startTarget(ctx context.Context, cfg SuiteConfig, t Target, mode Mode) (*running, error) {
	spec := t.Spec
	spec.Args = append(append([]string{}, spec.Args...), t.ModeArgs[mode]...)
	srv, err := Start(ctx, spec, cfg.Cores, mode != Stdio)
	if err != nil {
		return nil, err
	}
	r := &running{t: t, mode: mode, srv: srv}
	if mode == Stdio {
		if r.stdio, err = DialStdio(ctx, srv, true); err != nil {
			srv.Stop()
			return nil, fmt.Errorf("%w (stderr: %s)", err, snippet([]byte(srv.Stderr())))
		}
	}
	return r, nil
}

// cell measures one workload at one concurrency on a running target.
func (r *running) cell(ctx context.Context, cfg SuiteConfig, res *SuiteResult, client *http.Client, w Workload, conc, round int) error {
	url := "http://" + r.srv.Addr + "/mcp"
	callers := make([]Caller, conc)
	for i := range callers {
		if r.mode == Stdio {
			callers[i] = r.stdio
			continue
		}
		c, err := DialHTTP(ctx, client, url, r.mode == ModernHTTP, int64(i+1))
		if err != nil {
			return fmt.Errorf("%s c=%d: %w", w, conc, err)
		}
		callers[i] = c
	}
	cell := RunCell(ctx, r.srv, callers, w, r.mode == ModernHTTP, cfg.Cell)
	cell.Round = round
	for _, c := range callers {
		c.Close()
	}
	key := CellKey{r.t.Name, r.mode, w, conc}
	res.Cells[key] = append(res.Cells[key], cell)
	if cell.Failures > 0 && cfg.Log != nil {
		fmt.Fprintf(cfg.Log, "FAIL %s %s %s c=%d: %d wrong answers; first: %s\n", r.t.Name, r.mode, w, conc, cell.Failures, cell.FirstErr)
	}
	if r.srv.Exited() {
		return fmt.Errorf("server exited during %s c=%d: %s", w, conc, snippet([]byte(r.srv.Stderr())))
	}
	return nil
}

// Summary is the median over rounds of one cell.
type Summary struct {
	RPS           float64
	P50, P90, P99 time.Duration
	CPUPerReq     time.Duration
	Failures      int
	Rounds        int
	CPUSpread     float64 // (max-min)/median of CPU per request over rounds
}

// Summarize takes the medians over rounds.
func (r *SuiteResult) Summarize(k CellKey) (Summary, bool) {
	rs := r.Cells[k]
	if len(rs) == 0 {
		return Summary{}, false
	}
	var rps, cpu []float64
	var p50, p90, p99 []time.Duration
	s := Summary{Rounds: len(rs)}
	for _, c := range rs {
		s.Failures += c.Failures
		if c.Requests == 0 {
			continue
		}
		rps = append(rps, c.RPS())
		cpu = append(cpu, float64(c.CPUPerReq()))
		p50 = append(p50, c.Percentile(50))
		p90 = append(p90, c.Percentile(90))
		p99 = append(p99, c.Percentile(99))
	}
	if len(rps) == 0 {
		return s, true
	}
	s.RPS = median(rps)
	s.CPUPerReq = time.Duration(median(cpu))
	s.P50, s.P90, s.P99 = medianD(p50), medianD(p90), medianD(p99)
	if s.CPUPerReq > 0 {
		s.CPUSpread = (slices.Max(cpu) - slices.Min(cpu)) / float64(s.CPUPerReq)
	}
	return s, true
}

// RatioMedian is the median over rounds of num's CPU per request divided by
// the smallest of dens' in the same round (cells measured seconds apart, so
// that the machine's drift between rounds cancels out).
func (r *SuiteResult) RatioMedian(num CellKey, dens ...CellKey) (float64, bool) {
	perRound := map[int]time.Duration{}
	for _, c := range r.Cells[num] {
		if c.Requests > 0 {
			perRound[c.Round] = c.CPUPerReq()
		}
	}
	best := map[int]time.Duration{}
	for _, d := range dens {
		for _, c := range r.Cells[d] {
			if v := c.CPUPerReq(); c.Requests > 0 && v > 0 && (best[c.Round] == 0 || v < best[c.Round]) {
				best[c.Round] = v
			}
		}
	}
	var ratios []float64
	for round, n := range perRound {
		if d := best[round]; d > 0 && n > 0 {
			ratios = append(ratios, float64(n)/float64(d))
		}
	}
	if len(ratios) == 0 {
		return 0, false
	}
	return median(ratios), true
}

func median(v []float64) float64 {
	v = slices.Clone(v)
	sort.Float64s(v)
	n := len(v)
	if n == 0 {
		return 0
	}
	if n%2 == 1 {
		return v[n/2]
	}
	return (v[n/2-1] + v[n/2]) / 2
}

func medianD(v []time.Duration) time.Duration {
	f := make([]float64, len(v))
	for i, d := range v {
		f[i] = float64(d)
	}
	return time.Duration(median(f))
}

func medianI(v []int64) int64 {
	f := make([]float64, len(v))
	for i, d := range v {
		f[i] = float64(d)
	}
	return int64(median(f))
}

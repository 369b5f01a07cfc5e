package harness

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"time"
)

// Meta describes the run for the report header.
type Meta struct {
	Date     string
	CPU      string
	Cores    string
	Go       string
	Versions []string
}

func collectMeta(o Options, cores Cores) Meta {
	m := Meta{Date: time.Now().UTC().Format("2006-01-02 15:04 UTC"), Go: runtime.Version()}
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(line, "model name"); ok {
				m.CPU = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(v), ":"))
				break
			}
		}
	}
	m.Cores = fmt.Sprintf("%d CPUs; ", runtime.NumCPU())
	if cores.On {
		m.Cores += fmt.Sprintf("load generator pinned to CPU %d, servers to CPU %d", cores.Load, cores.Server)
	} else {
		m.Cores += "nothing pinned"
	}
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, d := range bi.Deps {
			switch d.Path {
			case "github.com/modelcontextprotocol/go-sdk", "github.com/mark3labs/mcp-go":
				m.Versions = append(m.Versions, d.Path+" "+d.Version)
			}
		}
	}
	if o.RefVersion != "" {
		m.Versions = append(m.Versions, "@modelcontextprotocol/server-memory "+o.RefVersion)
	}
	if o.Node != "" {
		if out, err := exec.Command(o.Node, "--version").Output(); err == nil {
			m.Versions = append(m.Versions, "Node "+strings.TrimSpace(string(out)))
		}
	}
	return m
}

// The speed goals, at c=32, by server CPU per request.
const (
	goalVsRaw  = 1.5 // mcpgen at most 1.5x the raw limit
	goalVsPeer = 2.0 // the better peer at least 2x mcpgen
	goalMemory = 2.0 // mcp-memory at 100,000 entities at most 2x its latency at 1,000
	goalVsRef  = 30  // mcp-memory at least 30x faster than the reference at 10,000
)

// Markdown renders the report.
func Markdown(meta Meta, rep *Report, o Options) string {
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	p("# Benchmark results\n\n")
	if o.Smoke {
		p("**Smoke run**: tiny counts, one round; the numbers mean nothing.\n\n")
	}
	p("Written by `make bench` (scripts/bench.sh) on %s. %s; %s. %s", meta.Date, meta.CPU, meta.Cores, meta.Go)
	if len(meta.Versions) > 0 {
		p("; %s", strings.Join(meta.Versions, ", "))
	}
	p(".\nHow it is measured, and what each optimisation bought: [log.md](log.md).\n\n")

	if s := rep.Suite; s != nil {
		cfg := s.Config
		p("## Server CPU per request (headline)\n\n")
		p("Median over %d rounds of the server's user+system CPU time per answered request (from /proc/PID/stat), at %d concurrent clients. ", cfg.Rounds, slices.Max(cfg.Concurrency))
		p("Lower is better. Goals: mcpgen within %.1fx of the raw JSON-RPC limit, and the better of go-sdk and mcp-go at least %.0fx mcpgen. ", goalVsRaw, goalVsPeer)
		p("The ratios are medians of per-round ratios (in each round the targets are measured seconds apart, so the machine's drift between rounds cancels), and may differ from the ratio of the medians shown.\n\n")
		p("%s\n", HeadlineTable(s))
		p("![CPU per request](cpu-per-request.png)\n\n")
		if t := ExtraTable(s); t != "" {
			p("### Other builds compared\n\nBuilds of mcp-bench given with -extra, against mcpgen (HEAD) and raw, by the median of per-round ratios of CPU per request at c=%d.\n\n%s\n", slices.Max(cfg.Concurrency), t)
		}

		p("## Every cell\n\n")
		p("Each cell: %s warm-up, then %s measured, at most %d calls. Every round starts a fresh process of each target per mode and measures each cell on all targets back to back, in an order rotated by round, so that compared numbers are seconds apart. ", cfg.Cell.Warmup, cfg.Cell.Window, cfg.Cell.MaxCalls)
		p("Latency is seen by the client; CPU/req is the server's. *spread* is (max-min)/median of CPU/req over the rounds. *wrong* counts wrong or missing answers (every response is checked: id, no error, exact content).\n\n")
		p("| mode | workload | c | target | req/s | p50 | p90 | p99 | CPU/req | spread | wrong |\n|---|---|---:|---|---:|---:|---:|---:|---:|---:|---:|\n")
		for _, m := range cfg.Modes {
			for _, w := range cfg.Workloads {
				for _, c := range cfg.Concurrency {
					for _, t := range cfg.Targets {
						sum, ok := s.Summarize(CellKey{t.Name, m, w, c})
						if !ok {
							continue
						}
						p("| %s | %s | %d | %s | %.0f | %s | %s | %s | %s | %.0f%% | %d |\n", m, w, c, t.Name, sum.RPS, fmtDur(sum.P50), fmtDur(sum.P90), fmtDur(sum.P99), fmtDur(sum.CPUPerReq), sum.CPUSpread*100, sum.Failures)
					}
				}
			}
		}
		p("\n### Peak RSS\n\nVmHWM of each server process at the end of its run (median over rounds; all workloads of that mode ran in it).\n\n")
		p("| target |")
		for _, m := range cfg.Modes {
			p(" %s |", m)
		}
		p("\n|---|%s\n", strings.Repeat("---:|", len(cfg.Modes)))
		for _, t := range cfg.Targets {
			p("| %s |", t.Name)
			for _, m := range cfg.Modes {
				if v := s.RSS[t.Name][m]; len(v) > 0 {
					p(" %.1f MB |", float64(medianI(v))/(1<<20))
				} else {
					p(" – |")
				}
			}
			p("\n")
		}
		if len(s.Errors) > 0 {
			p("\nErrors:\n\n")
			for _, e := range s.Errors {
				p("- %s\n", e)
			}
		}
		p("\n")
	}
	if m := rep.Memory; m != nil {
		p("%s\n", MemoryMarkdown(m))
	}
	if len(rep.Agents) > 0 {
		p("%s\n", AgentsMarkdown(rep.Agents, rep.PostgresSkipped))
	}
	if o.GenFile != "" {
		if out, err := os.ReadFile(o.GenFile); err == nil {
			p("## Generator\n\nscripts/bench-gen.sh (gen/bench_test.go's synthetic packages): wall time and peak RSS of `mcpgen` for synthetic component packages; *cold* is the first run after writing the package (go list compiles it, the schema program is built), *warm* the next.\n\n```\n%s```\n\n", out)
		}
	}
	return b.String()
}

// HeadlineTable is the table the README shows: CPU per request at the
// highest concurrency, with the ratios the goals are about.
func HeadlineTable(s *SuiteResult) string {
	var b strings.Builder
	cfg := s.Config
	c := slices.Max(cfg.Concurrency)
	fmt.Fprintf(&b, "| mode | workload | mcpgen | raw | go-sdk | mcp-go | mcpgen / raw (goal ≤ %.1f) | best peer / mcpgen (goal ≥ %.0f) |\n|---|---|---:|---:|---:|---:|---:|---:|\n", goalVsRaw, goalVsPeer)
	get := func(t string, m Mode, w Workload) time.Duration {
		sum, _ := s.Summarize(CellKey{t, m, w, c})
		return sum.CPUPerReq
	}
	for _, m := range cfg.Modes {
		for _, w := range cfg.Workloads {
			ours, raw, gs, mg := get(TargetMcpgen, m, w), get(TargetRaw, m, w), get(TargetGoSDK, m, w), get(TargetMcpGo, m, w)
			vsRaw, vsPeer := "–", "–"
			k := func(t string) CellKey { return CellKey{t, m, w, c} }
			if r, ok := s.RatioMedian(k(TargetMcpgen), k(TargetRaw)); ok {
				vsRaw = fmt.Sprintf("%.2f %s", r, mark(r <= goalVsRaw))
			}
			if r, ok := s.RatioMedian(k(TargetMcpgen), k(TargetGoSDK), k(TargetMcpGo)); ok {
				vsPeer = fmt.Sprintf("%.2f %s", 1/r, mark(1/r >= goalVsPeer))
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s |\n", m, w, fmtDur(ours), fmtDur(raw), fmtDur(gs), fmtDur(mg), vsRaw, vsPeer)
		}
	}
	return b.String()
}

// ExtraTable compares targets other than the four standard ones (builds
// given with -extra) with mcpgen and raw; empty when there are none.
func ExtraTable(s *SuiteResult) string {
	var extra []string
	for _, t := range s.Config.Targets {
		switch t.Name {
		case TargetMcpgen, TargetRaw, TargetGoSDK, TargetMcpGo:
		default:
			extra = append(extra, t.Name)
		}
	}
	if len(extra) == 0 {
		return ""
	}
	var b strings.Builder
	c := slices.Max(s.Config.Concurrency)
	b.WriteString("| mode | workload | mcpgen |")
	for _, e := range extra {
		fmt.Fprintf(&b, " %s | %s / mcpgen | %s / raw |", e, e, e)
	}
	b.WriteString("\n|---|---|---:|" + strings.Repeat("---:|---:|---:|", len(extra)) + "\n")
	for _, m := range s.Config.Modes {
		for _, w := range s.Config.Workloads {
			k := func(t string) CellKey { return CellKey{t, m, w, c} }
			ours, _ := s.Summarize(k(TargetMcpgen))
			fmt.Fprintf(&b, "| %s | %s | %s |", m, w, fmtDur(ours.CPUPerReq))
			for _, e := range extra {
				sum, _ := s.Summarize(k(e))
				r1, _ := s.RatioMedian(k(e), k(TargetMcpgen))
				r2, _ := s.RatioMedian(k(e), k(TargetRaw))
				fmt.Fprintf(&b, " %s | %.2f | %.2f |", fmtDur(sum.CPUPerReq), r1, r2)
			}
			b.WriteString("\n")
		}
	}
	return b.String()
}

// MemoryMarkdown renders the memory workload.
func MemoryMarkdown(m *MemoryResult) string {
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	cfg := m.Config
	p("## Memory workload\n\n")
	p("mcp-memory on SQLite (column *mcp-memory*) and on PostgreSQL (*%s*: the local server, a fresh schema, the same binary with `--db postgres://...`) against the reference `@modelcontextprotocol/server-memory` (one JSONL file, read whole on every call), all over stdio, pinned like the servers above (PostgreSQL's own processes are not pinned: they share the load generator's core and the other's). ", MemPostgres)
	p("The graph is grown in batches of %d entities (%d observations each, and a relation to the previous entity); at each size, after %d untimed rounds of the small operations, every operation is timed %d times (read_graph %d times) and the median latency is reported, from sending the request until the client has read the whole answer line (before it decodes it). ", cfg.Batch, cfg.Observations, memWarmup, cfg.Reps, cfg.ReadGraphReps)
	p("create_entities adds 10 new entities, add_observations one observation to each of 5 entities, search_nodes looks for one entity's name, open_nodes opens 5 names, read_graph returns everything.\n\n")
	p("| op | size |")
	for _, t := range m.Targets {
		p(" %s |", t)
	}
	_, havePG := m.Latency[MemPostgres]
	p(" reference / mcp-memory |")
	if havePG {
		p(" reference / PostgreSQL | PostgreSQL / SQLite |")
	}
	p("\n|---|---:|%s---:|", strings.Repeat("---:|", len(m.Targets)))
	if havePG {
		p("---:|---:|")
	}
	p("\n")
	for _, op := range MemoryOps {
		for _, size := range cfg.Sizes {
			p("| %s | %d |", op, size)
			for _, t := range m.Targets {
				if d, ok := m.Latency[t][size][op]; ok {
					p(" %s |", fmtDur(d))
				} else {
					p(" – |")
				}
			}
			ratio := func(num, den string) {
				n, ok1 := m.Latency[num][size][op]
				d, ok2 := m.Latency[den][size][op]
				if ok1 && ok2 && d > 0 {
					p(" %s |", fmtRatio(float64(n)/float64(d)))
				} else {
					p(" – |")
				}
			}
			ratio(MemReference, MemMcpMemory)
			if havePG {
				ratio(MemReference, MemPostgres)
				ratio(MemPostgres, MemMcpMemory)
			}
			p("\n")
		}
	}
	if len(cfg.Sizes) >= 2 {
		small, large := cfg.Sizes[0], cfg.Sizes[len(cfg.Sizes)-1]
		ratio := func(op string, size int) (float64, bool) {
			a, b := m.Latency[MemMcpMemory][size][op], m.Latency[MemReference][size][op]
			return float64(b) / float64(a), a > 0 && b > 0
		}
		p("\nGoals: reference / mcp-memory at least 3x at 1,000 entities and 30x at 10,000 for every operation but read_graph, which must be 3x at 1,000, 5x at 10,000 and 3x at 100,000; mcp-memory's latency at %d entities at most %.0fx its latency at %d (read_graph, which returns the whole graph, excepted). The goals are the SQLite store's; PostgreSQL is shown beside it without goals.\n\n", large, goalMemory, small)
		p("| op | vs reference at 1000 | at 10000 | at 100000 | mcp-memory %d / %d |\n|---|---:|---:|---:|---:|\n", large, small)
		for _, op := range MemoryOps {
			p("| %s |", op)
			for _, size := range []int{1000, 10000, 100000} {
				goal := map[int]float64{1000: 3, 10000: goalVsRef, 100000: 0}[size]
				if op == "read_graph" {
					goal = map[int]float64{1000: 3, 10000: 5, 100000: 3}[size]
				}
				if r, ok := ratio(op, size); ok {
					if goal > 0 {
						p(" %s %s (≥ %.0fx) |", fmtRatio(r), mark(r >= goal), goal)
					} else {
						p(" %s |", fmtRatio(r))
					}
				} else {
					p(" – |")
				}
			}
			if a, b := m.Latency[MemMcpMemory][small][op], m.Latency[MemMcpMemory][large][op]; a > 0 && b > 0 {
				r := float64(b) / float64(a)
				if op == "read_graph" {
					p(" %.0f |\n", r)
				} else {
					p(" %.2f %s |\n", r, mark(r <= goalMemory))
				}
			} else {
				p(" – |\n")
			}
		}
	}
	p("\nTime to grow the graph (from the previous size), the size of the store on disk, and the peak RSS of the server up to the end of that size's timings:\n\n| size |")
	for _, t := range m.Targets {
		p(" %s grow | store | peak RSS |", t)
	}
	p("\n|---:|%s\n", strings.Repeat("---:|---:|---:|", len(m.Targets)))
	for _, size := range cfg.Sizes {
		p("| %d |", size)
		for _, t := range m.Targets {
			if d, ok := m.Grow[t][size]; ok {
				p(" %s | %.1f MB | %.0f MB |", fmtDur(d), float64(m.Files[t][size])/(1<<20), float64(m.PeakAt[t][size])/(1<<20))
			} else {
				p(" – | – | – |")
			}
		}
		p("\n")
	}
	p("\nPeak RSS:")
	for _, t := range m.Targets {
		if v, ok := m.RSS[t]; ok {
			p(" %s %.1f MB;", t, float64(v)/(1<<20))
		}
	}
	p("\n")
	for _, n := range m.Notes {
		p("\n%s\n", n)
	}
	for _, e := range m.Errors {
		p("\n**Error**: %s\n", e)
	}
	return b.String()
}

// fmtRatio prints a ratio with two significant digits.
func fmtRatio(r float64) string {
	if r < 10 {
		return fmt.Sprintf("%.2gx", r)
	}
	return fmt.Sprintf("%.0fx", r)
}

func mark(ok bool) string {
	if ok {
		return "✓"
	}
	return "✗"
}

// fmtDur prints a duration with three significant digits in a fitting unit.
func fmtDur(d time.Duration) string {
	switch {
	case d <= 0:
		return "–"
	case d < time.Microsecond:
		return fmt.Sprintf("%dns", d.Nanoseconds())
	case d < time.Millisecond:
		return fmt.Sprintf("%.3gµs", float64(d)/float64(time.Microsecond))
	case d < time.Second:
		return fmt.Sprintf("%.3gms", float64(d)/float64(time.Millisecond))
	default:
		return fmt.Sprintf("%.3gs", d.Seconds())
	}
}

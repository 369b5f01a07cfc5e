// Command mcpbench runs the benchmarks of docs/bench: the throughput suite
// (mcp-bench, the go-sdk and mcp-go peers and the raw JSON-RPC limit, over
// modern HTTP, legacy HTTP and stdio), the memory workload (mcp-memory on
// SQLite and on PostgreSQL against @modelcontextprotocol/server-memory),
// the concurrent-agents workload (on both stores), the cluster suite and
// the report. scripts/bench.sh builds the binaries and calls it; see there
// for the usual invocations.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/pprof"
	"strings"
	"syscall"
	"time"

	"github.com/mcpgen/mcpgen/bench/harness"
)

func main() {
	var o harness.Options
	flag.StringVar(&o.BinDir, "bin", "bin", "`directory` holding mcp-bench, mcp-memory, mcp-everything, peer-gosdk, peer-mcpgo and peer-raw")
	flag.StringVar(&o.Out, "out", "", "write the report here (`directory`: results.md, cpu-per-request.png); empty: stdout only")
	flag.BoolVar(&o.Smoke, "smoke", false, "tiny counts, every target and mode once; exit 1 on any wrong answer")
	flag.IntVar(&o.Rounds, "rounds", 3, "rounds of the throughput suite (medians are reported)")
	flag.DurationVar(&o.Window, "window", 800*time.Millisecond, "measured time per cell")
	flag.DurationVar(&o.Warmup, "warmup", 200*time.Millisecond, "warm-up per cell")
	flag.StringVar(&o.Only, "only", "", "comma-separated parts to run: throughput, memory, agents, cluster, client (default all)")
	flag.StringVar(&o.Postgres, "postgres", postgresURL(), "PostgreSQL `URL` mcp-memory also runs on in the memory and agents workloads, a fresh schema each (env MCP_TEST_POSTGRES; empty: SQLite only)")
	flag.StringVar(&o.ClusterDB, "cluster-db", "", "PostgreSQL `URL` for the cluster suite (default: -postgres)")
	flag.StringVar(&o.ClusterWorkloads, "cluster-workloads", "", "comma-separated workloads of the cluster suite: echo, ingest, notify (default all)")
	flag.StringVar(&o.Targets, "targets", "", "comma-separated throughput targets (default all)")
	flag.StringVar(&o.ModesFlag, "modes", "", "comma-separated modes: modern-http, legacy-http, stdio (default all)")
	flag.StringVar(&o.Node, "node", "", "Node 22 binary for the reference memory server")
	flag.StringVar(&o.RefMemory, "ref-memory", "", "the reference server's dist/index.js")
	flag.StringVar(&o.RefVersion, "ref-version", "", "the reference server's version, for the report")
	flag.StringVar(&o.MemSizes, "mem-sizes", "1000,10000,100000", "graph sizes of the memory workload")
	flag.DurationVar(&o.RefBudget, "ref-budget", 150*time.Second, "time the reference memory server may take in all")
	flag.IntVar(&o.MemObs, "mem-obs", 2, "observations per entity in the memory workload")
	flag.DurationVar(&o.MemBudget, "mem-budget", 3*time.Minute, "time mcp-memory may take in all in the memory workload")
	flag.DurationVar(&o.RefMaxCall, "ref-max-call", 0, "stop the reference after the first size at which a call took longer than this (0: no limit)")
	flag.StringVar(&o.OutName, "out-name", "results.md", "file name of the report in -out")
	flag.IntVar(&o.AgentsClients, "agents-clients", 16, "clients of the concurrent-agents workload")
	flag.DurationVar(&o.AgentsDuration, "agents-duration", 30*time.Second, "length of the concurrent-agents workload")
	flag.StringVar(&o.Extra, "extra", "", "more throughput targets, `name=path,...`: other builds of mcp-bench to compare")
	flag.StringVar(&o.GenFile, "gen", "", "output of scripts/bench-gen.sh to include in the report")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile of the load generator to `file`")
	flag.Parse()
	if o.ClusterDB == "" {
		o.ClusterDB = o.Postgres
	}
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err != nil {
			fmt.Fprintln(os.Stderr, "mcpbench:", err)
			os.Exit(2)
		}
		pprof.StartCPUProfile(f)
		defer func() { pprof.StopCPUProfile(); f.Close() }()
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	o.Log = os.Stderr
	if o.BinDir != "" {
		o.BinDir, _ = filepath.Abs(o.BinDir)
	}
	rep, err := harness.Run(ctx, o)
	if err != nil {
		fmt.Fprintln(os.Stderr, "mcpbench:", err)
		os.Exit(1)
	}
	fmt.Print(rep.Markdown)
	if rep.Failures > 0 {
		fmt.Fprintf(os.Stderr, "mcpbench: %d wrong or missing answers:\n  %s\n", rep.Failures, strings.Join(rep.FailureNotes, "\n  "))
		os.Exit(1)
	}
}

// postgresURL is the default PostgreSQL of the cluster suite and of
// mcp-memory's PostgreSQL store: the one tests use.
func postgresURL() string {
	if u := os.Getenv("MCP_TEST_POSTGRES"); u != "" {
		return u
	}
	return "postgres://postgres@127.0.0.1:5432/test?sslmode=disable"
}

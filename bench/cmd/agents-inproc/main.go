// Command agents-inproc is the in-process baseline of the bench's
// concurrent-agents workload: 16 goroutines (-clients) make the agents'
// calls directly on a memstore SQLite store (-db) for -duration, and the
// result is written to stdout as one line of JSON; it exits when stdin
// closes. The harness starts it pinned to the
// server's core, and it sets GOGC and GOMAXPROCS as mcp-memory does there
// (50, and 2 when the affinity mask gives one CPU), so that the two
// differ only by MCP over HTTP; the report sets them side by side.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"time"

	"github.com/mcpgen/mcpgen/bench/harness"
)

func main() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(50) // as cmd/mcp-memory does
	}
	if os.Getenv("GOMAXPROCS") == "" && runtime.GOMAXPROCS(0) < 2 {
		runtime.GOMAXPROCS(2) // as cmd/mcp-memory does (an fsync holds a P)
	}
	db := flag.String("db", "", "SQLite store `path` (created)")
	first := flag.Int("first", 0, "number of the first agent (a run on a store another run wrote gives its agents other numbers)")
	clients := flag.Int("clients", 16, "goroutines, one per agent")
	d := flag.Duration("duration", 30*time.Second, "length of the run")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile of the run to `file`")
	flag.Parse()
	if *db == "" {
		fmt.Fprintln(os.Stderr, "agents-inproc: -db is required")
		os.Exit(2)
	}
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err != nil {
			fmt.Fprintln(os.Stderr, "agents-inproc:", err)
			os.Exit(1)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintln(os.Stderr, "agents-inproc:", err)
			os.Exit(1)
		}
		defer pprof.StopCPUProfile()
	}
	if err := harness.ServeAgentsInProcess(context.Background(), *db, *first, *clients, *d, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "agents-inproc:", err)
		os.Exit(1)
	}
	// Exit once the harness has read the result and closed stdin: it
	// waits for the process in a goroutine, and Wait closes the pipe.
	io.Copy(io.Discard, os.Stdin)
}

// Command agents-inproc is the in-process baseline of the bench's
// concurrent-agents workload: 16 goroutines (-clients) make the agents'
// calls directly on a memstore SQLite store (-db) for -duration, and the
// result is written to stdout as JSON. The harness starts it pinned to the
// server's core, so that GOMAXPROCS is 1 as it is for mcp-memory there,
// and reports it beside the same workload over HTTP.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"runtime/debug"
	"time"

	"github.com/mcpgen/mcpgen/bench/harness"
)

func main() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(50) // as cmd/mcp-memory does
	}
	db := flag.String("db", "", "SQLite store `path` (created)")
	clients := flag.Int("clients", 16, "goroutines, one per agent")
	d := flag.Duration("duration", 30*time.Second, "length of the run")
	flag.Parse()
	if *db == "" {
		fmt.Fprintln(os.Stderr, "agents-inproc: -db is required")
		os.Exit(2)
	}
	if err := harness.ServeAgentsInProcess(context.Background(), *db, *clients, *d, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "agents-inproc:", err)
		os.Exit(1)
	}
}

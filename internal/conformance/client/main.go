// Command client is the conformance client the suite's client scenarios
// run: `conformance client --command "go run ./internal/conformance/client"`.
// The suite passes the scenario in MCP_CONFORMANCE_SCENARIO, its context
// (JSON) in MCP_CONFORMANCE_CONTEXT, and the server URL as the last
// argument; the client exits 0 when the scenario ran to its end.
//
// TEMPORARY: this main.go belongs to the auth branch only so that auth.go
// can be run before the client runtime lands. The runtime branch's
// main.go, which defines the same scenarios map, replaces it at merge.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/signal"
	"time"
)

// scenarios maps a scenario name to its run function, filled by init
// functions of the files of this package.
var scenarios = map[string]func(ctx context.Context, serverURL string, cctx json.RawMessage) error{}

func main() {
	name := os.Getenv("MCP_CONFORMANCE_SCENARIO")
	if len(os.Args) < 2 || name == "" {
		fmt.Fprintln(os.Stderr, "usage: MCP_CONFORMANCE_SCENARIO=name client <server-url>")
		os.Exit(2)
	}
	run, ok := scenarios[name]
	if !ok {
		fmt.Fprintf(os.Stderr, "client: unknown scenario %q\n", name)
		os.Exit(2)
	}
	cctx := json.RawMessage(os.Getenv("MCP_CONFORMANCE_CONTEXT"))
	if len(cctx) == 0 {
		cctx = json.RawMessage("{}")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	err := run(ctx, os.Args[len(os.Args)-1], cctx)
	cancel()
	stop()
	if err != nil {
		fmt.Fprintf(os.Stderr, "client: %s: %v\n", name, err)
		os.Exit(1)
	}
}

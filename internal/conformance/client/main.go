// Command client is the conformance client that the official MCP
// conformance suite's client scenarios run, built on the public client
// runtime of package mcpgen alone:
//
//	conformance client --command "client" --scenario tools_call
//
// The suite passes the scenario's name in MCP_CONFORMANCE_SCENARIO, the
// protocol revision to speak in MCP_CONFORMANCE_PROTOCOL_VERSION, the
// scenario's context (JSON) in MCP_CONFORMANCE_CONTEXT when it has one,
// and the server URL as the last argument. The client exits 0 when the
// scenario ran to its end, 1 when it failed (the error on stderr).
//
// Scenarios are registered in the scenarios map by the init functions of
// this package's files; a name with no entry runs the default scenario,
// which exercises everything the server offers.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/signal"
	"time"

	"github.com/mcpgen/mcpgen"
)

// scenarios maps a scenario name to its run function, filled by init
// functions of the files of this package.
var scenarios = map[string]func(ctx context.Context, serverURL string, cctx json.RawMessage) error{}

func main() {
	name := os.Getenv("MCP_CONFORMANCE_SCENARIO")
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: MCP_CONFORMANCE_SCENARIO=name client <server-url>")
		os.Exit(2)
	}
	run, ok := scenarios[name]
	if !ok {
		run = exerciseAll
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

// connect connects to serverURL in the revision the suite asks for, with
// opts's handlers.
func connect(ctx context.Context, serverURL string, opts mcpgen.ClientOptions) (*mcpgen.Client, error) {
	if opts.ClientInfo.Name == "" {
		opts.ClientInfo = mcpgen.Implementation{Name: "mcpgen-conformance-client", Version: "1.0.0"}
	}
	if opts.ProtocolVersion == "" {
		opts.ProtocolVersion = os.Getenv("MCP_CONFORMANCE_PROTOCOL_VERSION")
	}
	return mcpgen.Connect(ctx, mcpgen.HTTPTransport(serverURL), opts)
}

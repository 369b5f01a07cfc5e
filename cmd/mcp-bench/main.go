// Command mcp-bench serves the benchmark server of components/bench (echo,
// ingest and 48 no-op tools) for the load generator in bench/.
//
// Usage:
//
//	mcp-bench [flags]
//
// By default it speaks MCP over stdio. With --http ADDR it serves
// Streamable HTTP at http://ADDR/mcp, to legacy (initialize, sessions) and
// stateless 2026-07-28 clients alike, on the same endpoint. -h lists the
// flags.
package main

import (
	"context"

	"github.com/mcpgen/mcpgen"
	"github.com/mcpgen/mcpgen/generated/bench"
	_ "github.com/mcpgen/mcpgen/metrics"   // --metrics
	_ "github.com/mcpgen/mcpgen/oauth"     // --auth-issuer, --auth-audience, --auth-client-id
	_ "github.com/mcpgen/mcpgen/pgcluster" // --cluster: the bench's replicas share their state
	_ "github.com/mcpgen/mcpgen/tracing"   // OTEL_* environment
)

func main() {
	// bench.Main would name the program "bench", after the server.
	mcpgen.Main("mcp-bench", "Serves the benchmark tools (echo, ingest, noop_01..noop_48) over stdio (default) or Streamable HTTP.",
		func(_ context.Context, opts mcpgen.Options) (*mcpgen.Server, func() error, error) {
			return bench.New(opts), nil, nil
		})
}

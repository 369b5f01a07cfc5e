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
	"github.com/mcpgen/mcpgen"
	"github.com/mcpgen/mcpgen/generated/bench"
)

func main() {
	mcpgen.Main("mcp-bench", "Serves the benchmark tools (echo, ingest, noop_01..noop_48) over stdio (default) or Streamable HTTP.",
		func(opts mcpgen.Options) *mcpgen.Server { return bench.New(opts) })
}

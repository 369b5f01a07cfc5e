// Command mcp-everything serves the conformance fixture server: every tool,
// resource and prompt the official MCP conformance suite exercises, built
// from the annotated components in components/everything.
//
// Usage:
//
//	mcp-everything [flags]
//
// By default it speaks MCP over stdio. With --http ADDR it serves
// Streamable HTTP at http://ADDR/mcp, to legacy (initialize, sessions) and
// stateless 2026-07-28 clients alike, on the same endpoint; the tasks
// extension is on, and the skills extension serves the fixture's skills
// (embedded ones and a dynamic one whose files a component returns). -h lists the flags.
package main

import (
	"github.com/mcpgen/mcpgen"
	"github.com/mcpgen/mcpgen/generated/everything"
	_ "github.com/mcpgen/mcpgen/metrics"   // --metrics
	_ "github.com/mcpgen/mcpgen/oauth"     // --auth-issuer, --auth-audience, --auth-client-id
	_ "github.com/mcpgen/mcpgen/pgcluster" // --cluster
	_ "github.com/mcpgen/mcpgen/tracing"   // OTEL_* environment
)

func main() {
	mcpgen.Main("mcp-everything", "Serves the MCP conformance fixture over stdio (default) or Streamable HTTP.",
		func(opts mcpgen.Options) *mcpgen.Server {
			opts.Tasks = true
			return everything.New(opts)
		})
}

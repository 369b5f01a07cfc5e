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
	"context"

	"github.com/mcpgen/mcpgen"
	"github.com/mcpgen/mcpgen/generated/everything"
	_ "github.com/mcpgen/mcpgen/metrics"   // --metrics
	_ "github.com/mcpgen/mcpgen/oauth"     // --auth-issuer, --auth-audience, --auth-client-id
	_ "github.com/mcpgen/mcpgen/pgcluster" // --cluster
	_ "github.com/mcpgen/mcpgen/tracing"   // OTEL_* environment
)

func main() {
	// everything.Main would serve it too, without the tasks extension: a
	// main that sets options calls mcpgen.Main with a build of its own.
	mcpgen.Main("mcp-everything", "Serves the MCP conformance fixture over stdio (default) or Streamable HTTP.",
		func(_ context.Context, opts mcpgen.Options) (*mcpgen.Server, func() error, error) {
			opts.Tasks = true
			return everything.New(opts), nil, nil
		})
}

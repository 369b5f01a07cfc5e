// Command mcp-bench serves the benchmark server of components/bench (echo,
// ingest and 48 no-op tools) for the load generator in bench/.
//
// Usage:
//
//	mcp-bench [flags]
//
// By default it speaks MCP over stdio. With --http ADDR it serves
// Streamable HTTP at http://ADDR/mcp, to legacy (initialize, sessions) and
// stateless 2026-07-28 clients alike, on the same endpoint.
package main

import (
	"flag"
	"fmt"
	"os"

	"go.uber.org/zap"

	"github.com/mcpgen/mcpgen/generated/bench"
	"github.com/mcpgen/mcpgen/internal/serve"
	"github.com/mcpgen/mcpgen/internal/server"
)

func main() {
	fs := flag.NewFlagSet("mcp-bench", flag.ExitOnError)
	var f serve.Flags
	f.Register(fs)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: mcp-bench [flags]\n\nServes the benchmark tools (echo, ingest, noop_01..noop_48) over stdio (default) or Streamable HTTP.\n\n")
		fs.PrintDefaults()
	}
	fs.Parse(os.Args[1:])
	log, err := f.Logger()
	if err != nil {
		fmt.Fprintln(os.Stderr, "mcp-bench:", err)
		os.Exit(2)
	}
	srv := bench.New(server.Options{Logger: log, Errors: server.ZapErrors{Logger: log}})
	if err := f.Run(srv, log); err != nil {
		log.Error("mcp-bench stopped", zap.Error(err))
		os.Exit(1)
	}
}

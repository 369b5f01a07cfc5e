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
// stateless 2026-07-28 clients alike, on the same endpoint.
package main

import (
	"flag"
	"fmt"
	"os"

	"go.uber.org/zap"

	"github.com/mcpgen/mcpgen/generated/everything"
	"github.com/mcpgen/mcpgen/internal/serve"
	"github.com/mcpgen/mcpgen/internal/server"
)

func main() {
	fs := flag.NewFlagSet("mcp-everything", flag.ExitOnError)
	var f serve.Flags
	f.Register(fs)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: mcp-everything [flags]\n\nServes the MCP conformance fixture over stdio (default) or Streamable HTTP.\n\n")
		fs.PrintDefaults()
	}
	fs.Parse(os.Args[1:])
	log, err := f.Logger()
	if err != nil {
		fmt.Fprintln(os.Stderr, "mcp-everything:", err)
		os.Exit(2)
	}
	srv := everything.New(server.Options{Logger: log, Errors: server.ZapErrors{Logger: log}, Tasks: true})
	if err := f.Run(srv, log); err != nil {
		log.Error("mcp-everything stopped", zap.Error(err))
		os.Exit(1)
	}
}

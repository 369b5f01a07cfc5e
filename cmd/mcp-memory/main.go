// Command mcp-memory is a knowledge-graph memory server for agents, a
// drop-in for the reference @modelcontextprotocol/server-memory on an
// embedded SQLite store.
//
// Usage:
//
//	mcp-memory [flags]               serve (stdio by default, --http ADDR for Streamable HTTP)
//	mcp-memory [flags] import FILE   load a reference server memory.jsonl file into the store
//	mcp-memory [flags] export [FILE] write the store as a reference memory.jsonl file (stdout by default)
//
// The store is one SQLite file (--db, or $MCP_MEMORY_DB; default memory.db
// in the current directory), created on first run.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"

	"go.uber.org/zap"

	"github.com/mcpgen/mcpgen/components/memory/memstore"
	"github.com/mcpgen/mcpgen/generated/memory"
	"github.com/mcpgen/mcpgen/internal/serve"
	"github.com/mcpgen/mcpgen/internal/server"
)

func main() { os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("mcp-memory", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var f serve.Flags
	f.Register(fs)
	defaultDB := os.Getenv("MCP_MEMORY_DB")
	if defaultDB == "" {
		defaultDB = "memory.db"
	}
	db := fs.String("db", defaultDB, "SQLite store `path` (env MCP_MEMORY_DB), created on first run")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), `usage: mcp-memory [flags]               serve MCP (stdio by default)
       mcp-memory [flags] import FILE   load a reference server memory.jsonl file
       mcp-memory [flags] export [FILE] write the store as memory.jsonl (stdout by default)

A knowledge-graph memory server for agents, a drop-in for
@modelcontextprotocol/server-memory, on an embedded SQLite store.

`)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return 0
		}
		return 2
	}
	log, err := f.Logger()
	if err != nil {
		fmt.Fprintln(stderr, "mcp-memory:", err)
		return 2
	}
	defer log.Sync()
	store, err := memstore.Open(*db)
	if err != nil {
		fmt.Fprintf(stderr, "mcp-memory: open store %s: %v\n", *db, err)
		return 1
	}
	defer store.Close()
	ctx := context.Background()

	switch cmd := fs.Arg(0); cmd {
	case "":
		srv := memory.New(store, server.Options{Logger: log, Errors: server.ZapErrors{Logger: log}})
		log.Info("store ready", zap.String("db", *db))
		if err := f.Run(srv, log); err != nil {
			log.Error("mcp-memory stopped", zap.Error(err))
			return 1
		}
		return 0
	case "import":
		if fs.NArg() != 2 {
			fmt.Fprintln(stderr, "usage: mcp-memory import FILE")
			return 2
		}
		in, err := os.Open(fs.Arg(1))
		if err != nil {
			fmt.Fprintln(stderr, "mcp-memory:", err)
			return 1
		}
		defer in.Close()
		stats, err := store.Import(ctx, in)
		if err != nil {
			fmt.Fprintf(stderr, "mcp-memory: import %s: %v\n", fs.Arg(1), err)
			return 1
		}
		fmt.Fprintf(stderr, "imported %s: %+v\n", fs.Arg(1), stats)
		return 0
	case "export":
		out := stdout
		if fs.NArg() == 2 {
			file, err := os.Create(fs.Arg(1))
			if err != nil {
				fmt.Fprintln(stderr, "mcp-memory:", err)
				return 1
			}
			defer file.Close()
			out = file
		}
		if err := store.Export(ctx, out); err != nil {
			fmt.Fprintln(stderr, "mcp-memory: export:", err)
			return 1
		}
		return 0
	default:
		fmt.Fprintf(stderr, "mcp-memory: unknown command %q (want import or export)\n", cmd)
		fs.Usage()
		return 2
	}
}

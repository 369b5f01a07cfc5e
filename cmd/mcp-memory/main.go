// Command mcp-memory is a knowledge-graph memory server for agents, a
// drop-in for the reference @modelcontextprotocol/server-memory on an
// embedded SQLite store or on PostgreSQL.
//
// Usage:
//
//	mcp-memory [flags]               serve (stdio by default, --http ADDR for Streamable HTTP)
//	mcp-memory [flags] import FILE   load a reference server memory.jsonl file into the store
//	mcp-memory [flags] export [FILE] write the store as a reference memory.jsonl file (stdout by default)
//
// The store is one SQLite file (--db, or $MCP_MEMORY_DB; default memory.db
// in the current directory), created on first run, or, when --db is a
// postgres:// URL, a PostgreSQL database that several replicas can share
// (tables memory_* in the URL's search_path schema, migrated on start).
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"time"

	"go.uber.org/zap"

	"github.com/mcpgen/mcpgen"
	"github.com/mcpgen/mcpgen/components/memory/memstore"
	"github.com/mcpgen/mcpgen/generated/memory"
	_ "github.com/mcpgen/mcpgen/metrics"   // --metrics
	_ "github.com/mcpgen/mcpgen/oauth"     // --auth-issuer, --auth-audience, --auth-client-id
	_ "github.com/mcpgen/mcpgen/pgcluster" // --cluster, implied by --db postgres://
	_ "github.com/mcpgen/mcpgen/tracing"   // OTEL_* environment
)

func main() {
	if os.Getenv("GOGC") == "" {
		// Most of the heap is long-lived (the graph's in-memory mirror,
		// read_graph's reused buffers) and a call leaves little garbage,
		// so collecting at +50% instead of +100% costs little CPU and
		// keeps the resident size near what is live (at 100,000 entities,
		// peak RSS ~195 -> ~165 MB). GOGC still overrides it.
		debug.SetGCPercent(50)
	}
	if os.Getenv("GOMAXPROCS") == "" && runtime.GOMAXPROCS(0) < 2 {
		// Every SQLite commit waits for an fsync (0.3-7 ms here), and
		// the thread in it keeps its P until sysmon takes it back, which
		// on a loaded core takes milliseconds or never happens before
		// the fsync ends. With one P (one CPU in the affinity mask, as
		// the bench pins it, or a CPU limit of one in a container) the
		// whole server stood still meanwhile: nothing read the next
		// requests, so they missed the group commit under way and the
		// next commit carried one or two writes instead of the half
		// dozen queued in process (the execution trace: 537 of 668
		// fsyncs in 4 s held the only P, 65% of the time;
		// docs/bench/log.md, "an fsync held the only P"). A
		// second P lets the server go on parsing and queueing while one
		// thread waits on the disk; it costs nothing while no thread
		// blocks. GOMAXPROCS still overrides it. (Setting it stops the
		// runtime from following later changes of the CPU limit; with
		// more than one CPU at start nothing is set.)
		runtime.GOMAXPROCS(2)
	}
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("mcp-memory", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var f mcpgen.Flags
	f.Register(fs)
	defaultDB := os.Getenv("MCP_MEMORY_DB")
	if defaultDB == "" {
		defaultDB = "memory.db"
	}
	db := fs.String("db", defaultDB, "store: SQLite file `path` or postgres:// URL (env MCP_MEMORY_DB), created on first run")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), `usage: mcp-memory [flags]               serve MCP (stdio by default)
       mcp-memory [flags] import FILE   load a reference server memory.jsonl file
       mcp-memory [flags] export [FILE] write the store as memory.jsonl (stdout by default)

A knowledge-graph memory server for agents, a drop-in for
@modelcontextprotocol/server-memory, on an embedded SQLite store or, with
--db postgres://..., on PostgreSQL shared by any number of replicas.

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
	ctx := context.Background()
	// Opening may take a while: migrations run, and a store whose search
	// text was lower-cased with other Unicode tables rebuilds its indexes
	// (seconds per 100,000 entities).
	log.Info("opening store")
	opened := time.Now()
	store, where, err := openStore(ctx, *db)
	if err != nil {
		fmt.Fprintln(stderr, "mcp-memory:", err)
		return 1
	}
	defer store.Close()
	// --db postgres://... implies --cluster on the same database unless
	// --cluster (MCP_CLUSTER_URL) is given.
	if err := fs.Set("cluster", clusterURL(*db, fs.Lookup("cluster").Value.String())); err != nil {
		fmt.Fprintln(stderr, "mcp-memory:", err)
		return 2
	}

	switch cmd := fs.Arg(0); cmd {
	case "":
		opts, err := f.ServerOptions("mcp-memory", log)
		if err != nil {
			fmt.Fprintln(stderr, "mcp-memory: cannot start:", err)
			return mcpgen.ExitCode(err)
		}
		srv := memory.New(store, opts)
		log.Info("store ready", zap.String("db", where), zap.Duration("opened_in", time.Since(opened)))
		if err := f.Run(srv, log); err != nil {
			fmt.Fprintln(stderr, "mcp-memory:", err)
			return mcpgen.ExitCode(err)
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

// openTimeout bounds connecting to PostgreSQL and migrating at start.
const openTimeout = 30 * time.Second

// openStore opens the store db names: a PostgreSQL database for a
// postgres:// URL, else a SQLite file. where is db as it may be shown
// (a URL without its password); errors name it too.
func openStore(ctx context.Context, db string) (store memstore.Store, where string, err error) {
	if !memstore.IsPostgresURL(db) {
		s, err := memstore.Open(db)
		if err != nil {
			return nil, db, fmt.Errorf("open store %s: %w", db, err)
		}
		return s, db, nil
	}
	where = memstore.RedactURL(db)
	ctx, cancel := context.WithTimeout(ctx, openTimeout)
	defer cancel()
	s, err := memstore.OpenPostgres(ctx, db) // its errors name the redacted URL
	if err != nil {
		return nil, where, err
	}
	return s, where, nil
}

// clusterURL is the runtime cluster backend mcp-memory should run with:
// cluster (from --cluster or MCP_CLUSTER_URL) when given, else db when the
// store is on PostgreSQL, so that replicas sharing a memory also share
// sessions, subscriptions and tasks without more configuration; "" (in
// process) otherwise.
func clusterURL(db, cluster string) string {
	if cluster != "" {
		return cluster
	}
	if memstore.IsPostgresURL(db) {
		return db
	}
	return ""
}

// Command mcp-memory is a knowledge-graph memory server for agents, a
// drop-in for the reference @modelcontextprotocol/server-memory on an
// embedded SQLite store or on PostgreSQL.
//
// Usage:
//
//	mcp-memory [flags]               serve (stdio by default, --http ADDR for Streamable HTTP)
//	mcp-memory [flags] import FILE   load a reference server memory.jsonl file into a graph
//	mcp-memory [flags] export [FILE] write a graph as a reference memory.jsonl file (stdout by default)
//	mcp-memory [flags] graphs        list the store's graphs with their sizes
//
// The store is one SQLite file (--db, or $MCP_MEMORY_DB; default memory.db
// in the current directory), created on first run, or, when --db is a
// postgres:// URL, a PostgreSQL database that several replicas can share
// (tables memory_* in the URL's search_path schema, migrated on start).
//
// One store holds any number of named graphs that share nothing. Which
// one a request works on is the server's decision, never a tool
// argument's: --graph NAME for the whole process (default "default", the
// store as it was before graphs); with --graph-per-subject and OAuth, each
// caller's private graph; and over HTTP, the shared graph NAME at
// /graphs/NAME/mcp, for callers holding scope memory:NAME:read (reading)
// or memory:NAME:write (writing too).
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
	component "github.com/mcpgen/mcpgen/components/memory"
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
		// within its budget) and a call leaves little garbage,
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
	graph := fs.String("graph", memstore.DefaultGraph, "the `name` of the graph this process works on (HTTP: at --path), created by its first write")
	perSubject := fs.Bool("graph-per-subject", false, "HTTP with OAuth: each caller works at --path in a private graph of its own, created on first use; anonymous callers are refused")
	maxGraphs := fs.Int("max-graphs", memstore.DefaultMaxGraphs, "named graphs the store may hold; creating one more fails")
	maxOpen := fs.Int("max-open-graphs", memstore.DefaultMaxOpenGraphs, "graphs open at once; the least recently used idle one is closed to open another")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), `usage: mcp-memory [flags]               serve MCP (stdio by default)
       mcp-memory [flags] import [--graph NAME] FILE
                                        load a reference server memory.jsonl file
       mcp-memory [flags] export [--graph NAME] [--with-history] [FILE]
                                        write a graph as memory.jsonl (stdout by default),
                                        with its audit trail as "history" lines
       mcp-memory [flags] graphs [--json] list the store's graphs with their sizes

A knowledge-graph memory server for agents, a drop-in for
@modelcontextprotocol/server-memory, on an embedded SQLite store or, with
--db postgres://..., on PostgreSQL shared by any number of replicas.

One store holds any number of graphs sharing nothing: --graph picks the
process's; over HTTP, /graphs/NAME/mcp serves the shared graph NAME to
callers holding scope memory:NAME:read (or memory:NAME:write to change it),
and --graph-per-subject gives each OAuth caller a private graph at --path.
Every change records its author (the caller's subject; "local" on stdio):
read memory://entities/{name}/history.

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
	if err := memstore.CheckGraphName(*graph); err != nil {
		fmt.Fprintln(stderr, "mcp-memory: --graph:", err)
		return 2
	}
	if *perSubject && (f.HTTP == "" || !authenticated(fs)) {
		fmt.Fprintln(stderr, "mcp-memory: --graph-per-subject needs --http and --auth-issuer (or --dev-auth): a private graph belongs to an authenticated caller")
		return 2
	}
	log.Info("opening store")
	opened := time.Now()
	graphs, where, err := openStore(ctx, *db, memstore.WithMaxGraphs(*maxGraphs), memstore.WithMaxOpenGraphs(*maxOpen))
	if err != nil {
		fmt.Fprintln(stderr, "mcp-memory:", err)
		return 1
	}
	defer graphs.Close()
	anonymous := "anonymous" // an HTTP caller without a subject
	if f.HTTP == "" {
		anonymous = memstore.LocalAuthor
	}
	store := &component.Routed{Graphs: graphs, Graph: *graph, Anonymous: anonymous, PerSubject: *perSubject}
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
		opts.Grants = store.Grants
		events, closeEvents, err := openEvents(ctx, *db)
		if err != nil {
			fmt.Fprintln(stderr, "mcp-memory: events:", err)
			return 1
		}
		defer closeEvents.Close()
		opts.Events.Store = events
		f.Paths, f.Partition = []string{component.SharedPath}, store.Partition
		store.Shared = f.HTTP != ""
		srv := memory.New(store, opts)
		// Changes committed before a crash whose events were not recorded
		// yet are told now.
		if err := store.RelayEvents(ctx, srv); err != nil {
			fmt.Fprintln(stderr, "mcp-memory: events:", err)
			return 1
		}
		log.Info("store ready", zap.String("db", where), zap.Duration("opened_in", time.Since(opened)))
		if err := f.Run(srv, log); err != nil {
			fmt.Fprintln(stderr, "mcp-memory:", err)
			return mcpgen.ExitCode(err)
		}
		return 0
	case "import", "export", "graphs":
		return command(ctx, cmd, fs.Args()[1:], graphs, *db, *graph, stdout, stderr)
	default:
		fmt.Fprintf(stderr, "mcp-memory: unknown command %q (want import, export or graphs)\n", cmd)
		fs.Usage()
		return 2
	}
}

// openTimeout bounds connecting to PostgreSQL and migrating at start.
const openTimeout = 30 * time.Second

// openStore opens the store db names with its graphs: a PostgreSQL
// database for a postgres:// URL, else a SQLite file. where is db as it
// may be shown (a URL without its password); errors name it too.
func openStore(ctx context.Context, db string, opts ...memstore.Option) (graphs *memstore.Graphs, where string, err error) {
	if !memstore.IsPostgresURL(db) {
		g, err := memstore.OpenGraphs(ctx, db, opts...)
		if err != nil {
			return nil, db, fmt.Errorf("open store %s: %w", db, err)
		}
		return g, db, nil
	}
	where = memstore.RedactURL(db)
	ctx, cancel := context.WithTimeout(ctx, openTimeout)
	defer cancel()
	g, err := memstore.OpenGraphs(ctx, db, opts...) // its errors name the redacted URL
	if err != nil {
		return nil, where, err
	}
	return g, where, nil
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

// authenticated reports whether the flags turn OAuth on: --auth-issuer, or
// the development issuer of --dev-auth.
func authenticated(fs *flag.FlagSet) bool {
	on := func(name string) string {
		if f := fs.Lookup(name); f != nil {
			return f.Value.String()
		}
		return ""
	}
	return on("auth-issuer") != "" || on("dev-auth") == "true"
}

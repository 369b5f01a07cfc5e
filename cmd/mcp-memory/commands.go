package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"text/tabwriter"
	"time"

	"github.com/mcpgen/mcpgen/components/memory/memstore"
)

// command runs import, export or graphs with their own flags (args
// follows the command's name); graph is the --graph given before it.
func command(ctx context.Context, name string, args []string, graphs *memstore.Graphs, graph string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("mcp-memory "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&graph, "graph", graph, "the `name` of the graph to "+name)
	withHistory := fs.Bool("with-history", false, `export: add the graph's audit trail, one {"type":"history",...} line per change (the reference ignores such lines; import restores them)`)
	asJSON := fs.Bool("json", false, "graphs: print JSON, one object per graph")
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return 0
		}
		return 2
	}
	if err := memstore.CheckGraphName(graph); err != nil && name != "graphs" {
		fmt.Fprintln(stderr, "mcp-memory: --graph:", err)
		return 2
	}
	switch name {
	case "graphs":
		if fs.NArg() != 0 {
			fmt.Fprintln(stderr, "usage: mcp-memory graphs [--json]")
			return 2
		}
		return listGraphs(ctx, graphs, *asJSON, stdout, stderr)
	case "import":
		if fs.NArg() != 1 {
			fmt.Fprintln(stderr, "usage: mcp-memory import [--graph NAME] FILE")
			return 2
		}
		return importFile(ctx, graphs, graph, fs.Arg(0), stderr)
	default:
		if fs.NArg() > 1 {
			fmt.Fprintln(stderr, "usage: mcp-memory export [--graph NAME] [--with-history] [FILE]")
			return 2
		}
		return exportFile(ctx, graphs, graph, fs.Arg(0), *withHistory, stdout, stderr)
	}
}

func importFile(ctx context.Context, graphs *memstore.Graphs, graph, path string, stderr io.Writer) int {
	in, err := os.Open(path)
	if err != nil {
		fmt.Fprintln(stderr, "mcp-memory:", err)
		return 1
	}
	defer in.Close()
	store, release, err := graphs.Use(ctx, graph)
	if err != nil {
		fmt.Fprintf(stderr, "mcp-memory: graph %s: %v\n", graph, err)
		return 1
	}
	defer release()
	stats, err := store.Import(memstore.WithAuthor(ctx, memstore.LocalAuthor), in)
	if err != nil {
		fmt.Fprintf(stderr, "mcp-memory: import %s: %v\n", path, err)
		return 1
	}
	fmt.Fprintf(stderr, "imported %s into graph %s: %+v\n", path, graph, stats)
	return 0
}

func exportFile(ctx context.Context, graphs *memstore.Graphs, graph, path string, withHistory bool, stdout, stderr io.Writer) int {
	store, release, err := graphs.UseExisting(ctx, graph) // exporting a graph does not create it
	if err != nil {
		fmt.Fprintf(stderr, "mcp-memory: graph %s: %v\n", graph, err)
		return 1
	}
	defer release()
	out := stdout
	if path != "" {
		file, err := os.Create(path)
		if err != nil {
			fmt.Fprintln(stderr, "mcp-memory:", err)
			return 1
		}
		defer file.Close()
		out = file
	}
	if withHistory {
		err = memstore.ExportWithHistory(ctx, store, out)
	} else {
		err = store.Export(ctx, out)
	}
	if err != nil {
		fmt.Fprintln(stderr, "mcp-memory: export:", err)
		return 1
	}
	return 0
}

func listGraphs(ctx context.Context, graphs *memstore.Graphs, asJSON bool, stdout, stderr io.Writer) int {
	list, err := graphs.List(ctx)
	if err != nil {
		fmt.Fprintln(stderr, "mcp-memory: graphs:", err)
		return 1
	}
	if asJSON {
		enc := json.NewEncoder(stdout)
		for _, g := range list {
			if err := enc.Encode(g); err != nil {
				return 1
			}
		}
		return 0
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "GRAPH\tOWNER\tENTITIES\tRELATIONS\tOBSERVATIONS\tCREATED")
	for _, g := range list {
		created := "-"
		if !g.Created.IsZero() {
			created = g.Created.Format(time.RFC3339)
		}
		owner := g.Owner
		if owner == "" {
			owner = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%s\n", g.Name, owner, g.Entities, g.Relations, g.Observations, created)
	}
	if err := tw.Flush(); err != nil {
		fmt.Fprintln(stderr, "mcp-memory: graphs:", err)
		return 1
	}
	return 0
}

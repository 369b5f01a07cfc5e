package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/mcpgen/mcpgen/components/memory/memstore"
	"github.com/mcpgen/mcpgen/internal/progress"
)

// command runs import, export or graphs with their own flags (args
// follows the command's name); graph is the --graph given before it.
func command(ctx context.Context, name string, args []string, graphs *memstore.Graphs, db, graph string, stdout, stderr io.Writer) int {
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
		if code := importFile(ctx, graphs, graph, fs.Arg(0), stderr, progress.IsTerminal(stderr), time.Now); code != 0 {
			return code
		}
		if err := skipEvents(ctx, db, graphs, graph); err != nil {
			fmt.Fprintf(stderr, "mcp-memory: import: the graph is imported, but its events: %v\n", err)
			return 1
		}
		return 0
	default:
		if fs.NArg() > 1 {
			fmt.Fprintln(stderr, "usage: mcp-memory export [--graph NAME] [--with-history] [FILE]")
			return 2
		}
		return exportFile(ctx, graphs, graph, fs.Arg(0), *withHistory, stdout, stderr)
	}
}

// importFile imports the memory file at path into graph. On a terminal
// (tty) it shows its progress on stderr, redrawn in place: lines read,
// their rate and the time left from the bytes read, then the time spent
// storing them; in every case it ends with one summary line.
func importFile(ctx context.Context, graphs *memstore.Graphs, graph, path string, stderr io.Writer, tty bool, now func() time.Time) int {
	in, err := os.Open(path)
	if err != nil {
		fmt.Fprintln(stderr, "mcp-memory:", err)
		return 1
	}
	defer in.Close()
	var size int64
	if st, err := in.Stat(); err == nil && st.Mode().IsRegular() {
		size = st.Size()
	}
	store, release, err := graphs.Use(ctx, graph)
	if err != nil {
		fmt.Fprintf(stderr, "mcp-memory: graph %s: %v\n", graph, err)
		return 1
	}
	defer release()
	start := now()
	r := &countingReader{r: in}
	endProgress := func() {}
	if tty {
		m := &progress.Meter{W: stderr, Now: now, Interval: 200 * time.Millisecond, Label: "reading " + path, Unit: "lines"}
		r.progress = func(lines, bytes int64, eof bool) {
			if eof {
				m.Relabel(fmt.Sprintf("storing %s lines into graph %s", progress.Count(lines), graph), "")
				m.Draw()
				return
			}
			m.Update(lines, bytes, size)
		}
		endProgress = m.Tick(time.Second) // the clock moves while the store writes
	}
	stats, err := store.Import(memstore.WithAuthor(ctx, memstore.LocalAuthor), r)
	endProgress()
	if err != nil {
		fmt.Fprintf(stderr, "mcp-memory: import %s: %v\n", path, err)
		return 1
	}
	fmt.Fprintln(stderr, importSummary(path, graph, stats, now().Sub(start)))
	return 0
}

// importSummary is the line an import ends with: "imported memory.jsonl
// into graph default: 20,000 entities, 3 relations in 1.8s; skipped 2
// existing entities".
func importSummary(path, graph string, st memstore.ImportStats, took time.Duration) string {
	var b strings.Builder
	fmt.Fprintf(&b, "imported %s into graph %s: %s, %s in %s", path, graph,
		counted(st.Entities, "entity", "entities"), counted(st.Relations, "relation", "relations"), progress.Duration(took))
	if st.History > 0 {
		fmt.Fprintf(&b, ", with %s of their history", counted(st.History, "change", "changes"))
	}
	var skipped []string
	if st.SkippedEntities > 0 {
		skipped = append(skipped, counted(st.SkippedEntities, "existing entity", "existing entities"))
	}
	if st.SkippedRelations > 0 {
		skipped = append(skipped, counted(st.SkippedRelations, "relation", "relations")+" already stored")
	}
	if len(skipped) > 0 {
		b.WriteString("; skipped " + strings.Join(skipped, " and "))
	}
	if st.IgnoredLines > 0 {
		fmt.Fprintf(&b, "; ignored %s of another type", counted(st.IgnoredLines, "line", "lines"))
	}
	return b.String()
}

// counted is n with the noun that fits it: "1 entity", "20,000 entities".
func counted(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return progress.Count(int64(n)) + " " + many
}

// countingReader counts the bytes and lines read through it and tells
// progress (when set) after each read, and once more at the end.
type countingReader struct {
	r            io.Reader
	bytes, lines int64
	progress     func(lines, bytes int64, eof bool)
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.bytes += int64(n)
	c.lines += int64(bytes.Count(p[:n], []byte{'\n'}))
	if c.progress != nil {
		c.progress(c.lines, c.bytes, err == io.EOF)
	}
	return n, err
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

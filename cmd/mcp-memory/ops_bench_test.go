package main

import (
	"bufio"
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"testing"

	"github.com/mcpgen/mcpgen"
	"github.com/mcpgen/mcpgen/components/memory/memstore"
	"github.com/mcpgen/mcpgen/generated/memory"
)

// benchEntities is the graph size of BenchmarkOps; the memory workload of
// the bench suite uses the same entity shape.
var benchEntities = flag.Int("bench-entities", 10_000, "entities in the graph of BenchmarkOps")

// pipeClient talks newline-delimited JSON-RPC to an in-process server, one
// call at a time, without parsing the answers (so that profiles show the
// server's work, not a client's).
type pipeClient struct {
	w   io.Writer
	r   *bufio.Reader
	id  int
	buf []byte // a long answer, reused
}

func (c *pipeClient) call(tb testing.TB, tool, args string) []byte {
	c.id++
	fmt.Fprintf(c.w, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":%s}}`+"\n", c.id, tool, args)
	line, err := c.r.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		c.buf = append(c.buf[:0], line...)
		for err == bufio.ErrBufferFull {
			line, err = c.r.ReadSlice('\n')
			c.buf = append(c.buf, line...)
		}
		line = c.buf
	}
	if err != nil {
		tb.Fatalf("%s: %v", tool, err)
	}
	if bytes.Contains(line[:min(len(line), 200)], []byte(`"error"`)) || bytes.Contains(line, []byte(`"isError":true`)) {
		tb.Fatalf("%s: %.300s", tool, line)
	}
	return line
}

// startPipeServer serves mcp-memory on store over in-memory pipes.
func startPipeServer(tb testing.TB, store memstore.Store) *pipeClient {
	srv := memory.New(store, mcpgen.Options{})
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan struct{})
	go func() {
		defer close(done)
		mcpgen.ServeStdio(context.Background(), srv, inR, outW)
		outW.Close()
	}()
	tb.Cleanup(func() { inW.Close(); <-done })
	c := &pipeClient{w: inW, r: bufio.NewReaderSize(outR, 1<<20)}
	fmt.Fprintf(inW, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}`+"\n")
	if _, err := c.r.ReadSlice('\n'); err != nil {
		tb.Fatal(err)
	}
	fmt.Fprintf(inW, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	return c
}

// benchName is entity i's name, as in the bench suite's memory workload.
func benchName(i int) string {
	words := [...]string{"amber", "birch", "cobalt", "delta", "ember", "fjord", "garnet", "harbor",
		"indigo", "juniper", "kestrel", "lumen", "maple", "nimbus", "onyx", "pepper",
		"quartz", "raven", "sierra", "tundra", "umber", "violet", "willow", "xenon",
		"yarrow", "zephyr", "atlas", "basalt", "cedar", "dune", "echo", "flint"}
	h := uint32(i)*2654435761 + 12345
	return fmt.Sprintf("%s-%d-%s", words[h>>27], i, words[(h>>22)&31])
}

// growGraph adds entities [from, to) with two observations each and a
// relation to the previous entity, in batches of 5,000.
func growGraph(tb testing.TB, c *pipeClient, from, to int) {
	for lo := from; lo < to; lo += 5000 {
		hi := min(lo+5000, to)
		var ents, rels bytes.Buffer
		for i := lo; i < hi; i++ {
			if i > lo {
				ents.WriteByte(',')
			}
			fmt.Fprintf(&ents, `{"name":%q,"entityType":%q,"observations":["created by the benchmark as number %d","tag t%03d"]}`,
				benchName(i), []string{"person", "project", "service", "document"}[i%4], i, i%997)
			if i > 0 {
				if rels.Len() > 0 {
					rels.WriteByte(',')
				}
				fmt.Fprintf(&rels, `{"from":%q,"to":%q,"relationType":"follows"}`, benchName(i), benchName(i-1))
			}
		}
		c.call(tb, "create_entities", `{"entities":[`+ents.String()+`]}`)
		if rels.Len() > 0 {
			c.call(tb, "create_relations", `{"relations":[`+rels.String()+`]}`)
		}
	}
}

// BenchmarkOps times each memory tool over stdio in process, on a graph of
// -bench-entities entities: the place to take CPU, allocation and
// execution-trace profiles of the server, e.g.
//
//	go test ./cmd/mcp-memory -run '^$' -bench Ops/read_graph -cpuprofile cpu.out
func BenchmarkOps(b *testing.B) {
	store, err := memstore.Open(filepath.Join(b.TempDir(), "memory.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer store.Close()
	c := startPipeServer(b, store)
	n := *benchEntities
	growGraph(b, c, 0, n)
	b.Run("read_graph", func(b *testing.B) {
		b.ReportAllocs()
		var size int
		for b.Loop() {
			size = len(c.call(b, "read_graph", `{}`))
		}
		b.ReportMetric(float64(size), "resp-bytes")
	})
	b.Run("search_nodes", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			i++
			c.call(b, "search_nodes", fmt.Sprintf(`{"query":%q}`, benchName(i*7919%n)))
		}
	})
	b.Run("open_nodes", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			i++
			c.call(b, "open_nodes", fmt.Sprintf(`{"names":[%q,%q,%q,%q,%q]}`, benchName(i%n), benchName((i+n/5)%n), benchName((i+2*n/5)%n), benchName((i+3*n/5)%n), benchName((i+4*n/5)%n)))
		}
	})
	b.Run("create_entities", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			i++
			var ents bytes.Buffer
			for j := range 10 {
				if j > 0 {
					ents.WriteByte(',')
				}
				fmt.Fprintf(&ents, `{"name":"new-%d-%d","entityType":"note","observations":["added while timing"]}`, i, j)
			}
			c.call(b, "create_entities", `{"entities":[`+ents.String()+`]}`)
		}
	})
	b.Run("add_observations", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			i++
			var adds bytes.Buffer
			for j := range 5 {
				if j > 0 {
					adds.WriteByte(',')
				}
				fmt.Fprintf(&adds, `{"entityName":%q,"contents":["observed %d"]}`, benchName((i*7919+j*104729)%n), i)
			}
			c.call(b, "add_observations", `{"observations":[`+adds.String()+`]}`)
		}
	})
}

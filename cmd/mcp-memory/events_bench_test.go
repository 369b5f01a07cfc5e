package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"path/filepath"
	"testing"

	"github.com/mcpgen/mcpgen"
	"github.com/mcpgen/mcpgen/components/memory/memstore"
	"github.com/mcpgen/mcpgen/eventstore"
	"github.com/mcpgen/mcpgen/generated/memory"
)

// BenchmarkWriteEvents times the writes of mcp-memory with their events
// recorded durably, as mcp-memory runs on SQLite: the graph and the event
// store in one file, over stdio in process. An op is one call: 10 new
// entities (10 events), or one observation added to each of 5 entities
// (5 events). docs/bench/log.md names what an event costs.
func BenchmarkWriteEvents(b *testing.B) {
	ctx := context.Background()
	db := filepath.Join(b.TempDir(), "memory.db")
	store, err := memstore.Open(db)
	if err != nil {
		b.Fatal(err)
	}
	defer store.Close()
	events, err := eventstore.Open(ctx, db)
	if err != nil {
		b.Fatal(err)
	}
	defer events.Close()
	srv := memory.New(store, mcpgen.Options{Events: mcpgen.EventOptions{Store: events}})
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan struct{})
	go func() {
		defer close(done)
		mcpgen.ServeStdio(ctx, srv, inR, outW)
		outW.Close()
	}()
	defer func() { inW.Close(); <-done }()
	c := &pipeClient{w: inW, r: bufio.NewReaderSize(outR, 1<<20)}
	fmt.Fprintf(inW, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}`+"\n")
	if _, err := c.r.ReadSlice('\n'); err != nil {
		b.Fatal(err)
	}
	fmt.Fprintf(inW, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	next := 0
	b.Run("create_entities", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			args := `{"entities":[`
			for i := range 10 {
				if i > 0 {
					args += ","
				}
				args += fmt.Sprintf(`{"name":%q,"entityType":"person","observations":["o"]}`, benchName(next))
				next++
			}
			c.call(b, "create_entities", args+`]}`)
		}
	})
	b.Run("add_observations", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			args := `{"observations":[`
			for j := range 5 {
				if j > 0 {
					args += ","
				}
				args += fmt.Sprintf(`{"entityName":%q,"contents":["seen %d"]}`, benchName((i*5+j)%max(next, 1)), i)
			}
			i++
			c.call(b, "add_observations", args+`]}`)
		}
	})
}

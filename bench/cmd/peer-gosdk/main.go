// Command peer-gosdk serves the benchmark tools (echo, ingest,
// noop_01..noop_48) with github.com/modelcontextprotocol/go-sdk, written as
// its documentation recommends: typed handlers through mcp.AddTool, schemas
// inferred from the Go types (input validation is always on), stdio by
// default, Streamable HTTP with --http ADDR. The library serves 2026-07-28
// requests only from a stateless handler (its stateful one answers them
// with -32022), and legacy sessions only from a stateful one, so --stateless
// chooses: the benchmark passes it in its 2026-07-28 mode.
package main

import (
	"context"
	"flag"
	"log"
	"net/http"
	"os"
	"os/signal"
	"syscall"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/bench/internal/tools"
)

func main() {
	addr := flag.String("http", "", "serve Streamable HTTP on `ADDR` instead of stdio")
	path := flag.String("path", "/mcp", "HTTP `path` of the MCP endpoint")
	stateless := flag.Bool("stateless", false, "serve HTTP statelessly (needed for 2026-07-28 clients; no legacy sessions)")
	flag.Parse()

	s := newServer()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if *addr == "" {
		if err := s.Run(ctx, &mcp.StdioTransport{}); err != nil && ctx.Err() == nil {
			log.Fatal(err)
		}
		return
	}
	mux := http.NewServeMux()
	mux.Handle(*path, mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s },
		&mcp.StreamableHTTPOptions{Stateless: *stateless}))
	hs := &http.Server{Addr: *addr, Handler: mux}
	go func() { <-ctx.Done(); hs.Close() }()
	if err := hs.ListenAndServe(); err != nil && err != http.ErrServerClosed {
		log.Fatal(err)
	}
}

func newServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "bench", Version: "0.1.0"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "echo", Description: tools.EchoDescription},
		func(_ context.Context, _ *mcp.CallToolRequest, in tools.EchoIn) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: in.Message}}}, nil, nil
		})

	// The inferred schema, plus what Go types cannot say: at least one entity.
	ingestSchema, err := jsonschema.For[tools.IngestIn](nil)
	if err != nil {
		log.Fatal(err)
	}
	ingestSchema.Properties["entities"].MinItems = jsonschema.Ptr(1)
	mcp.AddTool(s, &mcp.Tool{Name: "ingest", Description: tools.IngestDescription, InputSchema: ingestSchema},
		func(_ context.Context, _ *mcp.CallToolRequest, in tools.IngestIn) (*mcp.CallToolResult, tools.Counts, error) {
			return nil, tools.Count(in), nil
		})

	for i := 1; i <= tools.NoopCount; i++ {
		mcp.AddTool(s, &mcp.Tool{Name: tools.NoopName(i), Description: tools.NoopDescription},
			func(context.Context, *mcp.CallToolRequest, tools.NoopIn) (*mcp.CallToolResult, any, error) {
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: ""}}}, nil, nil
			})
	}
	return s
}

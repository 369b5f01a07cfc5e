// Command peer-mcpgo serves the benchmark tools (echo, ingest,
// noop_01..noop_48) with github.com/mark3labs/mcp-go, written as its
// documentation recommends: mcp.WithInputSchema[T] / WithOutputSchema[T]
// (schemas inferred from the Go types), NewTypedToolHandler and
// NewStructuredToolHandler, input and output validation switched on, stdio
// by default, Streamable HTTP with --http ADDR (the library's default
// handler, which serves legacy sessions and 2026-07-28 requests).
package main

import (
	"context"
	"encoding/json"
	"flag"
	"log"
	"net/http"
	"os"
	"os/signal"
	"syscall"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpgen/mcpgen/bench/internal/tools"
)

func main() {
	addr := flag.String("http", "", "serve Streamable HTTP on `ADDR` instead of stdio")
	path := flag.String("path", "/mcp", "HTTP `path` of the MCP endpoint")
	flag.Parse()

	s := newServer()
	if *addr == "" {
		if err := server.ServeStdio(s); err != nil {
			log.Fatal(err)
		}
		return
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	mux := http.NewServeMux()
	mux.Handle(*path, server.NewStreamableHTTPServer(s))
	hs := &http.Server{Addr: *addr, Handler: mux}
	go func() { <-ctx.Done(); hs.Close() }()
	if err := hs.ListenAndServe(); err != nil && err != http.ErrServerClosed {
		log.Fatal(err)
	}
}

func newServer() *server.MCPServer {
	s := server.NewMCPServer("bench", "0.1.0",
		server.WithToolCapabilities(false),
		server.WithInputSchemaValidation(),
		server.WithOutputSchemaValidation(),
	)
	s.AddTool(mcp.NewTool("echo",
		mcp.WithDescription(tools.EchoDescription),
		mcp.WithInputSchema[tools.EchoIn](),
	), mcp.NewTypedToolHandler(func(_ context.Context, _ mcp.CallToolRequest, in tools.EchoIn) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText(in.Message), nil
	}))

	ingest := mcp.NewTool("ingest",
		mcp.WithDescription(tools.IngestDescription),
		mcp.WithInputSchema[tools.IngestIn](),
		mcp.WithOutputSchema[tools.Counts](),
	)
	ingest.RawInputSchema = minItems(ingest.RawInputSchema, "entities", 1)
	s.AddTool(ingest, mcp.NewStructuredToolHandler(func(_ context.Context, _ mcp.CallToolRequest, in tools.IngestIn) (tools.Counts, error) {
		return tools.Count(in), nil
	}))

	for i := 1; i <= tools.NoopCount; i++ {
		s.AddTool(mcp.NewTool(tools.NoopName(i),
			mcp.WithDescription(tools.NoopDescription),
			mcp.WithInputSchema[tools.NoopIn](),
		), mcp.NewTypedToolHandler(func(context.Context, mcp.CallToolRequest, tools.NoopIn) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText(""), nil
		}))
	}
	return s
}

// minItems adds what Go types cannot say to an inferred schema: the array
// property prop needs at least n items.
func minItems(schema json.RawMessage, prop string, n int) json.RawMessage {
	var s map[string]any
	if err := json.Unmarshal(schema, &s); err != nil {
		log.Fatal(err)
	}
	s["properties"].(map[string]any)[prop].(map[string]any)["minItems"] = n
	out, err := json.Marshal(s)
	if err != nil {
		log.Fatal(err)
	}
	return out
}

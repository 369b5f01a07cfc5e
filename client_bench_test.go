package mcpgen_test

import (
	"context"
	"net/http/httptest"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen"
	"github.com/mcpgen/mcpgen/generated/everything"
)

// BenchmarkClientCallTool measures one tools/call of a text tool, from the
// client's call to its decoded result, against the everything server over
// HTTP on loopback: this package's client beside the official go-sdk
// client, in each era both speak. The server's work is the same in every
// line; the difference is the client's. Compare ns/op and allocs/op side
// by side; -cpuprofile splits client from server.
func BenchmarkClientCallTool(b *testing.B) {
	srv := everything.New(mcpgen.Options{})
	hs := httptest.NewServer(mcpgen.HTTPHandler(srv, mcpgen.HTTPOptions{}))
	b.Cleanup(func() {
		hs.Close()
		srv.Close()
	})
	ctx := context.Background()
	for _, version := range []string{"2026-07-28", "2025-11-25"} {
		b.Run("mcpgen/"+version, func(b *testing.B) {
			c, err := mcpgen.Connect(ctx, mcpgen.HTTPTransport(hs.URL), mcpgen.ClientOptions{ProtocolVersion: version})
			if err != nil {
				b.Fatal(err)
			}
			defer c.Close()
			b.ReportAllocs()
			for b.Loop() {
				if _, err := c.CallTool(ctx, "test_simple_text", nil); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("go-sdk/"+version, func(b *testing.B) {
			client := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1.0.0"}, nil)
			s, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: hs.URL, MaxRetries: -1}, &mcp.ClientSessionOptions{ProtocolVersion: version})
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			b.ReportAllocs()
			for b.Loop() {
				if _, err := s.CallTool(ctx, &mcp.CallToolParams{Name: "test_simple_text"}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

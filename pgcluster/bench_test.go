package pgcluster_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen"
	"github.com/mcpgen/mcpgen/internal/cluster/pgcluster"
	"github.com/mcpgen/mcpgen/internal/testutil/pgtest"
)

// BenchmarkClusterSession measures what legacy sessions cost on three
// replicas sharing one PostgreSQL schema, each over HTTP on loopback:
//
//   - request: a ping in a session the serving replica has cached, the
//     path of every legacy request but a session's first on a replica;
//   - request+load: the same plus one read of the session from the store,
//     what checking the store on every request would add;
//   - delete: a DELETE on one replica of a session the two others have
//     cached, answered once they have ended it.
func BenchmarkClusterSession(b *testing.B) {
	url, _ := pgtest.URL(b, "bench_sessions")
	var urls []string
	var backends []*pgcluster.Backend
	for range 3 {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		be, err := pgcluster.Open(ctx, url, nil)
		cancel()
		if err != nil {
			b.Fatal(err)
		}
		srv := mcpgen.New(mcpgen.Definition{Name: "bench-sessions", Version: "1"}, mcpgen.Options{Cluster: be})
		ts := httptest.NewServer(mcpgen.HTTPHandler(srv, mcpgen.HTTPOptions{}))
		b.Cleanup(func() { ts.Close(); srv.Close(); _ = be.Close() })
		urls, backends = append(urls, ts.URL), append(backends, be)
	}
	send := func(method, url, sid, body string) (int, string) {
		req, _ := http.NewRequest(method, url, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if sid != "" {
			req.Header.Set("Mcp-Session-Id", sid)
			req.Header.Set("MCP-Protocol-Version", "2025-11-25")
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode, resp.Header.Get("Mcp-Session-Id")
	}
	// open starts a session on replica 0 and has the others cache it.
	open := func() string {
		code, sid := send("POST", urls[0], "", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}`)
		if code != 200 || sid == "" {
			b.Fatalf("initialize: %d", code)
		}
		send("POST", urls[0], sid, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
		for _, u := range urls[1:] {
			if code, _ := send("POST", u, sid, `{"jsonrpc":"2.0","id":2,"method":"ping"}`); code != 200 {
				b.Fatalf("ping: %d", code)
			}
		}
		return sid
	}
	ping := `{"jsonrpc":"2.0","id":3,"method":"ping"}`

	b.Run("request", func(b *testing.B) {
		sid := open()
		for b.Loop() {
			if code, _ := send("POST", urls[1], sid, ping); code != 200 {
				b.Fatalf("ping: %d", code)
			}
		}
	})
	b.Run("request+load", func(b *testing.B) {
		sid := open()
		ctx := context.Background()
		for b.Loop() {
			if _, err := backends[1].LoadSession(ctx, sid); err != nil {
				b.Fatal(err)
			}
			if code, _ := send("POST", urls[1], sid, ping); code != 200 {
				b.Fatalf("ping: %d", code)
			}
		}
	})
	b.Run("delete", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			b.StopTimer()
			sid := open()
			b.StartTimer()
			if code, _ := send("DELETE", urls[0], sid, ""); code != http.StatusNoContent {
				b.Fatalf("DELETE: %d", code)
			}
		}
	})
}

package mcpgen

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// benchPost runs one POST per iteration against a real loopback server
// (client and server allocations both count).
func benchPost(b *testing.B, h http.Header, body string) {
	f := newHTTPFixture(b, HTTPOptions{})
	client := f.ts.Client()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		req, _ := http.NewRequest(http.MethodPost, f.url, strings.NewReader(body))
		req.Header = h
		resp, err := client.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			b.Fatalf("status %d", resp.StatusCode)
		}
	}
}

// benchHandler calls ServeHTTP directly, so that only the transport and
// the core are measured.
func benchHandler(b *testing.B, h http.Header, body string) {
	f := newHTTPFixture(b, HTTPOptions{})
	handler := f.ts.Config.Handler
	h = h.Clone()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		req := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(body))
		req.Host = "localhost"
		req.Header = h
		w := httptest.NewRecorder()
		handler.ServeHTTP(w, req)
		if w.Code != 200 {
			b.Fatalf("status %d: %s", w.Code, w.Body)
		}
	}
}

var (
	callBody = modernBody(1, "tools/call", map[string]any{"name": "echo", "arguments": map[string]any{"message": "hello"}})
	listBody = modernBody(1, "tools/list", nil)
)

func BenchmarkToolsCallModern(b *testing.B) {
	benchPost(b, modernHeaders("tools/call", "echo"), callBody)
}

func BenchmarkToolsListModern(b *testing.B) {
	benchPost(b, modernHeaders("tools/list", ""), listBody)
}

func BenchmarkToolsCallModernHandler(b *testing.B) {
	benchHandler(b, modernHeaders("tools/call", "echo"), callBody)
}

func BenchmarkToolsListModernHandler(b *testing.B) {
	benchHandler(b, modernHeaders("tools/list", ""), listBody)
}

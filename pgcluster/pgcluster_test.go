package pgcluster_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen"
	"github.com/mcpgen/mcpgen/internal/testutil/pgtest"
	"github.com/mcpgen/mcpgen/pgcluster"
)

// TestSessionIDThatCannotExist: in cluster mode an Mcp-Session-Id that is
// not valid UTF-8 (or holds a NUL byte) once reached PostgreSQL, which
// refused the parameter (SQLSTATE 22021), and that refusal was taken for
// an outage: 503 with Retry-After, so a client would retry forever. Such
// an id names no session: the answer is the ordinary 404, as for any
// unknown session, on POST and on DELETE.
func TestSessionIDThatCannotExist(t *testing.T) {
	url, _ := pgtest.URL(t, "pgcluster_sid")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	b, err := pgcluster.Open(ctx, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	srv := mcpgen.New(mcpgen.Definition{Name: "sid-test", Version: "1"}, mcpgen.Options{Cluster: b})
	ts := httptest.NewServer(mcpgen.HTTPHandler(srv, mcpgen.HTTPOptions{}))
	t.Cleanup(func() {
		ts.Close()
		srv.Close()
		b.Close()
	})

	for _, sid := range []string{"no-such-session", "\xff\xfe-not-utf8", "nul\x00byte"} {
		for _, method := range []string{http.MethodPost, http.MethodDelete} {
			req, err := http.NewRequest(method, ts.URL, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			req.Header.Set("MCP-Protocol-Version", "2025-11-25")
			req.Header["Mcp-Session-Id"] = []string{sid}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				if strings.Contains(sid, "\x00") {
					continue // net/http will not send a NUL in a header; the backend test covers it
				}
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusNotFound || resp.Header.Get("Retry-After") != "" {
				t.Errorf("%s with session id %q: %d (Retry-After %q) %s, want 404 as for any unknown session",
					method, sid, resp.StatusCode, resp.Header.Get("Retry-After"), body)
				continue
			}
			if method == http.MethodPost {
				var m struct {
					Error struct {
						Message string `json:"message"`
					} `json:"error"`
				}
				if err := json.Unmarshal(body, &m); err != nil || !strings.Contains(strings.ToLower(m.Error.Message), "session not found") {
					t.Errorf("POST with session id %q: body %s, want a session-not-found error", sid, body)
				}
			}
		}
	}
}

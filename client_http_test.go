package mcpgen_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen"
)

// legacyServer is a 2025-11-25 server that knows nothing of
// server/discover, answers tools/call on an SSE stream that breaks after
// its first event, and sends the response when the client resumes with
// Last-Event-ID.
type legacyServer struct {
	mu       sync.Mutex
	pending  json.RawMessage // id of the call to answer on resumption
	closedAt time.Time
	resumed  time.Time
	lastID   string
	deleted  bool
	methods  []string
}

func (s *legacyServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch r.Method {
	case http.MethodDelete:
		s.deleted = true
		return
	case http.MethodGet:
		if r.Header.Get("Last-Event-ID") == "" {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		s.resumed, s.lastID = time.Now(), r.Header.Get("Last-Event-ID")
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprintf(w, "id: e2\ndata: {\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"resumed\"}]}}\n\n", s.pending)
		return
	}
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	_ = json.NewDecoder(r.Body).Decode(&m)
	s.methods = append(s.methods, m.Method)
	switch m.Method {
	case "initialize":
		w.Header().Set("Mcp-Session-Id", "s1")
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"legacy","version":"1"}}}`, m.ID)
	case "notifications/initialized":
		w.WriteHeader(http.StatusAccepted)
	case "tools/call":
		if r.Header.Get("Mcp-Session-Id") != "s1" {
			http.Error(w, "no session", http.StatusBadRequest)
			return
		}
		s.pending = m.ID
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, "id: e1\nretry: 150\ndata: \n\n")
		s.closedAt = time.Now()
	default:
		// server/discover and anything else: a legacy server's refusal.
		http.Error(w, "Bad Request: session required", http.StatusBadRequest)
	}
}

// A server that refuses server/discover gets the initialize handshake;
// an SSE answer that breaks is resumed after the server's retry delay.
func TestClientFallbackAndResumption(t *testing.T) {
	ls := &legacyServer{}
	hs := httptest.NewServer(ls)
	defer hs.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := mcpgen.Connect(ctx, mcpgen.HTTPTransport(hs.URL), mcpgen.ClientOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if c.ProtocolVersion() != "2025-11-25" || c.ServerInfo().Name != "legacy" {
		t.Errorf("version %q, server %+v", c.ProtocolVersion(), c.ServerInfo())
	}
	res, err := c.CallTool(ctx, "anything", nil)
	if err != nil || res.Content[0].Text != "resumed" {
		t.Fatalf("call: %+v, %v", res, err)
	}
	if err := c.Close(); err != nil {
		t.Errorf("close: %v", err)
	}
	ls.mu.Lock()
	defer ls.mu.Unlock()
	if ls.lastID != "e1" {
		t.Errorf("Last-Event-ID %q, want e1", ls.lastID)
	}
	// Waiting at least the server's retry cannot fail on a slow machine;
	// no upper bound is asserted, as one could.
	if d := ls.resumed.Sub(ls.closedAt); d < 140*time.Millisecond {
		t.Errorf("resumed after %s, want at least the server's retry of 150ms", d)
	}
	if !ls.deleted {
		t.Error("Close did not end the session with DELETE")
	}
	if ls.methods[0] != "server/discover" || ls.methods[1] != "initialize" {
		t.Errorf("methods %v, want server/discover then initialize", ls.methods)
	}
}

// Nothing a server sends can make the client hold more than its bounds:
// an answer larger than MaxMessageBytes fails the call, and a server that
// hands out cursors forever is stopped at MaxPages.
func TestClientBounds(t *testing.T) {
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		_ = json.NewDecoder(r.Body).Decode(&m)
		w.Header().Set("Content-Type", "application/json")
		switch m.Method {
		case "server/discover":
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{}}}`, m.ID)
		case "tools/list":
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"resultType":"complete","tools":[],"nextCursor":"c%d"}}`, m.ID, time.Now().UnixNano())
		default:
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"resultType":"complete","contents":[{"uri":"x","text":%q}]}}`, m.ID, strings.Repeat("x", 4096))
		}
	}))
	defer hs.Close()
	ctx := context.Background()
	c, err := mcpgen.Connect(ctx, mcpgen.HTTPTransport(hs.URL), mcpgen.ClientOptions{MaxMessageBytes: 1024, MaxPages: 5})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.ReadResource(ctx, "x"); err == nil || !strings.Contains(err.Error(), "1024") {
		t.Errorf("large answer: %v, want an error naming the limit", err)
	}
	if _, err := c.ListTools(ctx); err == nil || !strings.Contains(err.Error(), "5 pages") {
		t.Errorf("endless pages: %v, want an error naming the bound", err)
	}
}

// A legacy server that ended the session answers 404: the client starts a
// new session and sends the request again in it.
func TestClientRenewsSession(t *testing.T) {
	var mu sync.Mutex
	sessions, inits, initialized := 0, 0, 0
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		if r.Method != http.MethodPost {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		_ = json.NewDecoder(r.Body).Decode(&m)
		current := fmt.Sprintf("s%d", sessions)
		w.Header().Set("Content-Type", "application/json")
		switch m.Method {
		case "initialize":
			inits++
			sessions++
			w.Header().Set("Mcp-Session-Id", fmt.Sprintf("s%d", sessions))
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"x","version":"1"}}}`, m.ID)
		case "notifications/initialized":
			initialized++
			w.WriteHeader(http.StatusAccepted)
		case "ping":
			if r.Header.Get("Mcp-Session-Id") != current || sessions == 1 && inits == 1 && initialized == 1 && r.Header.Get("X-Expire") == "1" {
				http.Error(w, "Session not found", http.StatusNotFound)
				return
			}
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{}}`, m.ID)
		default:
			http.Error(w, "unknown", http.StatusBadRequest)
		}
	}))
	defer hs.Close()
	ctx := context.Background()
	c, err := mcpgen.Connect(ctx, mcpgen.HTTPTransport(hs.URL), mcpgen.ClientOptions{ProtocolVersion: "2025-11-25", Header: http.Header{"X-Expire": {"1"}}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Ping(ctx); err != nil {
		t.Fatalf("ping across a renewal: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if inits != 2 || initialized != 2 || sessions != 2 {
		t.Errorf("initialize %d, initialized %d, sessions %d; want 2 of each", inits, initialized, sessions)
	}
}

// A server that refuses the credentials is not asked again in the other
// era: the refusal comes back from Connect, and the ClientAuth is
// consulted a bounded number of times.
func TestClientAuthRefused(t *testing.T) {
	var mu sync.Mutex
	posts := 0
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		posts++
		mu.Unlock()
		if r.Header.Get("Authorization") != "Bearer good" {
			w.Header().Set("WWW-Authenticate", `Bearer error="invalid_token"`)
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		http.Error(w, "unexpected", http.StatusTeapot)
	}))
	defer hs.Close()
	_, err := mcpgen.Connect(context.Background(), mcpgen.HTTPTransport(hs.URL), mcpgen.ClientOptions{Auth: mcpgen.StaticToken("bad")})
	if err == nil || !strings.Contains(err.Error(), "refused the token") {
		t.Fatalf("connect: %v, want the token's refusal", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if posts != 1 {
		t.Errorf("%d requests, want 1 (no retry with a fixed token, no fallback to initialize)", posts)
	}
}

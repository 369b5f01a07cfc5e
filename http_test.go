package mcpgen

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/jsonrpc"
)

// fixture is a small hand-built server behind the handler.
type httpFixture struct {
	srv     *Server
	ts      *httptest.Server
	url     string
	started chan string // the block tool reports its request here
	stopped chan error  // ... and its context's end here
}

const messageSchema = `{"type":"object","properties":{"message":{"type":"string"}},"required":["message"]}`

func text(s string) *CallToolResult {
	return &CallToolResult{Content: []Content{TextContent(s)}}
}

func newHTTPFixture(t testing.TB, opts HTTPOptions) *httpFixture {
	t.Helper()
	return newFixtureWith(t, Options{}, opts)
}

// newFixtureWith is newFixture with server options (limits, say).
func newFixtureWith(t testing.TB, sopts Options, opts HTTPOptions) *httpFixture {
	t.Helper()
	f := &httpFixture{started: make(chan string, 4), stopped: make(chan error, 4)}
	empty := json.RawMessage(`{"type":"object"}`)
	def := Definition{
		Name: "test", Version: "1.0.0",
		Tools: []Tool{
			{Info: ToolInfo{Name: "echo", Description: "Echoes message.", InputSchema: json.RawMessage(messageSchema)},
				Call: func(_ context.Context, req *Request, args json.RawMessage) (*CallToolResult, error) {
					var a struct{ Message string }
					_ = json.Unmarshal(args, &a)
					if req.Auth.Subject != "" {
						return text(a.Message + " from " + req.Auth.Subject), nil
					}
					return text(a.Message), nil
				}},
			{Info: ToolInfo{Name: "progress", Description: "Reports progress three times.", InputSchema: empty},
				Call: func(ctx context.Context, req *Request, _ json.RawMessage) (*CallToolResult, error) {
					for i := 1; i <= 3; i++ {
						if err := req.Progress(ctx, float64(i), 3, ""); err != nil {
							return nil, err
						}
					}
					return text("done"), nil
				}},
			{Info: ToolInfo{Name: "ask", Description: "Asks the client to sample.", InputSchema: json.RawMessage(messageSchema)},
				Call: func(ctx context.Context, req *Request, args json.RawMessage) (*CallToolResult, error) {
					var a struct{ Message string }
					_ = json.Unmarshal(args, &a)
					raw, err := req.Ask(ctx, "k", "sampling/createMessage", map[string]any{
						"messages":  []any{map[string]any{"role": "user", "content": map[string]any{"type": "text", "text": a.Message}}},
						"maxTokens": 100,
					})
					if err != nil {
						return nil, err
					}
					var r struct {
						Content struct{ Text string }
					}
					_ = json.Unmarshal(raw, &r)
					return text("LLM response: " + r.Content.Text), nil
				}},
			{Info: ToolInfo{Name: "block", Description: "Blocks until cancelled.", InputSchema: empty},
				Call: func(ctx context.Context, req *Request, _ json.RawMessage) (*CallToolResult, error) {
					f.started <- req.Method
					<-ctx.Done()
					f.stopped <- ctx.Err()
					return nil, ctx.Err()
				}},
			{Info: ToolInfo{Name: "slow", Description: "Takes 150ms.", InputSchema: empty},
				Call: func(ctx context.Context, _ *Request, _ json.RawMessage) (*CallToolResult, error) {
					select {
					case <-time.After(150 * time.Millisecond):
					case <-ctx.Done():
						return nil, ctx.Err()
					}
					return text("slow done"), nil
				}},
		},
		Resources: []Resource{{
			Info: ResourceInfo{URI: "test://watched", Name: "watched"},
			Read: func(context.Context, *Request) (*ReadResourceResult, error) {
				s := "hello"
				return &ReadResourceResult{Contents: []ResourceContents{{URI: "test://watched", Text: &s}}}, nil
			},
		}},
	}
	f.srv = New(def, sopts)
	f.ts = httptest.NewServer(HTTPHandler(f.srv, opts))
	f.url = f.ts.URL + "/mcp"
	t.Cleanup(func() {
		f.srv.Close()
		f.ts.Close()
	})
	return f
}

// ---- client helpers ----

type msg struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	} `json:"error,omitempty"`
}

func modernBody(id any, method string, params map[string]any) string {
	if params == nil {
		params = map[string]any{}
	}
	meta, _ := params["_meta"].(map[string]any)
	if meta == nil {
		meta = map[string]any{}
	}
	meta[metaProtocolVersion] = version20260728
	meta[metaClientCapabilities] = map[string]any{}
	params["_meta"] = meta
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	return string(b)
}

func modernHeaders(method, name string) http.Header {
	h := http.Header{}
	h.Set("Content-Type", "application/json")
	h.Set("Accept", "application/json, text/event-stream")
	h.Set("MCP-Protocol-Version", version20260728)
	h.Set("Mcp-Method", method)
	if name != "" {
		h.Set("Mcp-Name", name)
	}
	return h
}

func legacyHeaders(session string) http.Header {
	h := http.Header{}
	h.Set("Content-Type", "application/json")
	h.Set("Accept", "application/json, text/event-stream")
	if session != "" {
		h.Set("Mcp-Session-Id", session)
		h.Set("MCP-Protocol-Version", version20251125)
	}
	return h
}

func do(t testing.TB, ctx context.Context, method, url string, h http.Header, body string) *http.Response {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, rd)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range h {
		req.Header[k] = v
	}
	if host := h.Get("Host"); host != "" {
		req.Host = host
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

func post(t testing.TB, url string, h http.Header, body string) *http.Response {
	t.Helper()
	return do(t, context.Background(), http.MethodPost, url, h, body)
}

// decodeJSON reads a whole application/json response.
func decodeJSON(t testing.TB, resp *http.Response, wantStatus int) msg {
	t.Helper()
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != wantStatus {
		t.Fatalf("status %d, want %d; body %s", resp.StatusCode, wantStatus, b)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
		t.Fatalf("Content-Type %q, body %s", ct, b)
	}
	var m msg
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("body %s: %v", b, err)
	}
	return m
}

func wantHTTPError(t testing.TB, resp *http.Response, status int, code int64, id string) {
	t.Helper()
	m := decodeJSON(t, resp, status)
	if m.Error == nil || m.Error.Code != code {
		t.Fatalf("error %+v, want code %d", m.Error, code)
	}
	if string(m.ID) != id {
		t.Fatalf("id %s, want %q", m.ID, id)
	}
}

// sse reads an event stream one event at a time.
type sse struct {
	t        testing.TB
	r        *bufio.Reader
	comments int
	retry    string // the last retry field
}

func newSSE(t testing.TB, resp *http.Response) *sse {
	t.Helper()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("Content-Type %q (status %d), body %s", ct, resp.StatusCode, b)
	}
	if resp.Header.Get("X-Accel-Buffering") != "no" || resp.Header.Get("Cache-Control") != "no-cache" {
		t.Fatalf("missing SSE headers: %v", resp.Header)
	}
	return &sse{t: t, r: bufio.NewReader(resp.Body)}
}

// next returns the next message, io.EOF at the end of the stream.
func (s *sse) next() (msg, error) {
	var data []string
	for {
		line, err := s.r.ReadString('\n')
		if err != nil {
			return msg{}, err
		}
		line = strings.TrimRight(line, "\n")
		switch {
		case line == "":
			if len(data) == 0 {
				continue
			}
			if len(data) != 1 {
				s.t.Errorf("event with %d data lines", len(data))
			}
			var m msg
			if err := json.Unmarshal([]byte(data[0]), &m); err != nil {
				s.t.Fatalf("data %q: %v", data[0], err)
			}
			return m, nil
		case strings.HasPrefix(line, ":"):
			s.comments++
		case strings.HasPrefix(line, "data: "):
			data = append(data, strings.TrimPrefix(line, "data: "))
		case line == "event: message":
		case strings.HasPrefix(line, "retry: "):
			s.retry = strings.TrimPrefix(line, "retry: ")
		default:
			s.t.Fatalf("unexpected SSE line %q", line)
		}
	}
}

func (s *sse) must() msg {
	s.t.Helper()
	m, err := s.next()
	if err != nil {
		s.t.Fatalf("reading SSE: %v", err)
	}
	return m
}

// initialize opens a legacy session and returns its id.
func httpInitialize(t testing.TB, f *httpFixture, version string) string {
	t.Helper()
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":%q,"capabilities":{"sampling":{}},"clientInfo":{"name":"t","version":"1"}}}`, version)
	resp := post(t, f.url, legacyHeaders(""), body)
	sid := resp.Header.Get("Mcp-Session-Id")
	m := decodeJSON(t, resp, 200)
	if m.Error != nil {
		t.Fatalf("initialize: %+v", m.Error)
	}
	if !regexp.MustCompile(`^[\x21-\x7E]+$`).MatchString(sid) {
		t.Fatalf("session id %q", sid)
	}
	resp = post(t, f.url, legacyHeaders(sid), `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	resp.Body.Close()
	if resp.StatusCode != 202 {
		t.Fatalf("initialized: %d", resp.StatusCode)
	}
	return sid
}

// ---- legacy ----

func TestLegacySessionLifecycle(t *testing.T) {
	f := newHTTPFixture(t, HTTPOptions{})
	sid := httpInitialize(t, f, version20251125)

	m := decodeJSON(t, post(t, f.url, legacyHeaders(sid), `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`), 200)
	var res struct{ Tools []struct{ Name string } }
	if err := json.Unmarshal(m.Result, &res); err != nil || len(res.Tools) != 5 {
		t.Fatalf("tools/list: %s %v", m.Result, err)
	}
	if strings.Contains(string(m.Result), "resultType") {
		t.Fatalf("legacy result carries resultType: %s", m.Result)
	}

	resp := do(t, context.Background(), http.MethodDelete, f.url, legacyHeaders(sid), "")
	resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent {
		t.Fatalf("DELETE: %d", resp.StatusCode)
	}
	wantHTTPError(t, post(t, f.url, legacyHeaders(sid), `{"jsonrpc":"2.0","id":3,"method":"tools/list"}`), 404, -32600, "3")
	wantHTTPError(t, do(t, context.Background(), http.MethodDelete, f.url, legacyHeaders(sid), ""), 404, -32600, "")
	wantHTTPError(t, do(t, context.Background(), http.MethodDelete, f.url, legacyHeaders(""), ""), 400, -32600, "")
}

func TestLegacySamplingRoundTrip(t *testing.T) {
	f := newHTTPFixture(t, HTTPOptions{})
	sid := httpInitialize(t, f, version20251125)
	resp := post(t, f.url, legacyHeaders(sid), `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"ask","arguments":{"message":"capital of France?"}}}`)
	defer resp.Body.Close()
	s := newSSE(t, resp)
	req := s.must()
	if req.Method != "sampling/createMessage" || len(req.ID) == 0 {
		t.Fatalf("first event %+v, want a sampling request", req)
	}
	if !strings.Contains(string(req.Params), "capital of France?") {
		t.Fatalf("params %s", req.Params)
	}
	answer := fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"role":"assistant","content":{"type":"text","text":"Paris"},"model":"m","stopReason":"endTurn"}}`, req.ID)
	ack := post(t, f.url, legacyHeaders(sid), answer)
	ack.Body.Close()
	if ack.StatusCode != 202 {
		t.Fatalf("answer POST: %d", ack.StatusCode)
	}
	final := s.must()
	if string(final.ID) != "7" || !strings.Contains(string(final.Result), "LLM response: Paris") {
		t.Fatalf("final %+v %s", final, final.Result)
	}
	if _, err := s.next(); err != io.EOF {
		t.Fatalf("stream not closed after the response: %v", err)
	}
}

func TestLegacyCancellation(t *testing.T) {
	f := newHTTPFixture(t, HTTPOptions{})
	sid := httpInitialize(t, f, version20251125)

	// A disconnect does not cancel a legacy session request.
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, f.url,
			strings.NewReader(`{"jsonrpc":"2.0","id":"slow-1","method":"tools/call","params":{"name":"block"}}`))
		req.Header = legacyHeaders(sid)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
	}()
	<-f.started
	cancel()
	<-done
	select {
	case err := <-f.stopped:
		t.Fatalf("disconnect cancelled the legacy handler: %v", err)
	case <-time.After(100 * time.Millisecond):
	}

	// notifications/cancelled does.
	resp := post(t, f.url, legacyHeaders(sid), `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"slow-1","reason":"bored"}}`)
	resp.Body.Close()
	if resp.StatusCode != 202 {
		t.Fatalf("cancelled: %d", resp.StatusCode)
	}
	select {
	case err := <-f.stopped:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("handler ended with %v", err)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("notifications/cancelled did not cancel the handler")
	}

	// DELETE cancels what is still running in the session.
	go func() {
		resp := post(t, f.url, legacyHeaders(sid), `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"block"}}`)
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}()
	<-f.started
	resp = do(t, context.Background(), http.MethodDelete, f.url, legacyHeaders(sid), "")
	resp.Body.Close()
	select {
	case <-f.stopped:
	case <-time.After(2 * time.Second):
		t.Fatal("DELETE did not cancel the session's handler")
	}
}

func TestBatch(t *testing.T) {
	f := newHTTPFixture(t, HTTPOptions{})
	batch := `[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/initialized"},{"jsonrpc":"2.0","id":2,"method":"tools/list"},{"jsonrpc":"2.0","id":3}]`
	// A 2025-03-26 session allows batches (this one without the header,
	// which 2025-03-26 did not define).
	sid := httpInitialize(t, f, version20250326)
	h := legacyHeaders(sid)
	h.Del("MCP-Protocol-Version")
	resp := post(t, f.url, h, batch)
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("status %d", resp.StatusCode)
	}
	var out []msg
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		t.Fatal(err)
	}
	// The last member has an id but neither result nor error: it is not a
	// valid response, so it is refused rather than silently dropped.
	if len(out) != 3 || string(out[0].ID) != "1" || string(out[1].ID) != "2" || out[1].Error != nil ||
		out[2].Error == nil || out[2].Error.Code != jsonrpc.CodeInvalidRequest {
		t.Fatalf("batch answer %+v", out)
	}

	// Without a session (initialize may not be batched), in a 2025-11-25
	// session or from a 2026-07-28 client, batches are refused.
	wantHTTPError(t, post(t, f.url, legacyHeaders(""), `[{"jsonrpc":"2.0","id":1,"method":"ping"}]`), 400, -32600, "")
	sid = httpInitialize(t, f, version20251125)
	wantHTTPError(t, post(t, f.url, legacyHeaders(sid), `[{"jsonrpc":"2.0","id":1,"method":"ping"}]`), 400, -32600, "")
	wantHTTPError(t, post(t, f.url, modernHeaders("tools/list", ""), "["+modernBody(1, "tools/list", nil)+"]"), 400, -32600, "")
}

// ---- modern ----

func TestModernToolsCall(t *testing.T) {
	f := newHTTPFixture(t, HTTPOptions{})
	h := modernHeaders("tools/call", "echo")
	h.Set("Mcp-Session-Id", "ignored-by-modern-requests")
	resp := post(t, f.url, h, modernBody(1, "tools/call", map[string]any{"name": "echo", "arguments": map[string]any{"message": "hi"}}))
	if resp.Header.Get("Mcp-Session-Id") != "" {
		t.Fatal("modern response carries a session id")
	}
	m := decodeJSON(t, resp, 200)
	var res struct {
		ResultType string `json:"resultType"`
		Content    []struct{ Text string }
	}
	if err := json.Unmarshal(m.Result, &res); err != nil || res.ResultType != "complete" || len(res.Content) != 1 || res.Content[0].Text != "hi" {
		t.Fatalf("result %s: %v", m.Result, err)
	}
}

func TestModernProgressStream(t *testing.T) {
	f := newHTTPFixture(t, HTTPOptions{})
	body := modernBody("p1", "tools/call", map[string]any{"name": "progress", "_meta": map[string]any{"progressToken": "tok"}})
	resp := post(t, f.url, modernHeaders("tools/call", "progress"), body)
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("status %d", resp.StatusCode)
	}
	s := newSSE(t, resp)
	for i := 1; i <= 3; i++ {
		m := s.must()
		var p struct {
			ProgressToken string  `json:"progressToken"`
			Progress      float64 `json:"progress"`
		}
		_ = json.Unmarshal(m.Params, &p)
		if m.Method != "notifications/progress" || p.ProgressToken != "tok" || p.Progress != float64(i) {
			t.Fatalf("event %d: %+v %s", i, m, m.Params)
		}
	}
	final := s.must()
	if string(final.ID) != `"p1"` || !strings.Contains(string(final.Result), `"resultType":"complete"`) {
		t.Fatalf("final %+v %s", final, final.Result)
	}
	if _, err := s.next(); err != io.EOF {
		t.Fatalf("stream not closed: %v", err)
	}
}

func TestModernErrors(t *testing.T) {
	f := newHTTPFixture(t, HTTPOptions{})
	t.Run("header mismatch", func(t *testing.T) {
		wantHTTPError(t, post(t, f.url, modernHeaders("prompts/list", ""), modernBody(1, "tools/list", nil)), 400, -32020, "1")
	})
	t.Run("missing Mcp-Name", func(t *testing.T) {
		body := modernBody(2, "tools/call", map[string]any{"name": "echo", "arguments": map[string]any{"message": "x"}})
		wantHTTPError(t, post(t, f.url, modernHeaders("tools/call", ""), body), 400, -32020, "2")
	})
	t.Run("missing _meta", func(t *testing.T) {
		wantHTTPError(t, post(t, f.url, modernHeaders("server/discover", ""), `{"jsonrpc":"2.0","id":101,"method":"server/discover","params":{}}`), 400, -32602, "101")
	})
	t.Run("unsupported version", func(t *testing.T) {
		h := modernHeaders("server/discover", "")
		h.Set("MCP-Protocol-Version", "v999.0.0")
		body := strings.Replace(modernBody(301, "server/discover", nil), version20260728, "v999.0.0", 1)
		wantHTTPError(t, post(t, f.url, h, body), 400, -32022, "301")
	})
	t.Run("unknown method", func(t *testing.T) {
		wantHTTPError(t, post(t, f.url, modernHeaders("unknown/method", ""), modernBody(601, "unknown/method", nil)), 404, -32601, "601")
	})
	t.Run("initialize", func(t *testing.T) {
		body := modernBody(603, "initialize", map[string]any{"protocolVersion": "2025-11-25", "capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "c", "version": "1"}})
		resp := post(t, f.url, modernHeaders("initialize", ""), body)
		if resp.Header.Get("Mcp-Session-Id") != "" {
			t.Fatal("session issued to a stateless client")
		}
		wantHTTPError(t, resp, 404, -32601, "603")
	})
	t.Run("removed method", func(t *testing.T) {
		wantHTTPError(t, post(t, f.url, modernHeaders("ping", ""), modernBody(602, "ping", nil)), 404, -32601, "602")
	})
	t.Run("parse error", func(t *testing.T) {
		wantHTTPError(t, post(t, f.url, modernHeaders("tools/list", ""), `{"jsonrpc":`), 400, -32700, "")
	})
	t.Run("invalid request", func(t *testing.T) {
		wantHTTPError(t, post(t, f.url, modernHeaders("tools/list", ""), `{"jsonrpc":"1.0","id":4,"method":"tools/list"}`), 400, -32600, "4")
	})
	t.Run("content type", func(t *testing.T) {
		h := modernHeaders("tools/list", "")
		h.Set("Content-Type", "text/plain")
		wantHTTPError(t, post(t, f.url, h, modernBody(1, "tools/list", nil)), 415, -32600, "")
	})
	t.Run("other method", func(t *testing.T) {
		resp := do(t, context.Background(), http.MethodPut, f.url, modernHeaders("tools/list", ""), "{}")
		if resp.Header.Get("Allow") != "GET, POST, DELETE" {
			t.Fatalf("Allow %q", resp.Header.Get("Allow"))
		}
		wantHTTPError(t, resp, 405, -32600, "")
	})
	t.Run("modern GET", func(t *testing.T) {
		h := modernHeaders("", "")
		h.Set("Accept", "text/event-stream")
		resp := do(t, context.Background(), http.MethodGet, f.url, h, "")
		if resp.Header.Get("Allow") != "POST" {
			t.Fatalf("Allow %q", resp.Header.Get("Allow"))
		}
		wantHTTPError(t, resp, 405, -32600, "")
	})
}

// TestModernNotificationWithoutMeta: a stateless client's notification
// carries no _meta.protocolVersion (the 2026-07-28 schema defines none for
// notifications) and maybe no Mcp-Method; the Go SDK sends
// notifications/cancelled so when a call's context ends, and a 400 would
// make it drop its connection. It is accepted (202); headers that say
// something else are still refused.
func TestModernNotificationWithoutMeta(t *testing.T) {
	f := newHTTPFixture(t, HTTPOptions{})
	body := `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7,"reason":"context canceled"}}`
	status := func(h http.Header, body string) int {
		t.Helper()
		resp := post(t, f.url, h, body)
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode
	}
	if got := status(modernHeaders("notifications/cancelled", ""), body); got != 202 {
		t.Errorf("with Mcp-Method: %d, want 202", got)
	}
	if got := status(modernHeaders("", ""), body); got != 202 {
		t.Errorf("without Mcp-Method: %d, want 202", got)
	}
	if got := status(modernHeaders("tools/list", ""), body); got != 400 {
		t.Errorf("with a mismatching Mcp-Method: %d, want 400", got)
	}
	h := modernHeaders("notifications/cancelled", "")
	h.Set("MCP-Protocol-Version", "v999.0.0")
	if got := status(h, body); got != 400 {
		t.Errorf("with an unsupported MCP-Protocol-Version: %d, want 400", got)
	}
	withMeta := `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7,"_meta":{"io.modelcontextprotocol/protocolVersion":"2025-11-25"}}}`
	if got := status(modernHeaders("notifications/cancelled", ""), withMeta); got != 400 {
		t.Errorf("with a _meta.protocolVersion that contradicts the header: %d, want 400", got)
	}
	// A request still needs its _meta.
	wantHTTPError(t, post(t, f.url, modernHeaders("tools/list", ""), `{"jsonrpc":"2.0","id":8,"method":"tools/list"}`), 400, -32602, "8")
}

func TestModernDisconnectCancels(t *testing.T) {
	f := newHTTPFixture(t, HTTPOptions{})
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, f.url, strings.NewReader(modernBody(1, "tools/call", map[string]any{"name": "block"})))
		req.Header = modernHeaders("tools/call", "block")
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
		}
	}()
	<-f.started
	cancel()
	select {
	case err := <-f.stopped:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("handler ended with %v", err)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("disconnect did not cancel the stateless handler")
	}
}

func TestKeepAlive(t *testing.T) {
	f := newHTTPFixture(t, HTTPOptions{KeepAlive: 20 * time.Millisecond})
	resp := post(t, f.url, modernHeaders("tools/call", "slow"), modernBody(1, "tools/call", map[string]any{"name": "slow"}))
	defer resp.Body.Close()
	s := newSSE(t, resp)
	final := s.must()
	if !strings.Contains(string(final.Result), "slow done") {
		t.Fatalf("final %s", final.Result)
	}
	if s.comments < 2 {
		t.Fatalf("%d keep-alive comments, want several", s.comments)
	}
}

// ---- transport guards ----

func TestDNSRebinding(t *testing.T) {
	f := newHTTPFixture(t, HTTPOptions{})
	cases := []struct {
		name, host, origin string
		status             int
	}{
		{"forged host", "evil.example.com", "", 403},
		{"forged host and origin", "evil.example.com", "http://evil.example.com", 403},
		{"evil origin", "", "http://evil.example.com", 403},
		{"null origin", "", "null", 403},
		{"localhost", "localhost:1234", "http://localhost:1234", 200},
		{"ipv6 loopback", "[::1]:80", "http://[::1]", 200},
		{"loopback origin", "", "http://127.0.0.1:3000", 200},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := modernHeaders("tools/list", "")
			if c.host != "" {
				h.Set("Host", c.host)
			}
			if c.origin != "" {
				h.Set("Origin", c.origin)
			}
			resp := post(t, f.url, h, modernBody(1, "tools/list", nil))
			if c.status == 403 {
				wantHTTPError(t, resp, 403, -32600, "")
			} else {
				decodeJSON(t, resp, c.status)
			}
		})
	}

	g := newHTTPFixture(t, HTTPOptions{AllowedHosts: []string{"mcp.example.com"}, AllowedOrigins: []string{"https://app.example.com"}})
	h := modernHeaders("tools/list", "")
	h.Set("Host", "mcp.example.com:8443")
	h.Set("Origin", "https://app.example.com")
	decodeJSON(t, post(t, g.url, h, modernBody(1, "tools/list", nil)), 200)
	h.Set("Origin", "https://other.example.com")
	wantHTTPError(t, post(t, g.url, h, modernBody(1, "tools/list", nil)), 403, -32600, "")
	h.Set("Origin", "https://mcp.example.com")
	decodeJSON(t, post(t, g.url, h, modernBody(1, "tools/list", nil)), 200)
}

// TestRefusalNamesTheFlag: a refused Host or Origin says which flag
// accepts it, so that an operator behind a proxy knows what to pass.
func TestRefusalNamesTheFlag(t *testing.T) {
	f := newHTTPFixture(t, HTTPOptions{})
	for _, c := range []struct{ host, origin, want string }{
		{"bookmarks.acme.dev", "", `Forbidden: host "bookmarks.acme.dev" is not allowed (accept it with --allow-host bookmarks.acme.dev, or HTTPOptions.AllowedHosts)`},
		{"bookmarks.acme.dev:8443", "", `--allow-host bookmarks.acme.dev,`},
		{"", "https://app.acme.dev/", `Forbidden: origin "https://app.acme.dev/" is not allowed (accept it with --allow-origin https://app.acme.dev, or HTTPOptions.AllowedOrigins)`},
	} {
		h := modernHeaders("tools/list", "")
		if c.host != "" {
			h.Set("Host", c.host)
		}
		if c.origin != "" {
			h.Set("Origin", c.origin)
		}
		m := decodeJSON(t, post(t, f.url, h, modernBody(1, "tools/list", nil)), 403)
		if m.Error == nil || !strings.Contains(m.Error.Message, c.want) {
			t.Errorf("host %q origin %q: error %+v, want it to contain %q", c.host, c.origin, m.Error, c.want)
		}
	}
}

func TestBodyTooLarge(t *testing.T) {
	f := newFixtureWith(t, Options{Limits: Limits{MaxMessageBytes: 1024}}, HTTPOptions{})
	big := modernBody(1, "tools/call", map[string]any{"name": "echo", "arguments": map[string]any{"message": strings.Repeat("x", 2048)}})
	wantHTTPError(t, post(t, f.url, modernHeaders("tools/call", "echo"), big), 413, -32600, "")

	// Without a Content-Length, the limit is found while reading.
	req, _ := http.NewRequest(http.MethodPost, f.url, io.MultiReader(strings.NewReader(big)))
	req.Header = modernHeaders("tools/call", "echo")
	req.ContentLength = -1
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	wantHTTPError(t, resp, 413, -32600, "")
}

func TestAuth(t *testing.T) {
	f := newHTTPFixture(t, HTTPOptions{Auth: AuthFunc(func(r *http.Request) (Principal, error) {
		switch r.Header.Get("Authorization") {
		case "Bearer good":
			return Principal{Subject: "alice"}, nil
		case "Bearer weak":
			return Principal{}, &AuthError{Status: 403, Header: http.Header{"Www-Authenticate": {`Bearer error="insufficient_scope"`}}}
		}
		return Principal{}, errors.New("no token")
	})})
	body := modernBody(1, "tools/call", map[string]any{"name": "echo", "arguments": map[string]any{"message": "hi"}})
	h := modernHeaders("tools/call", "echo")
	resp := post(t, f.url, h, body)
	if resp.Header.Get("WWW-Authenticate") != "Bearer" {
		t.Fatalf("WWW-Authenticate %q", resp.Header.Get("WWW-Authenticate"))
	}
	wantHTTPError(t, resp, 401, -32600, "")
	h.Set("Authorization", "Bearer weak")
	resp = post(t, f.url, h, body)
	if !strings.Contains(resp.Header.Get("WWW-Authenticate"), "insufficient_scope") {
		t.Fatalf("WWW-Authenticate %q", resp.Header.Get("WWW-Authenticate"))
	}
	wantHTTPError(t, resp, 403, -32600, "")
	h.Set("Authorization", "Bearer good")
	m := decodeJSON(t, post(t, f.url, h, body), 200)
	if !strings.Contains(string(m.Result), "hi from alice") {
		t.Fatalf("result %s", m.Result)
	}
}

// ---- streams ----

func openGET(t *testing.T, f *httpFixture, sid string) (*http.Response, *sse) {
	t.Helper()
	h := http.Header{}
	h.Set("Accept", "text/event-stream")
	h.Set("Mcp-Session-Id", sid)
	h.Set("MCP-Protocol-Version", version20251125)
	resp := do(t, context.Background(), http.MethodGet, f.url, h, "")
	if resp.StatusCode != 200 {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("GET: %d %s", resp.StatusCode, b)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp, newSSE(t, resp)
}

// TestGETStreamHeldNotes: session-wide notifications sent before the
// client opens its GET stream are kept (a list change once, at most
// maxHeldNotes in all) and come first on the stream.
func TestGETStreamHeldNotes(t *testing.T) {
	f := newHTTPFixture(t, HTTPOptions{})
	sid := httpInitialize(t, f, version20251125)
	for i := range 2 * maxHeldNotes {
		body := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"resources/subscribe","params":{"uri":"test://watched/%d"}}`, i+2, i)
		if m := decodeJSON(t, post(t, f.url, legacyHeaders(sid), body), 200); m.Error != nil {
			t.Fatalf("subscribe: %+v", m.Error)
		}
	}
	f.srv.ListChanged("tools")
	f.srv.ListChanged("prompts")
	f.srv.ListChanged("tools")
	for i := range 2 * maxHeldNotes {
		f.srv.ResourceUpdated(fmt.Sprintf("test://watched/%d", i))
	}
	_, s := openGET(t, f, sid)
	f.srv.ListChanged("resources") // sent live, after the held ones
	want := []string{"notifications/tools/list_changed", "notifications/prompts/list_changed"}
	for len(want) < maxHeldNotes {
		want = append(want, "notifications/resources/updated")
	}
	want = append(want, "notifications/resources/list_changed")
	for i, w := range want {
		if got := s.must(); got.Method != w {
			t.Fatalf("event %d: %s, want %s", i, got.Method, w)
		}
	}
}

func TestGETStream(t *testing.T) {
	f := newHTTPFixture(t, HTTPOptions{})
	sid := httpInitialize(t, f, version20251125)
	m := decodeJSON(t, post(t, f.url, legacyHeaders(sid), `{"jsonrpc":"2.0","id":2,"method":"resources/subscribe","params":{"uri":"test://watched"}}`), 200)
	if m.Error != nil {
		t.Fatalf("subscribe: %+v", m.Error)
	}
	_, s := openGET(t, f, sid)

	f.srv.ResourceUpdated("test://watched")
	got := s.must()
	if got.Method != "notifications/resources/updated" || !strings.Contains(string(got.Params), "test://watched") {
		t.Fatalf("event %+v %s", got, got.Params)
	}
	f.srv.ResourceUpdated("test://other") // not subscribed
	f.srv.ListChanged("tools")
	if got := s.must(); got.Method != "notifications/tools/list_changed" {
		t.Fatalf("event %+v", got)
	}

	// A second GET replaces the first, which ends.
	_, s2 := openGET(t, f, sid)
	if _, err := s.next(); err != io.EOF {
		t.Fatalf("replaced stream: %v", err)
	}
	f.srv.ListChanged("prompts")
	if got := s2.must(); got.Method != "notifications/prompts/list_changed" {
		t.Fatalf("event %+v", got)
	}

	// Ending the session ends its stream.
	resp := do(t, context.Background(), http.MethodDelete, f.url, legacyHeaders(sid), "")
	resp.Body.Close()
	if _, err := s2.next(); err != io.EOF {
		t.Fatalf("stream after DELETE: %v", err)
	}
}

func TestGETErrors(t *testing.T) {
	f := newHTTPFixture(t, HTTPOptions{})
	sid := httpInitialize(t, f, version20251125)
	h := http.Header{}
	h.Set("Accept", "text/event-stream")
	wantHTTPError(t, do(t, context.Background(), http.MethodGet, f.url, h, ""), 400, -32600, "")
	h.Set("Mcp-Session-Id", "nope")
	wantHTTPError(t, do(t, context.Background(), http.MethodGet, f.url, h, ""), 404, -32600, "")
	h.Set("Mcp-Session-Id", sid)
	h.Set("Accept", "application/json")
	wantHTTPError(t, do(t, context.Background(), http.MethodGet, f.url, h, ""), 406, -32600, "")
}

func TestSubscriptionsListen(t *testing.T) {
	f := newHTTPFixture(t, HTTPOptions{KeepAlive: 30 * time.Millisecond})
	body := modernBody("listen-1", "subscriptions/listen", map[string]any{"notifications": map[string]any{"toolsListChanged": true}})
	resp := post(t, f.url, modernHeaders("subscriptions/listen", ""), body)
	defer resp.Body.Close()
	s := newSSE(t, resp)
	ack := s.must()
	if ack.Method != "notifications/subscriptions/acknowledged" || !strings.Contains(string(ack.Params), `"io.modelcontextprotocol/subscriptionId":"listen-1"`) {
		t.Fatalf("ack %+v %s", ack, ack.Params)
	}

	// The core registers the listener just after the ack is written, so
	// trigger until the notification arrives.
	events := make(chan msg, 8)
	errs := make(chan error, 1)
	go func() {
		for {
			m, err := s.next()
			if err != nil {
				errs <- err
				return
			}
			events <- m
		}
	}()
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	var got msg
wait:
	for {
		select {
		case got = <-events:
			break wait
		case <-tick.C:
			f.srv.ListChanged("prompts") // filtered out
			f.srv.ListChanged("tools")
		case err := <-errs:
			t.Fatalf("stream ended: %v", err)
		case <-time.After(2 * time.Second):
			t.Fatal("no list_changed")
		}
	}
	tick.Stop()
	if got.Method != "notifications/tools/list_changed" || !strings.Contains(string(got.Params), `"listen-1"`) {
		t.Fatalf("event %+v %s", got, got.Params)
	}
	time.Sleep(80 * time.Millisecond) // some keep-alives

	f.srv.Close()
	var final msg
	for final.ID == nil {
		select {
		case m := <-events:
			if m.Method != "" && m.Method != "notifications/tools/list_changed" {
				t.Fatalf("unexpected %+v", m)
			}
			final = m
		case err := <-errs:
			t.Fatalf("stream ended without the final result: %v", err)
		case <-time.After(2 * time.Second):
			t.Fatal("srv.Close did not end the listen stream")
		}
	}
	if string(final.ID) != `"listen-1"` || !strings.Contains(string(final.Result), `"resultType":"complete"`) {
		t.Fatalf("final %+v %s", final, final.Result)
	}
	select {
	case err := <-errs:
		if err != io.EOF {
			t.Fatalf("end: %v", err)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("stream stayed open")
	}
	if s.comments == 0 {
		t.Fatal("no keep-alive comments on the listen stream")
	}
}

func TestShutdown(t *testing.T) {
	f := newHTTPFixture(t, HTTPOptions{})
	sid := httpInitialize(t, f, version20251125)
	_, get := openGET(t, f, sid)
	resp := post(t, f.url, modernHeaders("subscriptions/listen", ""),
		modernBody("l", "subscriptions/listen", map[string]any{"notifications": map[string]any{"toolsListChanged": true}}))
	defer resp.Body.Close()
	listen := newSSE(t, resp)
	listen.must() // ack

	hs := f.ts.Config
	hs.RegisterOnShutdown(f.srv.Close)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		if err := hs.Shutdown(ctx); err != nil {
			t.Errorf("Shutdown: %v", err)
		}
	}()
	if _, err := get.next(); err != io.EOF {
		t.Fatalf("GET stream: %v", err)
	}
	if m := listen.must(); string(m.ID) != `"l"` {
		t.Fatalf("listen final %+v", m)
	}
	// Both tell the client when to reconnect (to another replica).
	if get.retry != "1000" || listen.retry != "1000" {
		t.Fatalf("retry hints: GET %q, listen %q; want 1000 ms each", get.retry, listen.retry)
	}
	wg.Wait()
}

func TestAccepts(t *testing.T) {
	for accept, want := range map[string][2]bool{ // SSE (GET), POST
		"":                                    {false, false},
		"application/json, text/event-stream": {true, true},
		"text/event-stream, application/json": {true, true},
		"application/json, text/event-stream;q=0.5": {true, true},
		"Application/JSON, Text/Event-Stream":       {true, true},
		"*/*":                                       {true, true},
		"application/*, text/*":                     {true, true},
		"text/*":                                    {true, false},
		"text/event-stream":                         {true, false},
		"application/json":                          {false, false},
		"text/html":                                 {false, false},
		"application/json, text/event-stream;q=0":   {false, false},
		"text/event-stream; q=0.000, text/html":     {false, false},
		"text/event-stream;q=0.01, application/json;q=0.1": {true, true},
		"application/json;q=0, */*":                        {true, true},
		"garbage, ,;;":                                     {false, false},
	} {
		if got := acceptsSSE(accept); got != want[0] {
			t.Errorf("acceptsSSE(%q) = %v, want %v", accept, got, want[0])
		}
		if got := acceptsPOST(accept); got != want[1] {
			t.Errorf("acceptsPOST(%q) = %v, want %v", accept, got, want[1])
		}
	}
}

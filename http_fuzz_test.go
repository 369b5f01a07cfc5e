package mcpgen

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// FuzzHandler drives the whole HTTP handler with arbitrary methods,
// headers and bodies, beside the envelope's FuzzScan (internal/jsonrpc)
// and FuzzParams (internal/server). Whatever arrives, the handler must
// return, never answer 5xx, answer every refusal with a JSON-RPC error
// object, and write only JSON in JSON bodies and SSE data lines.
//
// Headers are given as "Name: value" lines; the value "SESSION" stands for
// the id of a live legacy session, so that session paths are reached.
//
//	go test ./internal/transport/streamhttp -run '^$' -fuzz FuzzHandler -fuzztime 1m
func FuzzHandler(f *testing.F) {
	modern := "Content-Type: application/json\nAccept: application/json, text/event-stream\nMCP-Protocol-Version: 2026-07-28\nMcp-Method: tools/call\nMcp-Name: echo"
	legacy := "Content-Type: application/json\nAccept: application/json, text/event-stream\nMCP-Protocol-Version: 2025-11-25\nMcp-Session-Id: SESSION"
	seeds := []struct {
		method       byte
		header, body string
	}{
		{1, modern, modernBody(1, "tools/call", map[string]any{"name": "echo", "arguments": map[string]any{"message": "hi"}})},
		{1, modern, modernBody(1, "tools/call", map[string]any{"name": "progress", "_meta": map[string]any{"progressToken": 1}})},
		{1, strings.Replace(modern, "2026-07-28", "1900-01-01", 1), modernBody(1, "tools/list", nil)},
		{1, "Content-Type: application/json\nAccept: application/json, text/event-stream", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"f","version":"1"}}}`},
		{1, legacy, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"message":7}}}`},
		{1, legacy, `[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/initialized"}]`},
		{1, legacy, `{"jsonrpc":"2.0","id":"srv-1","result":{}}`},
		{1, legacy, `{"jsonrpc":"2.0","id":3,"method":"resources/read","params":{"uri":5,"_meta":"x"}}`},
		{0, "Accept: text/event-stream\nMcp-Session-Id: SESSION", ""},
		{2, "Mcp-Session-Id: SESSION", ""},
		{1, "Content-Type: application/json\nAccept: text/html", `{"jsonrpc":"2.0","id":1,"method":"ping"}`},
		{1, modern, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":` + strings.Repeat("[", 600)},
		{3, "Origin: http://evil.example", "{}"},
	}
	for _, s := range seeds {
		f.Add(s.method, s.header, []byte(s.body))
	}
	srv := New(fuzzDefinition(), Options{Limits: Limits{MaxMessageBytes: 64 << 10}, SessionIdle: -1})
	f.Cleanup(srv.Close)
	h := HTTPHandler(srv, HTTPOptions{KeepAlive: -1})
	var (
		mu  sync.Mutex
		sid string
	)
	f.Fuzz(func(t *testing.T, method byte, header string, body []byte) {
		mu.Lock()
		if sid == "" || srv.sessions.get(sid) == nil { // the last input may have ended it
			sid = fuzzSession(t, h)
		}
		sid := sid
		mu.Unlock()
		methods := []string{http.MethodGet, http.MethodPost, http.MethodDelete, http.MethodPut, http.MethodOptions}
		req := httptest.NewRequest(methods[int(method)%len(methods)], "http://localhost/mcp", bytes.NewReader(body))
		for line := range strings.SplitSeq(header, "\n") {
			name, value, ok := strings.Cut(line, ":")
			name, value = strings.TrimSpace(name), strings.TrimSpace(value)
			if !ok || name == "" || strings.ContainsAny(name, " \t\r") {
				continue
			}
			if value == "SESSION" {
				value = sid
			}
			if strings.EqualFold(name, "Host") {
				req.Host = value
				continue
			}
			req.Header.Add(name, value)
		}
		// Requests that wait (a listen stream, a slow answer) end with
		// the client.
		ctx, cancel := context.WithTimeout(req.Context(), 200*time.Millisecond)
		defer cancel()
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req.WithContext(ctx))
		checkAnswer(t, rec)
	})
}

// fuzzSession opens a legacy session to stand for "SESSION".
func fuzzSession(t *testing.T, h http.Handler) string {
	req := httptest.NewRequest(http.MethodPost, "http://localhost/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"f","version":"1"}}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	sid := rec.Header().Get("Mcp-Session-Id")
	if rec.Code != 200 || sid == "" {
		t.Fatalf("initialize: %d %s", rec.Code, rec.Body)
	}
	return sid
}

// checkAnswer holds the handler to its contract whatever the input.
func checkAnswer(t *testing.T, rec *httptest.ResponseRecorder) {
	t.Helper()
	body := rec.Body.Bytes()
	ct := rec.Header().Get("Content-Type")
	switch rec.Code {
	case 200, 202, 204, 400, 403, 404, 405, 406, 413, 415, 429:
	default:
		t.Fatalf("status %d; body %q", rec.Code, body)
	}
	if rec.Code >= 400 {
		var e struct {
			JSONRPC string          `json:"jsonrpc"`
			ID      json.RawMessage `json:"id"`
			Error   *struct {
				Code    int64  `json:"code"`
				Message string `json:"message"`
			} `json:"error"`
		}
		if ct != "application/json" || json.Unmarshal(body, &e) != nil || e.JSONRPC != "2.0" || e.Error == nil || e.Error.Code == 0 || e.Error.Message == "" {
			t.Fatalf("status %d without a JSON-RPC error: %s %q", rec.Code, ct, body)
		}
		if id := e.ID; len(id) > 0 && string(id) != "null" && id[0] != '"' && id[0] != '-' && (id[0] < '0' || id[0] > '9') {
			t.Fatalf("error with an invalid id %s", id)
		}
		if strings.Contains(e.Error.Message, "Go struct") || strings.Contains(e.Error.Message, "Go value") {
			t.Fatalf("error leaks Go internals: %q", e.Error.Message)
		}
		return
	}
	switch ct {
	case "application/json":
		if !json.Valid(body) {
			t.Fatalf("invalid JSON body %q", body)
		}
		var one json.RawMessage = body
		answers := []json.RawMessage{one}
		if body[0] == '[' {
			_ = json.Unmarshal(body, &answers)
		}
		for _, a := range answers {
			var m struct {
				JSONRPC string           `json:"jsonrpc"`
				ID      json.RawMessage  `json:"id"`
				Result  json.RawMessage  `json:"result"`
				Error   *json.RawMessage `json:"error"`
			}
			if json.Unmarshal(a, &m) != nil || m.JSONRPC != "2.0" || (len(m.Result) > 0) == (m.Error != nil) {
				t.Fatalf("not a JSON-RPC response: %s", a)
			}
		}
		if strings.Contains(string(body), "Go struct") || strings.Contains(string(body), "Go value") {
			t.Fatalf("answer leaks Go internals: %s", body)
		}
	case "text/event-stream":
		sc := bufio.NewScanner(bytes.NewReader(body))
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok && !json.Valid([]byte(data)) {
				t.Fatalf("invalid SSE data %q", data)
			}
		}
	case "":
		if len(body) != 0 {
			t.Fatalf("status %d: body without Content-Type %q", rec.Code, body)
		}
	default:
		t.Fatalf("Content-Type %q", ct)
	}
}

// fuzzDefinition is a server whose handlers never wait for the client, so
// that every fuzzed request ends.
func fuzzDefinition() Definition {
	text := func(s string) *CallToolResult {
		return &CallToolResult{Content: []Content{TextContent(s)}}
	}
	return Definition{
		Name: "fuzz", Version: "1.0.0",
		Tools: []Tool{
			{Info: ToolInfo{Name: "echo", InputSchema: json.RawMessage(messageSchema)},
				Call: func(_ context.Context, _ *Request, args json.RawMessage) (*CallToolResult, error) {
					in, err := DecodeArguments[struct {
						Message string `json:"message"`
					}](args)
					if err != nil {
						return nil, err
					}
					return text(in.Message), nil
				}},
			{Info: ToolInfo{Name: "progress", InputSchema: json.RawMessage(`{"type":"object"}`)},
				Call: func(ctx context.Context, req *Request, _ json.RawMessage) (*CallToolResult, error) {
					_ = req.Progress(ctx, 1, 2, "half")
					_ = req.Log(ctx, "info", "fuzz", "logged")
					return text("done"), nil
				}},
		},
		Resources: []Resource{{
			Info: ResourceInfo{URI: "test://r", Name: "r"},
			Read: func(context.Context, *Request) (*ReadResourceResult, error) {
				s := "r"
				return &ReadResourceResult{Contents: []ResourceContents{{URI: "test://r", Text: &s}}}, nil
			},
		}},
	}
}

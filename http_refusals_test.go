package mcpgen

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/jsonrpc"
)

// The refusals of issue 11, each as the exchange a hostile or mistaken
// client would see. docs/operations.md ("Refusals and limits") shows the
// same exchanges.

// errorBody reads a JSON-RPC error answer in full, data included.
type errorBody struct {
	ID    json.RawMessage `json:"id"`
	Error struct {
		Code    int64           `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data"`
	} `json:"error"`
}

func readError(t *testing.T, resp *http.Response, status int) errorBody {
	t.Helper()
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != status {
		t.Fatalf("status %d, want %d; body %s", resp.StatusCode, status, b)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
		t.Fatalf("Content-Type %q; body %s", ct, b)
	}
	var e errorBody
	if err := json.Unmarshal(b, &e); err != nil || e.Error.Code == 0 {
		t.Fatalf("not a JSON-RPC error: %s (%v)", b, err)
	}
	return e
}

// TestRefusalAccept: both revisions require a POST to accept
// application/json and text/event-stream, and a GET text/event-stream;
// anything less is 406 (it used to be answered 200 with JSON).
func TestRefusalAccept(t *testing.T) {
	f := newHTTPFixture(t, HTTPOptions{})
	body := modernBody(1, "tools/list", nil)
	for _, accept := range []string{"", "text/html", "application/json", "text/event-stream", "application/json, text/event-stream;q=0"} {
		h := modernHeaders("tools/list", "")
		h.Del("Accept")
		if accept != "" {
			h.Set("Accept", accept)
		}
		e := readError(t, post(t, f.url, h, body), http.StatusNotAcceptable)
		if e.Error.Code != jsonrpc.CodeInvalidRequest || !strings.Contains(e.Error.Message, "application/json and text/event-stream") || string(e.ID) != "" {
			t.Errorf("Accept %q: %+v", accept, e)
		}
	}
	// Legacy POSTs too, initialize included.
	h := legacyHeaders("")
	h.Set("Accept", "application/json")
	readError(t, post(t, f.url, h, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`), http.StatusNotAcceptable)
	if f.srv.Sessions() != 0 {
		t.Fatal("a refused initialize opened a session")
	}
	// Wildcards admit both.
	h = modernHeaders("tools/list", "")
	h.Set("Accept", "*/*")
	decodeJSON(t, post(t, f.url, h, body), 200)

	// GET without text/event-stream.
	sid := httpInitialize(t, f, version20251125)
	for _, accept := range []string{"", "application/json"} {
		g := legacyHeaders(sid)
		g.Del("Accept")
		if accept != "" {
			g.Set("Accept", accept)
		}
		readError(t, do(t, context.Background(), http.MethodGet, f.url, g, ""), http.StatusNotAcceptable)
	}
}

// TestRefusalLegacyVersion: a legacy request naming a revision the server
// does not speak is 400 (2025-11-25: MUST), inside a session or not, and
// the session survives it.
func TestRefusalLegacyVersion(t *testing.T) {
	f := newHTTPFixture(t, HTTPOptions{})
	sid := httpInitialize(t, f, version20251125)
	for _, v := range []string{"1900-01-01", "2025-11-24", "latest"} {
		h := legacyHeaders(sid)
		h.Set("MCP-Protocol-Version", v)
		e := readError(t, post(t, f.url, h, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`), 400)
		if e.Error.Code != jsonrpc.CodeInvalidRequest || !strings.Contains(e.Error.Message, strconv.Quote(v)) || string(e.ID) != "2" {
			t.Errorf("version %q: %+v", v, e)
		}
		// GET too.
		h.Set("Accept", "text/event-stream")
		readError(t, do(t, context.Background(), http.MethodGet, f.url, h, ""), 400)
	}
	m := decodeJSON(t, post(t, f.url, legacyHeaders(sid), `{"jsonrpc":"2.0","id":3,"method":"ping"}`), 200)
	if m.Error != nil {
		t.Fatalf("the session did not survive: %+v", m.Error)
	}
}

// TestRefusalModernVersion: every revision the server does not speak gets
// UnsupportedProtocolVersion with the full list (1900-01-01 used to get
// -32600, and the list named only 2026-07-28).
func TestRefusalModernVersion(t *testing.T) {
	f := newHTTPFixture(t, HTTPOptions{})
	for _, v := range []string{"1900-01-01", "2099-12-31", "v999.0.0", "2025-11-25"} {
		params := map[string]any{"_meta": map[string]any{}}
		body := strings.Replace(modernBody(1, "tools/list", params), `"`+version20260728+`"`, strconv.Quote(v), 1)
		h := modernHeaders("tools/list", "")
		h.Set("MCP-Protocol-Version", v)
		e := readError(t, post(t, f.url, h, body), 400)
		var data struct {
			Supported []string `json:"supported"`
			Requested string   `json:"requested"`
		}
		_ = json.Unmarshal(e.Error.Data, &data)
		if e.Error.Code != jsonrpc.CodeUnsupportedProtocolVersion || !slices.Equal(data.Supported, versions) || data.Requested != v || string(e.ID) != "1" {
			t.Errorf("version %q: %+v data %s", v, e, e.Error.Data)
		}
	}
	// A modern body whose header disagrees, or is missing, is -32020, not a
	// legacy request without a session.
	for _, hv := range []string{"1900-01-01", ""} {
		h := modernHeaders("tools/list", "")
		h.Set("MCP-Protocol-Version", hv)
		e := readError(t, post(t, f.url, h, modernBody(1, "tools/list", nil)), 400)
		if e.Error.Code != jsonrpc.CodeHeaderMismatch {
			t.Errorf("header %q: %+v", hv, e)
		}
	}
	// server/discover lists the same revisions.
	m := decodeJSON(t, post(t, f.url, modernHeaders("server/discover", ""), modernBody(1, "server/discover", nil)), 200)
	var res struct{ SupportedVersions []string }
	if err := json.Unmarshal(m.Result, &res); err != nil || !slices.Equal(res.SupportedVersions, versions) {
		t.Fatalf("discover: %s", m.Result)
	}
}

// TestRefusalLegacyWithoutSession: this server issues sessions, so a
// legacy message other than initialize without Mcp-Session-Id is 400
// (2025-11-25: SHOULD); it used to be served.
func TestRefusalLegacyWithoutSession(t *testing.T) {
	f := newHTTPFixture(t, HTTPOptions{})
	for _, c := range []struct{ version, body, id string }{
		{"", `{"jsonrpc":"2.0","id":"a","method":"ping"}`, `"a"`},
		{version20251125, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"message":"hi"}}}`, "2"},
		{version20250618, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, ""},
		{version20250326, `{"jsonrpc":"2.0","id":"srv-1","result":{}}`, ""}, // a response: the error has no id
	} {
		h := legacyHeaders("")
		if c.version != "" {
			h.Set("MCP-Protocol-Version", c.version)
		}
		e := readError(t, post(t, f.url, h, c.body), 400)
		if e.Error.Code != jsonrpc.CodeInvalidRequest || !strings.Contains(e.Error.Message, "Mcp-Session-Id") || string(e.ID) != c.id {
			t.Errorf("%s: %+v", c.body, e)
		}
	}
	// An unsupported version without a session names the version.
	h := legacyHeaders("")
	h.Set("MCP-Protocol-Version", "2020-01-01")
	if e := readError(t, post(t, f.url, h, `{"jsonrpc":"2.0","id":5,"method":"ping"}`), 400); !strings.Contains(e.Error.Message, `"2020-01-01"`) {
		t.Errorf("unsupported version: %+v", e)
	}
}

// TestRefusalMessageSize: one limit (server.Options.Limits.MaxMessageBytes) for
// every transport; over HTTP 413 with a JSON-RPC error naming it.
func TestRefusalMessageSize(t *testing.T) {
	f := newFixtureWith(t, Options{Limits: Limits{MaxMessageBytes: 4096}}, HTTPOptions{})
	big := modernBody(1, "tools/call", map[string]any{"name": "echo", "arguments": map[string]any{"message": strings.Repeat("x", 5000)}})
	e := readError(t, post(t, f.url, modernHeaders("tools/call", "echo"), big), http.StatusRequestEntityTooLarge)
	if e.Error.Code != jsonrpc.CodeInvalidRequest || !strings.Contains(e.Error.Message, "4096 bytes (4 KiB)") || !strings.Contains(string(e.Error.Data), `"maxBytes":4096`) {
		t.Fatalf("%+v %s", e, e.Error.Data)
	}
	small := modernBody(2, "tools/call", map[string]any{"name": "echo", "arguments": map[string]any{"message": strings.Repeat("x", 3000)}})
	decodeJSON(t, post(t, f.url, modernHeaders("tools/call", "echo"), small), 200)
}

// authByToken maps "Bearer NAME" to the principal NAME; no token is
// anonymous.
func authByToken(r *http.Request) (Principal, error) {
	name, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	return Principal{Subject: name}, nil
}

func as(h http.Header, who string) http.Header {
	h = h.Clone()
	if who != "" {
		h.Set("Authorization", "Bearer "+who)
	}
	return h
}

// TestRateLimit: over the rate, 429 with Retry-After and -31429; per
// principal, so that one caller's flood leaves another's requests alone.
func TestRateLimit(t *testing.T) {
	// One request per 1000 s with a burst of 2: the third is refused
	// however slow the machine.
	f := newFixtureWith(t, Options{Limits: Limits{Rate: 0.001, Burst: 2}}, HTTPOptions{Auth: AuthFunc(authByToken)})
	body := modernBody(1, "tools/list", nil)
	for range 2 {
		decodeJSON(t, post(t, f.url, as(modernHeaders("tools/list", ""), "alice"), body), 200)
	}
	resp := post(t, f.url, as(modernHeaders("tools/list", ""), "alice"), body)
	retry, err := strconv.Atoi(resp.Header.Get("Retry-After"))
	e := readError(t, resp, http.StatusTooManyRequests)
	var data struct {
		Limit        string `json:"limit"`
		RetryAfterMs int64  `json:"retryAfterMs"`
	}
	_ = json.Unmarshal(e.Error.Data, &data)
	if err != nil || retry < 1 || e.Error.Code != CodeTooManyRequests || data.Limit != "rate" || data.RetryAfterMs < 1 || string(e.ID) != "1" {
		t.Fatalf("Retry-After %q, error %+v %s", resp.Header.Get("Retry-After"), e, e.Error.Data)
	}
	// Bob and anonymous callers have their own allowance.
	decodeJSON(t, post(t, f.url, as(modernHeaders("tools/list", ""), "bob"), body), 200)
	decodeJSON(t, post(t, f.url, modernHeaders("tools/list", ""), body), 200)
	// Legacy requests count too: the anonymous caller's initialize takes
	// its second token, and the ping after it is refused.
	sid := httpInitialize(t, f, version20251125)
	readError(t, post(t, f.url, legacyHeaders(sid), `{"jsonrpc":"2.0","id":9,"method":"ping"}`), http.StatusTooManyRequests)
}

// TestConcurrencyLimit: a principal's requests in progress are capped;
// subscriptions/listen streams do not count.
func TestConcurrencyLimit(t *testing.T) {
	f := newFixtureWith(t, Options{Limits: Limits{Concurrent: 1}}, HTTPOptions{Auth: AuthFunc(authByToken)})
	// A listen stream stays open without holding the slot.
	lctx, stopListen := context.WithCancel(context.Background())
	defer stopListen()
	lresp := do(t, lctx, http.MethodPost, f.url, as(modernHeaders("subscriptions/listen", ""), "alice"),
		modernBody(1, "subscriptions/listen", map[string]any{"notifications": map[string]any{"toolsListChanged": true}}))
	defer lresp.Body.Close()
	newSSE(t, lresp).must() // acknowledged

	h := as(legacyHeaders(""), "alice")
	aliceSID := func() string {
		body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
		resp := post(t, f.url, h, body)
		defer resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Fatalf("initialize: %d", resp.StatusCode)
		}
		return resp.Header.Get("Mcp-Session-Id")
	}()
	h = as(legacyHeaders(aliceSID), "alice")
	first := make(chan *http.Response, 1)
	go func() {
		first <- post(t, f.url, h, `{"jsonrpc":"2.0","id":"long","method":"tools/call","params":{"name":"block"}}`)
	}()
	<-f.started
	e := readError(t, post(t, f.url, h, `{"jsonrpc":"2.0","id":3,"method":"tools/list"}`), http.StatusTooManyRequests)
	if !strings.Contains(string(e.Error.Data), `"limit":"concurrency"`) || !strings.Contains(e.Error.Message, "at most 1") {
		t.Fatalf("%+v %s", e, e.Error.Data)
	}
	// Bob is not held up by Alice.
	decodeJSON(t, post(t, f.url, as(modernHeaders("tools/list", ""), "bob"), modernBody(4, "tools/list", nil)), 200)
	// Once Alice's call has ended (its answer is written after the slot
	// is released), she may call again.
	resp := post(t, f.url, h, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"long"}}`)
	resp.Body.Close()
	r1 := <-first
	io.Copy(io.Discard, r1.Body)
	r1.Body.Close()
	decodeJSON(t, post(t, f.url, h, `{"jsonrpc":"2.0","id":5,"method":"tools/list"}`), 200)
}

// TestSessionCapHTTP: many initialize calls from one principal keep at
// most MaxSessionsPerPrincipal sessions: the least recently used ones end
// (404), the newest work.
func TestSessionCapHTTP(t *testing.T) {
	f := newFixtureWith(t, Options{Limits: Limits{MaxSessionsPerPrincipal: 10, MaxSessions: 15}}, HTTPOptions{Auth: AuthFunc(authByToken)})
	var sids []string
	for i := range 200 {
		who := "alice"
		if i%4 == 3 {
			who = "bob"
		}
		resp := post(t, f.url, as(legacyHeaders(""), who), `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Fatalf("initialize %d: status %d", i, resp.StatusCode)
		}
		if who == "alice" {
			sids = append(sids, resp.Header.Get("Mcp-Session-Id"))
		}
	}
	if n := f.srv.Sessions(); n != 15 {
		t.Fatalf("%d sessions open, want 15 (the global cap)", n)
	}
	readError(t, post(t, f.url, as(legacyHeaders(sids[0]), "alice"), `{"jsonrpc":"2.0","id":2,"method":"ping"}`), 404)
	last := sids[len(sids)-1]
	if m := decodeJSON(t, post(t, f.url, as(legacyHeaders(last), "alice"), `{"jsonrpc":"2.0","id":2,"method":"ping"}`), 200); m.Error != nil {
		t.Fatalf("newest session: %+v", m.Error)
	}
}

// TestSessionBoundToPrincipal: a legacy session answers only the principal
// that opened it; anyone else gets the 404 of an unknown session.
func TestSessionBoundToPrincipal(t *testing.T) {
	f := newHTTPFixture(t, HTTPOptions{Auth: AuthFunc(authByToken)})
	resp := post(t, f.url, as(legacyHeaders(""), "alice"), `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	sid := resp.Header.Get("Mcp-Session-Id")
	decodeJSON(t, resp, 200)
	ping := `{"jsonrpc":"2.0","id":2,"method":"ping"}`
	for _, who := range []string{"bob", ""} {
		h := as(legacyHeaders(sid), who)
		e := readError(t, post(t, f.url, h, ping), 404)
		if !strings.Contains(e.Error.Message, "Session not found") {
			t.Errorf("%q POST: %+v", who, e)
		}
		g := h.Clone()
		g.Set("Accept", "text/event-stream")
		readError(t, do(t, context.Background(), http.MethodGet, f.url, g, ""), 404)
		readError(t, do(t, context.Background(), http.MethodDelete, f.url, h, ""), 404)
	}
	if m := decodeJSON(t, post(t, f.url, as(legacyHeaders(sid), "alice"), ping), 200); m.Error != nil {
		t.Fatalf("owner: %+v", m.Error)
	}
	resp = do(t, context.Background(), http.MethodDelete, f.url, as(legacyHeaders(sid), "alice"), "")
	resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent {
		t.Fatalf("owner DELETE: %d", resp.StatusCode)
	}
}

package mcpgen_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen"
	"github.com/mcpgen/mcpgen/generated/everything"
)

// The hostile-load suite: each TestHostile* attacks a server with default
// settings (everything.New(mcpgen.Options{Tasks: true}) behind the
// http.Server and connection caps of Flags.Run) over loopback, and checks
// that (a) goroutines and heap stay within a bound over the baseline
// taken before the attack, derived from the caps in play, (b) a client
// that behaves is answered during the attack, and (c) state the attack
// touches (another caller's session, stream or task) survives it.
// Durations are never asserted: waits have generous deadlines only.
// docs/operations.md lists the growth measured.

const (
	// hostileWait bounds every wait of the suite.
	hostileWait = 10 * time.Second
	// hostileHeap is the heap growth allowed over the baseline.
	hostileHeap = 64 << 20
	// hostileSlack is the goroutines allowed over those the caps account
	// for: the runtime's own, the test's helpers, connections closing.
	hostileSlack = 32
)

// hostileAuth knows two callers by their bearer token, alice (who
// behaves) and mallory (who attacks), and refuses any other token.
var hostileAuth = mcpgen.AuthFunc(func(r *http.Request) (mcpgen.Principal, error) {
	switch r.Header.Get("Authorization") {
	case "Bearer alice":
		return mcpgen.Principal{Subject: "alice"}, nil
	case "Bearer mallory":
		return mcpgen.Principal{Subject: "mallory"}, nil
	}
	return mcpgen.Principal{}, errors.New("unknown token")
})

// hostileServer is a server behind Flags.Run's http.Server on loopback.
type hostileServer struct {
	srv      *mcpgen.Server
	addr     string // host:port
	url      string
	inflight atomic.Int64 // handlers running
}

// serveHostile serves srv with opts (Auth set to hostileAuth) on
// 127.0.0.1 behind the default connection caps; cleanup closes all.
func serveHostile(t *testing.T, srv *mcpgen.Server, opts mcpgen.HTTPOptions) *hostileServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	opts.Auth = hostileAuth
	h := &hostileServer{srv: srv, addr: ln.Addr().String()}
	h.url = "http://" + h.addr + "/mcp"
	inner := mcpgen.HTTPHandler(srv, opts)
	hs := mcpgen.NewHTTPServerForTest(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.inflight.Add(1)
		defer h.inflight.Add(-1)
		inner.ServeHTTP(w, r)
	}), 0)
	served := make(chan struct{})
	go func() {
		defer close(served)
		_ = hs.Serve(mcpgen.LimitConnsForTest(ln, mcpgen.DefaultMaxConnsPerIP, mcpgen.DefaultMaxConns, nil))
	}()
	t.Cleanup(func() {
		hs.Close()
		srv.Close()
		<-served
	})
	return h
}

// usage is what the suite bounds.
type usage struct {
	goroutines int
	heap       uint64 // HeapInuse after a GC
}

func measure() usage {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return usage{runtime.NumGoroutine(), m.HeapInuse}
}

// within measures, logs the growth over base, and fails the test when
// it is past goroutines or heap.
func within(t *testing.T, when string, base usage, goroutines int, heap uint64) usage {
	t.Helper()
	u := measure()
	dg, dh := u.goroutines-base.goroutines, int64(u.heap)-int64(base.heap)
	t.Logf("%s: goroutines %+d (bound %d), heap %+.1f MiB (bound %d MiB)", when, dg, goroutines, float64(dh)/(1<<20), heap>>20)
	if dg > goroutines {
		t.Errorf("%s: %d goroutines more than before the attack, bound %d", when, dg, goroutines)
	}
	if dh > int64(heap) {
		t.Errorf("%s: heap grew %d bytes, bound %d", when, dh, heap)
	}
	return u
}

// settled waits until the goroutines are back near the baseline, so that
// no attack leaks into the tests that follow.
func settled(t *testing.T, base usage) {
	t.Helper()
	var n int
	for deadline := time.Now().Add(hostileWait); ; time.Sleep(10 * time.Millisecond) {
		if n = runtime.NumGoroutine(); n <= base.goroutines+4 {
			return
		}
		if time.Now().After(deadline) {
			t.Errorf("after the attack %d goroutines, %d before", n, base.goroutines)
			return
		}
	}
}

// waitFor polls cond until it holds, failing after hostileWait.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(hostileWait); !cond(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("waiting for %s", what)
		}
	}
}

// answer is a JSON-RPC message as the tests read it.
type answer struct {
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

const tasksMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}`

// hcall is one request of the 2026-07-28 era from token: method, the
// Mcp-Name header (or ""), and the params' members besides _meta.
type hcall struct {
	token, method, name, params string
	session                     string // a legacy call in this session instead
}

func (c hcall) request(ctx context.Context, url string) *http.Request {
	var body string
	if c.session != "" {
		body = fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":%q,"params":{%s}}`, c.method, c.params)
	} else {
		sep := ","
		if c.params == "" {
			sep = ""
		}
		body = fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":%q,"params":{%s%s%s}}`, c.method, c.params, sep, tasksMeta)
	}
	r, _ := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Accept", "application/json, text/event-stream")
	r.Header.Set("Authorization", "Bearer "+c.token)
	if c.session != "" {
		r.Header.Set("Mcp-Session-Id", c.session)
		r.Header.Set("MCP-Protocol-Version", "2025-11-25")
		return r
	}
	r.Header.Set("MCP-Protocol-Version", "2026-07-28")
	r.Header.Set("Mcp-Method", c.method)
	if c.name != "" {
		r.Header.Set("Mcp-Name", c.name)
	}
	return r
}

// fresh is a client that opens a new connection for each request.
func fresh() *http.Client {
	return &http.Client{Timeout: hostileWait, Transport: &http.Transport{DisableKeepAlives: true}}
}

// send makes c on client and returns the status and the (last) message.
func send(client *http.Client, url string, c hcall) (int, answer, error) {
	resp, err := client.Do(c.request(context.Background(), url))
	if err != nil {
		return 0, answer{}, err
	}
	defer resp.Body.Close()
	var a answer
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		ev := newEvents(resp.Body)
		for {
			m, err := ev.next()
			if err != nil {
				break
			}
			a = m
		}
		return resp.StatusCode, a, nil
	}
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return resp.StatusCode, a, err
	}
	_ = json.Unmarshal(raw, &a)
	return resp.StatusCode, a, nil
}

// served asserts that a client that behaves is answered: tools/list
// from alice on a fresh connection.
func served(t *testing.T, h *hostileServer, when string) {
	t.Helper()
	status, a, err := send(fresh(), h.url, hcall{token: "alice", method: "tools/list"})
	if err != nil || status != http.StatusOK || a.Error != nil || !strings.Contains(string(a.Result), "slow_compute") && !strings.Contains(string(a.Result), `"big"`) {
		t.Fatalf("%s: tools/list from a client that behaves: status %d, %s %+v, %v", when, status, a.Result, a.Error, err)
	}
}

// openSession opens a legacy session for token and returns its id.
func openSession(t *testing.T, h *hostileServer, client *http.Client, token string) string {
	t.Helper()
	resp, err := client.Do(initialize(h.url, token))
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	sid := resp.Header.Get("Mcp-Session-Id")
	if resp.StatusCode != http.StatusOK || sid == "" {
		t.Fatalf("initialize: status %d, session %q", resp.StatusCode, sid)
	}
	return sid
}

// initialize is a legacy initialize from token.
func initialize(url, token string) *http.Request {
	r, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"hostile","version":"1"}}}`))
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Accept", "application/json, text/event-stream")
	r.Header.Set("Authorization", "Bearer "+token)
	return r
}

// sessionWorks asserts that the legacy session sid of alice still
// answers tools/list.
func sessionWorks(t *testing.T, h *hostileServer, sid string) {
	t.Helper()
	status, a, err := send(fresh(), h.url, hcall{token: "alice", method: "tools/list", session: sid})
	if err != nil || status != http.StatusOK || a.Error != nil || !strings.Contains(string(a.Result), "slow_compute") {
		t.Fatalf("alice's session after the attack: status %d, %+v, %v", status, a.Error, err)
	}
}

// events reads the messages of an SSE stream.
type events struct{ r *bufio.Reader }

func newEvents(r io.Reader) *events { return &events{bufio.NewReader(r)} }

func (e *events) next() (answer, error) {
	var data strings.Builder
	for {
		line, err := e.r.ReadString('\n')
		if err != nil {
			return answer{}, err
		}
		line = strings.TrimRight(line, "\r\n")
		switch {
		case strings.HasPrefix(line, "data:"):
			data.WriteString(strings.TrimPrefix(strings.TrimPrefix(line, "data:"), " "))
		case line == "" && data.Len() > 0:
			var a answer
			err := json.Unmarshal([]byte(data.String()), &a)
			return a, err
		}
	}
}

// flood runs n calls of make(i) on workers goroutines sharing client and
// returns how many were answered with each status.
func flood(client *http.Client, url string, n, workers int, make func(i int) hcall) map[int]int {
	var (
		mu     sync.Mutex
		counts = map[int]int{}
		next   atomic.Int64
		wg     sync.WaitGroup
	)
	for range workers {
		wg.Go(func() {
			for i := int(next.Add(1)) - 1; i < n; i = int(next.Add(1)) - 1 {
				status, _, err := send(client, url, make(i))
				if err != nil {
					status = -1
				}
				mu.Lock()
				counts[status]++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return counts
}

// TestHostileSlowBodies: 150 connections from one address announce an
// 8 MiB body and send one byte of it. The per-address cap admits 64
// (the rest are closed at once), each of which holds a buffer of what
// arrived, not of what was announced (150 × 8 MiB would be 1.2 GiB), and
// is answered 408 once ReadTimeout has passed.
func TestHostileSlowBodies(t *testing.T) {
	const conns, announced = 150, 8 << 20
	attacker := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, 2)}}
	probe, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	c, err := attacker.Dial("tcp", probe.Addr().String())
	probe.Close()
	if err != nil {
		t.Skipf("the attack comes from 127.0.0.2, which cannot be used here: %v", err)
	}
	c.Close()

	h := serveHostile(t, everything.New(mcpgen.Options{Tasks: true, Limits: mcpgen.Limits{HTTPReadTimeout: 2 * time.Second}}), mcpgen.HTTPOptions{})
	sid := openSession(t, h, fresh(), "alice")
	base := measure()

	var open []net.Conn
	defer func() {
		for _, c := range open {
			c.Close()
		}
	}()
	for range conns {
		c, err := attacker.Dial("tcp", h.addr)
		if err != nil {
			t.Fatal(err)
		}
		open = append(open, c)
		fmt.Fprintf(c, "POST /mcp HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer mallory\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\nMcp-Method: ping\r\nContent-Length: %d\r\n\r\n{", announced)
	}
	admitted := mcpgen.DefaultMaxConnsPerIP
	waitFor(t, "the admitted bodies to be waited for", func() bool { return h.inflight.Load() == int64(admitted) })
	// Per admitted connection: net/http's connection goroutine and its
	// background reader.
	bound := 2*admitted + hostileSlack
	within(t, fmt.Sprintf("%d connections hanging", admitted), base, bound, hostileHeap)
	served(t, h, "while the bodies hang")

	statuses := map[int]int{}
	for _, c := range open {
		_ = c.SetReadDeadline(time.Now().Add(hostileWait))
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			statuses[0]++ // closed at once: past the cap
			continue
		}
		resp.Body.Close()
		statuses[resp.StatusCode]++
	}
	if statuses[http.StatusRequestTimeout] != admitted || statuses[0] != conns-admitted {
		t.Errorf("answers %v, want %d × 408 and %d closed", statuses, admitted, conns-admitted)
	}
	for _, c := range open {
		c.Close()
	}
	within(t, "after", base, bound, hostileHeap)
	sessionWorks(t, h, sid)
	settled(t, base)
}

// TestHostileUnreadAnswers: 20 clients of one caller ask for a 16 MiB
// answer and never read it. Answers made and not yet written count
// against the caller's budget (64 MiB): four are made, the other sixteen
// requests are refused with 429 at once; the caller's server/discover
// is still answered, and another caller is served. Each handler is released once
// WriteTimeout has passed, and what it held goes with it.
func TestHostileUnreadAnswers(t *testing.T) {
	const clients, size = 20, 16 << 20
	held := int(mcpgen.DefaultMaxPendingBytesPerPrincipal / size)
	big := strings.Repeat("x", size)
	def := mcpgen.Definition{Name: "big", Version: "1.0.0", Tools: []mcpgen.Tool{{
		Info: mcpgen.ToolInfo{Name: "big", InputSchema: json.RawMessage(`{"type":"object"}`)},
		Call: func(context.Context, *mcpgen.Request, json.RawMessage) (*mcpgen.CallToolResult, error) {
			return mcpgen.TextResult(big, nil)
		},
	}}}
	// The write deadline outlasts making the four answers on a loaded
	// machine: one abandoned early would let a fifth in.
	h := serveHostile(t, mcpgen.New(def, mcpgen.Options{Limits: mcpgen.Limits{HTTPWriteTimeout: 6 * time.Second}}), mcpgen.HTTPOptions{})
	base := measure()

	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"big","arguments":{},` + tasksMeta + `}}`
	var open []net.Conn
	defer func() {
		for _, c := range open {
			c.Close()
		}
	}()
	for i := range clients {
		c, err := net.Dial("tcp", h.addr)
		if err != nil {
			t.Fatal(err)
		}
		open = append(open, c)
		_ = c.(*net.TCPConn).SetReadBuffer(4096)
		fmt.Fprintf(c, "POST /mcp HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer mallory\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/call\r\nMcp-Name: big\r\nContent-Length: %d\r\n\r\n%s", len(body), body)
		if i < held { // the budget is checked when a request arrives: let the answer be made first
			waitFor(t, "the answer to be made", func() bool {
				return mcpgen.PendingBytesForTest(h.srv, "sub:mallory") >= int64(i+1)*size
			})
		}
	}
	for i, c := range open[held:] {
		_ = c.SetReadDeadline(time.Now().Add(hostileWait))
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			t.Fatalf("request %d past the budget: %v", held+i, err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "" {
			t.Fatalf("request %d past the budget: status %d, Retry-After %q; want 429 with Retry-After", held+i, resp.StatusCode, resp.Header.Get("Retry-After"))
		}
	}
	waitFor(t, "the answers held to be the only calls", func() bool { return h.inflight.Load() == int64(held) })
	// Per client: its connection's goroutines (as above) and the call's;
	// per answer held: up to three copies of its size (the encoded result,
	// the response's buffer, one in between; two were measured).
	bound, heap := 3*clients+hostileSlack, uint64(hostileHeap+held*3*size)
	within(t, fmt.Sprintf("%d answers unread", held), base, bound, heap)
	if status, a, err := send(fresh(), h.url, hcall{token: "mallory", method: "server/discover"}); err != nil || status != http.StatusOK || a.Error != nil {
		t.Fatalf("server/discover from the caller over its budget: status %d, %+v, %v; want it answered", status, a.Error, err)
	}
	served(t, h, "while the answers are unread")
	waitFor(t, "the handlers to give up on the unread answers", func() bool { return h.inflight.Load() == 0 })
	if n := mcpgen.PendingBytesForTest(h.srv, "sub:mallory"); n != 0 {
		t.Fatalf("%d bytes still counted against the caller once its answers were abandoned", n)
	}
	within(t, "after", base, bound, hostileHeap)
	if status, a, err := send(fresh(), h.url, hcall{token: "mallory", method: "tools/list"}); err != nil || status != http.StatusOK || a.Error != nil {
		t.Fatalf("tools/list from the caller once its answers were abandoned: status %d, %+v, %v", status, a.Error, err)
	}
	for _, c := range open {
		c.Close()
	}
	settled(t, base)
}

// TestHostileSessionFlood: one caller opens 1,200 legacy sessions, past
// its cap of 1,000: its least recently used sessions end, and another
// caller's session is untouched.
func TestHostileSessionFlood(t *testing.T) {
	const sessions, workers = mcpgen.DefaultMaxSessionsPerPrincipal + 200, 8
	h := serveHostile(t, everything.New(mcpgen.Options{Tasks: true}), mcpgen.HTTPOptions{})
	sid := openSession(t, h, fresh(), "alice")
	client := &http.Client{Timeout: hostileWait, Transport: &http.Transport{MaxIdleConnsPerHost: workers}}
	defer client.CloseIdleConnections()
	first := openSession(t, h, client, "mallory")
	base := measure()

	var mu sync.Mutex
	var refused int
	var wg sync.WaitGroup
	var next atomic.Int64
	for range workers {
		wg.Go(func() {
			for next.Add(1) <= sessions {
				resp, err := client.Do(initialize(h.url, "mallory"))
				if err == nil {
					_, _ = io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
				}
				if err != nil || resp.StatusCode != http.StatusOK {
					mu.Lock()
					refused++
					mu.Unlock()
				}
			}
		})
	}
	wg.Wait()
	if refused != 0 {
		t.Errorf("%d initialize calls failed", refused)
	}
	// Sessions hold no goroutine: the workers and their connections.
	bound := 4*workers + hostileSlack
	within(t, fmt.Sprintf("%d sessions opened", sessions), base, bound, hostileHeap)
	n, most := h.srv.Sessions(), mcpgen.DefaultMaxSessionsPerPrincipal+1
	t.Logf("%d sessions open after %d initialize calls", n, sessions+2)
	if n > most {
		t.Errorf("%d sessions open, at most %d expected", n, most)
	}
	status, _, _ := send(fresh(), h.url, hcall{token: "mallory", method: "tools/list", session: first})
	if status != http.StatusNotFound {
		t.Errorf("mallory's first session: status %d, want 404 (evicted)", status)
	}
	served(t, h, "after the flood")
	sessionWorks(t, h, sid)
	client.CloseIdleConnections()
	settled(t, base)
}

// listen opens a subscriptions/listen stream for token on its own
// connection: the stream and its cancel when acknowledged, else the
// status and error of the refusal.
func listen(t *testing.T, h *hostileServer, token string) (*events, context.CancelFunc, int, answer) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	resp, err := client.Do(hcall{token: token, method: "subscriptions/listen", params: `"notifications":{"toolsListChanged":true}`}.request(ctx, h.url))
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		var a answer
		_ = json.NewDecoder(resp.Body).Decode(&a)
		resp.Body.Close()
		cancel()
		return nil, nil, resp.StatusCode, a
	}
	ev := newEvents(resp.Body)
	ack, err := ev.next()
	if err != nil || ack.Method != "notifications/subscriptions/acknowledged" {
		cancel()
		t.Fatalf("listen: %+v %v", ack, err)
	}
	stop := func() { cancel(); resp.Body.Close() }
	t.Cleanup(stop)
	return ev, stop, http.StatusOK, answer{}
}

// TestHostileListenFlood: one caller opens 40 subscriptions/listen
// streams: 16 (its cap) are served, the rest refused with 429, and
// another caller's stream goes on receiving notifications.
func TestHostileListenFlood(t *testing.T) {
	const streams = 40
	h := serveHostile(t, everything.New(mcpgen.Options{Tasks: true}), mcpgen.HTTPOptions{})
	alice, _, _, _ := listen(t, h, "alice")
	base := measure()

	var stops []context.CancelFunc
	statuses := map[int]int{}
	for range streams {
		_, stop, status, a := listen(t, h, "mallory")
		statuses[status]++
		if stop != nil {
			stops = append(stops, stop)
		} else if a.Error == nil || a.Error.Code != mcpgen.CodeTooManyRequests {
			t.Errorf("a refused stream: status %d, %+v", status, a.Error)
		}
	}
	capped := mcpgen.DefaultMaxListenStreamsPerPrincipal
	if statuses[http.StatusOK] != capped || statuses[http.StatusTooManyRequests] != streams-capped {
		t.Errorf("answers %v, want %d × 200 and %d × 429", statuses, capped, streams-capped)
	}
	// Per open stream: its connection's goroutines on both sides
	// (server: connection, background reader, handler; client: read and
	// write loops), and as many again for what the stream may start.
	bound := 2*5*capped + hostileSlack
	within(t, fmt.Sprintf("%d streams open", capped), base, bound, hostileHeap)
	served(t, h, "while the streams are open")

	got := make(chan string, 1)
	go func() {
		for {
			m, err := alice.next()
			if err != nil {
				got <- err.Error()
				return
			}
			if m.Method == "notifications/tools/list_changed" {
				got <- m.Method
				return
			}
		}
	}()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	deadline := time.After(hostileWait)
wait:
	for {
		select {
		case m := <-got:
			if m != "notifications/tools/list_changed" {
				t.Fatalf("alice's stream: %s", m)
			}
			break wait
		case <-tick.C:
			h.srv.ListChanged("tools")
		case <-deadline:
			t.Fatal("alice's stream received nothing")
		}
	}
	for _, stop := range stops {
		stop()
	}
	within(t, "after", base, bound, hostileHeap)
	settled(t, base)
}

// TestHostileTaskFlood: one caller starts 50 long slow_compute tasks: 32
// (its cap of running tasks) start, the rest are refused with 429, and
// another caller's finished task is still there.
func TestHostileTaskFlood(t *testing.T) {
	const tasks = 50
	h := serveHostile(t, everything.New(mcpgen.Options{Tasks: true}), mcpgen.HTTPOptions{})
	start := func(token string, seconds int) (int, answer) {
		status, a, err := send(fresh(), h.url, hcall{token: token, method: "tools/call", name: "slow_compute",
			params: fmt.Sprintf(`"name":"slow_compute","arguments":{"seconds":%d}`, seconds)})
		if err != nil {
			t.Fatal(err)
		}
		return status, a
	}
	taskID := func(a answer) string {
		var r struct {
			TaskID string `json:"taskId"`
		}
		_ = json.Unmarshal(a.Result, &r)
		return r.TaskID
	}
	get := func(token, id string) answer {
		_, a, err := send(fresh(), h.url, hcall{token: token, method: "tasks/get", name: id, params: fmt.Sprintf(`"taskId":%q`, id)})
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	_, a := start("alice", 0)
	aliceTask := taskID(a)
	if aliceTask == "" {
		t.Fatalf("alice's task: %s %+v", a.Result, a.Error)
	}
	waitFor(t, "alice's task to finish", func() bool {
		return strings.Contains(string(get("alice", aliceTask).Result), `"completed"`)
	})
	base := measure()

	var ids []string
	defer func() { // the tasks would run for a minute: cancel them
		for _, id := range ids {
			_, _, _ = send(fresh(), h.url, hcall{token: "mallory", method: "tasks/cancel", name: id, params: fmt.Sprintf(`"taskId":%q`, id)})
		}
		settled(t, base)
	}()
	statuses := map[int]int{}
	for range tasks {
		status, a := start("mallory", 60)
		statuses[status]++
		if id := taskID(a); id != "" {
			ids = append(ids, id)
		} else if a.Error == nil || a.Error.Code != mcpgen.CodeTooManyRequests {
			t.Errorf("a refused task: status %d, %+v", status, a.Error)
		}
	}
	capped := mcpgen.DefaultMaxActiveTasksPerPrincipal
	if len(ids) != capped || statuses[http.StatusTooManyRequests] != tasks-capped {
		t.Errorf("%d tasks started, answers %v; want %d started and %d × 429", len(ids), statuses, capped, tasks-capped)
	}
	// Per running task: its goroutine and its timer's.
	bound := 2*capped + hostileSlack
	within(t, fmt.Sprintf("%d tasks running", capped), base, bound, hostileHeap)
	served(t, h, "while the tasks run")
	if v := get("alice", aliceTask); !strings.Contains(string(v.Result), `"completed"`) {
		t.Errorf("alice's task after the flood: %s %+v", v.Result, v.Error)
	}
}

// TestHostileJunkTokens: 2,000 requests with tokens the Authenticator
// refuses are answered 401 and leave nothing behind.
func TestHostileJunkTokens(t *testing.T) {
	const requests, workers = 2000, 8
	h := serveHostile(t, everything.New(mcpgen.Options{Tasks: true}), mcpgen.HTTPOptions{})
	sid := openSession(t, h, fresh(), "alice")
	client := &http.Client{Timeout: hostileWait, Transport: &http.Transport{MaxIdleConnsPerHost: workers}}
	defer client.CloseIdleConnections()
	base := measure()

	counts := flood(client, h.url, requests, workers, func(i int) hcall {
		return hcall{token: fmt.Sprintf("junk-%d-%s", i, strings.Repeat("z", i%512)), method: "tools/list"}
	})
	if counts[http.StatusUnauthorized] != requests {
		t.Errorf("answers %v, want %d × 401", counts, requests)
	}
	bound := 4*workers + hostileSlack
	within(t, fmt.Sprintf("%d refusals", requests), base, bound, hostileHeap)
	served(t, h, "after the refusals")
	sessionWorks(t, h, sid)
	client.CloseIdleConnections()
	settled(t, base)
}

// TestHostileUnreadAnswerHoldsConcurrencySlot: writing an answer is part
// of the work, so a caller at its --max-concurrent limit whose answer is
// not read gets 429 until the write deadline releases the slot.
func TestHostileUnreadAnswerHoldsConcurrencySlot(t *testing.T) {
	const size = 16 << 20
	big := strings.Repeat("x", size)
	def := mcpgen.Definition{Name: "big", Version: "1.0.0", Tools: []mcpgen.Tool{{
		Info: mcpgen.ToolInfo{Name: "big", InputSchema: json.RawMessage(`{"type":"object"}`)},
		Call: func(context.Context, *mcpgen.Request, json.RawMessage) (*mcpgen.CallToolResult, error) {
			return mcpgen.TextResult(big, nil)
		},
	}}}
	// A byte budget far above the answer: it only shows when the answer is made.
	srv := mcpgen.New(def, mcpgen.Options{Limits: mcpgen.Limits{Concurrent: 1, MaxPendingBytesPerPrincipal: 1 << 30, HTTPWriteTimeout: time.Second}})
	h := serveHostile(t, srv, mcpgen.HTTPOptions{})

	c, err := net.Dial("tcp", h.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_ = c.(*net.TCPConn).SetReadBuffer(4096)
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"big","arguments":{},` + tasksMeta + `}}`
	fmt.Fprintf(c, "POST /mcp HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer mallory\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/call\r\nMcp-Name: big\r\nContent-Length: %d\r\n\r\n%s", len(body), body)
	waitFor(t, "the answer to be made", func() bool { return mcpgen.PendingBytesForTest(h.srv, "sub:mallory") >= size })
	// The call is being written (its tool has returned): the caller's one
	// slot is still taken.
	status, a, err := send(fresh(), h.url, hcall{token: "mallory", method: "tools/list"})
	if err != nil || status != http.StatusTooManyRequests || a.Error == nil || a.Error.Code != mcpgen.CodeTooManyRequests {
		t.Fatalf("tools/list while the caller's answer is unread: status %d, %+v, %v; want 429 -31429", status, a.Error, err)
	}
	served(t, h, "while mallory's answer is unread")
	waitFor(t, "the unread answer to be abandoned", func() bool { return h.inflight.Load() == 0 })
	if status, a, err := send(fresh(), h.url, hcall{token: "mallory", method: "tools/list"}); err != nil || status != http.StatusOK || a.Error != nil {
		t.Fatalf("tools/list once the answer was abandoned: status %d, %+v, %v", status, a.Error, err)
	}
}

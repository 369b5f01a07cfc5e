package harness

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpgen/mcpgen/bench/internal/tools"
)

// Mode is how the load generator talks to a server.
type Mode string

// The modes.
const (
	// ModernHTTP: Streamable HTTP, 2026-07-28: no handshake, per-request
	// _meta and the MCP-Protocol-Version, Mcp-Method and Mcp-Name headers.
	ModernHTTP Mode = "modern-http"
	// LegacyHTTP: Streamable HTTP, 2025-11-25: initialize and one session
	// per worker.
	LegacyHTTP Mode = "legacy-http"
	// Stdio: one process, one initialize (2025-11-25), requests pipelined
	// on stdin by all workers at once.
	Stdio Mode = "stdio"
)

// Workload is the request each worker sends again and again.
type Workload string

// The workloads.
const (
	Echo   Workload = "echo"   // tools/call echo with a fresh message each time
	Ingest Workload = "ingest" // tools/call ingest with 20 entities x 5 observations
	List   Workload = "list"   // tools/list (50 tools)
	// Notify: tools/call test_trigger_tool_change on mcp-everything, which
	// sends notifications/tools/list_changed to every listener (in a
	// cluster: through the backend to every replica). Cluster suite only.
	Notify Workload = "notify"
)

const (
	modernVersion = "2026-07-28"
	legacyVersion = "2025-11-25"
	callTimeout   = 10 * time.Second
)

var modernMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"mcpbench","version":"0.1.0"}}`

// ingestArgs is the ingest payload: 20 entities of 5 observations.
var ingestArgs = func() string {
	var in tools.IngestIn
	for i := range 20 {
		e := tools.Entity{Name: fmt.Sprintf("entity-%02d", i), EntityType: "benchmark"}
		for j := range 5 {
			e.Observations = append(e.Observations, fmt.Sprintf("observation %d of entity %d, with a little text to carry", j, i))
		}
		in.Entities = append(in.Entities, e)
	}
	b, _ := json.Marshal(in)
	return string(b)
}()

// wantIngest is the one correct ingest result.
var wantIngest = tools.Counts{Count: 20, Observations: 100}

// request builds the body of one request and names what it asks for.
func request(w Workload, modern bool, id int64, seq int) (body []byte, method, name, msg string) {
	b := make([]byte, 0, 256)
	b = append(b, `{"jsonrpc":"2.0","id":`...)
	b = strconv.AppendInt(b, id, 10)
	switch w {
	case List:
		method = "tools/list"
		b = append(b, `,"method":"tools/list","params":{`...)
	case Echo:
		method, name = "tools/call", "echo"
		msg = "hello " + strconv.Itoa(seq)
		b = append(b, `,"method":"tools/call","params":{"name":"echo","arguments":{"message":"`...)
		b = append(b, msg...)
		b = append(b, `"}`...)
	case Ingest:
		method, name = "tools/call", "ingest"
		b = append(b, `,"method":"tools/call","params":{"name":"ingest","arguments":`...)
		b = append(b, ingestArgs...)
	case Notify:
		method, name = "tools/call", "test_trigger_tool_change"
		msg = "Sent notifications/tools/list_changed."
		b = append(b, `,"method":"tools/call","params":{"name":"test_trigger_tool_change","arguments":{}`...)
	}
	if modern {
		if b[len(b)-1] != '{' {
			b = append(b, ',')
		}
		b = append(b, modernMeta...)
	}
	b = append(b, "}}"...)
	return b, method, name, msg
}

// Caller sends one request and returns the JSON-RPC response message.
type Caller interface {
	Call(ctx context.Context, method, name string, id int64, body []byte) ([]byte, error)
	Close()
}

// ---- Streamable HTTP ----

// NewHTTPClient returns the client every HTTP worker shares: keep-alive,
// enough idle connections for 64 workers, loopback only.
func NewHTTPClient() *http.Client {
	return &http.Client{
		Timeout: callTimeout,
		Transport: &http.Transport{
			MaxIdleConns:        128,
			MaxIdleConnsPerHost: 128,
			DisableCompression:  true,
			IdleConnTimeout:     30 * time.Second,
		},
	}
}

type httpCaller struct {
	client  *http.Client
	url     string
	modern  bool
	session string
}

// DialHTTP returns one worker's caller. In the legacy mode it initializes a
// session first.
func DialHTTP(ctx context.Context, client *http.Client, url string, modern bool, id int64) (Caller, error) {
	h := &httpCaller{client: client, url: url, modern: modern}
	if modern {
		return h, nil
	}
	body := fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"method":"initialize","params":{"protocolVersion":%q,"capabilities":{},"clientInfo":{"name":"mcpbench","version":"0.1.0"}}}`, id, legacyVersion)
	resp, hdr, err := h.post(ctx, "initialize", "", body)
	if err != nil {
		return nil, fmt.Errorf("initialize: %w", err)
	}
	if err := checkEnvelope(resp, id); err != nil {
		return nil, fmt.Errorf("initialize: %w", err)
	}
	h.session = hdr.Get("Mcp-Session-Id")
	if _, _, err := h.post(ctx, "notifications/initialized", "", []byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)); err != nil {
		return nil, fmt.Errorf("notifications/initialized: %w", err)
	}
	return h, nil
}

func (h *httpCaller) Call(ctx context.Context, method, name string, id int64, body []byte) ([]byte, error) {
	resp, _, err := h.post(ctx, method, name, body)
	return resp, err
}

// Close ends the legacy session (DELETE), as a well-behaved client does.
func (h *httpCaller) Close() {
	if h.session == "" {
		return
	}
	req, _ := http.NewRequest(http.MethodDelete, h.url, nil)
	req.Header.Set("Mcp-Session-Id", h.session)
	req.Header.Set("MCP-Protocol-Version", legacyVersion)
	if resp, err := h.client.Do(req); err == nil {
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
}

// post sends one message; for requests it returns the response message,
// taken from a JSON body or from the SSE stream.
func (h *httpCaller) post(ctx context.Context, method, name string, body []byte) ([]byte, http.Header, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, h.url, bytes.NewReader(body))
	if err != nil {
		return nil, nil, err
	}
	hd := req.Header
	hd["Content-Type"] = []string{"application/json"}
	hd["Accept"] = []string{"application/json, text/event-stream"}
	if h.modern {
		hd["Mcp-Protocol-Version"] = []string{modernVersion}
		hd["Mcp-Method"] = []string{method}
		if name != "" {
			hd["Mcp-Name"] = []string{name}
		}
	} else if method != "initialize" {
		hd["Mcp-Protocol-Version"] = []string{legacyVersion}
		if h.session != "" {
			hd["Mcp-Session-Id"] = []string{h.session}
		}
	}
	resp, err := h.client.Do(req)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, nil, err
	}
	if strings.HasPrefix(method, "notifications/") {
		if resp.StatusCode/100 != 2 {
			return nil, nil, fmt.Errorf("HTTP %d: %s", resp.StatusCode, snippet(data))
		}
		return nil, resp.Header, nil
	}
	if resp.StatusCode != http.StatusOK {
		return nil, nil, fmt.Errorf("HTTP %d: %s", resp.StatusCode, snippet(data))
	}
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		msg, err := responseFromSSE(data)
		return msg, resp.Header, err
	}
	return data, resp.Header, nil
}

// responseFromSSE returns the JSON-RPC response carried by an SSE body (the
// message without a method); notifications before it are skipped.
func responseFromSSE(data []byte) ([]byte, error) {
	var ev []byte
	flush := func() []byte {
		defer func() { ev = ev[:0] }()
		if len(ev) == 0 {
			return nil
		}
		var m struct {
			Method string `json:"method"`
		}
		if json.Unmarshal(ev, &m) == nil && m.Method == "" {
			return append([]byte(nil), ev...)
		}
		return nil
	}
	for len(data) > 0 {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		line = bytes.TrimSuffix(line, []byte{'\r'})
		if len(line) == 0 {
			if m := flush(); m != nil {
				return m, nil
			}
			continue
		}
		if v, ok := bytes.CutPrefix(line, []byte("data:")); ok {
			if len(ev) > 0 {
				ev = append(ev, '\n')
			}
			ev = append(ev, bytes.TrimPrefix(v, []byte{' '})...)
		}
	}
	if m := flush(); m != nil {
		return m, nil
	}
	return nil, errors.New("SSE stream ended without a response")
}

// ---- stdio ----

// StdioConn is one stdio connection shared by every worker: requests are
// written as they come (pipelined) and answers are matched by id.
type StdioConn struct {
	srv     *Server
	wmu     sync.Mutex
	mu      sync.Mutex
	pending map[int64]chan reply
	err     error
	done    chan struct{}
	// Timeout bounds one call (default callTimeout).
	Timeout time.Duration
}

// DialStdio starts reading the server's stdout and, when initialize is
// set, performs the legacy handshake.
func DialStdio(ctx context.Context, srv *Server, initialize bool) (*StdioConn, error) {
	c := &StdioConn{srv: srv, pending: map[int64]chan reply{}, done: make(chan struct{})}
	go c.read()
	if initialize {
		body := fmt.Appendf(nil, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":%q,"capabilities":{},"clientInfo":{"name":"mcpbench","version":"0.1.0"}}}`, legacyVersion)
		resp, err := c.Call(ctx, "initialize", "", 0, body)
		if err != nil {
			return nil, fmt.Errorf("initialize: %w", err)
		}
		if err := checkEnvelope(resp, 0); err != nil {
			return nil, fmt.Errorf("initialize: %w", err)
		}
		if err := c.send([]byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)); err != nil {
			return nil, err
		}
	}
	return c, nil
}

func (c *StdioConn) read() {
	defer close(c.done)
	var acc []byte // the line read so far, reused: a large answer is
	// copied once from the reader's buffer while it arrives, not
	// collected in fragments and joined as ReadBytes does
	for {
		acc = acc[:0]
		frag, err := c.srv.Stdout.ReadSlice('\n')
		for err == bufio.ErrBufferFull {
			acc = append(acc, frag...)
			frag, err = c.srv.Stdout.ReadSlice('\n')
		}
		acc = append(acc, frag...)
		at := time.Now() // the answer is in: what follows is the client's work
		line := bytes.Clone(acc)
		if len(bytes.TrimSpace(line)) > 0 {
			var m struct {
				ID     json.RawMessage `json:"id"`
				Method string          `json:"method"`
			}
			if json.Unmarshal(line, &m) == nil && m.Method == "" {
				if id, err := strconv.ParseInt(string(m.ID), 10, 64); err == nil {
					c.mu.Lock()
					ch := c.pending[id]
					delete(c.pending, id)
					c.mu.Unlock()
					if ch != nil {
						ch <- reply{line, at}
					}
				}
			}
		}
		if err != nil {
			c.mu.Lock()
			c.err = fmt.Errorf("server stdout: %w", err)
			for id, ch := range c.pending {
				close(ch)
				delete(c.pending, id)
			}
			c.mu.Unlock()
			return
		}
	}
}

func (c *StdioConn) send(body []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if _, err := c.srv.Stdin.Write(append(body, '\n')); err != nil {
		return fmt.Errorf("server stdin: %w", err)
	}
	return nil
}

// Call sends one request and waits for its answer.
func (c *StdioConn) Call(ctx context.Context, method, name string, id int64, body []byte) ([]byte, error) {
	line, _, err := c.CallAt(ctx, method, name, id, body)
	return line, err
}

// reply is an answer line and when the reader had read it whole.
type reply struct {
	line []byte
	at   time.Time
}

// CallAt is Call that also returns when the answer had arrived whole,
// before the client decoded it (to find its id, the reader unmarshals the
// line, which for a large answer takes a while): latency measured up to
// then is the server's and the pipe's, not the client's.
func (c *StdioConn) CallAt(ctx context.Context, _, _ string, id int64, body []byte) ([]byte, time.Time, error) {
	ch := make(chan reply, 1)
	c.mu.Lock()
	if c.err != nil {
		c.mu.Unlock()
		return nil, time.Time{}, c.err
	}
	c.pending[id] = ch
	c.mu.Unlock()
	if err := c.send(body); err != nil {
		return nil, time.Time{}, err
	}
	timeout := c.Timeout
	if timeout <= 0 {
		timeout = callTimeout
	}
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case m, ok := <-ch:
		if !ok {
			return nil, time.Time{}, c.err
		}
		return m.line, m.at, nil
	case <-t.C:
	case <-ctx.Done():
	}
	c.mu.Lock()
	delete(c.pending, id)
	c.mu.Unlock()
	return nil, time.Time{}, fmt.Errorf("no answer to request %d within %s", id, timeout)
}

// Close does nothing: the connection ends with the server.
func (c *StdioConn) Close() {}

// ---- checks ----

type envelope struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  json.RawMessage `json:"result"`
	Error   *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// checkEnvelope checks that raw answers request id without an error.
func checkEnvelope(raw []byte, id int64) error {
	_, err := openEnvelope(raw, id)
	return err
}

func openEnvelope(raw []byte, id int64) (json.RawMessage, error) {
	var e envelope
	if err := json.Unmarshal(raw, &e); err != nil {
		return nil, fmt.Errorf("undecodable response %s: %v", snippet(raw), err)
	}
	if got, err := strconv.ParseInt(string(e.ID), 10, 64); err != nil || got != id {
		return nil, fmt.Errorf("response id %s, want %d", e.ID, id)
	}
	if e.Error != nil {
		return nil, fmt.Errorf("error %d: %s", e.Error.Code, e.Error.Message)
	}
	if e.JSONRPC != "2.0" || len(e.Result) == 0 {
		return nil, fmt.Errorf("not a result: %s", snippet(raw))
	}
	return e.Result, nil
}

type textBlock struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

type callResult struct {
	Content           []textBlock     `json:"content"`
	StructuredContent json.RawMessage `json:"structuredContent"`
	IsError           bool            `json:"isError"`
}

// Check verifies that raw is the exact correct answer to the request.
func Check(w Workload, raw []byte, id int64, msg string) error {
	res, err := openEnvelope(raw, id)
	if err != nil {
		return err
	}
	switch w {
	case List:
		var l struct {
			Tools []struct {
				Name        string          `json:"name"`
				InputSchema json.RawMessage `json:"inputSchema"`
			} `json:"tools"`
			NextCursor string `json:"nextCursor"`
		}
		if err := json.Unmarshal(res, &l); err != nil {
			return fmt.Errorf("tools/list: %v", err)
		}
		if l.NextCursor != "" {
			return fmt.Errorf("tools/list: paginated (nextCursor set), want all 50 tools at once")
		}
		names := make([]string, 0, len(l.Tools))
		for _, t := range l.Tools {
			if len(t.InputSchema) == 0 {
				return fmt.Errorf("tools/list: %s has no inputSchema", t.Name)
			}
			names = append(names, t.Name)
		}
		sort.Strings(names)
		if want := tools.Names(); strings.Join(names, ",") != strings.Join(want, ",") {
			return fmt.Errorf("tools/list: got %d tools %v, want %d", len(names), names, len(want))
		}
		return nil
	case Echo, Notify:
		var r callResult
		if err := json.Unmarshal(res, &r); err != nil {
			return fmt.Errorf("%s: %v", w, err)
		}
		if r.IsError || len(r.Content) != 1 || r.Content[0].Type != "text" || r.Content[0].Text != msg {
			return fmt.Errorf("echo: wrong result %s, want the text %q", snippet(res), msg)
		}
		return nil
	case Ingest:
		var r callResult
		if err := json.Unmarshal(res, &r); err != nil {
			return fmt.Errorf("ingest: %v", err)
		}
		if r.IsError || len(r.Content) != 1 || r.Content[0].Type != "text" {
			return fmt.Errorf("ingest: wrong result %s", snippet(res))
		}
		if err := exactCounts(r.StructuredContent); err != nil {
			return fmt.Errorf("ingest: structuredContent: %v", err)
		}
		if err := exactCounts([]byte(r.Content[0].Text)); err != nil {
			return fmt.Errorf("ingest: text: %v", err)
		}
		return nil
	}
	return fmt.Errorf("unknown workload %q", w)
}

// exactCounts checks that b is {"count":20,"observations":100} and nothing
// else.
func exactCounts(b []byte) error {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return fmt.Errorf("%s: %v", snippet(b), err)
	}
	if len(m) != 2 || string(m["count"]) != strconv.Itoa(wantIngest.Count) || string(m["observations"]) != strconv.Itoa(wantIngest.Observations) {
		return fmt.Errorf("got %s, want {\"count\":%d,\"observations\":%d}", snippet(b), wantIngest.Count, wantIngest.Observations)
	}
	return nil
}

func snippet(b []byte) string {
	if len(b) > 300 {
		return string(b[:300]) + "..."
	}
	return string(b)
}

// ---- one cell: a workload at a concurrency against a running server ----

// CellResult is one measurement.
type CellResult struct {
	Round     int           // 0-based round of the suite
	Requests  int           // answered correctly inside the window
	Failures  int           // wrong or missing answers, warm-up included
	FirstErr  string        // the first failure
	Window    time.Duration // measured wall time
	CPU       time.Duration // server CPU time during the window
	Latencies []time.Duration
}

// RPS is requests per second in the window.
func (r CellResult) RPS() float64 {
	if r.Window <= 0 {
		return 0
	}
	return float64(r.Requests) / r.Window.Seconds()
}

// CPUPerReq is the server's CPU time per answered request.
func (r CellResult) CPUPerReq() time.Duration {
	if r.Requests == 0 {
		return 0
	}
	return r.CPU / time.Duration(r.Requests)
}

// Percentile returns the p-th latency percentile (0 < p <= 100).
func (r CellResult) Percentile(p float64) time.Duration {
	if len(r.Latencies) == 0 {
		return 0
	}
	i := int(float64(len(r.Latencies))*p/100+0.5) - 1
	return r.Latencies[max(0, min(i, len(r.Latencies)-1))]
}

// CellConfig bounds one cell.
type CellConfig struct {
	Warmup   time.Duration // unmeasured, first
	Window   time.Duration // measured
	MaxCalls int           // bound on all calls of the cell, warm-up included
}

// CPUMeter reports the CPU time used so far by what is measured: one
// server process ([*Server]) or several.
type CPUMeter interface {
	CPU() (time.Duration, error)
}

// windowGrace is how much longer than its window a cell waits for its
// first measured call.
const windowGrace = 10 * time.Second

// RunCell drives a server with conc workers sending workload w: callers[i]
// is worker i's caller. It measures the server's CPU over the window.
func RunCell(ctx context.Context, srv CPUMeter, callers []Caller, w Workload, modern bool, cfg CellConfig) CellResult {
	const (
		warming = iota
		measuring
		stopped
	)
	var (
		phase    atomic.Int32
		started  atomic.Int64
		measured atomic.Int64
		failures atomic.Int64
		mu       sync.Mutex
		firstErr string
		wg       sync.WaitGroup
	)
	// The warm-up may start a quarter of the calls, so that the window
	// always has calls left to measure: a worker that would start more
	// waits for the window. (The warm-up loop below looks at the count
	// only every few milliseconds, in which a fast server answers more
	// than a small MaxCalls.)
	warmCalls := int64(cfg.MaxCalls / 4)
	measure := make(chan struct{})
	lats := make([][]time.Duration, len(callers))
	counts := make([]int, len(callers))
	for i, c := range callers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			base := int64(i+1) * 100_000_000
			for seq := 0; phase.Load() != stopped && ctx.Err() == nil; seq++ {
				if phase.Load() == warming && started.Load() >= warmCalls {
					select {
					case <-measure:
					case <-ctx.Done():
						return
					}
				}
				if started.Add(1) > int64(cfg.MaxCalls) {
					return
				}
				id := base + int64(seq)
				body, method, name, msg := request(w, modern, id, seq)
				t0 := time.Now()
				raw, err := c.Call(ctx, method, name, id, body)
				d := time.Since(t0)
				if err == nil {
					err = Check(w, raw, id, msg)
				}
				if err != nil {
					if failures.Add(1) == 1 {
						mu.Lock()
						firstErr = err.Error()
						mu.Unlock()
					}
					continue
				}
				if phase.Load() == measuring {
					lats[i] = append(lats[i], d)
					counts[i]++
					measured.Add(1)
				}
			}
		}()
	}
	// The warm-up ends after its time or its calls.
	warmEnd := time.Now().Add(cfg.Warmup)
	for time.Now().Before(warmEnd) && started.Load() < warmCalls && ctx.Err() == nil {
		sleep(ctx, min(5*time.Millisecond, time.Until(warmEnd)))
	}
	cpu0, _ := srv.CPU()
	t0 := time.Now()
	phase.Store(measuring)
	close(measure)
	// The window lasts its time, and on a machine so busy that no call
	// ended within it, until the first one does (at most windowGrace
	// more): a cell always measures something.
	deadline, last := t0.Add(cfg.Window), t0.Add(cfg.Window+windowGrace)
	for started.Load() <= int64(cfg.MaxCalls) && ctx.Err() == nil {
		now := time.Now()
		if !now.Before(deadline) && (measured.Load() > 0 || !now.Before(last)) {
			break
		}
		sleep(ctx, min(10*time.Millisecond, max(time.Millisecond, time.Until(deadline))))
	}
	phase.Store(stopped)
	window := time.Since(t0)
	cpu1, _ := srv.CPU()
	wg.Wait()
	res := CellResult{Failures: int(failures.Load()), FirstErr: firstErr, Window: window, CPU: cpu1 - cpu0}
	for i := range lats {
		res.Requests += counts[i]
		res.Latencies = append(res.Latencies, lats[i]...)
	}
	sort.Slice(res.Latencies, func(a, b int) bool { return res.Latencies[a] < res.Latencies[b] })
	return res
}

func sleep(ctx context.Context, d time.Duration) {
	if d <= 0 {
		return
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
}

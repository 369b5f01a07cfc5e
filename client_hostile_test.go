package mcpgen_test

import (
	"bufio"
	"cmp"
	"context"
	"crypto/tls"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen"
	"github.com/mcpgen/mcpgen/generated/notes/notesclient"
	"github.com/mcpgen/mcpgen/oauthclient"
)

// The hostile-server suite: the twin of the hostile-load suite
// (hostile_test.go) for the client. Each TestHostileClient* points a
// client with default settings (unless a test says which bound it
// lowers) at a server on loopback that attacks it, and checks that
// (a) goroutines and heap stay within a bound over the baseline taken
// before the attack, during the call and after it, (b) no credential
// leaves the origin it is for, and (c) the caller gets an error it can
// match with errors.Is or errors.As. Durations are never asserted: waits
// have generous deadlines only (hostileWait).

// Bounds of the client suite.
const (
	// clientHeap is the heap growth allowed over the baseline during and
	// after an attack (issue 31: 20,000 server requests in one answer
	// stay under 32 MiB).
	clientHeap = 32 << 20
	// serverRequestSlots is the client's cap on the server's requests
	// answered at once per connection (maxServerRequests).
	serverRequestSlots = 16
	// clientGoroutines is the goroutine growth allowed during an attack:
	// per request slot its handler, the POST of its answer and the
	// connection that carries it (2 goroutines of the client's transport,
	// 2 of the test server), and slack for the sampler, the call and the
	// connections of the call itself.
	clientGoroutines = serverRequestSlots*5 + hostileSlack
	// goroutinesPerConn is what one idle keep-alive connection costs the
	// process of these tests: its read and write loops in the client's
	// transport and the test server's goroutine serving it.
	goroutinesPerConn = 3
)

// clientGuard samples the process while a hostile server attacks: the
// baseline when it is made, then goroutines and heap (after a GC) every
// few milliseconds until end. A heap 4 times past the bound cancels the
// attack (abort), so that a client without the defence under test fails
// fast instead of taking the machine's memory.
type clientGuard struct {
	base  usage
	stop  chan struct{}
	done  chan struct{}
	peak  usage
	abort context.CancelFunc
}

// guardClient takes the baseline and starts sampling; abort may be nil.
func guardClient(t *testing.T, abort context.CancelFunc) *clientGuard {
	g := &clientGuard{base: measure(), stop: make(chan struct{}), done: make(chan struct{}), abort: abort}
	g.peak = g.base
	go func() {
		defer close(g.done)
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-g.stop:
				return
			case <-tick.C:
			}
			u := measure()
			g.peak.goroutines = max(g.peak.goroutines, u.goroutines)
			g.peak.heap = max(g.peak.heap, u.heap)
			if g.abort != nil && u.heap > g.base.heap+4*clientHeap {
				t.Errorf("the heap grew %d bytes, 4 times the bound: attack aborted", u.heap-g.base.heap)
				g.abort()
				g.abort = nil
			}
		}
	}()
	return g
}

// end stops sampling and fails the test when the peak was past
// goroutines or heap over the baseline.
func (g *clientGuard) end(t *testing.T, goroutines int, heap uint64) {
	t.Helper()
	close(g.stop)
	<-g.done
	dg, dh := g.peak.goroutines-g.base.goroutines, int64(g.peak.heap)-int64(g.base.heap)
	t.Logf("during the attack: goroutines %+d at most (bound %d), heap %+.1f MiB at most (bound %d MiB)", dg, goroutines, float64(dh)/(1<<20), heap>>20)
	if dg > goroutines {
		t.Errorf("during the attack %d goroutines more than before, bound %d", dg, goroutines)
	}
	if dh > int64(heap) {
		t.Errorf("during the attack the heap grew %d bytes, bound %d", dh, heap)
	}
}

// back waits until the goroutines are at most the baseline's plus extra
// (what the test knows is still open: idle keep-alive connections), and
// fails the test when that does not happen within hostileWait.
func back(t *testing.T, when string, base usage, extra func() int) {
	t.Helper()
	var n, want int
	for deadline := time.Now().Add(hostileWait); ; time.Sleep(10 * time.Millisecond) {
		want = base.goroutines
		if extra != nil {
			want += extra()
		}
		if n = runtime.NumGoroutine(); n <= want {
			return
		}
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			t.Errorf("%s: %d goroutines, want at most %d (the baseline %d and what is still open)\n%s", when, n, want, base.goroutines, buf[:runtime.Stack(buf, true)])
			return
		}
	}
}

// attack runs call (the attack) under a clientGuard, checks the bounds
// during it, and waits for the goroutines to come back to the baseline
// but for the idle keep-alive connections open (nil: none) counts beyond
// those open before.
func attack(t *testing.T, cancel context.CancelFunc, open func() int64, call func()) {
	t.Helper()
	var before int64
	if open != nil {
		before = open()
	}
	g := guardClient(t, cancel)
	call()
	g.end(t, clientGoroutines, clientHeap)
	back(t, "after the call", g.base, func() int {
		if open == nil {
			return 0
		}
		return goroutinesPerConn * int(max(open()-before, 0))
	})
}

// noPanic runs f and turns a panic into a test failure, so that a client
// that panics on what a server sent fails this test, not the binary.
func noPanic(t *testing.T, what string, f func()) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Errorf("%s panicked: %v", what, r)
		}
	}()
	f()
}

// rpc is a JSON-RPC message as the hostile servers read it.
type rpc struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Error  *struct {
		Code int64 `json:"code"`
	} `json:"error"`
}

// mcpServer is a hostile Streamable HTTP server on loopback. It answers
// server/discover as a 2026-07-28 server, takes the client's responses to
// its requests (202, counted by error code), and hands every other
// request to the test's answer function.
type mcpServer struct {
	*httptest.Server
	conns    atomic.Int64 // connections open
	requests atomic.Int64 // requests received

	mu        sync.Mutex
	responses map[int64]int // error code (0 for a result) -> responses
	auth      []string      // Authorization headers received
}

// serveMCP starts an mcpServer; tls serves it over HTTPS.
func serveMCP(t *testing.T, tls bool, answer func(w http.ResponseWriter, r *http.Request, m rpc)) *mcpServer {
	t.Helper()
	s := &mcpServer{responses: map[int64]int{}}
	s.Server = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.requests.Add(1)
		s.mu.Lock()
		if a := r.Header.Get("Authorization"); a != "" {
			s.auth = append(s.auth, a)
		}
		s.mu.Unlock()
		if r.Method != http.MethodPost {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		var m rpc
		if err := json.NewDecoder(r.Body).Decode(&m); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		switch {
		case m.Method == "" && len(m.ID) > 0:
			code := int64(0)
			if m.Error != nil {
				code = m.Error.Code
			}
			s.mu.Lock()
			s.responses[code]++
			s.mu.Unlock()
			w.WriteHeader(http.StatusAccepted)
		case m.Method == "server/discover":
			writeJSON(w, m.ID, `{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{"tools":{},"resources":{}},"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"hostile","version":"1"}}}`)
		default:
			answer(w, r, m)
		}
	}))
	s.Config.ConnState = countConns(&s.conns)
	if tls {
		s.StartTLS()
	} else {
		s.Start()
	}
	t.Cleanup(s.Close)
	return s
}

// countConns is an http.Server's ConnState that keeps n at the number of
// connections open.
func countConns(n *atomic.Int64) func(net.Conn, http.ConnState) {
	return func(_ net.Conn, st http.ConnState) {
		switch st {
		case http.StateNew:
			n.Add(1)
		case http.StateClosed, http.StateHijacked:
			n.Add(-1)
		}
	}
}

// responded returns how many responses to its requests the server got
// with error code (0: a result).
func (s *mcpServer) responded(code int64) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.responses[code]
}

// authorizations returns the Authorization headers the server received.
func (s *mcpServer) authorizations() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.auth...)
}

// writeJSON answers request id with result as a JSON body.
func writeJSON(w http.ResponseWriter, id json.RawMessage, result string) {
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":%s}`, id, result)
}

// textResult is a tools/call result with one text block.
const textResult = `{"resultType":"complete","content":[{"type":"text","text":"done"}]}`

// connect connects to url with opts, failing the test on an error.
func connect(t *testing.T, ctx context.Context, url string, opts mcpgen.ClientOptions) *mcpgen.Client {
	t.Helper()
	c, err := mcpgen.Connect(ctx, mcpgen.HTTPTransport(url), opts)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	return c
}

// serverQuestions are the server-to-client requests of a flood, in turn.
var serverQuestions = []struct{ method, params string }{
	{"elicitation/create", `{"message":"name?","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}}}}`},
	{"sampling/createMessage", `{"messages":[{"role":"user","content":{"type":"text","text":"hi"}}],"maxTokens":10}`},
	{"roots/list", `{}`},
}

// floodRequests is how many requests of its own the server sends before
// its answer in the flood tests (issue 31, finding 7).
const floodRequests = 20000

// writeFlood writes n server requests, one per line as prefix+message+
// suffix (an SSE event or a stdio line), then the response to id.
func writeFlood(w *bufio.Writer, prefix, suffix string, n int, id json.RawMessage) error {
	for i := range n {
		q := serverQuestions[i%len(serverQuestions)]
		fmt.Fprintf(w, `%s{"jsonrpc":"2.0","id":"q%d","method":%q,"params":%s}%s`, prefix, i, q.method, q.params, suffix)
	}
	fmt.Fprintf(w, `%s{"jsonrpc":"2.0","id":%s,"result":%s}%s`, prefix, id, textResult, suffix)
	return w.Flush()
}

// blockingHandlers answer the server's questions only when their context
// ends (a user who never answers), counting those in progress and the
// most at once.
type blockingHandlers struct {
	now, most atomic.Int64
}

func (b *blockingHandlers) wait(ctx context.Context) error {
	n := b.now.Add(1)
	defer b.now.Add(-1)
	for m := b.most.Load(); n > m && !b.most.CompareAndSwap(m, n); m = b.most.Load() {
	}
	<-ctx.Done()
	return ctx.Err()
}

func (b *blockingHandlers) options() mcpgen.ClientOptions {
	return mcpgen.ClientOptions{
		Elicit: func(ctx context.Context, _ *mcpgen.ElicitRequest) (*mcpgen.ElicitResult, error) {
			return nil, b.wait(ctx)
		},
		Sample: func(ctx context.Context, _ *mcpgen.CreateMessageRequest) (*mcpgen.CreateMessageResult, error) {
			return nil, b.wait(ctx)
		},
		Roots: func(ctx context.Context) ([]mcpgen.Root, error) { return nil, b.wait(ctx) },
	}
}

// TestHostileClientRequestFlood: one SSE answer carries 20,000 requests
// of the server before its result (finding 7). With handlers that never
// answer, the client runs at most serverRequestSlots at once, refuses the
// rest at once with a JSON-RPC error (no goroutine each), keeps its heap
// under 32 MiB, and when the call returns ends the handlers still running
// for it: its goroutines come back to the baseline. Without handlers,
// every request is answered method-not-found the same way, without a
// goroutine (5,000 of them: each answer is a POST, and the 20,000 case
// is the first).
func TestHostileClientRequestFlood(t *testing.T) {
	for _, withHandlers := range []bool{true, false} {
		name, requests := "handlers that never answer", floodRequests
		if !withHandlers {
			name, requests = "no handlers", 5000
		}
		t.Run(name, func(t *testing.T) {
			srv := serveMCP(t, false, func(w http.ResponseWriter, r *http.Request, m rpc) {
				if m.Method != "tools/call" {
					writeJSON(w, m.ID, `{"resultType":"complete","tools":[]}`)
					return
				}
				w.Header().Set("Content-Type", "text/event-stream")
				w.WriteHeader(http.StatusOK)
				_ = writeFlood(bufio.NewWriterSize(w, 64<<10), "data: ", "\n\n", requests, m.ID)
			})
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			var h blockingHandlers
			opts := mcpgen.ClientOptions{}
			if withHandlers {
				opts = h.options()
			}
			c := connect(t, ctx, srv.URL, opts)
			defer c.Close()

			// Nothing started for the call's answer outlives it: the
			// handlers are told to stop, and the goroutines come back to
			// the baseline but for the keep-alive connections the pool
			// holds beyond the baseline's.
			base := measure()
			attack(t, cancel, srv.conns.Load, func() {
				res, err := c.CallTool(ctx, "flood", nil)
				if err != nil || len(res.Content) != 1 || res.Content[0].Text != "done" {
					t.Errorf("call: %+v, %v", res, err)
				}
			})
			waitFor(t, "the handlers to end", func() bool { return h.now.Load() == 0 })

			if withHandlers {
				if most := h.most.Load(); most != serverRequestSlots {
					t.Errorf("at most %d handlers at once, want the cap of %d", most, serverRequestSlots)
				}
				// The handlers' own answers are cancelled with the call;
				// every other request was refused.
				if got := srv.responded(-32603); got != floodRequests-serverRequestSlots {
					t.Errorf("%d requests refused (-32603), want %d", got, floodRequests-serverRequestSlots)
				}
			} else if got := srv.responded(-32601); got != requests {
				t.Errorf("%d requests answered method-not-found, want %d", got, requests)
			}
			if err := c.Close(); err != nil {
				t.Errorf("close: %v", err)
			}
			back(t, "after Close", base, nil)
		})
	}
}

// TestHostileClientStdioFlood: the same flood on stdio (a server process
// writing requests on its stdout). The server's requests there belong to
// the connection: at most serverRequestSlots handlers run at once, the
// rest are refused, and Close ends the handlers still waiting.
func TestHostileClientStdioFlood(t *testing.T) {
	fromServer, toClient := io.Pipe()
	fromClient, toServer := io.Pipe()
	var mu sync.Mutex
	refused := 0
	served := make(chan struct{})
	go func() {
		// The hostile server: it reads the client's lines on this
		// goroutine and writes its own on another.
		defer close(served)
		out := bufio.NewWriter(toClient)
		var wmu sync.Mutex
		sc := bufio.NewScanner(fromClient)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			var m rpc
			if json.Unmarshal(sc.Bytes(), &m) != nil {
				continue
			}
			switch m.Method {
			case "":
				if m.Error != nil && m.Error.Code == -32603 {
					mu.Lock()
					refused++
					mu.Unlock()
				}
			case "initialize":
				wmu.Lock()
				fmt.Fprintf(out, `{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"hostile","version":"1"}}}`+"\n", m.ID)
				out.Flush()
				wmu.Unlock()
			case "tools/call":
				go func(id json.RawMessage) {
					wmu.Lock()
					defer wmu.Unlock()
					_ = writeFlood(out, "", "\n", floodRequests, id)
				}(m.ID)
			}
		}
		toClient.Close()
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var h blockingHandlers
	opts := h.options()
	opts.ProtocolVersion = "2025-11-25"
	base := measure()
	c, err := mcpgen.Connect(ctx, mcpgen.PipeTransportForTest(fromServer, toServer), opts)
	if err != nil {
		t.Fatal(err)
	}
	g := guardClient(t, cancel)
	res, err := c.CallTool(ctx, "flood", nil)
	if err != nil || res.Content[0].Text != "done" {
		t.Fatalf("call: %+v, %v", res, err)
	}
	// The call's result comes after the requests: the refusals before it
	// are written, the handlers hold their slots.
	waitFor(t, "the refusals", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return refused == floodRequests-serverRequestSlots
	})
	if most := h.most.Load(); most != serverRequestSlots {
		t.Errorf("at most %d handlers at once, want the cap of %d", most, serverRequestSlots)
	}
	g.end(t, clientGoroutines, clientHeap)
	c.Close()
	<-served
	waitFor(t, "Close to end the handlers", func() bool { return h.now.Load() == 0 })
	back(t, "after Close", base, nil)
}

// redirectTo answers tools/call with a 307 to location and anything else
// as an empty, complete result.
func redirectTo(location func() string) func(w http.ResponseWriter, r *http.Request, m rpc) {
	return func(w http.ResponseWriter, r *http.Request, m rpc) {
		if m.Method == "tools/call" {
			http.Redirect(w, r, location(), http.StatusTemporaryRedirect)
			return
		}
		writeJSON(w, m.ID, `{"resultType":"complete","tools":[]}`)
	}
}

// TestHostileClientRedirects: the server answers tools/call with a 307 to
// another origin (finding 8). Go's rule would send the bearer token along
// to the same host name on another port or scheme, and the body to any
// host; the client sends nothing there and the call fails with
// ErrCrossOriginRedirect. A redirect within the origin is followed.
func TestHostileClientRedirects(t *testing.T) {
	const token = "Bearer secret-token"
	target := serveMCP(t, false, func(w http.ResponseWriter, r *http.Request, m rpc) { writeJSON(w, m.ID, textResult) })
	_, port, _ := net.SplitHostPort(target.Listener.Addr().String())
	for _, tc := range []struct{ name, location string }{
		{"same host, other port", "http://127.0.0.1:" + port + "/mcp"},
		{"other host", "http://localhost:" + port + "/mcp"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := serveMCP(t, false, redirectTo(func() string { return tc.location }))
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			c := connect(t, ctx, srv.URL+"/mcp", mcpgen.ClientOptions{Auth: mcpgen.StaticToken("secret-token")})
			defer c.Close()
			before, leaked := target.requests.Load(), len(target.authorizations())
			attack(t, cancel, func() int64 { return srv.conns.Load() + target.conns.Load() }, func() {
				_, err := c.CallTool(ctx, "exfiltrate", map[string]any{"secret": "body"})
				if !errors.Is(err, mcpgen.ErrCrossOriginRedirect) {
					t.Errorf("call: %v, want ErrCrossOriginRedirect", err)
				}
			})
			if n := target.requests.Load() - before; n != 0 {
				t.Errorf("the redirect's target got %d requests (with the body), want none; Authorization: %q", n, target.authorizations()[leaked:])
			}
			if got := srv.authorizations(); len(got) == 0 || got[0] != token {
				t.Errorf("the server's origin got Authorization %q, want the token", got)
			}
		})
	}
	t.Run("https to http", func(t *testing.T) {
		// One port speaks both: the redirect changes the scheme alone.
		d := serveDual(t, func(w http.ResponseWriter, r *http.Request, overTLS bool) {
			if !overTLS {
				w.WriteHeader(http.StatusTeapot)
				return
			}
			var m rpc
			_ = json.NewDecoder(r.Body).Decode(&m)
			switch m.Method {
			case "server/discover":
				writeJSON(w, m.ID, `{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{"tools":{}}}`)
			case "tools/call":
				http.Redirect(w, r, "http://"+r.Host+"/mcp", http.StatusTemporaryRedirect)
			default:
				writeJSON(w, m.ID, `{"resultType":"complete","tools":[]}`)
			}
		})
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		c := connect(t, ctx, d.url, mcpgen.ClientOptions{Auth: mcpgen.StaticToken("secret-token"), HTTPClient: d.client})
		defer c.Close()
		attack(t, cancel, d.conns.Load, func() {
			_, err := c.CallTool(ctx, "downgrade", nil)
			if !errors.Is(err, mcpgen.ErrCrossOriginRedirect) {
				t.Errorf("call: %v, want ErrCrossOriginRedirect", err)
			}
		})
		if n, auth := d.plain(); n != 0 {
			t.Errorf("%d requests went over plain http, with Authorization %q; want none", n, auth)
		}
	})
	t.Run("same origin", func(t *testing.T) {
		var srv *mcpServer
		srv = serveMCP(t, false, func(w http.ResponseWriter, r *http.Request, m rpc) {
			if r.URL.Path == "/mcp" && m.Method == "tools/call" {
				http.Redirect(w, r, "/moved", http.StatusTemporaryRedirect)
				return
			}
			writeJSON(w, m.ID, textResult)
		})
		ctx := context.Background()
		c := connect(t, ctx, srv.URL+"/mcp", mcpgen.ClientOptions{Auth: mcpgen.StaticToken("secret-token")})
		defer c.Close()
		if _, err := c.CallTool(ctx, "moved", nil); err != nil {
			t.Errorf("a redirect within the origin: %v", err)
		}
		for _, a := range srv.authorizations() {
			if a != token {
				t.Errorf("Authorization %q, want the token on every request", a)
			}
		}
	})
}

// dualServer serves https and plain http on one port, so that a redirect
// can change the scheme and nothing else.
type dualServer struct {
	url    string // https://127.0.0.1:port/mcp
	client *http.Client
	conns  atomic.Int64 // connections open

	mu         sync.Mutex
	plainCount int
	plainAuth  []string
}

// plain returns how many requests came over plain http, and their
// Authorization headers.
func (d *dualServer) plain() (int, []string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.plainCount, append([]string(nil), d.plainAuth...)
}

// serveDual starts a dualServer whose handler is told whether the
// request came over TLS.
func serveDual(t *testing.T, handler func(w http.ResponseWriter, r *http.Request, overTLS bool)) *dualServer {
	t.Helper()
	// httptest's certificate (for 127.0.0.1) and a client that trusts it.
	ts := httptest.NewUnstartedServer(nil)
	ts.StartTLS()
	cfg, client := ts.TLS.Clone(), ts.Client()
	ts.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	d := &dualServer{url: "https://" + ln.Addr().String() + "/mcp", client: client}
	hs := &http.Server{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			overTLS := r.Context().Value(sniffKey{}).(*sniffConn).tls
			if !overTLS {
				d.mu.Lock()
				d.plainCount++
				d.plainAuth = append(d.plainAuth, r.Header.Get("Authorization"))
				d.mu.Unlock()
			}
			handler(w, r, overTLS)
		}),
		ConnContext: func(ctx context.Context, c net.Conn) context.Context {
			return context.WithValue(ctx, sniffKey{}, c)
		},
		ConnState: countConns(&d.conns),
	}
	go hs.Serve(sniffListener{ln, cfg})
	t.Cleanup(func() { hs.Close() })
	return d
}

type sniffKey struct{}

// sniffListener hands out connections that speak TLS when the client's
// first byte starts a TLS handshake, and plain TCP otherwise.
type sniffListener struct {
	net.Listener
	cfg *tls.Config
}

func (l sniffListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &sniffConn{Conn: c, cfg: l.cfg}, nil
}

// sniffConn decides on its first read whether it speaks TLS.
type sniffConn struct {
	net.Conn
	cfg  *tls.Config
	once sync.Once
	rw   io.ReadWriter
	tls  bool
}

func (c *sniffConn) sniff() {
	br := bufio.NewReader(c.Conn)
	first, _ := br.Peek(1)
	plain := &peekedConn{Conn: c.Conn, r: br}
	if c.tls = len(first) == 1 && first[0] == 0x16; c.tls {
		c.rw = tls.Server(plain, c.cfg)
	} else {
		c.rw = plain
	}
}

func (c *sniffConn) Read(p []byte) (int, error) {
	c.once.Do(c.sniff)
	return c.rw.Read(p)
}

func (c *sniffConn) Write(p []byte) (int, error) {
	c.once.Do(c.sniff)
	return c.rw.Write(p)
}

// peekedConn reads through the reader that peeked at its first byte.
type peekedConn struct {
	net.Conn
	r io.Reader
}

func (c *peekedConn) Read(p []byte) (int, error) { return c.r.Read(p) }

// listKeys maps each list method to the key of its items.
var listKeys = map[string]string{
	"tools/list":               "tools",
	"resources/list":           "resources",
	"resources/templates/list": "resourceTemplates",
	"prompts/list":             "prompts",
	"skills/list":              "skills",
}

// endlessPages answers every list with one item carrying about
// pageBytes of description and a fresh cursor, for ever, counting the
// pages in served.
func endlessPages(pageBytes int, served *atomic.Int64) func(w http.ResponseWriter, r *http.Request, m rpc) {
	pad := strings.Repeat("x", pageBytes)
	return func(w http.ResponseWriter, r *http.Request, m rpc) {
		key := listKeys[m.Method]
		if key == "" {
			writeJSON(w, m.ID, textResult)
			return
		}
		n := served.Add(1)
		writeJSON(w, m.ID, fmt.Sprintf(`{"resultType":"complete",%q:[{"name":"t%d","uri":"u:%d","uriTemplate":"u:%d/{x}","description":%q,"inputSchema":{"type":"object"}}],"nextCursor":"c%d"}`, key, n, n, n, pad, n))
	}
}

// TestHostileClientEndlessPages: a server answers every list with a page
// of 2 MB and a fresh cursor (finding 10). By default a list stops past
// 32 MiB (ClientOptions.MaxListBytes) with ErrListLimit, after 17 pages,
// holding no more than those; every list method and a typed client's
// CheckSurface are bounded the same way, and so is the page count
// (MaxPages).
func TestHostileClientEndlessPages(t *testing.T) {
	const pageBytes = 2_000_000
	t.Run("default bounds", func(t *testing.T) {
		var served atomic.Int64
		srv := serveMCP(t, false, endlessPages(pageBytes, &served))
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		c := connect(t, ctx, srv.URL, mcpgen.ClientOptions{})
		defer c.Close()
		// The list holds up to 32 MiB of tools before it stops: the heap
		// bound is that and the page being read (its body and decoding).
		conns := srv.conns.Load()
		g := guardClient(t, cancel)
		before := served.Load()
		_, err := c.ListTools(ctx)
		g.end(t, clientGoroutines, 32<<20+clientHeap/2)
		if !errors.Is(err, mcpgen.ErrListLimit) || !strings.Contains(err.Error(), "MaxListBytes") {
			t.Errorf("list: %v, want ErrListLimit naming MaxListBytes", err)
		}
		if pages, want := served.Load()-before, int64(32<<20/pageBytes+1); pages != want {
			t.Errorf("%d pages fetched, want %d (32 MiB of 2 MB pages, and the one past)", pages, want)
		}
		back(t, "after the list", g.base, func() int { return goroutinesPerConn * int(max(srv.conns.Load()-conns, 0)) })
	})
	t.Run("every list", func(t *testing.T) {
		var served atomic.Int64
		srv := serveMCP(t, false, endlessPages(100_000, &served))
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		c := connect(t, ctx, srv.URL, mcpgen.ClientOptions{MaxListBytes: 1 << 20})
		defer c.Close()
		lists := map[string]func() error{
			"ListTools":             func() error { _, err := c.ListTools(ctx); return err },
			"ListResources":         func() error { _, err := c.ListResources(ctx); return err },
			"ListResourceTemplates": func() error { _, err := c.ListResourceTemplates(ctx); return err },
			"ListPrompts":           func() error { _, err := c.ListPrompts(ctx); return err },
			"ListSkills":            func() error { _, err := c.ListSkills(ctx); return err },
			"Tools iterator":        func() error { return lastErr(c.Tools(ctx)) },
			"Resources iterator":    func() error { return lastErr(c.Resources(ctx)) },
			"Templates iterator":    func() error { return lastErr(c.ResourceTemplates(ctx)) },
			"Prompts iterator":      func() error { return lastErr(c.Prompts(ctx)) },
			"Skills iterator":       func() error { return lastErr(c.Skills(ctx)) },
			"CheckSurface":          func() error { return mcpgen.CheckSurface(ctx, c, nil) },
			"typed CheckSurface":    func() error { return notesclient.New(c).CheckSurface(ctx) },
		}
		attack(t, cancel, srv.conns.Load, func() {
			for name, list := range lists {
				before := served.Load()
				if err := list(); !errors.Is(err, mcpgen.ErrListLimit) {
					t.Errorf("%s: %v, want ErrListLimit", name, err)
				}
				if pages := served.Load() - before; pages != 11 {
					t.Errorf("%s fetched %d pages of 100,000 bytes, want 11 (1 MiB and the one past)", name, pages)
				}
			}
		})
	})
	t.Run("pages", func(t *testing.T) {
		var served atomic.Int64
		srv := serveMCP(t, false, endlessPages(10, &served))
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		c := connect(t, ctx, srv.URL, mcpgen.ClientOptions{MaxPages: 5})
		defer c.Close()
		attack(t, cancel, srv.conns.Load, func() {
			if _, err := c.ListPrompts(ctx); !errors.Is(err, mcpgen.ErrListLimit) || !strings.Contains(err.Error(), "MaxPages") {
				t.Errorf("list: %v, want ErrListLimit naming MaxPages", err)
			}
		})
		if served.Load() != 5 {
			t.Errorf("%d pages fetched, want 5", served.Load())
		}
	})
}

// TestHostileClientNoHeaders: a server accepts the connection, reads the
// request and never answers (finding 11). The default HTTP client gives
// up after ClientOptions.HeaderTimeout with a timeout error naming it,
// long before the caller's context ends.
func TestHostileClientNoHeaders(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var open atomic.Int64
	var held sync.WaitGroup
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			open.Add(1)
			held.Add(1)
			go func() {
				defer held.Done()
				defer open.Add(-1)
				_, _ = io.Copy(io.Discard, conn) // until the client hangs up
				conn.Close()
			}()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		held.Wait()
	})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	attack(t, cancel, open.Load, func() {
		_, err := mcpgen.Connect(ctx, mcpgen.HTTPTransport("http://"+ln.Addr().String()+"/mcp"), mcpgen.ClientOptions{HeaderTimeout: 50 * time.Millisecond})
		var ne net.Error
		if err == nil || !errors.As(err, &ne) || !ne.Timeout() || !strings.Contains(err.Error(), "HeaderTimeout") {
			t.Errorf("connect: %v, want a timeout naming ClientOptions.HeaderTimeout", err)
		}
		if ctx.Err() != nil {
			t.Errorf("connect waited for the caller's context to end: %v", err)
		}
	})
}

// giantHeap bounds the heap while a message over limit is read: a buffer
// growing to the limit (the half-size one and the full one while it is
// copied: 1.5 times the limit), a quarter of the limit for a sample taken
// while it grows (a buffer allocated between the sample's GC and its
// reading), and slack.
func giantHeap(limit int64) uint64 { return uint64(7*limit/4 + 8<<20) }

// TestHostileClientGiantAnswers: answers larger than MaxMessageBytes (a
// JSON body, an SSE event, a stdio line), sent for ever, fail the call
// with ErrMessageTooLarge once the limit is passed, holding at most
// giantHeap(limit).
func TestHostileClientGiantAnswers(t *testing.T) {
	// endless writes a message that never ends: prefix, then x for ever.
	endless := func(w io.Writer, prefix string) {
		chunk := []byte(strings.Repeat("x", 64<<10))
		if _, err := io.WriteString(w, prefix); err != nil {
			return
		}
		for {
			if _, err := w.Write(chunk); err != nil {
				return // the client hung up
			}
		}
	}
	for _, tc := range []struct {
		name     string
		limit    int64 // 0: the default, 16 MiB
		sse      bool
		declared bool // Content-Length says 1 GiB: nothing need be read
	}{
		{"JSON body, default limit", 0, false, false},
		{"JSON body", 1 << 20, false, false},
		{"JSON body of a declared size", 1 << 20, false, true},
		{"SSE event, default limit", 0, true, false},
		{"SSE event", 1 << 20, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := serveMCP(t, false, func(w http.ResponseWriter, r *http.Request, m rpc) {
				if m.Method != "tools/call" {
					writeJSON(w, m.ID, `{"resultType":"complete","tools":[]}`)
					return
				}
				prefix := fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"content":[{"type":"text","text":"`, m.ID)
				if tc.sse {
					w.Header().Set("Content-Type", "text/event-stream")
					prefix = "data: " + prefix
				} else {
					w.Header().Set("Content-Type", "application/json")
				}
				if tc.declared {
					w.Header().Set("Content-Length", strconv.Itoa(1<<30))
				}
				endless(w, prefix)
			})
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			c := connect(t, ctx, srv.URL, mcpgen.ClientOptions{MaxMessageBytes: tc.limit})
			defer c.Close()
			limit := cmp.Or(tc.limit, 16<<20)
			before, conns := measure(), srv.conns.Load()
			g := guardClient(t, cancel)
			_, err := c.CallTool(ctx, "giant", nil)
			g.end(t, clientGoroutines, giantHeap(limit))
			if !errors.Is(err, mcpgen.ErrMessageTooLarge) {
				t.Errorf("call: %v, want ErrMessageTooLarge", err)
			}
			back(t, "after the call", before, func() int { return goroutinesPerConn * int(max(srv.conns.Load()-conns, 0)) })
		})
	}
	t.Run("stdio line", func(t *testing.T) {
		fromServer, toClient := io.Pipe()
		fromClient, toServer := io.Pipe()
		go func() {
			defer toClient.Close()
			sc := bufio.NewScanner(fromClient)
			for sc.Scan() {
				var m rpc
				_ = json.Unmarshal(sc.Bytes(), &m)
				switch m.Method {
				case "initialize":
					fmt.Fprintf(toClient, `{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"hostile","version":"1"}}}`+"\n", m.ID)
				case "tools/call":
					go endless(toClient, fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"content":[{"type":"text","text":"`, m.ID))
				}
			}
			// The client closed its end: stop the endless line too.
			fromServer.CloseWithError(io.ErrClosedPipe)
		}()
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		base := measure()
		c, err := mcpgen.Connect(ctx, mcpgen.PipeTransportForTest(fromServer, toServer), mcpgen.ClientOptions{ProtocolVersion: "2025-11-25", MaxMessageBytes: 1 << 20})
		if err != nil {
			t.Fatal(err)
		}
		g := guardClient(t, cancel)
		_, err = c.CallTool(ctx, "giant", nil)
		g.end(t, clientGoroutines, giantHeap(1<<20))
		if !errors.Is(err, mcpgen.ErrMessageTooLarge) {
			t.Errorf("call: %v, want ErrMessageTooLarge", err)
		}
		c.Close()
		back(t, "after Close", base, nil)
	})
}

// TestHostileClientNestedAnswers: an answer nested deeper than the JSON
// decoder allows (200,000 open brackets, well within MaxMessageBytes),
// as a JSON body and as an SSE event, fails the call with
// ErrUnexpectedResult, with no stack or heap to speak of.
func TestHostileClientNestedAnswers(t *testing.T) {
	nested := strings.Repeat("[", 200_000)
	for _, sse := range []bool{false, true} {
		name := "JSON body"
		if sse {
			name = "SSE event"
		}
		t.Run(name, func(t *testing.T) {
			srv := serveMCP(t, false, func(w http.ResponseWriter, r *http.Request, m rpc) {
				if m.Method != "tools/call" {
					writeJSON(w, m.ID, `{"resultType":"complete","tools":[]}`)
					return
				}
				msg := fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"structuredContent":%s}}`, m.ID, nested)
				if sse {
					w.Header().Set("Content-Type", "text/event-stream")
					fmt.Fprintf(w, "data: %s\n\n", msg)
					return
				}
				w.Header().Set("Content-Type", "application/json")
				io.WriteString(w, msg)
			})
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			c := connect(t, ctx, srv.URL, mcpgen.ClientOptions{})
			defer c.Close()
			attack(t, cancel, srv.conns.Load, func() {
				noPanic(t, "CallToolAs", func() {
					_, err := mcpgen.CallToolAs[map[string]any](ctx, c, "nested", nil)
					if !errors.Is(err, mcpgen.ErrUnexpectedResult) {
						t.Errorf("call: %v, want ErrUnexpectedResult", err)
					}
				})
			})
		})
	}
}

// TestHostileClientWrongTypes: a server whose results do not have the
// shape a typed client was generated for (notesclient against a server
// that is not the notes server). Every call returns an error wrapping
// ErrUnexpectedResult, and the decoder's own error where there is one;
// none panics.
func TestHostileClientWrongTypes(t *testing.T) {
	results := map[string]string{
		"wrong field type":          `{"structuredContent":{"id":5,"count":"many"},"content":[]}`,
		"array for an object":       `{"structuredContent":[1,2,3],"content":[]}`,
		"no structured content":     `{"content":[{"type":"image","data":"AAAA","mimeType":"image/png"}]}`,
		"text that is not JSON":     `{"content":[{"type":"text","text":"{not json"}]}`,
		"content of the wrong type": `{"content":"all of it"}`,
		"result that is an array":   `[1,2]`,
		"result that is a string":   `"done"`,
	}
	var mu sync.Mutex
	answer := ""
	srv := serveMCP(t, false, func(w http.ResponseWriter, r *http.Request, m rpc) {
		switch m.Method {
		case "tools/call":
			mu.Lock()
			defer mu.Unlock()
			writeJSON(w, m.ID, answer)
		case "resources/read":
			writeJSON(w, m.ID, `{"contents":[{"uri":"notes://a","blob":"AAAA"}]}`)
		case "tools/list":
			writeJSON(w, m.ID, `{"tools":"none"}`)
		default:
			writeJSON(w, m.ID, `{}`)
		}
	})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	conn := connect(t, ctx, srv.URL, mcpgen.ClientOptions{})
	defer conn.Close()
	notes := notesclient.New(conn)
	attack(t, cancel, srv.conns.Load, func() {
		for name, res := range results {
			mu.Lock()
			answer = res
			mu.Unlock()
			noPanic(t, "AddNote "+name, func() {
				_, err := notes.AddNote(ctx, notesclient.AddNote{ID: "a", Text: "b"})
				if !errors.Is(err, mcpgen.ErrUnexpectedResult) {
					t.Errorf("AddNote, %s: %v, want ErrUnexpectedResult", name, err)
				}
			})
		}
		mu.Lock()
		answer = results["wrong field type"]
		mu.Unlock()
		_, err := notes.AddNote(ctx, notesclient.AddNote{ID: "a", Text: "b"})
		var te *json.UnmarshalTypeError
		if !errors.As(err, &te) {
			t.Errorf("AddNote with a string count: %v, want the decoder's *json.UnmarshalTypeError too", err)
		}
		noPanic(t, "ReadNote", func() {
			if _, err := notes.ReadNote(ctx, "a"); !errors.Is(err, mcpgen.ErrUnexpectedResult) {
				t.Errorf("ReadNote of a blob: %v, want ErrUnexpectedResult", err)
			}
		})
		noPanic(t, "CheckSurface", func() {
			if err := notes.CheckSurface(ctx); !errors.Is(err, mcpgen.ErrUnexpectedResult) {
				t.Errorf("CheckSurface of tools that are not a list: %v, want ErrUnexpectedResult", err)
			}
		})
	})
}

// TestHostileClientInsufficientScope: a 403 with WWW-Authenticate
// error="insufficient_scope" (finding 12) reaches the caller typed,
// whether a ClientAuth gave up on it or there was none: errors.As finds
// the *HTTPStatusError of the answer and an *InsufficientScopeError
// with the scope the server asked for.
func TestHostileClientInsufficientScope(t *testing.T) {
	srv := serveMCP(t, false, func(w http.ResponseWriter, r *http.Request, m rpc) {
		if m.Method != "tools/call" {
			writeJSON(w, m.ID, `{"resultType":"complete","tools":[]}`)
			return
		}
		w.Header().Set("WWW-Authenticate", `Bearer error="insufficient_scope", scope="notes:write notes:admin", error_description="needs \"write\""`)
		http.Error(w, "forbidden", http.StatusForbidden)
	})
	for name, auth := range map[string]mcpgen.ClientAuth{"StaticToken": mcpgen.StaticToken("t"), "no ClientAuth": nil} {
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			c := connect(t, ctx, srv.URL, mcpgen.ClientOptions{Auth: auth})
			defer c.Close()
			attack(t, cancel, srv.conns.Load, func() {
				_, err := c.CallTool(ctx, "write", nil)
				var ise *mcpgen.InsufficientScopeError
				if !errors.As(err, &ise) || ise.Scope != "notes:write notes:admin" {
					t.Errorf("call: %v, want an *InsufficientScopeError for scope %q", err, "notes:write notes:admin")
				}
				var se *mcpgen.HTTPStatusError
				if !errors.As(err, &se) || se.StatusCode != http.StatusForbidden || se.Body != "forbidden" {
					t.Errorf("call: %v, want the *HTTPStatusError of the 403", err)
				}
			})
		})
	}
}

// fakeAS is an authorization server for the client credentials grant:
// metadata and a token endpoint that issues token, recording every
// request that reaches it.
type fakeAS struct {
	*httptest.Server
	token string
	conns atomic.Int64 // connections open

	mu   sync.Mutex
	seen []string // method, path, Authorization and body of each request
}

func serveAS(t *testing.T, token string) *fakeAS {
	t.Helper()
	a := &fakeAS{token: token}
	a.Server = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(io.LimitReader(r.Body, 64<<10))
		a.mu.Lock()
		a.seen = append(a.seen, fmt.Sprintf("%s %s %q %q", r.Method, r.URL.Path, r.Header.Get("Authorization"), body))
		a.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/.well-known/oauth-authorization-server":
			fmt.Fprintf(w, `{"issuer":%q,"token_endpoint":%q,"grant_types_supported":["client_credentials"],"token_endpoint_auth_methods_supported":["client_secret_basic"]}`, a.URL, a.URL+"/token")
		case "/token":
			fmt.Fprintf(w, `{"access_token":%q,"token_type":"Bearer","expires_in":3600}`, a.token)
		default:
			http.NotFound(w, r)
		}
	}))
	a.Config.ConnState = countConns(&a.conns)
	a.Start()
	t.Cleanup(a.Close)
	return a
}

// holding reports the requests that reached a carrying secret (in a
// header, possibly base64-encoded as Basic credentials, or in the body).
func (a *fakeAS) holding(secret string) []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	var out []string
	for _, s := range a.seen {
		if strings.Contains(s, secret) || strings.Contains(s, base64.StdEncoding.EncodeToString([]byte("client:"+secret))) {
			out = append(out, s)
		}
	}
	return out
}

// TestHostileClientForeignAuthorizationServer: a server protected with
// OAuth names, in its resource metadata, an authorization server the
// client was not configured for, or redirects a call to one. The client
// secret goes only to the configured issuer (oauthclient's ClientIssuer,
// issue 31 finding 9), the access token only to the server's origin
// (finding 8), and each refusal is typed: ErrIssuerMismatch,
// ErrCrossOriginRedirect.
func TestHostileClientForeignAuthorizationServer(t *testing.T) {
	const secret = "client-secret"
	legit, foreign := serveAS(t, "token-from-legit"), serveAS(t, "token-from-foreign")
	for _, tc := range []struct {
		name       string
		metadataAS *fakeAS // the authorization server the metadata names
		want       error
	}{
		{"metadata names a foreign authorization server", foreign, oauthclient.ErrIssuerMismatch},
		{"a call redirected to the authorization server", legit, mcpgen.ErrCrossOriginRedirect},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := serveMCP(t, false, func(w http.ResponseWriter, r *http.Request, m rpc) {
				if m.Method == "tools/call" {
					http.Redirect(w, r, foreign.URL+"/mcp", http.StatusTemporaryRedirect)
					return
				}
				writeJSON(w, m.ID, `{"resultType":"complete","tools":[]}`)
			})
			mcpURL := srv.URL + "/mcp"
			inner := srv.Config.Handler
			srv.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				switch {
				case r.URL.Path == "/.well-known/oauth-protected-resource/mcp":
					w.Header().Set("Content-Type", "application/json")
					fmt.Fprintf(w, `{"resource":%q,"authorization_servers":[%q]}`, mcpURL, tc.metadataAS.URL)
				case r.Header.Get("Authorization") != "Bearer token-from-legit":
					w.Header().Set("WWW-Authenticate", fmt.Sprintf(`Bearer resource_metadata=%q`, srv.URL+"/.well-known/oauth-protected-resource/mcp"))
					http.Error(w, "unauthorized", http.StatusUnauthorized)
				default:
					inner.ServeHTTP(w, r)
				}
			})
			// oauthclient's own HTTP client, so that its idle connections
			// can be closed with the client's when the call is over.
			asTransport := &http.Transport{}
			auth, err := oauthclient.New(oauthclient.Config{Grant: oauthclient.GrantClientCredentials, ClientID: "client", ClientSecret: secret, ClientIssuer: legit.URL, HTTPClient: &http.Client{Transport: asTransport}})
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			attack(t, cancel, nil, func() {
				c, err := mcpgen.Connect(ctx, mcpgen.HTTPTransport(mcpURL), mcpgen.ClientOptions{Auth: auth})
				if err == nil {
					_, err = c.CallTool(ctx, "exfiltrate", nil)
					c.Close()
				}
				asTransport.CloseIdleConnections()
				if !errors.Is(err, tc.want) {
					t.Errorf("%v, want %v", err, tc.want)
				}
			})
			if got := foreign.holding(secret); len(got) > 0 {
				t.Errorf("the foreign authorization server got the client secret: %q", got)
			}
			if got := foreign.holding("token-from-legit"); len(got) > 0 {
				t.Errorf("the foreign authorization server got the access token: %q", got)
			}
			for _, a := range srv.authorizations() {
				if strings.HasPrefix(a, "Basic") {
					t.Errorf("the MCP server got client credentials: %q", a)
				}
			}
		})
	}
}

// TestHostileClientStdioServerNotReading: a server that never reads its
// stdin. The client's writes back up; a call gives up with its context
// (its request, then its cancellation, still unwritten) instead of
// blocking on the pipe, and Close returns.
func TestHostileClientStdioServerNotReading(t *testing.T) {
	fromServer, toClient := io.Pipe()
	fromClient, toServer := io.Pipe()
	// The server reads the initialize request, answers it, and never
	// reads again.
	go func() {
		line, _ := bufio.NewReader(fromClient).ReadBytes('\n')
		var m rpc
		_ = json.Unmarshal(line, &m)
		fmt.Fprintf(toClient, `{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"deaf","version":"1"}}}`+"\n", m.ID)
	}()
	t.Cleanup(func() { toClient.Close(); fromClient.Close() })
	c, err := mcpgen.Connect(context.Background(), mcpgen.PipeTransportForTest(fromServer, toServer), mcpgen.ClientOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	big := map[string]any{"blob": strings.Repeat("x", 256<<10)}
	for i := range 3 {
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		done := make(chan error, 1)
		go func() {
			_, err := c.CallTool(ctx, "echo", big)
			done <- err
		}()
		select {
		case err := <-done:
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("call %d: %v, want its deadline", i, err)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("call %d blocked on a server that does not read, past its deadline", i)
		}
		cancel()
	}
	closed := make(chan struct{})
	go func() { c.Close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(30 * time.Second):
		t.Fatal("Close blocked on a server that does not read")
	}
}

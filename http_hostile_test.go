package mcpgen

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"runtime"
	"strings"
	"testing"
	"time"
)

// Tests of the defences against a hostile network: bodies that never
// arrive, clients that never read, and connection hoarding. None asserts
// a duration: each waits, with a generous bound, for what must happen.

// wait bounds every wait in these tests; the deadlines under test are a
// few hundred milliseconds at most.
const wait = 20 * time.Second

// oneByteThenBlock delivers one byte of a body, then blocks until
// released; asked tells the test the reader was asked for more.
type oneByteThenBlock struct {
	sent    bool
	asked   chan struct{}
	release chan struct{}
}

func (r *oneByteThenBlock) Read(p []byte) (int, error) {
	if !r.sent {
		r.sent = true
		p[0] = '{'
		return 1, nil
	}
	close(r.asked)
	<-r.release
	return 0, errors.New("released")
}

// TestReadBodyAllocatesWhatArrives: a body announced at 8 MiB of which one
// byte arrived holds a buffer of at most 64 KiB, not 8 MiB (the old
// buffer was sized from Content-Length before any byte arrived: 100 such
// connections took a server from 68 MB to 829 MB).
func TestReadBodyAllocatesWhatArrives(t *testing.T) {
	const announced = 8 << 20
	rd := &oneByteThenBlock{asked: make(chan struct{}), release: make(chan struct{})}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	done := make(chan []byte)
	go func() {
		buf, _ := readBody(rd, announced, DefaultMaxMessageBytes)
		done <- buf
	}()
	select {
	case <-rd.asked: // the buffer exists and waits for the second byte
	case <-time.After(wait):
		t.Fatal("readBody never asked for a second byte")
	}
	runtime.ReadMemStats(&after)
	close(rd.release)
	buf := <-done
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<20 {
		t.Errorf("waiting for the second byte of %d announced, %d bytes were allocated", announced, grew)
	}
	if cap(buf) > bodyChunk || string(buf) != "{" {
		t.Errorf("buffer %q of capacity %d", buf, cap(buf))
	}
}

// TestReadBodyGrows: bodies larger than the first chunk arrive whole,
// with and without Content-Length, and a truthful Content-Length is never
// outgrown.
func TestReadBodyGrows(t *testing.T) {
	body := strings.Repeat("0123456789abcdef", 40_000) // 640,000 bytes: ten chunks
	for _, cl := range []int64{int64(len(body)), -1} {
		buf, err := readBody(iotestHalfReader{strings.NewReader(body)}, cl, DefaultMaxMessageBytes)
		if err != nil || string(buf) != body {
			t.Fatalf("content length %d: %d bytes, %v", cl, len(buf), err)
		}
		if cl >= 0 && cap(buf) != len(body)+1 {
			t.Errorf("content length %d: capacity %d", cl, cap(buf))
		}
	}
	if buf, err := readBody(strings.NewReader(""), 0, 10); err != nil || len(buf) != 0 {
		t.Fatalf("empty body: %q %v", buf, err)
	}
}

// iotestHalfReader reads at most half of what is asked (at least one
// byte), as a slow network does.
type iotestHalfReader struct{ r io.Reader }

func (h iotestHalfReader) Read(p []byte) (int, error) { return h.r.Read(p[:(len(p)+1)/2]) }

// rawPOST writes a POST with the given Content-Length and body prefix on
// a new connection to ts, and returns the connection.
func rawPOST(t *testing.T, addr string, contentLength int, prefix string) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	fmt.Fprintf(c, "POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\nMcp-Method: ping\r\nContent-Length: %d\r\n\r\n%s", contentLength, prefix)
	return c
}

// readStatus reads the status code of the answer on c, within wait.
func readStatus(t *testing.T, c net.Conn) int {
	t.Helper()
	_ = c.SetReadDeadline(time.Now().Add(wait))
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("no answer: %v", err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// TestOversizedBodyRefusedBeforeReading: a Content-Length over the limit
// is 413 at once, though not a byte of the body was sent.
func TestOversizedBodyRefusedBeforeReading(t *testing.T) {
	obs := &recorder{}
	f := newFixtureWith(t, Options{Observer: obs}, HTTPOptions{})
	c := rawPOST(t, f.ts.Listener.Addr().String(), DefaultMaxMessageBytes+1, "")
	if got := readStatus(t, c); got != http.StatusRequestEntityTooLarge {
		t.Fatalf("status %d", got)
	}
	if obs.count(EventLimitRefused+" limit=message_size") != 1 {
		t.Fatalf("events %v", obs.events)
	}
}

// TestSlowBodyCut: a body that stops arriving is answered 408 once
// ReadTimeout has passed (the old handler waited for it for ever), and
// the refusal is an observer event.
func TestSlowBodyCut(t *testing.T) {
	obs := &recorder{}
	f := newFixtureWith(t, Options{Observer: obs, Limits: Limits{HTTPReadTimeout: 100 * time.Millisecond}}, HTTPOptions{})
	c := rawPOST(t, f.ts.Listener.Addr().String(), 1000, `{"jsonrpc":`)
	if got := readStatus(t, c); got != http.StatusRequestTimeout {
		t.Fatalf("status %d", got)
	}
	if obs.count(EventTransportRefused+" reason=body_timeout") != 1 {
		t.Fatalf("events %v", obs.events)
	}
}

// TestReadDeadlineLiftedAfterBody: once the body is in, the read deadline
// no longer applies (net/http clears it when the body ends): a stateless
// call that outlives it is answered, not cancelled as a disconnect.
func TestReadDeadlineLiftedAfterBody(t *testing.T) {
	f := newFixtureWith(t, Options{Limits: Limits{HTTPReadTimeout: 20 * time.Millisecond}}, HTTPOptions{KeepAlive: -1})
	m := decodeJSON(t, post(t, f.url, modernHeaders("tools/call", "slow"), modernBody(1, "tools/call", map[string]any{"name": "slow", "arguments": map[string]any{}})), 200)
	if !strings.Contains(string(m.Result), "slow done") {
		t.Fatalf("result %s", m.Result)
	}
}

// TestUnreadAnswerAbandoned: a client that never reads a large answer
// releases the handler once WriteTimeout has passed (the old handler
// stayed blocked in Write for as long as the client kept the connection).
func TestUnreadAnswerAbandoned(t *testing.T) {
	big := strings.Repeat("x", 16<<20)
	def := Definition{Name: "test", Version: "1.0.0", Tools: []Tool{{
		Info: ToolInfo{Name: "big", InputSchema: json.RawMessage(`{"type":"object"}`)},
		Call: func(context.Context, *Request, json.RawMessage) (*CallToolResult, error) { return text(big), nil },
	}}}
	srv := New(def, Options{Limits: Limits{HTTPWriteTimeout: 200 * time.Millisecond}})
	h := HTTPHandler(srv, HTTPOptions{KeepAlive: -1})
	returned := make(chan struct{}, 1)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(w, r)
		returned <- struct{}{}
	}))
	t.Cleanup(func() { srv.Close(); ts.Close() })

	c, err := net.Dial("tcp", ts.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_ = c.(*net.TCPConn).SetReadBuffer(4096) // a small window: the answer cannot all be buffered
	body := modernBody(1, "tools/call", map[string]any{"name": "big", "arguments": map[string]any{}})
	fmt.Fprintf(c, "POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/call\r\nMcp-Name: big\r\nContent-Length: %d\r\n\r\n%s", len(body), body)
	select {
	case <-returned:
	case <-time.After(wait):
		t.Fatal("the handler is still writing to a client that does not read")
	}
}

// TestTransportRefusalEvents: refusals made before a message reaches the
// runtime are observer events, so that metrics count them.
func TestTransportRefusalEvents(t *testing.T) {
	obs := &recorder{}
	f := newFixtureWith(t, Options{Observer: obs}, HTTPOptions{Auth: AuthFunc(func(r *http.Request) (Principal, error) {
		if r.Header.Get("Authorization") == "" {
			return Principal{}, errors.New("no token") // no AuthError, no reason
		}
		return Principal{Subject: "alice"}, nil
	})})
	h := modernHeaders("ping", "")
	h.Set("Origin", "https://evil.example")
	readError(t, post(t, f.url, h, modernBody(1, "ping", nil)), http.StatusForbidden)
	readError(t, post(t, f.url, modernHeaders("ping", ""), modernBody(1, "ping", nil)), http.StatusUnauthorized)
	if obs.count(EventTransportRefused+" reason=forbidden") != 1 || obs.count(EventAuthRefused+" reason=unspecified") != 1 {
		t.Fatalf("events %v", obs.events)
	}
}

// serveCapped serves a trivial handler on loopback behind the connection
// caps, with the http.Server Flags.Run builds.
func serveCapped(t *testing.T, perIP, total int, obs Observer) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := newHTTPServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "ok") }), 0)
	go hs.Serve(limitConns(ln, perIP, total, obs))
	t.Cleanup(func() { hs.Close() })
	return ln.Addr().String()
}

// served reports whether a request on c is answered (the connection was
// admitted) or the connection is closed at once (refused).
func served(t *testing.T, c net.Conn) bool {
	t.Helper()
	if _, err := io.WriteString(c, "GET / HTTP/1.1\r\nHost: localhost\r\n\r\n"); err != nil {
		return false
	}
	_ = c.SetReadDeadline(time.Now().Add(wait))
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			t.Fatal("neither answered nor closed")
		}
		return false
	}
	resp.Body.Close()
	return true
}

func dial(t *testing.T, addr string) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// TestConnCapPerIP: past the per-address cap a connection is closed at
// once and reported; once one is closed, a new one is admitted again.
func TestConnCapPerIP(t *testing.T) {
	obs := &recorder{}
	addr := serveCapped(t, 2, 0, obs)
	a, b := dial(t, addr), dial(t, addr)
	if !served(t, a) || !served(t, b) {
		t.Fatal("connections under the cap were refused")
	}
	if served(t, dial(t, addr)) {
		t.Fatal("a third connection from one address was served")
	}
	if obs.count(EventTransportRefused+" reason=max_conns_per_ip") != 1 {
		t.Fatalf("events %v", obs.events)
	}
	a.Close()
	for deadline := time.Now().Add(wait); ; { // the server notices the close in its own time
		if served(t, dial(t, addr)) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no slot came back after a connection closed")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestConnCapTotal: past the total cap a connection is closed at once.
func TestConnCapTotal(t *testing.T) {
	obs := &recorder{}
	addr := serveCapped(t, 0, 1, obs)
	if !served(t, dial(t, addr)) {
		t.Fatal("the first connection was refused")
	}
	if served(t, dial(t, addr)) {
		t.Fatal("a connection past the total cap was served")
	}
	if obs.count(EventTransportRefused+" reason=max_conns") != 1 {
		t.Fatalf("events %v", obs.events)
	}
}

// TestIdleConnectionClosed: Flags.Run's server closes a kept-alive
// connection that sends no further request (it used to keep it for ever).
func TestIdleConnectionClosed(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := newHTTPServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "ok") }), 50*time.Millisecond)
	go hs.Serve(ln)
	t.Cleanup(func() { hs.Close() })
	c := dial(t, ln.Addr().String())
	br := bufio.NewReader(c)
	io.WriteString(c, "GET / HTTP/1.1\r\nHost: localhost\r\n\r\n")
	_ = c.SetReadDeadline(time.Now().Add(wait))
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if _, err := br.ReadByte(); err != io.EOF {
		t.Fatalf("idle connection: %v, want EOF", err)
	}
	if d := newHTTPServer(nil, 0).IdleTimeout; d != DefaultIdleTimeout {
		t.Errorf("default idle timeout %v", d)
	}
}

func TestAddrKey(t *testing.T) {
	for addr, want := range map[string]string{
		"192.0.2.7:80":               "192.0.2.7",
		"[::ffff:192.0.2.7]:80":      "192.0.2.7",
		"[2001:db8:1:2:3:4:5:6]:443": "2001:db8:1:2::",
		"[2001:db8:1:2:ffff::1]:443": "2001:db8:1:2::",
		"[::1]:8080":                 "::",
		"not an address":             "invalid IP",
	} {
		tcp, err := net.ResolveTCPAddr("tcp", addr)
		var got netip.Addr
		if err == nil {
			got = addrKey(tcp)
		} else {
			got = addrKey(fakeAddr(addr))
		}
		if got.String() != want {
			t.Errorf("%s: %s, want %s", addr, got, want)
		}
	}
}

type fakeAddr string

func (a fakeAddr) Network() string { return "fake" }
func (a fakeAddr) String() string  { return string(a) }

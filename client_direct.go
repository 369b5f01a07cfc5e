package mcpgen

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// directTransport is the default HTTP client's RoundTripper. A plain
// http:// request that goes to the server without a proxy is written,
// and its answer read, on a kept connection by the caller's goroutine:
// net/http's Transport hands every request to a writing and a reading
// goroutine of the connection, and those handoffs were most of a small
// call's CPU beyond the write itself (docs/bench/log.md item 71). Every
// other request (https, a proxy from the environment, a platform where
// a kept connection cannot be checked) goes through next, net/http's.
//
// The bounds of the default client hold on both paths: dialing through
// next's dialer (its timeout), the answer's headers within
// headerTimeout and within next's MaxResponseHeaderBytes (net/http's
// default of 10 MiB when unset), 1xx answers included, at most max1xx
// of those, at most maxIdle kept connections per server, none kept
// longer than idleTimeout. A kept connection is checked before it is
// used again: one the server closed meanwhile is dropped, so that a
// request is not written into it (net/http learns the same from its
// reading goroutine). A connection is kept only after its answer was
// read to the end, with no byte more and no cancellation on the way.
// It may be used from any number of goroutines at once.
type directTransport struct {
	next          *http.Transport
	headerTimeout time.Duration
	maxIdle       int
	idleTimeout   time.Duration

	mu     sync.Mutex
	idle   map[string][]*directConn // by host:port, the most recent last
	closed bool                     // CloseIdleConnections was called: keep none
}

// max1xx bounds the informational (1xx) answers read before the answer
// to a request.
const max1xx = 5

// defaultMaxHeaderBytes bounds the headers of an answer when next sets
// no MaxResponseHeaderBytes: net/http's default.
const defaultMaxHeaderBytes = 10 << 20

// directConn is one kept connection.
type directConn struct {
	addr   string
	conn   net.Conn
	lr     limitedReader // conn, bounded while headers are read
	br     *bufio.Reader // reads lr
	bw     *bufio.Writer
	idleAt time.Time
}

// longAgo is the deadline that stops a connection's reads and writes
// at once.
var longAgo = time.Unix(1, 0)

// RoundTrip sends req: directly when it can (see directTransport), else
// through next.
func (t *directTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	addr, ok := t.directAddr(req)
	if !ok {
		return t.next.RoundTrip(req)
	}
	ctx := req.Context()
	if ctx.Err() != nil {
		// Not sent at all, as net/http does not send it.
		if req.Body != nil {
			req.Body.Close()
		}
		return nil, context.Cause(ctx)
	}
	dc, err := t.conn(ctx, addr)
	if err != nil {
		if req.Body != nil {
			req.Body.Close()
		}
		return nil, err
	}
	// A cancelled request stops the connection's reads and writes; the
	// connection is then not kept.
	stop := context.AfterFunc(ctx, func() { dc.conn.SetDeadline(longAgo) })
	fail := func(err error) (*http.Response, error) {
		stop()
		dc.conn.Close()
		if ctx.Err() != nil {
			return nil, context.Cause(ctx)
		}
		return nil, err
	}
	if t.headerTimeout > 0 {
		dc.conn.SetReadDeadline(time.Now().Add(t.headerTimeout))
	}
	if err := req.Write(dc.bw); err != nil {
		return fail(err)
	}
	if err := dc.bw.Flush(); err != nil {
		return fail(err)
	}
	dc.lr.n = t.maxHeaderBytes()
	resp, err := readFinal(dc.br, req)
	dc.lr.n = math.MaxInt64
	if err != nil {
		return fail(err)
	}
	if t.headerTimeout > 0 {
		dc.conn.SetReadDeadline(time.Time{})
		if ctx.Err() != nil {
			dc.conn.SetDeadline(longAgo) // cancelled before the line above
		}
	}
	b := &directBody{rc: resp.Body, t: t, stop: stop, keep: !resp.Close && !req.Close}
	b.dc.Store(dc)
	resp.Body = b
	return resp, nil
}

// maxHeaderBytes bounds the bytes read for an answer's headers, its
// 1xx answers' included.
func (t *directTransport) maxHeaderBytes() int64 {
	if n := t.next.MaxResponseHeaderBytes; n > 0 {
		return n
	}
	return defaultMaxHeaderBytes
}

// limitedReader reads r until n bytes were read, then fails: the bound
// of an answer's headers.
type limitedReader struct {
	r io.Reader
	n int64
}

func (l *limitedReader) Read(p []byte) (int, error) {
	if l.n <= 0 {
		return 0, errors.New("the answer's headers are larger than the HTTP client's MaxResponseHeaderBytes")
	}
	if int64(len(p)) > l.n {
		p = p[:l.n]
	}
	n, err := l.r.Read(p)
	l.n -= int64(n)
	return n, err
}

// readFinal reads the answer to req, after at most max1xx informational
// ones (101 Switching Protocols is an answer).
func readFinal(br *bufio.Reader, req *http.Request) (*http.Response, error) {
	for n := 0; ; n++ {
		resp, err := http.ReadResponse(br, req)
		if err != nil {
			return nil, err
		}
		if resp.StatusCode < 100 || resp.StatusCode > 199 || resp.StatusCode == http.StatusSwitchingProtocols {
			return resp, nil
		}
		if n == max1xx {
			return nil, fmt.Errorf("more than %d informational (1xx) answers before the answer", max1xx)
		}
	}
}

// directAddr is the host:port req goes to directly; false when it goes
// through next.
func (t *directTransport) directAddr(req *http.Request) (string, bool) {
	if !canCheckConn || req.URL.Scheme != "http" || req.URL.Host == "" {
		return "", false
	}
	if t.next.Proxy != nil {
		if p, err := t.next.Proxy(req); err != nil || p != nil {
			return "", false
		}
	}
	port := req.URL.Port()
	if port == "" {
		port = "80"
	}
	return net.JoinHostPort(req.URL.Hostname(), port), true
}

// conn returns a kept connection to addr that is still open, or a new
// one.
func (t *directTransport) conn(ctx context.Context, addr string) (*directConn, error) {
	now := time.Now()
	for {
		t.mu.Lock()
		list := t.idle[addr]
		var dc *directConn
		if n := len(list); n > 0 {
			dc = list[n-1]
			list[n-1] = nil
			t.idle[addr] = list[:n-1]
		}
		t.mu.Unlock()
		if dc == nil {
			break
		}
		if (t.idleTimeout <= 0 || now.Sub(dc.idleAt) < t.idleTimeout) && connOpen(dc.conn) {
			return dc, nil
		}
		dc.conn.Close()
	}
	dial := t.next.DialContext
	if dial == nil {
		dial = (&net.Dialer{}).DialContext
	}
	conn, err := dial(ctx, "tcp", addr)
	if err != nil {
		return nil, err
	}
	dc := &directConn{addr: addr, conn: conn, lr: limitedReader{r: conn, n: math.MaxInt64}, bw: bufio.NewWriterSize(conn, t.next.WriteBufferSize)}
	dc.br = bufio.NewReaderSize(&dc.lr, 4<<10)
	return dc, nil
}

// put keeps dc for the next request to its server, unless maxIdle are
// kept already or the client was closed.
func (t *directTransport) put(dc *directConn) {
	dc.idleAt = time.Now()
	t.mu.Lock()
	if !t.closed && len(t.idle[dc.addr]) < t.maxIdle {
		if t.idle == nil {
			t.idle = map[string][]*directConn{}
		}
		t.idle[dc.addr] = append(t.idle[dc.addr], dc)
		dc = nil
	}
	t.mu.Unlock()
	if dc != nil {
		dc.conn.Close()
	}
}

// CloseIdleConnections closes the kept connections, and next's; from
// then on none is kept (the connection that owns the client ended).
func (t *directTransport) CloseIdleConnections() {
	t.mu.Lock()
	idle := t.idle
	t.idle, t.closed = nil, true
	t.mu.Unlock()
	for _, list := range idle {
		for _, dc := range list {
			dc.conn.Close()
		}
	}
	t.next.CloseIdleConnections()
}

// directBody is the body of an answer read directly: at its end the
// connection is kept for the next request, if it may be (see finish).
type directBody struct {
	rc   io.ReadCloser
	t    *directTransport
	dc   atomic.Pointer[directConn] // nil once finished
	stop func() bool                // stops the cancellation's AfterFunc
	keep bool                       // neither side asked to close
}

// Read reads the body; its end (or a failure) finishes it.
func (b *directBody) Read(p []byte) (int, error) {
	n, err := b.rc.Read(p)
	if err != nil {
		b.finish(err == io.EOF)
	}
	return n, err
}

// Close finishes the body: one not read to its end closes the
// connection, which holds the rest of it.
func (b *directBody) Close() error {
	b.finish(false)
	return nil
}

// finish keeps the connection when the body was read to its end, the
// request was not cancelled (stop stopped the AfterFunc before it ran),
// neither side asked to close and nothing follows the body; else closes
// it. Only the first call does anything.
func (b *directBody) finish(atEnd bool) {
	dc := b.dc.Swap(nil)
	if dc == nil {
		return
	}
	if b.stop() && atEnd && b.keep && dc.br.Buffered() == 0 {
		b.t.put(dc)
		return
	}
	dc.conn.Close()
}

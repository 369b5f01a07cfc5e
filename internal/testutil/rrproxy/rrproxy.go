// Package rrproxy is a round-robin HTTP reverse proxy for tests and
// benchmarks of replicated servers: each request goes to the next backend
// in turn, with nothing sticky (no session affinity), which is what breaks
// servers that keep sessions in one process.
//
// Like nginx's default proxy_next_upstream, a request whose backend refuses
// the connection is passed to the next one, so that a killed replica drops
// out; a request already sent to a backend that dies is answered 502.
// Responses are streamed (SSE flows through as it is written).
//
//	p, err := rrproxy.Start("http://127.0.0.1:8081", "http://127.0.0.1:8082")
//	defer p.Close()
//	client.Connect(p.URL() + "/mcp")
//
// By default request bodies are read whole before they are forwarded and
// 64 idle connections per backend are kept; [StartWith] forwards them as
// they arrive and keeps as few connections as a plain
// httputil.ReverseProxy with Go's default transport (two), which opens
// and closes connections all the time.
//
// # Streaming bodies through Go's HTTP/1 server
//
// A proxy built on net/http that streams request bodies must call
// http.ResponseController.EnableFullDuplex on each request, as this one
// does. Otherwise the proxy's server drains and closes the request body as
// soon as the proxy starts writing the answer, while its transport, having
// forwarded the Content-Length bytes, reads the body once more to check
// its end: that read fails ("invalid Read on closed Body"), and the
// transport closes the connection to the backend with the answer half
// forwarded (golang/go#40747). An MCP answer starts as soon as a tool
// reports progress, logs, or asks the client something, so on a busy
// machine a few calls in a hundred were cut. [Options].LateBodyEnd makes
// that order of events happen on every request.
package rrproxy

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"sync"
	"sync/atomic"
	"time"
)

// Options change how a [Proxy] forwards.
type Options struct {
	// MaxIdlePerBackend is how many idle connections to each backend are
	// kept for reuse (default 64; Go's default transport keeps 2).
	MaxIdlePerBackend int
	// Stream forwards each request body as it arrives, as a plain reverse
	// proxy does, instead of reading it whole first. A request whose
	// connection is refused still goes to the next backend: nothing of
	// its body was read.
	Stream bool
	// LateBodyEnd (with Stream) holds the transport's last read of each
	// request body, the one that finds its end, until the answer has
	// started: the order of events a busy machine produces at random.
	LateBodyEnd bool
	// HalfDuplex (with Stream) leaves net/http's HTTP/1 server as it is,
	// without EnableFullDuplex, so that answers that start before the
	// request was forwarded whole are cut (see the package
	// documentation): for the test that shows why this proxy does not.
	HalfDuplex bool
}

// Proxy is a running round-robin proxy on 127.0.0.1.
type Proxy struct {
	opts       Options
	backends   []*url.URL
	transports []*http.Transport
	hits       []atomic.Int64
	next       atomic.Uint64
	ln         net.Listener
	srv        *http.Server
}

// Start listens on a free port of 127.0.0.1 and proxies to the backends,
// given as base URLs (scheme and host; the request path is kept).
func Start(backends ...string) (*Proxy, error) { return StartWith(Options{}, backends...) }

// StartWith is [Start] with options.
func StartWith(o Options, backends ...string) (*Proxy, error) {
	if len(backends) == 0 {
		return nil, errors.New("rrproxy: no backends")
	}
	if o.MaxIdlePerBackend == 0 {
		o.MaxIdlePerBackend = 64
	}
	p := &Proxy{opts: o, hits: make([]atomic.Int64, len(backends))}
	for _, b := range backends {
		u, err := url.Parse(b)
		if err != nil || u.Host == "" {
			return nil, fmt.Errorf("rrproxy: backend %q is not a base URL", b)
		}
		p.backends = append(p.backends, u)
		p.transports = append(p.transports, &http.Transport{
			DialContext:         (&net.Dialer{Timeout: 2 * time.Second}).DialContext,
			MaxIdleConnsPerHost: o.MaxIdlePerBackend,
			IdleConnTimeout:     30 * time.Second,
		})
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("rrproxy: listen: %w", err)
	}
	p.ln = ln
	rp := &httputil.ReverseProxy{
		Rewrite: func(r *httputil.ProxyRequest) {
			r.Out.URL.Scheme = "http"
			r.Out.URL.Host = "backend.invalid" // chosen in RoundTrip
			r.Out.Host = r.In.Host
		},
		Transport:     roundTripper{p},
		FlushInterval: -1,
		ErrorLog:      log.New(io.Discard, "", 0), // a killed backend is expected
		ErrorHandler: func(w http.ResponseWriter, _ *http.Request, err error) {
			http.Error(w, "rrproxy: "+err.Error(), http.StatusBadGateway)
		},
	}
	var h http.Handler = rp
	if o.Stream {
		h = p.streaming(rp)
	}
	p.srv = &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = p.srv.Serve(ln) }()
	return p, nil
}

// URL is the proxy's base URL (http://127.0.0.1:port).
func (p *Proxy) URL() string { return "http://" + p.ln.Addr().String() }

// Hits returns how many requests each backend was sent (counted when sent,
// so a request still running is included), in the order the backends
// were given.
func (p *Proxy) Hits() []int64 {
	out := make([]int64, len(p.hits))
	for i := range p.hits {
		out[i] = p.hits[i].Load()
	}
	return out
}

// Close stops the proxy and closes its connections, including open
// streams.
func (p *Proxy) Close() {
	_ = p.srv.Close()
	for _, t := range p.transports {
		t.CloseIdleConnections()
	}
}

type roundTripper struct{ p *Proxy }

// RoundTrip sends the request to the next backend, and to the ones after
// it while connections are refused.
func (rt roundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	p := rt.p
	var body []byte
	stream, _ := req.Context().Value(forwardedKey{}).(*forwarded)
	switch {
	case req.Body == nil || req.Body == http.NoBody || stream != nil:
	default:
		var err error
		if body, err = io.ReadAll(req.Body); err != nil {
			return nil, fmt.Errorf("read request body: %w", err)
		}
		_ = req.Body.Close()
	}
	start := p.next.Add(1) - 1
	var last error
	for i := range p.backends {
		idx := int((start + uint64(i)) % uint64(len(p.backends)))
		out := req.Clone(req.Context())
		out.URL.Scheme, out.URL.Host = p.backends[idx].Scheme, p.backends[idx].Host
		switch {
		case stream != nil && req.Body != nil:
			// A Close that does nothing: a transport that could not
			// connect closes the body, which the next backend reads.
			out.Body, out.GetBody = io.NopCloser(req.Body), nil
		case body != nil:
			out.Body = io.NopCloser(bytes.NewReader(body))
			out.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
		default:
			out.Body, out.GetBody = nil, nil
		}
		p.hits[idx].Add(1) // counted when sent, not when answered
		resp, err := p.transports[idx].RoundTrip(out)
		if err == nil {
			return resp, nil
		}
		last = err
		var op *net.OpError
		if !errors.As(err, &op) || op.Op != "dial" || stream != nil && stream.touched() {
			return nil, err // sent, or partly: not retried (as nginx does for POST)
		}
		p.hits[idx].Add(-1) // refused: never reached it
	}
	return nil, fmt.Errorf("every backend refused the connection: %w", last)
}

// streaming wraps the reverse proxy for Options.Stream: full duplex, and
// the request body in a forwarded.
func (p *Proxy) streaming(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !p.opts.HalfDuplex {
			if err := http.NewResponseController(w).EnableFullDuplex(); err != nil {
				http.Error(w, "rrproxy: full duplex: "+err.Error(), http.StatusInternalServerError)
				return
			}
		}
		if r.Body == nil || r.Body == http.NoBody {
			next.ServeHTTP(w, r)
			return
		}
		f := &forwarded{body: r.Body, length: r.ContentLength, started: make(chan struct{}), done: r.Context().Done()}
		if p.opts.LateBodyEnd {
			w = &startSignal{ResponseWriter: w, f: f}
		} else {
			close(f.started)
		}
		r = r.WithContext(context.WithValue(r.Context(), forwardedKey{}, f)) // a copy: net/http keeps its own
		r.Body = f
		next.ServeHTTP(w, r)
	})
}

type forwardedKey struct{}

// forwarded is a request body on its way to a backend (streamed).
type forwarded struct {
	body    io.ReadCloser
	length  int64 // Content-Length, -1 when unknown
	started chan struct{}
	done    <-chan struct{} // the client's request ended
	once    sync.Once

	mu   sync.Mutex
	n    int64
	eof  bool
	read bool
}

func (f *forwarded) Read(b []byte) (int, error) {
	f.mu.Lock()
	at := f.eof || f.length > 0 && f.n >= f.length
	f.read = true
	f.mu.Unlock()
	if at { // the read that finds the end: after the answer started
		select {
		case <-f.started:
		case <-f.done:
		}
	}
	n, err := f.body.Read(b)
	f.mu.Lock()
	f.n += int64(n)
	f.eof = f.eof || err == io.EOF
	f.mu.Unlock()
	return n, err
}

func (f *forwarded) Close() error { return f.body.Close() }

// touched reports whether anything read the body.
func (f *forwarded) touched() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.read
}

// startSignal tells the request's forwarded body that the answer has
// started once net/http has flushed its start (and, in half duplex,
// closed the request body); the reverse proxy flushes every write. An
// answer never flushed starts when the handler returns (forwarded.done).
type startSignal struct {
	http.ResponseWriter
	f *forwarded
}

func (s *startSignal) Flush() {
	_ = http.NewResponseController(s.ResponseWriter).Flush()
	s.f.once.Do(func() { close(s.f.started) })
}

func (s *startSignal) Unwrap() http.ResponseWriter { return s.ResponseWriter }

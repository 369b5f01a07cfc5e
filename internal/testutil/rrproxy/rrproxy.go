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
package rrproxy

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"sync/atomic"
	"time"
)

// Proxy is a running round-robin proxy on 127.0.0.1.
type Proxy struct {
	backends   []*url.URL
	transports []*http.Transport
	hits       []atomic.Int64
	next       atomic.Uint64
	ln         net.Listener
	srv        *http.Server
}

// Start listens on a free port of 127.0.0.1 and proxies to the backends,
// given as base URLs (scheme and host; the request path is kept).
func Start(backends ...string) (*Proxy, error) {
	if len(backends) == 0 {
		return nil, errors.New("rrproxy: no backends")
	}
	p := &Proxy{hits: make([]atomic.Int64, len(backends))}
	for _, b := range backends {
		u, err := url.Parse(b)
		if err != nil || u.Host == "" {
			return nil, fmt.Errorf("rrproxy: backend %q is not a base URL", b)
		}
		p.backends = append(p.backends, u)
		p.transports = append(p.transports, &http.Transport{
			DialContext:         (&net.Dialer{Timeout: 2 * time.Second}).DialContext,
			MaxIdleConnsPerHost: 64,
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
	p.srv = &http.Server{Handler: rp, ReadHeaderTimeout: 10 * time.Second}
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
	if req.Body != nil && req.Body != http.NoBody {
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
		out.Body = io.NopCloser(bytes.NewReader(body))
		out.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
		if body == nil {
			out.Body, out.GetBody = nil, nil
		}
		p.hits[idx].Add(1) // counted when sent, not when answered
		resp, err := p.transports[idx].RoundTrip(out)
		if err == nil {
			return resp, nil
		}
		last = err
		var op *net.OpError
		if !errors.As(err, &op) || op.Op != "dial" {
			return nil, err // sent, or partly: not retried (as nginx does for POST)
		}
		p.hits[idx].Add(-1) // refused: never reached it
	}
	return nil, fmt.Errorf("every backend refused the connection: %w", last)
}

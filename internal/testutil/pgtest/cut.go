package pgtest

import (
	"io"
	"net"
	"net/url"
	"sync"
	"testing"
)

// Cut is a TCP proxy in front of the test server that a test can cut (every
// connection closed, new ones refused) and restore, to play a database
// outage without stopping the shared server.
type Cut struct {
	ln     net.Listener
	target string
	mu     sync.Mutex
	cut    bool
	conns  map[net.Conn]struct{}
}

// NewCut starts a proxy to the host of the test server; Rewrite gives the
// URLs to use through it. It stops when the test ends.
func NewCut(t testing.TB) *Cut {
	t.Helper()
	u, err := url.Parse(Server())
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	c := &Cut{ln: ln, target: u.Host, conns: map[net.Conn]struct{}{}}
	go c.serve()
	t.Cleanup(func() { _ = ln.Close(); c.Down() })
	return c
}

// Rewrite returns rawURL with its host replaced by the proxy's.
func (c *Cut) Rewrite(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		return rawURL
	}
	u.Host = c.ln.Addr().String()
	return u.String()
}

// Down closes every proxied connection and refuses new ones.
func (c *Cut) Down() {
	c.mu.Lock()
	c.cut = true
	for conn := range c.conns {
		_ = conn.Close()
		delete(c.conns, conn)
	}
	c.mu.Unlock()
}

// Up lets connections through again.
func (c *Cut) Up() {
	c.mu.Lock()
	c.cut = false
	c.mu.Unlock()
}

func (c *Cut) serve() {
	for {
		in, err := c.ln.Accept()
		if err != nil {
			return
		}
		c.mu.Lock()
		refused := c.cut
		c.mu.Unlock()
		if refused {
			_ = in.Close()
			continue
		}
		out, err := net.Dial("tcp", c.target)
		if err != nil {
			_ = in.Close()
			continue
		}
		c.mu.Lock()
		c.conns[in], c.conns[out] = struct{}{}, struct{}{}
		c.mu.Unlock()
		go pipe(in, out)
		go pipe(out, in)
	}
}

func pipe(dst, src net.Conn) {
	_, _ = io.Copy(dst, src)
	_ = dst.Close()
	_ = src.Close()
}

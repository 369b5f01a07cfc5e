package mcpgen

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// directServer is an HTTP server that counts the connections it
// accepted and answers with handler.
func directServer(t *testing.T, handler http.HandlerFunc) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	if !canCheckConn {
		t.Skip("no direct path on this platform")
	}
	var conns atomic.Int64
	srv := httptest.NewUnstartedServer(handler)
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	srv.Start()
	t.Cleanup(srv.Close)
	return srv, &conns
}

// directPost sends one POST with the default client and returns the body read
// to its end.
func directPost(t *testing.T, hc *http.Client, url string) (string, error) {
	t.Helper()
	resp, err := hc.Post(url, "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return string(b), err
}

// TestDirectTransport: the default client sends plain http:// requests
// on one kept connection; a connection the server closed meanwhile, one
// it asked to close, and one whose answer was not read to its end are
// not used again, and no request fails for it.
func TestDirectTransport(t *testing.T) {
	var closeNext atomic.Bool
	srv, conns := directServer(t, func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		if closeNext.Swap(false) {
			w.Header().Set("Connection", "close")
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"jsonrpc":"2.0","id":1,"result":{}}`+strings.Repeat(" ", 10000))
	})
	hc := defaultHTTPClient(time.Minute)
	if _, ok := hc.Transport.(*directTransport); !ok {
		t.Fatalf("default transport %T, want *directTransport", hc.Transport)
	}
	call := func(wantConns int64) {
		t.Helper()
		got, err := directPost(t, hc, srv.URL)
		if err != nil || !strings.HasPrefix(got, `{"jsonrpc":"2.0","id":1,"result":{}}`) {
			t.Fatalf("post: %.40q, %v", got, err)
		}
		if n := conns.Load(); n != wantConns {
			t.Fatalf("%d connections, want %d", n, wantConns)
		}
	}
	for range 20 {
		call(1)
	}

	srv.CloseClientConnections() // the server drops the kept connection
	time.Sleep(20 * time.Millisecond)
	call(2)

	closeNext.Store(true) // Connection: close
	call(2)
	call(3)

	resp, err := hc.Post(srv.URL, "application/json", strings.NewReader(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Read(make([]byte, 10)) // closed before its end
	resp.Body.Close()
	call(4)
	call(4)
}

// TestDirectTransportBounds: more than max1xx informational answers are
// an error, and so are headers larger than MaxResponseHeaderBytes; the
// answer's headers are waited for headerTimeout at most,
// and a cancelled request stops reading a body that does not end.
func TestDirectTransportBounds(t *testing.T) {
	release := make(chan struct{})
	srv, _ := directServer(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/1xx":
			for range max1xx + 1 {
				w.WriteHeader(http.StatusEarlyHints)
			}
			io.WriteString(w, "{}")
		case "/headers":
			w.Header().Set("X-Big", strings.Repeat("a", 100<<10))
			io.WriteString(w, "{}")
		case "/silent":
			select {
			case <-release:
			case <-r.Context().Done():
			}
		case "/endless":
			w.WriteHeader(http.StatusOK)
			w.(http.Flusher).Flush()
			select {
			case <-release:
			case <-r.Context().Done():
			}
		}
	})
	defer close(release)
	hc := defaultHTTPClient(100 * time.Millisecond)

	if _, err := directPost(t, hc, srv.URL+"/1xx"); err == nil || !strings.Contains(err.Error(), "informational") {
		t.Errorf("%d 1xx answers: %v, want an error naming them", max1xx+1, err)
	}

	hc.Transport.(*directTransport).next.MaxResponseHeaderBytes = 64 << 10
	if _, err := directPost(t, hc, srv.URL+"/headers"); err == nil || !strings.Contains(err.Error(), "MaxResponseHeaderBytes") {
		t.Errorf("100 KiB of headers: %v, want an error naming MaxResponseHeaderBytes (64 KiB)", err)
	}
	hc.Transport.(*directTransport).next.MaxResponseHeaderBytes = 0
	if got, err := directPost(t, hc, srv.URL+"/headers"); err != nil || got != "{}" {
		t.Errorf("100 KiB of headers within the default bound: %q, %v", got, err)
	}

	var ne net.Error
	if _, err := directPost(t, hc, srv.URL+"/silent"); !errors.As(err, &ne) || !ne.Timeout() {
		t.Errorf("no headers: %v, want a timeout", err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL+"/endless", strings.NewReader(`{}`))
	resp, err := hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	time.AfterFunc(50*time.Millisecond, cancel)
	done := make(chan error, 1)
	go func() {
		_, err := io.ReadAll(resp.Body)
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil {
			t.Error("a cancelled body read to its end without an error")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the body was still read 10 s after the request was cancelled")
	}
}

package rrproxy_test

import (
	"bufio"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/testutil/rrproxy"
)

func backend(name string) *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		fmt.Fprintf(w, "%s %s %s", name, r.URL.Path, body)
	}))
}

func get(t *testing.T, url, body string) string {
	t.Helper()
	resp, err := http.Post(url, "text/plain", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		t.Fatalf("status %d: %s", resp.StatusCode, b)
	}
	return string(b)
}

// TestRoundRobin: each request goes to the next backend with its path and
// body; a backend that refuses connections drops out. Request bodies read
// whole first or forwarded as they arrive alike.
func TestRoundRobin(t *testing.T) {
	for _, o := range []rrproxy.Options{{}, {Stream: true, MaxIdlePerBackend: 2}} {
		t.Run(fmt.Sprintf("stream=%v", o.Stream), func(t *testing.T) { roundRobin(t, o) })
	}
}

func roundRobin(t *testing.T, o rrproxy.Options) {
	a, b := backend("a"), backend("b")
	defer a.Close()
	// A POST that meets an idle connection the dead backend closed is not
	// sent again (net/http replays only idempotent requests), whether its
	// body was read whole or is being streamed: the test keeps no
	// connection to b, so that the dead b refuses the next one.
	b.Config.SetKeepAlivesEnabled(false)
	p, err := rrproxy.StartWith(o, a.URL, b.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	var got []string
	for i := 0; i < 4; i++ {
		got = append(got, get(t, p.URL()+"/mcp", fmt.Sprint(i)))
	}
	if want := "a /mcp 0,b /mcp 1,a /mcp 2,b /mcp 3"; strings.Join(got, ",") != want {
		t.Fatalf("got %q, want %q", strings.Join(got, ","), want)
	}
	b.Close()
	for i := 0; i < 3; i++ {
		if got := get(t, p.URL()+"/x", "y"); got != "a /x y" {
			t.Fatalf("with b down: %q", got)
		}
	}
	if h := p.Hits(); h[0] != 5 || h[1] != 2 {
		t.Fatalf("hits %v, want [5 2]", h)
	}
}

// TestStreams: a streamed response reaches the client as it is written.
func TestStreams(t *testing.T) {
	next := make(chan struct{})
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, "data: one\n\n")
		w.(http.Flusher).Flush()
		<-next
		fmt.Fprint(w, "data: two\n\n")
	}))
	defer s.Close()
	p, err := rrproxy.Start(s.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	resp, err := http.Get(p.URL())
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	r := bufio.NewReader(resp.Body)
	line, err := r.ReadString('\n')
	if err != nil || line != "data: one\n" {
		t.Fatalf("first event %q %v before the second was written", line, err)
	}
	close(next)
	rest, _ := io.ReadAll(r)
	if string(rest) != "\ndata: two\n\n" {
		t.Fatalf("rest %q", rest)
	}
}

// earlyAnswer is a backend that reads the request, answers with one SSE
// event at once, and writes the last one when release is closed. It
// reports on cut when its connection closes before that.
func earlyAnswer(release <-chan struct{}, cut chan<- struct{}) *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, "data: progress\n\n")
		w.(http.Flusher).Flush()
		select {
		case <-release:
			fmt.Fprint(w, "data: result\n\n")
		case <-r.Context().Done():
			cut <- struct{}{}
		}
	}))
}

// TestStreamedBodyEndsAfterAnswerStarts: with request bodies streamed,
// few idle connections, and the end of each body found only once its
// answer has started (the order a busy machine produces now and then),
// every answer arrives whole.
func TestStreamedBodyEndsAfterAnswerStarts(t *testing.T) {
	p, release, cut := startEarly(t, rrproxy.Options{Stream: true, MaxIdlePerBackend: 2, LateBodyEnd: true})
	for i := range 20 {
		r, body := postSSE(t, p, fmt.Sprintf(`{"n":%d}`, i))
		if line, err := r.ReadString('\n'); err != nil || line != "data: progress\n" {
			t.Fatalf("call %d: first event %q %v", i, line, err)
		}
		release <- struct{}{}
		rest, err := io.ReadAll(r)
		body.Close()
		if err != nil || string(rest) != "\ndata: result\n\n" {
			t.Fatalf("call %d: the answer was cut after its first event: %q %v", i, rest, err)
		}
	}
	select {
	case <-cut:
		t.Fatal("the proxy closed a connection to the backend during an answer")
	default:
	}
}

// TestHalfDuplexCutsEarlyAnswers shows why the proxy runs its HTTP/1
// server in full duplex: without it, an answer that starts before the
// request body's end was read is cut, its connection to the backend
// closed (golang/go#40747).
func TestHalfDuplexCutsEarlyAnswers(t *testing.T) {
	p, _, cut := startEarly(t, rrproxy.Options{Stream: true, MaxIdlePerBackend: 2, LateBodyEnd: true, HalfDuplex: true})
	r, body := postSSE(t, p, `{"n":1}`)
	defer body.Close()
	if line, err := r.ReadString('\n'); err != nil || line != "data: progress\n" {
		t.Fatalf("first event %q %v", line, err)
	}
	select {
	case <-cut:
	case <-time.After(10 * time.Second):
		t.Fatal("the answer was not cut: net/http's HTTP/1 server no longer closes the request body when the answer starts? " +
			"Then the full duplex of streaming proxies, and the advice in docs/deployment.md, may go")
	}
}

func startEarly(t *testing.T, o rrproxy.Options) (*rrproxy.Proxy, chan struct{}, chan struct{}) {
	release, cut := make(chan struct{}), make(chan struct{}, 64)
	s := earlyAnswer(release, cut)
	t.Cleanup(s.Close)
	p, err := rrproxy.StartWith(o, s.URL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	return p, release, cut
}

func postSSE(t *testing.T, p *rrproxy.Proxy, body string) (*bufio.Reader, io.Closer) {
	t.Helper()
	resp, err := http.Post(p.URL(), "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 200 {
		t.Fatalf("status %d", resp.StatusCode)
	}
	return bufio.NewReader(resp.Body), resp.Body
}

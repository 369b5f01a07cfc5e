package rrproxy_test

import (
	"bufio"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

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
// body; a backend that refuses connections drops out.
func TestRoundRobin(t *testing.T) {
	a, b := backend("a"), backend("b")
	defer a.Close()
	p, err := rrproxy.Start(a.URL, b.URL)
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

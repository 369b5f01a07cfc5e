package mcpgen

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"os"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// blockingPipe returns a pipe in blocking mode, as a process inherits its
// stdin (os.Pipe returns non-blocking ends).
func blockingPipe(t *testing.T) (r, w *os.File) {
	t.Helper()
	var fds [2]int
	if err := unix.Pipe2(fds[:], unix.O_CLOEXEC); err != nil {
		t.Fatal(err)
	}
	r, w = os.NewFile(uintptr(fds[0]), "stdin"), os.NewFile(uintptr(fds[1]), "client")
	t.Cleanup(func() { r.Close(); w.Close() })
	return r, w
}

func nonblocking(t *testing.T, f *os.File) bool {
	t.Helper()
	var flags int
	sc, err := f.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	var ferr error
	sc.Control(func(fd uintptr) { flags, ferr = unix.FcntlInt(fd, unix.F_GETFL, 0) })
	if ferr != nil {
		t.Fatal(ferr)
	}
	return flags&unix.O_NONBLOCK != 0
}

// TestPollableReopensPipe: a blocking pipe is read through a new,
// non-blocking description of it (so that an empty pipe parks the reader,
// not its thread), while the inherited descriptor stays blocking.
func TestPollableReopensPipe(t *testing.T) {
	r, w := blockingPipe(t)
	pr, closeReader := pollable(r, io.Discard)
	defer closeReader()
	p, ok := pr.(*os.File)
	if !ok || p == r {
		t.Fatalf("pollable(pipe) = %T %v, want a new *os.File", pr, pr)
	}
	if !nonblocking(t, p) || nonblocking(t, r) {
		t.Fatalf("non-blocking: reopened %v, inherited %v; want true, false", nonblocking(t, p), nonblocking(t, r))
	}
	if _, err := w.WriteString("line\n"); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 16)
	if n, err := p.Read(buf); err != nil || string(buf[:n]) != "line\n" {
		t.Fatalf("read %q, %v", buf[:n], err)
	}
}

// TestPollableSocket: a blocking socket (Node's child_process gives its
// children socket pairs) is read through the poller while serving, and is
// blocking again when done.
func TestPollableSocket(t *testing.T) {
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	r, w := os.NewFile(uintptr(fds[0]), "stdin"), os.NewFile(uintptr(fds[1]), "client")
	defer r.Close()
	defer w.Close()
	pr, done := pollable(r, io.Discard)
	if _, ok := pr.(net.Conn); !ok {
		t.Fatalf("pollable(socket) = %T, want a net.Conn", pr)
	}
	if _, err := w.WriteString("line\n"); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 16)
	if n, err := pr.Read(buf); err != nil || string(buf[:n]) != "line\n" {
		t.Fatalf("read %q, %v", buf[:n], err)
	}
	done()
	if nonblocking(t, r) {
		t.Fatal("the socket stayed non-blocking")
	}

	// Answers written to the same socket would meet it non-blocking:
	// leave it.
	if pr, _ := pollable(r, r); pr != io.Reader(r) {
		t.Fatalf("pollable(socket, same socket) = %T, want it unchanged", pr)
	}
}

// TestPollableLeavesOthers: what is neither a pipe nor a socket, or is
// read through the poller already, is read as it is.
func TestPollableLeavesOthers(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "stdin")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	pr, pw, err := os.Pipe() // non-blocking ends
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	defer pw.Close()
	for _, r := range []io.Reader{f, pr, strings.NewReader("")} {
		got, closeReader := pollable(r, io.Discard)
		closeReader()
		if got != r {
			t.Errorf("pollable(%T) = %T, want it unchanged", r, got)
		}
	}
}

// TestServeBlockingStdin: Serve on a blocking pipe whose writer has
// already gone (the open of the reopened pipe must not wait for one) and
// on a blocking socket answers every request and leaves the inherited
// descriptor blocking.
func TestServeBlockingStdin(t *testing.T) {
	socketPair := func(t *testing.T) (r, w *os.File) {
		fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
		if err != nil {
			t.Fatal(err)
		}
		r, w = os.NewFile(uintptr(fds[0]), "stdin"), os.NewFile(uintptr(fds[1]), "client")
		t.Cleanup(func() { r.Close() })
		return r, w
	}
	for name, open := range map[string]func(*testing.T) (r, w *os.File){"pipe": blockingPipe, "socket": socketPair} {
		t.Run(name, func(t *testing.T) {
			r, w := open(t)
			if _, err := w.WriteString(`{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n" + `{"jsonrpc":"2.0","id":2,"method":"ping"}` + "\n"); err != nil {
				t.Fatal(err)
			}
			w.Close()
			srv := New(Definition{Name: "stdio-test", Version: "1.0.0"}, Options{})
			defer srv.Close()
			var out bytes.Buffer
			if err := ServeStdio(context.Background(), srv, r, &out); err != nil {
				t.Fatalf("Serve: %v", err)
			}
			if n := strings.Count(out.String(), `"result":{}`); n != 2 {
				t.Fatalf("%d answers, want 2:\n%s", n, out.String())
			}
			if nonblocking(t, r) {
				t.Fatalf("Serve left the inherited %s non-blocking", name)
			}
		})
	}
}

// TestPipeConcurrentAndCancelled: over a blocking pipe read through the
// poller, a request blocked in its handler does not hold up the next one,
// and notifications/cancelled reaches it.
func TestPipeConcurrentAndCancelled(t *testing.T) {
	started, stopped := make(chan struct{}), make(chan error, 1)
	def := Definition{Name: "stdio-test", Version: "1.0.0", Tools: []Tool{{
		Info: ToolInfo{Name: "block", InputSchema: json.RawMessage(`{"type":"object"}`)},
		Call: func(ctx context.Context, _ *Request, _ json.RawMessage) (*CallToolResult, error) {
			close(started)
			<-ctx.Done()
			stopped <- ctx.Err()
			// Return after the test has closed the client, so that the
			// connection has usually ended too: the call must still go
			// unanswered (it once was answered when that came first).
			time.Sleep(50 * time.Millisecond)
			return nil, ctx.Err()
		},
	}}}
	srv := New(def, Options{})
	defer srv.Close()
	in, client := blockingPipe(t)
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer outR.Close()
	served := make(chan error, 1)
	go func() { served <- ServeStdio(context.Background(), srv, in, outW); outW.Close() }()
	lines := bufio.NewScanner(outR)
	send := func(line string) {
		t.Helper()
		if _, err := client.WriteString(line + "\n"); err != nil {
			t.Fatal(err)
		}
	}
	next := func() string {
		t.Helper()
		if !lines.Scan() {
			t.Fatalf("no more answers: %v", lines.Err())
		}
		return lines.Text()
	}

	send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	if got := next(); !strings.Contains(got, `"id":0,"result"`) {
		t.Fatalf("initialize: %s", got)
	}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send(`{"jsonrpc":"2.0","id":"b","method":"tools/call","params":{"name":"block","arguments":{}}}`)
	<-started
	send(`{"jsonrpc":"2.0","id":2,"method":"ping"}`)
	if got := next(); got != `{"jsonrpc":"2.0","id":2,"result":{}}` {
		t.Fatalf("ping while block runs: %s", got)
	}
	send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"b"}}`)
	if err := <-stopped; !errors.Is(err, context.Canceled) {
		t.Fatalf("handler's context: %v", err)
	}
	client.Close()
	if err := <-served; err != nil {
		t.Fatalf("Serve: %v", err)
	}
	if lines.Scan() {
		t.Fatalf("an answer to the cancelled request: %s", lines.Text())
	}
}

package stdio

import (
	"bytes"
	"context"
	"io"
	"os"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/mcpgen/mcpgen/internal/server"
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
	pr, closeReader := pollable(r)
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

// TestPollableLeavesOthers: what is not a pipe is read as it is.
func TestPollableLeavesOthers(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "stdin")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, r := range []io.Reader{f, strings.NewReader("")} {
		got, closeReader := pollable(r)
		closeReader()
		if got != r {
			t.Errorf("pollable(%T) = %T, want it unchanged", r, got)
		}
	}
}

// TestServePipe: Serve on a blocking pipe whose writer has already gone
// (the open of the reopened pipe must not wait for one) answers every
// request and leaves the inherited descriptor blocking.
func TestServePipe(t *testing.T) {
	r, w := blockingPipe(t)
	if _, err := w.WriteString(`{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n" + `{"jsonrpc":"2.0","id":2,"method":"ping"}` + "\n"); err != nil {
		t.Fatal(err)
	}
	w.Close()
	srv := server.New(server.Definition{Name: "stdio-test", Version: "1.0.0"}, server.Options{})
	defer srv.Close()
	var out bytes.Buffer
	if err := Serve(context.Background(), srv, r, &out); err != nil {
		t.Fatalf("Serve: %v", err)
	}
	if n := strings.Count(out.String(), `"result":{}`); n != 2 {
		t.Fatalf("%d answers, want 2:\n%s", n, out.String())
	}
	if nonblocking(t, r) {
		t.Fatal("Serve left the inherited pipe non-blocking")
	}
}

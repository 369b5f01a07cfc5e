package mcpgen

import (
	"bytes"
	"context"
	"errors"
	"net"
	"strings"
	"testing"
)

// store is a dependency of testNew that records whether it was closed.
type store struct {
	closed bool
	order  *[]string // where Close records name, when set
	name   string
	err    error // what Close returns
}

func (s *store) Close() error {
	s.closed = true
	if s.order != nil {
		*s.order = append(*s.order, s.name)
	}
	return s.err
}

// testNew has the shape of a generated New with one dependency.
func testNew(s *store, opts Options) *Server {
	return New(Definition{Name: "deps", Version: "1"}, opts)
}

// buildWith is what a generated Main passes to Main for testNew: newStore
// makes the dependency.
func buildWith(newStore func(context.Context) (*store, error)) func(context.Context, Options) (*Server, func() error, error) {
	return func(ctx context.Context, opts Options) (*Server, func() error, error) {
		var deps Dependencies
		s, err := MakeDependency(ctx, &deps, "*mcpgen.store", newStore)
		if err != nil {
			return nil, deps.Close, err
		}
		return testNew(s, opts), deps.Close, nil
	}
}

// runMainFor runs Main's body with args, stdin closed at once, and
// returns its exit status and what it wrote to stderr.
func runMainFor(t *testing.T, build func(context.Context, Options) (*Server, func() error, error), args ...string) (int, string) {
	t.Helper()
	var stderr bytes.Buffer
	code := runMain("deps", "A test server.", build, args, &stderr, strings.NewReader(""), &bytes.Buffer{})
	return code, stderr.String()
}

// Main builds the server once the flags are parsed, serves it, and then
// releases what build made: the dependencies that are io.Closers.
func TestMainMakesAndClosesDependencies(t *testing.T) {
	s := &store{}
	made := 0
	build := buildWith(func(context.Context) (*store, error) { made++; return s, nil })
	code, stderr := runMainFor(t, build, "--log-level", "error")
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if made != 1 || !s.closed {
		t.Fatalf("made %d times, closed %v; want made once and closed", made, s.closed)
	}
}

// Startup errors are one line on stderr, without a stack trace, with the
// documented exit status.
func TestMainStartupErrors(t *testing.T) {
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	s := &store{}
	provide := buildWith(func(context.Context) (*store, error) { return s, nil })
	failing := buildWith(func(context.Context) (*store, error) { return nil, errors.New("disk on fire") })
	for _, c := range []struct {
		name  string
		build func(context.Context, Options) (*Server, func() error, error)
		args  []string
		code  int
		want  string
	}{
		{"address in use", provide, []string{"--http", busy.Addr().String()}, 1, "address already in use"},
		{"bad log level", provide, []string{"--log-level", "loud"}, 2, "--log-level"},
		{"stray argument", provide, []string{"serve"}, 2, `unexpected argument "serve"`},
		{"failing dependency", failing, nil, 1, "deps: cannot start: *mcpgen.store: disk on fire"},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, stderr := runMainFor(t, c.build, c.args...)
			if code != c.code || !strings.Contains(stderr, c.want) {
				t.Fatalf("exit %d, stderr %q; want exit %d and %q", code, stderr, c.code, c.want)
			}
			if lines := strings.Count(strings.TrimSpace(stderr), "\n") + 1; lines != 1 || strings.Contains(stderr, "goroutine") || strings.Contains(stderr, ".go:") {
				t.Fatalf("want one line without a stack trace, got:\n%s", stderr)
			}
		})
	}
	if !s.closed {
		t.Error("the dependency made before the bind failure was not closed")
	}
}

// When build fails after making some dependencies, Main releases them at
// once: the one made before the failing one is closed.
func TestMainReleasesWhenBuildFails(t *testing.T) {
	first := &store{}
	build := func(ctx context.Context, opts Options) (*Server, func() error, error) {
		var deps Dependencies
		if _, err := MakeDependency(ctx, &deps, "first", func(context.Context) (*store, error) { return first, nil }); err != nil {
			return nil, deps.Close, err
		}
		_, err := MakeDependency(ctx, &deps, "second", func(context.Context) (*store, error) { return nil, errors.New("unreachable") })
		return nil, deps.Close, err
	}
	code, stderr := runMainFor(t, build)
	if code != 1 || !strings.Contains(stderr, "cannot start: second: unreachable") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if !first.closed {
		t.Error("the dependency made before the failing one was not closed")
	}
}

// Dependencies closes what it made that is an io.Closer, last made first,
// once, and joins the errors.
func TestDependenciesClose(t *testing.T) {
	var order []string
	var deps Dependencies
	ctx := context.Background()
	for _, name := range []string{"a", "b", "c"} {
		s := &store{order: &order, name: name}
		if name == "b" {
			s.err = errors.New("b would not close")
		}
		if _, err := MakeDependency(ctx, &deps, name, func(context.Context) (*store, error) { return s, nil }); err != nil {
			t.Fatal(err)
		}
	}
	// A dependency that is no io.Closer is made and left alone.
	if n, err := MakeDependency(ctx, &deps, "n", func(context.Context) (int, error) { return 7, nil }); n != 7 || err != nil {
		t.Fatalf("MakeDependency = %d, %v", n, err)
	}
	err := deps.Close()
	if strings.Join(order, ",") != "c,b,a" {
		t.Errorf("closed in the order %v, want c,b,a", order)
	}
	if err == nil || !strings.Contains(err.Error(), "b would not close") {
		t.Errorf("Close = %v, want b's error", err)
	}
	if err := deps.Close(); err != nil || len(order) != 3 {
		t.Errorf("a second Close gave %v and closed %v", err, order)
	}
}

// A bad flag prints the flag package's message and the usage: exit 2.
func TestMainBadFlag(t *testing.T) {
	build := buildWith(func(context.Context) (*store, error) { return &store{}, nil })
	code, stderr := runMainFor(t, build, "--no-such-flag")
	if code != 2 || !strings.Contains(stderr, "flag provided but not defined: -no-such-flag") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
}

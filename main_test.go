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
type store struct{ closed bool }

func (s *store) Close() error { s.closed = true; return nil }

// testNew has the shape of a generated New with one dependency.
func testNew(s *store, opts Options) *Server {
	return New(Definition{Name: "deps", Version: "1"}, opts)
}

// runMainFor runs Main's body with args, stdin closed at once, and
// returns its exit status and what it wrote to stderr.
func runMainFor(t *testing.T, newServer any, deps []Dependency, args ...string) (int, string) {
	t.Helper()
	var stderr bytes.Buffer
	code := runMain("deps", "A test server.", newServer, deps, args, &stderr, strings.NewReader(""), &bytes.Buffer{})
	return code, stderr.String()
}

// Main takes a generated New whatever its dependencies, makes them with
// Provide, and closes those that are io.Closers once the server stops.
func TestMainMakesAndClosesDependencies(t *testing.T) {
	s := &store{}
	made := 0
	provide := Provide(func(context.Context) (*store, error) { made++; return s, nil })
	code, stderr := runMainFor(t, testNew, []Dependency{provide}, "--log-level", "error")
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
	provide := Provide(func(context.Context) (*store, error) { return s, nil })
	failing := Provide(func(context.Context) (*store, error) { return nil, errors.New("disk on fire") })
	for _, c := range []struct {
		name      string
		newServer any
		deps      []Dependency
		args      []string
		code      int
		want      string
	}{
		{"address in use", testNew, []Dependency{provide}, []string{"--http", busy.Addr().String()}, 1, "address already in use"},
		{"bad log level", testNew, []Dependency{provide}, []string{"--log-level", "loud"}, 2, "--log-level"},
		{"stray argument", testNew, []Dependency{provide}, []string{"serve"}, 2, `unexpected argument "serve"`},
		{"missing dependency", testNew, nil, nil, 2, "mcpgen.testNew needs *mcpgen.store: pass mcpgen.Provide"},
		{"not a New", func() {}, nil, nil, 2, "Main needs a generated New"},
		{"failing dependency", testNew, []Dependency{failing}, nil, 1, "cannot start: *mcpgen.store: disk on fire"},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, stderr := runMainFor(t, c.newServer, c.deps, c.args...)
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

// A bad flag prints the flag package's message and the usage: exit 2.
func TestMainBadFlag(t *testing.T) {
	provide := Provide(func(context.Context) (*store, error) { return &store{}, nil })
	code, stderr := runMainFor(t, testNew, []Dependency{provide}, "--no-such-flag")
	if code != 2 || !strings.Contains(stderr, "flag provided but not defined: -no-such-flag") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
}

package gen_test

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestFrontDoor builds mains of the generated deps server, whose New takes
// four dependencies, through a build overlay: a main that gives Main a
// function for each compiles and serves; one that leaves a dependency out,
// or gives one of another type, fails go build with a message naming the
// dependency's type.
func TestFrontDoor(t *testing.T) {
	const dir = "gen/testdata/frontdoor" // the main, in the overlay only
	mainGo := func(args string) []byte {
		return []byte(`package main

import (
	"context"
	"time"

	"github.com/mcpgen/mcpgen/gen/testdata/golden/deps/cache"
	"github.com/mcpgen/mcpgen/gen/testdata/golden/deps/store"
	component "github.com/mcpgen/mcpgen/gen/testdata/golden/deps"
	"github.com/mcpgen/mcpgen/gen/testdata/golden/deps/want/deps"
)

type clock struct{}

func (clock) Now() time.Time { return time.Now() }

var (
	newClock       = func(context.Context) (component.Clock, error) { return clock{}, nil }
	newServer      = func(context.Context) (*cache.Server, error) { return &cache.Server{}, nil }
	newStore       = func(context.Context) (*store.Store, error) { return store.New(), nil }
	newCache       = func(context.Context) (*cache.Store, error) { return &cache.Store{}, nil }
	_, _, _, _ = newClock, newServer, newStore, newCache
)

func main() {
	deps.Main("Serves the deps server.", ` + args + `)
}
`)
	}
	build := func(t *testing.T, args string) (string, string, error) {
		o := newOverlay(t)
		o.add(dir+"/main.go", mainGo(args))
		bin := filepath.Join(t.TempDir(), "deps-server")
		out, err := goCmd(t, "build", "-overlay", o.file(), "-o", bin, "./"+dir)
		return bin, out, err
	}

	t.Run("every dependency", func(t *testing.T) {
		bin, out, err := build(t, "newClock, newServer, newStore, newCache")
		if err != nil {
			t.Fatalf("a main giving every dependency does not build:\n%s", out)
		}
		usage, err := exec.Command(bin, "-h").CombinedOutput()
		if err != nil || !strings.Contains(string(usage), "usage: deps [flags]") || !strings.Contains(string(usage), "Serves the deps server.") {
			t.Errorf("deps-server -h: %v\n%s", err, usage)
		}
	})
	for _, c := range []struct {
		name, args string
		want       string // regexp the compiler's output must match
	}{
		{"missing", "newClock, newServer, newStore",
			`not enough arguments in call to deps\.Main\n\s+have \(string, [^\n]*\)\n\s+want \(string, [^\n]*func\(context\.Context\) \(\*cache\.Store, error\)\)`},
		{"mistyped", "newClock, newServer, newCache, newStore",
			`cannot use newCache \(variable of type func\(context\.Context\) \(\*cache\.Store, error\)\) as func\(context\.Context\) \(\*store\.Store, error\) value in argument to deps\.Main`},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, out, err := build(t, c.args)
			if err == nil {
				t.Fatalf("a main calling deps.Main(about, %s) builds", c.args)
			}
			if !regexp.MustCompile(c.want).MatchString(out) {
				t.Errorf("go build says:\n%s\nwant it to match %s", out, c.want)
			}
		})
	}
}

//go:build unix

package gen

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// BenchmarkGenerate runs the whole generator on synthetic component
// packages of 50, 200 and 1000 tools, written at benchmark time under
// testdata/ (inside the module, so that they type-check; removed after).
//
// Besides ns/op, B/op and allocs/op (warm runs) it reports the
// milliseconds spent in each stage (load, check, schema, emit) of the cold
// first run and of a warm one, and the peak RSS of this process and of the
// largest child (the `go run` of the schema program), in MB. Peak RSS is a
// high-water mark for the whole process, so run one size per process for
// exact figures (scripts/bench-gen.sh does).
//
//	go test ./gen -run '^$' -bench Generate -benchtime 3x
//	MCPGEN_BENCH_SIZES=20,500 go test ./gen -run '^$' -bench Generate
func BenchmarkGenerate(b *testing.B) {
	sizes := []int{50, 200, 1000}
	if env := os.Getenv("MCPGEN_BENCH_SIZES"); env != "" {
		sizes = nil
		for _, f := range strings.Split(env, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil {
				b.Fatalf("MCPGEN_BENCH_SIZES: %v", err)
			}
			sizes = append(sizes, n)
		}
	}
	for _, n := range sizes {
		b.Run(fmt.Sprintf("tools=%d", n), func(b *testing.B) {
			pattern := writeSyntheticPackage(b, n, false)
			cfg := Config{Patterns: []string{pattern}}
			// The first run after writing the package is cold (go list
			// compiles it for export data, the schema program is built and
			// linked), like the first run after editing a component; the
			// timed runs that follow find it all in the build cache.
			cold := timeStages(b, cfg)
			warm := timeStages(b, cfg)

			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				res, err := Generate(context.Background(), cfg)
				if err != nil {
					b.Fatal(err)
				}
				if len(res.Files) < n+1 {
					b.Fatalf("%d files for %d tools", len(res.Files), n)
				}
			}
			b.StopTimer()
			for i := range warm {
				b.ReportMetric(float64(cold[i].d.Microseconds())/1000, "cold-"+cold[i].name+"-ms")
				b.ReportMetric(float64(warm[i].d.Microseconds())/1000, "warm-"+warm[i].name+"-ms")
			}
			self, children := peakRSS()
			b.ReportMetric(self, "peak-rss-MB")
			b.ReportMetric(children, "child-peak-rss-MB")
		})
	}
}

type stageTime struct {
	name string
	d    time.Duration
}

// timeStages runs the pipeline stage by stage, as Generate does, and times
// each stage.
func timeStages(b *testing.B, cfg Config) []stageTime {
	b.Helper()
	var out []stageTime
	lap := func(name string, start time.Time) { out = append(out, stageTime{name, time.Since(start)}) }

	start := time.Now()
	pkgs, fset, err := load(cfg.Dir, cfg.Patterns)
	if err != nil {
		b.Fatal(err)
	}
	lap("load", start)

	start = time.Now()
	servers, err := check(pkgs, fset)
	if err != nil {
		b.Fatal(err)
	}
	lap("check", start)

	start = time.Now()
	if err := runSchemas(context.Background(), pkgs[0].Module.Dir, servers, fset); err != nil {
		b.Fatal(err)
	}
	lap("schema", start)

	start = time.Now()
	for _, s := range servers {
		if _, err := emit(s, devel); err != nil {
			b.Fatal(err)
		}
	}
	lap("emit", start)
	return out
}

// peakRSS returns the peak resident set size of this process and of its
// largest finished child, in MB.
func peakRSS() (self, children float64) {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) == nil {
		self = float64(ru.Maxrss) / 1024 // kilobytes on Linux
	}
	if syscall.Getrusage(syscall.RUSAGE_CHILDREN, &ru) == nil {
		children = float64(ru.Maxrss) / 1024
	}
	return self, children
}

// TestSyntheticPackage only writes a synthetic package, for
// scripts/bench-gen.sh to time the mcpgen command on: it runs when
// MCPGEN_SYNTH_TOOLS gives the number of tools, prints the package pattern
// (relative to the module root) and leaves the package for the script to
// remove.
func TestSyntheticPackage(t *testing.T) {
	n, err := strconv.Atoi(os.Getenv("MCPGEN_SYNTH_TOOLS"))
	if err != nil {
		t.Skip("set MCPGEN_SYNTH_TOOLS=n to write a synthetic package of n tools")
	}
	pattern := writeSyntheticPackage(t, n, true)
	fmt.Printf("pattern: ./gen/%s\n", strings.TrimPrefix(pattern, "./"))
}

// writeSyntheticPackage writes a component package of n tools, 50 per
// file, alternating text and structured results and sharing one injected
// dependency and nested input and output types, as real servers do. It
// returns the package pattern, relative to the gen directory.
func writeSyntheticPackage(tb testing.TB, n int, keep bool) string {
	tb.Helper()
	dir, err := os.MkdirTemp("testdata", fmt.Sprintf("bench_%d_", n))
	if err != nil {
		tb.Fatal(err)
	}
	if !keep {
		tb.Cleanup(func() { os.RemoveAll(dir) })
	}
	pkg := filepath.Base(dir)

	common := fmt.Sprintf(`// Package %[1]s is a synthetic server of %[2]d tools for BenchmarkGenerate.
//
//mcp:server name=%[1]s version=1.0.0
package %[1]s

// Store is the dependency every tool takes.
type Store struct{ Items map[string]string }

// Filter narrows a query.
type Filter struct {
	// Field to filter on.
	Field string   `+"`json:\"field\" jsonschema:\"enum=name,enum=kind,enum=owner\"`"+`
	Values []string `+"`json:\"values\" jsonschema:\"minItems=1\"`"+`
}

// Item is one result.
type Item struct {
	ID    string            `+"`json:\"id\"`"+`
	Score float64           `+"`json:\"score\"`"+`
	Attrs map[string]string `+"`json:\"attrs,omitempty\"`"+`
}

// Page is a structured result.
type Page struct {
	Items []Item `+"`json:\"items\"`"+`
	Next  string `+"`json:\"next,omitempty\"`"+`
}
`, pkg, n)
	if err := os.WriteFile(filepath.Join(dir, "common.go"), []byte(common), 0o644); err != nil {
		tb.Fatal(err)
	}
	for file := 0; file*50 < n; file++ {
		var src strings.Builder
		fmt.Fprintf(&src, "package %s\n\nimport \"context\"\n", pkg)
		for i := file * 50; i < min(n, (file+1)*50); i++ {
			fmt.Fprintf(&src, `
// Tool%04[1]d is synthetic tool number %[1]d.
//
//mcp:tool readonly
type Tool%04[1]d struct {
	// Text to search for.
	Query string `+"`json:\"query\" jsonschema:\"minLength=1,maxLength=200\"`"+`
	// Maximum number of items.
	Limit int `+"`json:\"limit,omitempty\" jsonschema:\"minimum=1,maximum=100,default=10\"`"+`
	// Optional filters.
	Filters []Filter `+"`json:\"filters,omitempty\"`"+`
}
`, i)
			if i%2 == 0 {
				fmt.Fprintf(&src, "\n// Call answers with text.\nfunc (in Tool%04d) Call(ctx context.Context, s *Store) (string, error) { return in.Query, nil }\n", i)
			} else {
				fmt.Fprintf(&src, "\n// Call answers with a page.\nfunc (in Tool%04d) Call(ctx context.Context, s *Store) (Page, error) { return Page{}, nil }\n", i)
			}
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("tools%02d.go", file)), []byte(src.String()), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	return "./" + filepath.ToSlash(dir)
}

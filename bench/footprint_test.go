package bench_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The footprint of the smallest server a user writes, against the
// go-sdk's: how many packages it links (go list -deps, the standard
// library included) and the size of its stripped binary. Both are
// deterministic for one toolchain, GOOS and GOARCH, so a bound on them is
// a test, not a benchmark. cgo is off for both builds, so the numbers do
// not depend on whether a C compiler is installed.
//
//	cd bench && go test -run Footprint -v                          the numbers and the bound
//	cd bench && go test -run '^$' -bench Footprint -benchtime 1x  as metrics

// maxFootprintRatio bounds ours/go-sdk for both the package count and the
// stripped size.
const maxFootprintRatio = 1.2

// footprintPrograms are the two servers measured; dir is relative to this
// module. Ours is built in the root module, which a user's module
// requiring github.com/mcpgen/mcpgen resolves to the same packages; the
// go-sdk's is built here.
var footprintPrograms = []struct{ name, dir, pkg, what string }{
	{"mcpgen", "..", "./testdata/lightmain", "generated/notes over mcpgen.ServeStdio"},
	{"go-sdk", ".", "./testdata/gosdkmain", "one mcp.AddTool tool over mcp.StdioTransport"},
}

type footprint struct {
	pkgs   int   // packages linked, the standard library included
	nonStd int   // of which outside the standard library
	bytes  int64 // the binary built with -trimpath -ldflags='-s -w'
}

// TestFootprint fails when our server links more than maxFootprintRatio
// times the go-sdk server's packages, or its stripped binary is more than
// maxFootprintRatio times as large.
func TestFootprint(t *testing.T) {
	if testing.Short() {
		t.Skip("builds two binaries")
	}
	fp := measureFootprints(t)
	ours, theirs := fp["mcpgen"], fp["go-sdk"]
	pkgRatio := float64(ours.pkgs) / float64(theirs.pkgs)
	sizeRatio := float64(ours.bytes) / float64(theirs.bytes)

	var b strings.Builder
	fmt.Fprintf(&b, "%-14s %22s %16s\n", "", "packages (non-std)", "stripped bytes")
	for _, p := range footprintPrograms {
		f := fp[p.name]
		fmt.Fprintf(&b, "%-14s %22s %16d  %s\n", p.name, fmt.Sprintf("%d (%d)", f.pkgs, f.nonStd), f.bytes, p.pkg)
	}
	fmt.Fprintf(&b, "%-14s %22.2f %16.2f  (bound %.2f)", "mcpgen/go-sdk", pkgRatio, sizeRatio, maxFootprintRatio)
	t.Logf("footprint:\n%s", b.String())

	if pkgRatio > maxFootprintRatio {
		t.Errorf("mcpgen links %d packages, %.2fx the go-sdk's %d (bound %.2fx); `go test -run LightProgram` in the root module names the heavy ones",
			ours.pkgs, pkgRatio, theirs.pkgs, maxFootprintRatio)
	}
	if sizeRatio > maxFootprintRatio {
		t.Errorf("mcpgen's stripped binary is %d bytes, %.2fx the go-sdk's %d (bound %.2fx)",
			ours.bytes, sizeRatio, theirs.bytes, maxFootprintRatio)
	}
}

// BenchmarkFootprint reports the same numbers as metrics, for benchstat:
// pkgs and bytes per program, and ours/go-sdk as pkgs-ratio and
// bytes-ratio. It times nothing.
func BenchmarkFootprint(b *testing.B) {
	fp := measureFootprints(b) // a parent benchmark runs once
	for _, p := range footprintPrograms {
		f := fp[p.name]
		b.Run(p.name, func(b *testing.B) {
			b.ReportMetric(0, "ns/op")
			b.ReportMetric(float64(f.pkgs), "pkgs")
			b.ReportMetric(float64(f.bytes), "bytes")
			if p.name == "mcpgen" {
				b.ReportMetric(float64(f.pkgs)/float64(fp["go-sdk"].pkgs), "pkgs-ratio")
				b.ReportMetric(float64(f.bytes)/float64(fp["go-sdk"].bytes), "bytes-ratio")
			}
		})
	}
}

// measureFootprints lists and builds every program of footprintPrograms.
func measureFootprints(tb testing.TB) map[string]footprint {
	tb.Helper()
	bin := tb.TempDir()
	fp := map[string]footprint{}
	for _, p := range footprintPrograms {
		var f footprint
		out := goOutput(tb, p.dir, "list", "-deps", "-f", "{{.Standard}}", p.pkg)
		for line := range strings.Lines(out) {
			f.pkgs++
			if strings.TrimSpace(line) == "false" {
				f.nonStd++
			}
		}
		exe := filepath.Join(bin, p.name)
		goOutput(tb, p.dir, "build", "-trimpath", "-buildvcs=false", "-ldflags=-s -w", "-o", exe, p.pkg)
		st, err := os.Stat(exe)
		if err != nil {
			tb.Fatal(err)
		}
		f.bytes = st.Size()
		fp[p.name] = f
	}
	return fp
}

// goOutput runs the go command in dir with cgo off and returns its
// standard output; it fails tb with the standard error.
func goOutput(tb testing.TB, dir string, args ...string) string {
	tb.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		tb.Fatalf("(cd %s && go %s): %v\n%s", dir, strings.Join(args, " "), err, stderr.String())
	}
	return string(out)
}

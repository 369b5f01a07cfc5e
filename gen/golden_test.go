package gen_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the want/ folders of the golden cases with the current output")

// TestGolden generates each case of testdata/golden/<case>/ (the component
// package at the folder's root, optionally with helper subpackages) and
// compares the output byte for byte with <case>/want/, which holds the
// generated package(s) exactly as mcpgen writes them. The want/ packages
// are real Go inside this module, so `go build ./gen/testdata/golden/...`
// compiles them too (TestEndToEnd compiles and runs fresh output).
func TestGolden(t *testing.T) {
	for _, name := range goldenCases(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			res := generate(t, "./testdata/golden/"+name)
			if len(res.Files) == 0 {
				t.Fatal("no files generated: is the //mcp:server directive missing?")
			}
			got := map[string][]byte{}
			for _, f := range res.Files {
				got[f.Path] = f.Content
			}
			wantDir := filepath.Join("testdata", "golden", name, "want")
			if *update {
				writeTree(t, wantDir, got)
				return
			}
			want := readTree(t, wantDir)
			var problems []string
			for _, p := range sortedKeys(got) {
				w, ok := want[p]
				switch {
				case !ok:
					problems = append(problems, fmt.Sprintf("%s: generated but missing from want/", p))
				case !bytes.Equal(w, got[p]):
					problems = append(problems, fmt.Sprintf("%s differs:\n%s", p, lineDiff(w, got[p])))
				}
			}
			for _, p := range sortedKeys(want) {
				if _, ok := got[p]; !ok {
					problems = append(problems, fmt.Sprintf("%s: in want/ but no longer generated", p))
				}
			}
			if len(problems) > 0 {
				t.Errorf("golden case %s is out of date:\n%s\n\nIf the change is intended, re-run with `go test ./gen -run Golden -update` and review the diff of %s.",
					name, strings.Join(problems, "\n"), wantDir)
			}
		})
	}
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// readTree returns every file under dir by slash path relative to dir.
func readTree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = b
		return nil
	})
	if err != nil {
		t.Fatalf("read %s (run `go test ./gen -run Golden -update` to create it): %v", dir, err)
	}
	return out
}

// writeTree replaces dir with exactly files.
func writeTree(t *testing.T, dir string, files map[string][]byte) {
	t.Helper()
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	for rel, b := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("updated %s", dir)
}

// lineDiff shows where two texts part: the first differing line with a
// little context from each side.
func lineDiff(want, got []byte) string {
	w := strings.Split(string(want), "\n")
	g := strings.Split(string(got), "\n")
	i := 0
	for i < len(w) && i < len(g) && w[i] == g[i] {
		i++
	}
	// Trim the common tail so that the report shows only the changed block.
	ew, eg := len(w), len(g)
	for ew > i && eg > i && w[ew-1] == g[eg-1] {
		ew--
		eg--
	}
	var b strings.Builder
	from := max(0, i-2)
	for k := from; k < i; k++ {
		fmt.Fprintf(&b, "    %4d   %s\n", k+1, w[k])
	}
	const limit = 20
	for k := i; k < ew && k < i+limit; k++ {
		fmt.Fprintf(&b, "  - %4d   %s\n", k+1, w[k])
	}
	for k := i; k < eg && k < i+limit; k++ {
		fmt.Fprintf(&b, "  + %4d   %s\n", k+1, g[k])
	}
	if ew-i > limit || eg-i > limit {
		b.WriteString("    ...\n")
	}
	return b.String()
}

// TestGoldenVet runs go vet on the generated golden packages, the typed
// clients too: generated code must pass it even where the components do
// not (wire's Record embeds two structs whose "name" fields collide, which
// vet reports in wire.go; a drift guard that wrote Record's fields out
// made server.go fail, and a client copy that embedded copies of the two
// structs made types.go fail). Only diagnostics in the generated packages
// count: go vet may also print those of the components, which it analyses
// as dependencies.
func TestGoldenVet(t *testing.T) {
	var pkgs []string
	want := map[string]bool{}
	for _, name := range goldenCases(t) {
		root := filepath.Join("testdata", "golden", name, "want")
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || !d.IsDir() || p == root {
				return err
			}
			if gos, _ := filepath.Glob(filepath.Join(p, "*.go")); len(gos) == 0 {
				return nil // schemas/, say
			}
			rel, _ := filepath.Rel(root, p)
			ip := modulePath + "/gen/testdata/golden/" + name + "/want/" + filepath.ToSlash(rel)
			pkgs = append(pkgs, ip)
			want[ip] = true
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if !want[modulePath+"/gen/testdata/golden/wire/want/wire/wireclient"] {
		t.Fatalf("the wire client is not among the packages vetted: %v", pkgs)
	}
	out, err := goCmd(t, append([]string{"vet", "-json"}, pkgs...)...)
	if err != nil {
		t.Fatalf("go vet -json failed:\n%s", out)
	}
	// The output is one JSON object per package vetted: package path ->
	// analyzer -> diagnostics.
	dec := json.NewDecoder(strings.NewReader(out))
	for {
		var report map[string]map[string][]struct {
			Posn    string `json:"posn"`
			Message string `json:"message"`
		}
		if err := dec.Decode(&report); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("reading go vet -json: %v\n%s", err, out)
		}
		for pkg, analyzers := range report {
			if !want[pkg] {
				continue
			}
			for analyzer, diags := range analyzers {
				for _, d := range diags {
					t.Errorf("%s: %s (vet %s)", d.Posn, d.Message, analyzer)
				}
			}
		}
	}
}

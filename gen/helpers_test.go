package gen_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/gen"
)

// modulePath is the import path of this module; test packages under
// gen/testdata are imported with it.
const modulePath = "github.com/mcpgen/mcpgen"

// goldenCases lists the folders of testdata/golden, in order.
func goldenCases(t testing.TB) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join("testdata", "golden"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		if e.IsDir() {
			names = append(names, e.Name())
		}
	}
	if len(names) == 0 {
		t.Fatal("no golden cases in testdata/golden")
	}
	return names
}

// generate runs the generator on package patterns relative to the gen
// directory and fails the test on any error, printing diagnostics whole.
func generate(t testing.TB, patterns ...string) *gen.Result {
	t.Helper()
	res, err := gen.Generate(context.Background(), gen.Config{Patterns: patterns})
	if err != nil {
		t.Fatalf("Generate(%s):\n%v", strings.Join(patterns, " "), err)
	}
	return res
}

// moduleRoot is the directory of go.mod, one up from the test's directory.
func moduleRoot(t testing.TB) string {
	t.Helper()
	dir, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err != nil {
		t.Fatalf("module root not found above the test directory: %v", err)
	}
	return dir
}

// overlay places files into the module without touching the tree: each
// virtual path (relative to the module root) is backed by a real file in a
// temporary directory. It returns the path of the overlay file to pass to
// `go build -overlay`.
type overlay struct {
	t       testing.TB
	root    string // module root
	tmp     string // where the backing files live
	replace map[string]string
}

func newOverlay(t testing.TB) *overlay {
	return &overlay{t: t, root: moduleRoot(t), tmp: t.TempDir(), replace: map[string]string{}}
}

// add makes the module appear to hold content at rel.
func (o *overlay) add(rel string, content []byte) {
	o.t.Helper()
	real := filepath.Join(o.tmp, "files", fmt.Sprint(len(o.replace)), filepath.Base(rel))
	if err := os.MkdirAll(filepath.Dir(real), 0o755); err != nil {
		o.t.Fatal(err)
	}
	if err := os.WriteFile(real, content, 0o644); err != nil {
		o.t.Fatal(err)
	}
	o.replace[filepath.Join(o.root, filepath.FromSlash(rel))] = real
}

// file writes the overlay description and returns its path.
func (o *overlay) file() string {
	o.t.Helper()
	var b bytes.Buffer
	b.WriteString("{\"Replace\":{")
	keys := make([]string, 0, len(o.replace))
	for k := range o.replace {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "%q:%q", k, o.replace[k])
	}
	b.WriteString("}}")
	p := filepath.Join(o.tmp, "overlay.json")
	if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
		o.t.Fatal(err)
	}
	return p
}

// goCmd runs the go command in the module root and returns its combined
// output.
func goCmd(t testing.TB, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir = moduleRoot(t)
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatalf("go %s: %v", strings.Join(args, " "), err)
	}
	return string(out), err
}

package gen_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/gen"
)

// viewModule writes a module with one component package, a server with
// the directives given (after //mcp:server) and no tools, so that it
// generates without this module in its graph; it returns the module's
// directory and a function that writes its files.
func viewModule(t *testing.T, directives string) (string, func(rel, content string)) {
	t.Helper()
	src := t.TempDir()
	write := func(rel, content string) {
		t.Helper()
		p := filepath.Join(src, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.com/viewy\n\ngo 1.22\n")
	write("comp/comp.go", "// Package comp serves views.\n//\n//mcp:server name=viewy\n"+directives+"package comp\n")
	return src, write
}

func generateIn(t *testing.T, src string) *gen.Result {
	t.Helper()
	res, err := gen.Generate(context.Background(), gen.Config{Dir: src, Patterns: []string{"./comp"}})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestViewCopiesMakeCheckStale edits a view after generating and expects
// Stale (what `mcpgen -check` runs) to name its copy, the digest in
// views.go and the one in surface.json; a removed view leaves a stale copy
// behind that Write removes.
func TestViewCopiesMakeCheckStale(t *testing.T) {
	src, write := viewModule(t, "//mcp:view uri=ui://viewy/main.html file=ui/main.html\n//mcp:view uri=ui://viewy/extra.html file=ui/extra.html\n")
	write("comp/ui/main.html", "<!DOCTYPE html><p>one</p>\n")
	write("comp/ui/extra.html", "<!DOCTYPE html><p>extra</p>\n")
	out := filepath.Join(src, "generated")
	if _, err := generateIn(t, src).Write(out); err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(filepath.Join(out, "viewy", "_views", "main.html")); err != nil || string(got) != "<!DOCTYPE html><p>one</p>\n" {
		t.Fatalf("copy of the view = %q, %v", got, err)
	}
	if stale, err := generateIn(t, src).Stale(out); err != nil || len(stale) != 0 {
		t.Fatalf("fresh output stale: %v %v", stale, err)
	}
	write("comp/ui/main.html", "<!DOCTYPE html><p>two</p>\n")
	stale, err := generateIn(t, src).Stale(out)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(stale, " ") != "viewy/_views/main.html viewy/surface.json viewy/views.go" {
		t.Errorf("after editing the view, stale = %v; want its copy, its digest in views.go and in surface.json", stale)
	}

	write("comp/comp.go", "// Package comp serves views.\n//\n//mcp:server name=viewy\n//mcp:view uri=ui://viewy/main.html file=ui/main.html\npackage comp\n")
	res := generateIn(t, src)
	if _, err := res.Write(out); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(out, "viewy", "_views", "extra.html")); !os.IsNotExist(err) {
		t.Errorf("copy of a removed view left behind: %v", err)
	}
	if stale, err := res.Stale(out); err != nil || len(stale) != 0 {
		t.Errorf("after Write, stale = %v %v", stale, err)
	}
}

// TestUnlinkedViewWarns checks that a view no tool links to is a warning
// at its directive, which does not stop generation (the golden case
// "views", whose views are all linked, has none).
func TestUnlinkedViewWarns(t *testing.T) {
	src, write := viewModule(t, "//mcp:view uri=ui://viewy/lonely.html file=ui/lonely.html\n")
	write("comp/ui/lonely.html", "<!DOCTYPE html>\n")
	res := generateIn(t, src)
	if len(res.Warnings) != 1 {
		t.Fatalf("warnings = %v, want one", res.Warnings)
	}
	w := res.Warnings[0]
	want := filepath.Join(src, "comp", "comp.go") + ":4:1: warning: view ui://viewy/lonely.html: no tool links to it\n\tlink it from a tool with view=ui://viewy/lonely.html"
	if !w.Warning || !strings.HasPrefix(w.String(), want) {
		t.Errorf("warning = %q, want it to start with %q", w.String(), want)
	}
	if len(res.Files) == 0 {
		t.Error("a warning stopped generation")
	}
	if golden := generate(t, "./testdata/golden/views"); len(golden.Warnings) != 0 {
		t.Errorf("the golden case views, every view linked, warns: %v", golden.Warnings)
	}
}

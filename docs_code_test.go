package mcpgen_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// exportedNames are the exported top-level names of the package in dir
// (test files aside).
func exportedNames(t *testing.T, dir string) map[string]bool {
	t.Helper()
	pkgs, err := parser.ParseDir(token.NewFileSet(), dir, func(fi os.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, 0)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, p := range pkgs {
		for _, f := range p.Files {
			for name, obj := range f.Scope.Objects {
				if ast.IsExported(name) && obj != nil {
					names[name] = true
				}
			}
		}
	}
	return names
}

// TestDocsCodeNamesExist: every name of the public packages that a Go
// block of the README or docs/ uses (mcpgen.ServeStdio, oauth.New, ...)
// exists, so that the pages show the API there is.
func TestDocsCodeNamesExist(t *testing.T) {
	pages, _ := filepath.Glob("docs/*.md")
	pages = append(pages, "README.md")
	known := map[string]map[string]bool{}
	for dir := range publicPackages {
		known[filepath.Base(publicPackages[dir])] = exportedNames(t, dir)
	}
	block := regexp.MustCompile("(?s)```go\n(.*?)```")
	sel := regexp.MustCompile(`(?:^|[^\w.])([a-z]\w*)\.([A-Z]\w*)`)
	checked := 0
	for _, page := range pages {
		text, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range block.FindAllSubmatch(text, -1) {
			for _, m := range sel.FindAllStringSubmatch(string(b[1]), -1) {
				names, ok := known[m[1]]
				if !ok {
					continue
				}
				checked++
				if !names[m[2]] {
					t.Errorf("%s: %s.%s does not exist", page, m[1], m[2])
				}
			}
		}
	}
	if checked < 20 {
		t.Errorf("only %d names checked: does the pattern still find Go blocks?", checked)
	}
}

// TestReadmeSaysTidy: the README's paragraph on the opt-in packages says
// that importing one needs a go mod tidy, which a build without it asks
// for in terms ("missing go.sum entry") that do not say why.
func TestReadmeSaysTidy(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(readme)
	i := strings.Index(s, `_ "github.com/mcpgen/mcpgen/oauth"`)
	if i < 0 {
		t.Fatal("README no longer shows the blank import of oauth")
	}
	if j := strings.Index(s[i:], "go mod tidy"); j < 0 || j > 2000 {
		t.Error("README does not say, next to the blank imports of the opt-in packages, that go mod tidy is needed after adding one")
	}
}

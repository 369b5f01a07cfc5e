package gen_test

import (
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/gen"
)

// TestDiagnostics runs the generator once over testdata/diagnostics/...,
// packages full of mistakes, and checks the diagnostics in place, the way
// go/analysis/analysistest does: every diagnostic must land on a line that
// carries a `// want "regexp"` comment matching `subject: problem`, and
// every want must be met (each diagnostic meets one want, so a mistake
// reported twice fails). A directive line cannot end in a comment (it
// would be read as part of the directive), so there the expectation is a
// block comment before the directive: /* want "regexp" */ //mcp:tool ...
func TestDiagnostics(t *testing.T) {
	checkDiagnostics(t, "./testdata/diagnostics/...", filepath.Join("testdata", "diagnostics"))
}

// TestLoadErrors checks that a package that does not compile is reported
// with the compiler's positions, before (and instead of) its directives.
func TestLoadErrors(t *testing.T) {
	checkDiagnostics(t, "./testdata/loaderror", filepath.Join("testdata", "loaderror"))
}

// TestSchemaErrors checks the diagnostics of the schema stage, which runs
// only when the checker found nothing.
func TestSchemaErrors(t *testing.T) {
	checkDiagnostics(t, "./testdata/schemaerror", filepath.Join("testdata", "schemaerror"))
}

func checkDiagnostics(t *testing.T, pattern, dir string) {
	_, err := gen.Generate(context.Background(), gen.Config{Patterns: []string{pattern}})
	var diags gen.Diagnostics
	if !errors.As(err, &diags) {
		t.Fatalf("Generate(%s) = %v, want a gen.Diagnostics error", pattern, err)
	}
	wants := readWants(t, dir)
	if len(wants) == 0 {
		t.Fatalf("no want comments under %s", dir)
	}
	for _, d := range diags {
		if !d.Pos.IsValid() || d.Pos.Column == 0 {
			t.Errorf("diagnostic without a full position: %s", d)
			continue
		}
		// A want matches `subject: problem`, followed by the hint on
		// its own line, so that a want may check the hint too.
		text := d.Problem
		if d.Subject != "" {
			text = d.Subject + ": " + d.Problem
		}
		if d.Hint != "" {
			text += "\n\t" + d.Hint
		}
		k := lineKey{abs(t, d.Pos.Filename), d.Pos.Line}
		if !wants.match(k, text) {
			t.Errorf("%s:%d:%d: unexpected diagnostic: %s", rel(k.file), k.line, d.Pos.Column, text)
		}
	}
	for _, k := range wants.keys() {
		for _, w := range wants[k] {
			if !w.met {
				t.Errorf("%s:%d: no diagnostic matched %q", rel(k.file), k.line, w.re)
			}
		}
	}
	if t.Failed() {
		t.Logf("all diagnostics:\n%v", diags)
	}
}

type lineKey struct {
	file string
	line int
}

type want struct {
	re  *regexp.Regexp
	met bool
}

type wantSet map[lineKey][]*want

// match consumes the first unmet want of the line that text matches.
func (ws wantSet) match(k lineKey, text string) bool {
	for _, w := range ws[k] {
		if !w.met && w.re.MatchString(text) {
			w.met = true
			return true
		}
	}
	return false
}

func (ws wantSet) keys() []lineKey {
	keys := make([]lineKey, 0, len(ws))
	for k := range ws {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].file != keys[j].file {
			return keys[i].file < keys[j].file
		}
		return keys[i].line < keys[j].line
	})
	return keys
}

// readWants collects the want comments of every Go file under dir. A want
// holds one or more Go string literals, each a regexp for one diagnostic.
func readWants(t *testing.T, dir string) wantSet {
	t.Helper()
	ws := wantSet{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") {
			return err
		}
		f, err := parser.ParseFile(fset, abs(t, p), nil, parser.ParseComments|parser.AllErrors)
		if f == nil {
			return err
		}
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				text, ok := wantText(c)
				if !ok {
					continue
				}
				pos := fset.Position(c.Slash)
				k := lineKey{pos.Filename, pos.Line}
				res, err := parseWant(text)
				if err != nil {
					t.Fatalf("%s: %v", pos, err)
				}
				ws[k] = append(ws[k], res...)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return ws
}

func wantText(c *ast.Comment) (string, bool) {
	text := c.Text
	switch {
	case strings.HasPrefix(text, "//"):
		text = text[2:]
	case strings.HasPrefix(text, "/*"):
		text = strings.TrimSuffix(text[2:], "*/")
	}
	text = strings.TrimSpace(text)
	if !strings.HasPrefix(text, "want ") {
		return "", false
	}
	return strings.TrimSpace(text[len("want "):]), true
}

func parseWant(text string) ([]*want, error) {
	var out []*want
	for text != "" {
		q, err := strconv.QuotedPrefix(text)
		if err != nil {
			return nil, fmt.Errorf("want: expected a Go string literal at %q", text)
		}
		s, _ := strconv.Unquote(q)
		re, err := regexp.Compile(s)
		if err != nil {
			return nil, fmt.Errorf("want: %v", err)
		}
		out = append(out, &want{re: re})
		text = strings.TrimSpace(text[len(q):])
	}
	if len(out) == 0 {
		return nil, errors.New("want: no pattern")
	}
	return out, nil
}

func abs(t *testing.T, p string) string {
	a, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func rel(p string) string {
	wd, _ := os.Getwd()
	if r, err := filepath.Rel(wd, p); err == nil {
		return r
	}
	return p
}

package mcpgen_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// undocumentedAllowed lists the exported names of the public packages
// that may go without a doc comment starting with their name, as
// "dir: Type.Member" (or "dir: Name"). Keep it empty: go doc is the
// manual, and a name it shows without a sentence is a hole in it.
var undocumentedAllowed = map[string]bool{}

// TestExportedNamesDocumented checks that every exported function, type,
// method, struct field and interface method of the public packages has a
// doc comment above it whose first word is its name (after an optional
// "A", "An" or "The"), and that every exported constant and variable is
// documented, alone or by its group. A trailing line comment does not
// count for a field or a method: go doc shows it, but only inside the
// type's declaration, not as the member's documentation.
func TestExportedNamesDocumented(t *testing.T) {
	var missing []string
	for dir := range publicPackages {
		missing = append(missing, undocumented(t, dir)...)
	}
	sort.Strings(missing)
	for _, m := range missing {
		t.Errorf("%s: no doc comment starting with its name", m)
	}
	if len(missing) > 0 {
		t.Logf("write a sentence above each that starts with its name and says what it is and why (go doc is the manual), or, exceptionally, list it in undocumentedAllowed")
	}
}

// undocumented returns the exported names of the package in dir that
// lack a doc comment, as "file:line: dir: name" lines, less those
// undocumentedAllowed lists.
func undocumented(t *testing.T, dir string) []string {
	t.Helper()
	fset := token.NewFileSet()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var missing []string
	report := func(pos token.Pos, name string) {
		if undocumentedAllowed[dir+": "+name] {
			return
		}
		p := fset.Position(pos)
		missing = append(missing, filepath.Join(dir, filepath.Base(p.Filename))+":"+strconv.Itoa(p.Line)+": "+name)
	}
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if !d.Name.IsExported() {
					continue
				}
				name := d.Name.Name
				if d.Recv != nil {
					recv := receiverName(d.Recv.List[0].Type)
					if !ast.IsExported(recv) {
						continue
					}
					name = recv + "." + name
				}
				if !startsWithName(d.Doc, d.Name.Name) {
					report(d.Pos(), name)
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						if !s.Name.IsExported() {
							continue
						}
						doc := s.Doc
						if doc == nil && len(d.Specs) == 1 {
							doc = d.Doc
						}
						if !startsWithName(doc, s.Name.Name) {
							report(s.Pos(), s.Name.Name)
						}
						var members *ast.FieldList
						switch tt := s.Type.(type) {
						case *ast.StructType:
							members = tt.Fields
						case *ast.InterfaceType:
							members = tt.Methods
						}
						if members == nil {
							continue
						}
						for _, fl := range members.List {
							for _, n := range fl.Names {
								if n.IsExported() && !startsWithName(fl.Doc, namesOf(fl)...) {
									report(n.Pos(), s.Name.Name+"."+n.Name)
								}
							}
						}
					case *ast.ValueSpec:
						for _, n := range s.Names {
							if n.IsExported() && s.Doc == nil && s.Comment == nil && d.Doc == nil {
								report(n.Pos(), n.Name)
							}
						}
					}
				}
			}
		}
	}
	return missing
}

// receiverName is the name of a method's receiver type, without its
// pointer or type parameters.
func receiverName(x ast.Expr) string {
	for {
		switch r := x.(type) {
		case *ast.StarExpr:
			x = r.X
		case *ast.IndexExpr:
			x = r.X
		case *ast.IndexListExpr:
			x = r.X
		case *ast.Ident:
			return r.Name
		default:
			return ""
		}
	}
}

// namesOf returns the names a field or interface method declares (two
// fields declared together share one comment, which may start with
// either).
func namesOf(fl *ast.Field) []string {
	var names []string
	for _, n := range fl.Names {
		names = append(names, n.Name)
	}
	return names
}

// startsWithName reports whether doc's first word, after an optional
// article, is one of names.
func startsWithName(doc *ast.CommentGroup, names ...string) bool {
	if doc == nil {
		return false
	}
	words := strings.FieldsFunc(doc.Text(), func(r rune) bool {
		return unicode.IsSpace(r) || strings.ContainsRune(",:;.()", r)
	})
	if len(words) > 1 && (words[0] == "A" || words[0] == "An" || words[0] == "The") {
		words = words[1:]
	}
	if len(words) == 0 {
		return false
	}
	first := strings.TrimSuffix(strings.TrimSuffix(words[0], "'s"), "'")
	for _, n := range names {
		if first == n {
			return true
		}
	}
	return false
}

// maxDetachedLines is the longest comment a public package may keep
// outside every declaration: a few lines that orient a reader of the file
// are fine, design prose is not.
const maxDetachedLines = 5

// TestNoDetachedProse checks that the public packages keep no long comment
// detached from a declaration (above the package clause but apart from it,
// or between declarations): go doc never shows one, so what it says
// belongs in the doc comment of the package, or of the type or function it
// describes, or in docs/.
func TestNoDetachedProse(t *testing.T) {
	for dir := range publicPackages {
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			name := e.Name()
			if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
				continue
			}
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.ParseComments)
			if err != nil {
				t.Fatal(err)
			}
			attached := map[*ast.CommentGroup]bool{f.Doc: true}
			ast.Inspect(f, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.FuncDecl:
					attached[n.Doc] = true
				case *ast.GenDecl:
					attached[n.Doc] = true
				case *ast.TypeSpec:
					attached[n.Doc], attached[n.Comment] = true, true
				case *ast.ValueSpec:
					attached[n.Doc], attached[n.Comment] = true, true
				case *ast.Field:
					attached[n.Doc], attached[n.Comment] = true, true
				}
				return true
			})
		groups:
			for _, cg := range f.Comments {
				if attached[cg] {
					continue
				}
				for _, d := range f.Decls {
					if d.Pos() <= cg.Pos() && cg.End() <= d.End() {
						continue groups // inside a declaration: a comment on code
					}
				}
				if lines := strings.Count(cg.Text(), "\n"); lines > maxDetachedLines {
					t.Errorf("%s:%d: a detached comment of %d lines, which go doc does not show: move it into the doc comment of the package or of what it describes (or into docs/)",
						filepath.Join(dir, name), fset.Position(cg.Pos()).Line, lines)
				}
			}
		}
	}
}

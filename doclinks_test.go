package mcpgen_test

import (
	"go/ast"
	"go/doc"
	"go/doc/comment"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// publicPackages are the packages users import: their doc links must all
// resolve, since go doc shows an unresolved one as plain text in brackets.
var publicPackages = map[string]string{
	".":               "github.com/mcpgen/mcpgen",
	"oauth":           "github.com/mcpgen/mcpgen/oauth",
	"oauth/devissuer": "github.com/mcpgen/mcpgen/oauth/devissuer",
	"oauthclient":     "github.com/mcpgen/mcpgen/oauthclient",
	"metrics":         "github.com/mcpgen/mcpgen/metrics",
	"tracing":         "github.com/mcpgen/mcpgen/tracing",
	"pgcluster":       "github.com/mcpgen/mcpgen/pgcluster",
	"pgdsn":           "github.com/mcpgen/mcpgen/pgdsn",
	"eventstore":      "github.com/mcpgen/mcpgen/eventstore",
}

// symbols is what one package declares: exported and unexported names,
// and the fields and methods of each type.
type symbols struct {
	names   map[string]bool
	members map[string]map[string]bool // type -> field or method names
}

func loadPackage(t *testing.T, dir string) (*doc.Package, []*ast.File, symbols) {
	t.Helper()
	fset := token.NewFileSet()
	var files []*ast.File
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != dir {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		if err != nil {
			return err
		}
		files = append(files, f)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	p, err := doc.NewFromFiles(fset, files, publicPackages[dir], doc.AllDecls|doc.PreserveAST)
	if err != nil {
		t.Fatal(err)
	}
	syms := symbols{names: map[string]bool{}, members: map[string]map[string]bool{}}
	for _, f := range files {
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil {
					syms.names[d.Name.Name] = true
					continue
				}
				recv := d.Recv.List[0].Type
				for {
					switch r := recv.(type) {
					case *ast.StarExpr:
						recv = r.X
						continue
					case *ast.IndexExpr:
						recv = r.X
						continue
					}
					break
				}
				if id, ok := recv.(*ast.Ident); ok {
					add(syms.members, id.Name, d.Name.Name)
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						syms.names[s.Name.Name] = true
						switch tt := s.Type.(type) {
						case *ast.StructType:
							for _, fl := range tt.Fields.List {
								for _, n := range fl.Names {
									add(syms.members, s.Name.Name, n.Name)
								}
							}
						case *ast.InterfaceType:
							for _, fl := range tt.Methods.List {
								for _, n := range fl.Names {
									add(syms.members, s.Name.Name, n.Name)
								}
							}
						}
					case *ast.ValueSpec:
						for _, n := range s.Names {
							syms.names[n.Name] = true
						}
					}
				}
			}
		}
	}
	return p, files, syms
}

func add(m map[string]map[string]bool, typ, name string) {
	if m[typ] == nil {
		m[typ] = map[string]bool{}
	}
	m[typ][name] = true
}

// TestDocLinksResolve parses every doc comment of the public packages
// (declarations and struct fields) and checks that each [Name],
// [Type.Member] and [pkg.Name] link names something that exists.
func TestDocLinksResolve(t *testing.T) {
	loaded := map[string]symbols{}
	docs := map[string]*doc.Package{}
	files := map[string][]*ast.File{}
	for dir, path := range publicPackages {
		p, fs, syms := loadPackage(t, dir)
		loaded[path], docs[dir], files[dir] = syms, p, fs
	}
	for dir, p := range docs {
		parser := &comment.Parser{
			LookupPackage: func(name string) (string, bool) {
				for _, f := range files[dir] {
					for _, imp := range f.Imports {
						ip := strings.Trim(imp.Path.Value, `"`)
						if (imp.Name != nil && imp.Name.Name == name) || (imp.Name == nil && ip[strings.LastIndex(ip, "/")+1:] == name) {
							return ip, true
						}
					}
				}
				if name == "mcpgen" {
					return publicPackages["."], true
				}
				return name, true // a standard library package
			},
			LookupSym: func(string, string) bool { return true },
		}
		check := func(where, text string) {
			var walk func(any)
			walk = func(n any) {
				switch n := n.(type) {
				case *comment.Doc:
					for _, b := range n.Content {
						walk(b)
					}
				case *comment.Paragraph:
					for _, x := range n.Text {
						walk(x)
					}
				case *comment.List:
					for _, it := range n.Items {
						for _, b := range it.Content {
							walk(b)
						}
					}
				case *comment.Heading:
					for _, x := range n.Text {
						walk(x)
					}
				case *comment.DocLink:
					ip := n.ImportPath
					if ip == "" {
						ip = publicPackages[dir]
					}
					syms, ours := loaded[ip]
					if !ours {
						return // another module's or the standard library's
					}
					ok := syms.names[n.Name]
					if n.Recv != "" {
						ok = syms.names[n.Recv] && syms.members[n.Recv][n.Name]
					}
					if !ok {
						name := n.Name
						if n.Recv != "" {
							name = n.Recv + "." + n.Name
						}
						t.Errorf("%s: %s: doc link [%s] names nothing in %s", dir, where, name, ip)
					}
				}
			}
			walk(parser.Parse(text))
		}
		check("package doc", p.Doc)
		for _, f := range files[dir] {
			ast.Inspect(f, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.FuncDecl:
					if n.Doc != nil && ast.IsExported(n.Name.Name) {
						check(n.Name.Name, n.Doc.Text())
					}
				case *ast.GenDecl:
					if n.Doc != nil {
						check("declaration", n.Doc.Text())
					}
				case *ast.TypeSpec:
					if n.Doc != nil {
						check(n.Name.Name, n.Doc.Text())
					}
				case *ast.Field:
					if n.Doc != nil {
						check("field", n.Doc.Text())
					}
				case *ast.ValueSpec:
					if n.Doc != nil {
						check("value", n.Doc.Text())
					}
				}
				return true
			})
		}
	}
}

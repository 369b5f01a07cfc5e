package gen_test

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/gen"
)

// clientSurface parses the typed client package generated for server and
// returns its methods' signatures ("AddNote(ctx context.Context, in
// AddNote) (Saved, error)"), its type declarations by name, and the
// import paths of its files.
func clientSurface(t *testing.T, res *gen.Result, server string) (methods map[string]string, typeDecls map[string]string, imports map[string]bool) {
	t.Helper()
	methods, typeDecls, imports = map[string]string{}, map[string]string{}, map[string]bool{}
	prefix := server + "/" + server + "client/"
	fset := token.NewFileSet()
	n := 0
	for _, f := range res.Files {
		if !strings.HasPrefix(f.Path, prefix) || !strings.HasSuffix(f.Path, ".go") || strings.Contains(f.Path[len(prefix):], "/") {
			continue
		}
		n++
		if !bytes.HasPrefix(f.Content, []byte("// "+gen.Header+"\n")) {
			t.Errorf("%s does not start with the generated header", f.Path)
		}
		file, err := parser.ParseFile(fset, f.Path, f.Content, parser.ParseComments)
		if err != nil {
			t.Fatalf("%s: %v", f.Path, err)
		}
		if !ast.IsGenerated(file) {
			t.Errorf("%s: ast.IsGenerated is false", f.Path)
		}
		if file.Name.Name != server+"client" {
			t.Errorf("%s: package %s, want %sclient", f.Path, file.Name.Name, server)
		}
		for _, imp := range file.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			imports[p] = true
		}
		for _, decl := range file.Decls {
			switch d := decl.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil {
					continue
				}
				if d.Doc == nil || !strings.HasPrefix(d.Doc.Text(), d.Name.Name+" ") {
					t.Errorf("%s: method %s has no doc comment starting with its name", f.Path, d.Name.Name)
				}
				var b bytes.Buffer
				printer.Fprint(&b, fset, d.Type)
				methods[d.Name.Name] = d.Name.Name + strings.TrimPrefix(b.String(), "func")
			case *ast.GenDecl:
				if d.Tok != token.TYPE {
					continue
				}
				for _, spec := range d.Specs {
					ts := spec.(*ast.TypeSpec)
					if d.Doc == nil && ts.Doc == nil {
						t.Errorf("%s: type %s has no doc comment", f.Path, ts.Name.Name)
					}
					var b bytes.Buffer
					printer.Fprint(&b, fset, ts.Type)
					typeDecls[ts.Name.Name] = strings.Join(strings.Fields(b.String()), " ")
				}
			}
		}
	}
	if n == 0 {
		t.Fatalf("no Go files generated under %s", prefix)
	}
	return methods, typeDecls, imports
}

// TestClientResultKinds checks the typed client's method for every result
// kind of a tool: text as string, content blocks as []mcpgen.Content, a
// raw result as it is, and structured results (struct, pointer, map)
// decoded into the client's copy of the type.
func TestClientResultKinds(t *testing.T) {
	res := generate(t, "./testdata/golden/results")
	methods, decls, imports := clientSurface(t, res, "results")
	want := map[string]string{
		"Shout":   "Shout(ctx context.Context, in Shout) (string, error)",
		"Picture": "Picture(ctx context.Context, in Picture) ([]mcpgen.Content, error)",
		"Lookup":  "Lookup(ctx context.Context, in Lookup) (*mcpgen.CallToolResult, error)",
		"Measure": "Measure(ctx context.Context, in Measure) (*Stats, error)",
		"Tally":   "Tally(ctx context.Context, in Tally) (map[string]int, error)",
		"Forget":  "Forget(ctx context.Context, in Forget) (Forgotten, error)",

		"CheckSurface": "CheckSurface(ctx context.Context) error",
		"Untyped":      "Untyped() *mcpgen.Client",
	}
	for name, sig := range want {
		if got := methods[name]; got != sig {
			t.Errorf("method %s:\n got %s\nwant %s", name, got, sig)
		}
	}
	// The copies have the component's fields, tags and types.
	if got := decls["Stats"]; !strings.Contains(got, "Total json.Number `json:\"total\"`") || !strings.Contains(got, "Min float64 Max float64") {
		t.Errorf("type Stats copied as:\n%s", got)
	}
	if got := decls["Shout"]; !strings.Contains(got, "Text string `json:\"text\" jsonschema:\"minLength=1,maxLength=200\"`") {
		t.Errorf("type Shout copied as:\n%s", got)
	}
	for p := range imports {
		if strings.Contains(p, "testdata/golden") || strings.Contains(p, "/internal") {
			t.Errorf("the client imports %s: it must hold copies of the component's types", p)
		}
	}
}

// TestClientResources checks resources and templates: a template's URI
// variables are the method's string arguments, in template order, and
// the URI is built with mcpgen.ExpandTemplate (percent-encoding them);
// each result kind has its Go type.
func TestClientResources(t *testing.T) {
	res := generate(t, "./testdata/golden/resources")
	methods, _, _ := clientSurface(t, res, "resources")
	want := map[string]string{
		"ReadNote":     "ReadNote(ctx context.Context, folder string, path string) (string, error)",
		"ReadAccount":  "ReadAccount(ctx context.Context, id string) (*AccountInfo, error)",
		"ReadLogo":     "ReadLogo(ctx context.Context) ([]byte, error)",
		"ReadBundle":   "ReadBundle(ctx context.Context) (*mcpgen.ReadResourceResult, error)",
		"ReadReadme":   "ReadReadme(ctx context.Context) (string, error)",
		"ReadSettings": "ReadSettings(ctx context.Context) (AppConfig, error)",
	}
	for name, sig := range want {
		if got := methods[name]; got != sig {
			t.Errorf("method %s:\n got %s\nwant %s", name, got, sig)
		}
	}
	var src string
	for _, f := range res.Files {
		if f.Path == "resources/resourcesclient/resources.go" {
			src = string(f.Content)
		}
	}
	if !strings.Contains(src, `mcpgen.ExpandTemplate("notes://{folder}/{+path}", map[string]string{`) {
		t.Errorf("ReadNote does not expand its template with mcpgen.ExpandTemplate:\n%s", src)
	}
}

// TestClientPrompts checks that a prompt's method takes the copied prompt
// type and sends its fields as the string arguments: required ones
// always, optional ones (omitempty, *string) only when set.
func TestClientPrompts(t *testing.T) {
	res := generate(t, "./testdata/golden/prompts")
	methods, decls, _ := clientSurface(t, res, "prompts")
	if got, want := methods["GetReview"], "GetReview(ctx context.Context, in Review) (*mcpgen.GetPromptResult, error)"; got != want {
		t.Errorf("got %s\nwant %s", got, want)
	}
	if _, ok := decls["Review"]; !ok {
		t.Errorf("no copy of the prompt type Review; types: %v", decls)
	}
	var src string
	for _, f := range res.Files {
		if f.Path == "prompts/promptsclient/prompts.go" {
			src = string(f.Content)
		}
	}
	if !strings.Contains(src, "if in.") || !strings.Contains(src, "c.c.GetPrompt(ctx, ") {
		t.Errorf("prompts.go does not set optional arguments only when given:\n%s", src)
	}
}

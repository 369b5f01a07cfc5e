package main

import (
	"bytes"
	"errors"
	"fmt"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"text/template"
	"unicode"

	"github.com/mcpgen/mcpgen/gen"
)

// newUsage is the help of `mcpgen new`.
const newUsage = `usage: mcpgen new server NAME [DIR]
       mcpgen new tool|resource|prompt NAME [DIR]

new server writes a component package for the server NAME in DIR (default
components/NAME) with one example tool, a main in cmd/NAME that serves it,
and, when the module root has none, a generate.go with the //go:generate
line. new tool, new resource and new prompt add one component to the
package in DIR (default: the current directory), in a file named NAME.go.

Each file generates and compiles as it stands; the TODOs say what to fill in.
Existing files are never overwritten.
`

var serverNameRe = regexp.MustCompile(`^[a-z][a-z0-9]*$`)

// runNew carries out `mcpgen new ...` and returns the exit status.
func runNew(args []string) int {
	if len(args) == 1 && (args[0] == "-h" || args[0] == "-help" || args[0] == "--help") {
		fmt.Print(newUsage)
		return 0
	}
	if len(args) < 2 || len(args) > 3 {
		fmt.Fprint(os.Stderr, newUsage)
		return 2
	}
	kind, name, dir := args[0], args[1], ""
	if len(args) == 3 {
		dir = args[2]
	}
	var written []string
	var err error
	switch kind {
	case "server":
		written, err = newServer(name, dir)
	case "tool", "resource", "prompt":
		written, err = newComponent(kind, name, dir)
	default:
		err = fmt.Errorf("unknown kind %q: want server, tool, resource or prompt", kind)
	}
	for _, p := range written {
		fmt.Println("mcpgen: wrote", p)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "mcpgen new:", err)
		return 1
	}
	fmt.Println("mcpgen: now run `go generate ./...`")
	return 0
}

// scaffold holds what the templates need.
type scaffold struct {
	Module  string // the module path
	Package string // the component package name
	Server  string // the server name
	Name    string // the component's protocol name
	Type    string // the component's Go type name
	Pattern string // generate.go: the packages to scan, when not the default
}

// newServer writes a server package, its main and, if missing, the
// module's generate.go. It checks every target first, so that it writes
// all of them or none.
func newServer(name, dir string) ([]string, error) {
	if !serverNameRe.MatchString(name) || token.IsKeyword(name) || name == "main" {
		return nil, fmt.Errorf("server name %q: want a lower-case Go package name such as notes (letters and digits, not a keyword, not main)", name)
	}
	mod, root, err := module()
	if err != nil {
		return nil, err
	}
	if dir == "" {
		dir = filepath.Join(root, "components", name)
	}
	s := scaffold{Module: mod, Package: name, Server: name}
	files := []struct {
		path string
		tmpl *template.Template
	}{
		{filepath.Join(dir, name+".go"), serverTmpl},
		{filepath.Join(root, "cmd", name, "main.go"), mainTmpl},
	}
	for _, f := range files {
		if _, err := os.Stat(f.path); err == nil {
			return nil, fmt.Errorf("%s exists; mcpgen new never overwrites a file (choose another NAME or DIR)", f.path)
		}
	}
	var written []string
	for _, f := range files {
		if err := writeNew(f.path, f.tmpl, s); err != nil {
			return written, err
		}
		written = append(written, f.path)
	}
	gen, err := ensureGenerateFile(mod, root, dir)
	if gen != "" {
		written = append(written, gen)
	}
	return written, err
}

// newComponent adds one tool, resource or prompt to the package in dir.
func newComponent(kind, name, dir string) ([]string, error) {
	// The rule of //mcp:tool name=..., so that every name written here
	// generates.
	if why := gen.CheckName(name); why != "" {
		return nil, fmt.Errorf("%s name %q: %s; a name is %s (e.g. add_note or list-notes)", kind, name, why, gen.NameRule)
	}
	if dir == "" {
		dir = "."
	}
	pkg, err := packageName(dir)
	if err != nil {
		return nil, err
	}
	s := scaffold{Package: pkg, Server: pkg, Name: name, Type: typeName(kind, name)}
	p := filepath.Join(dir, fileName(kind, name))
	if err := writeNew(p, componentTmpl[kind], s); err != nil {
		return nil, err
	}
	return []string{p}, nil
}

// writeNew renders t into a new file at p, refusing to replace one.
func writeNew(p string, t *template.Template, s scaffold) error {
	var buf bytes.Buffer
	if err := t.Execute(&buf, s); err != nil {
		return fmt.Errorf("render %s: %w", p, err)
	}
	src, err := format.Source(buf.Bytes())
	if err != nil {
		return fmt.Errorf("format %s: %w (please report this)", p, err)
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, os.ErrExist) {
		return fmt.Errorf("%s exists; mcpgen new never overwrites a file (choose another NAME or DIR)", p)
	}
	if err != nil {
		return err
	}
	if _, err := f.Write(src); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// ensureGenerateFile writes generate.go at the module root unless a Go file
// there already runs mcpgen, with the package pattern of dir when dir is
// outside components/ (which mcpgen scans by default). It returns the path
// it wrote, if any.
func ensureGenerateFile(mod, root, dir string) (string, error) {
	pattern := ""
	abs, _ := filepath.Abs(dir)
	if rel, err := filepath.Rel(root, abs); err == nil && !strings.HasPrefix(rel, "components"+string(filepath.Separator)) {
		pattern = "./" + filepath.ToSlash(rel)
	}
	matches, _ := filepath.Glob(filepath.Join(root, "*.go"))
	for _, m := range matches {
		b, err := os.ReadFile(m)
		if err != nil || !bytes.Contains(b, []byte("//go:generate")) || !bytes.Contains(b, []byte("mcpgen")) {
			continue
		}
		if pattern != "" && !bytes.Contains(b, []byte(pattern)) {
			fmt.Fprintf(os.Stderr, "mcpgen new: %s runs mcpgen already; add %s to the packages of its //go:generate line\n", m, pattern)
		}
		return "", nil
	}
	pkg, err := packageName(root)
	if err != nil {
		pkg = identifier(filepath.Base(mod))
	}
	p := filepath.Join(root, "generate.go")
	if err := writeNew(p, generateTmpl, scaffold{Module: mod, Package: pkg, Pattern: pattern}); err != nil {
		return "", fmt.Errorf("%w; add the line `//go:generate go tool mcpgen %s` to a hand-written file at the module root", err, pattern)
	}
	return p, nil
}

// module returns the path and root directory of the current module.
func module() (path, root string, err error) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Path}}\t{{.Dir}}").Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return "", "", fmt.Errorf("not in a Go module (%s): run `go mod init MODULE` first", strings.TrimSpace(string(ee.Stderr)))
		}
		return "", "", fmt.Errorf("go list -m: %w", err)
	}
	path, root, ok := strings.Cut(strings.TrimSpace(string(out)), "\t")
	if !ok || root == "" {
		return "", "", errors.New("not in a Go module: run `go mod init MODULE` first")
	}
	return path, root, nil
}

// packageName reads the package clause of the Go files in dir.
func packageName(dir string) (string, error) {
	matches, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	for _, m := range matches {
		if strings.HasSuffix(m, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), m, nil, parser.PackageClauseOnly)
		if err == nil {
			return f.Name.Name, nil
		}
	}
	return "", fmt.Errorf("%s holds no Go package: create one with `mcpgen new server NAME %s`, or name the package's directory", dir, dir)
}

// fileName is the file a new component goes to: NAME.go, lower-cased,
// without the leading characters that make the go tool ignore a file (.
// and _), and never a test file.
func fileName(kind, name string) string {
	base := strings.ToLower(strings.TrimLeft(name, "._-"))
	if base == "" {
		base = kind
	}
	if strings.HasSuffix(base, "_test") {
		base += "_" + kind
	}
	return base + ".go"
}

// typeName derives the component's Go type from its protocol name: each
// word (between _, - and .) capitalised, so add_note, add-note and
// add.note all give AddNote. A name that starts with a digit gets the kind
// in front (2fa gives Tool2fa), since an exported Go name starts with a
// letter.
func typeName(kind, name string) string {
	var b strings.Builder
	for _, w := range strings.FieldsFunc(name, func(r rune) bool { return r == '_' || r == '-' || r == '.' }) {
		b.WriteString(strings.ToUpper(w[:1]) + w[1:])
	}
	t := b.String()
	if t == "" || !unicode.IsLetter(rune(t[0])) {
		t = strings.ToUpper(kind[:1]) + kind[1:] + t
	}
	return t
}

// identifier turns a module path element into a package name.
func identifier(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' || b.Len() > 0 && r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	if b.Len() == 0 || token.IsKeyword(b.String()) {
		return "module"
	}
	return b.String()
}

var serverTmpl = template.Must(template.New("server").Parse(`// Package {{.Package}} is the {{.Server}} MCP server.
//
//mcp:server name={{.Server}} version=0.1.0
package {{.Package}}

import "context"

// Greet says hello to someone by name.
//
//mcp:tool name=greet readonly
type Greet struct {
	// Who to greet.
	Name string ` + "`json:\"name\" jsonschema:\"minLength=1\"`" + `
}

// Call runs the greet tool. Its parameters after ctx may also name
// *mcpgen.Request (progress, logging, asking the client) and dependencies,
// which become parameters of the generated New.
func (in Greet) Call(ctx context.Context) (string, error) {
	// TODO: replace with the server's real work.
	return "Hello, " + in.Name + "!", nil
}
`))

var mainTmpl = template.Must(template.New("main").Parse(`// Command {{.Server}} serves the {{.Server}} MCP server over stdio, or over
// Streamable HTTP with --http ADDR; -h lists the flags.
package main

import "{{.Module}}/generated/{{.Server}}"

func main() {
	// A dependency of the components' handlers (a *Store parameter, say)
	// becomes a parameter of Main: a func(context.Context) (*Store, error)
	// that makes it. Until it is passed, this does not compile.
	{{.Server}}.Main("Serves the {{.Server}} MCP server.")
}
`))

// generateTmpl is written with the directive split, so that go generate
// does not take the template for a directive of this package.
var generateTmpl = template.Must(template.New("generate").Parse(`// Package {{.Package}} holds the //go:generate line that rebuilds
// generated/ from the annotated component packages.
package {{.Package}}

` + "//go:" + "generate go tool mcpgen{{with .Pattern}} {{.}}{{end}}\n"))

var componentTmpl = map[string]*template.Template{
	"tool": template.Must(template.New("tool").Parse(`package {{.Package}}

import (
	"context"
	"errors"
)

// {{.Type}} TODO: say what the tool does, in a sentence the model reads.
//
//mcp:tool name={{.Name}}
type {{.Type}} struct {
	// TODO: the arguments, one field each; the doc comment describes it.
	Text string ` + "`json:\"text\"`" + `
}

// Call runs the {{.Name}} tool. An error becomes a tool result with isError
// set; return a structured Go value instead of a string for
// structuredContent.
func (in {{.Type}}) Call(ctx context.Context) (string, error) {
	// TODO: do the work.
	return "", errors.New("{{.Name}} is not implemented yet")
}
`)),
	"resource": template.Must(template.New("resource").Parse(`package {{.Package}}

import "context"

// {{.Type}} TODO: say what the resource holds.
//
//mcp:resource name={{.Name}} uri={{.Server}}://{{.Name}} mime=text/plain
type {{.Type}} struct{}

// Read returns the resource's text. A URI with {variables}, bound to fields
// of the struct, makes it a resource template.
func ({{.Type}}) Read(ctx context.Context) (string, error) {
	// TODO: return the real contents.
	return "{{.Name}}: nothing here yet", nil
}
`)),
	"prompt": template.Must(template.New("prompt").Parse(`package {{.Package}}

import "context"

// {{.Type}} TODO: say what the prompt is for.
//
//mcp:prompt name={{.Name}}
type {{.Type}} struct {
	// TODO: the arguments, one string field each.
	Topic string ` + "`json:\"topic\"`" + `
}

// Get builds the prompt's user message.
func (in {{.Type}}) Get(ctx context.Context) (string, error) {
	// TODO: write the real prompt.
	return "Tell me about " + in.Topic + ".", nil
}
`)),
}

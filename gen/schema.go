package gen

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/gen/schemaprog"
	"github.com/mcpgen/mcpgen/internal/jsonschema"
)

// The schema stage derives JSON Schemas from the user's Go types by running
// them: types may decide their JSON with methods (MarshalJSON, MarshalText,
// JSONSchema), which only a program can call. The generator writes a small
// program that imports the component packages and calls gen/schemaprog,
// runs it once and reads one JSON line per schema. The program lives under
// os.MkdirTemp and is placed into the module only through `go run
// -overlay`, so nothing is ever written to the user's tree.
//
// schemaprog derives the schemas itself rather than with
// invopop/jsonschema, whose reflection describes the Go layout rather
// than what encoding/json writes (marshalers, promoted and conflicting
// fields, nil as null, sized integers, ",string"), and expands shared types
// without bound. A JSONSchema method may still return its *Schema.

type schemaJob struct {
	key    string         // "server/kind/name/input|output"
	typ    types.Type     // the Go type to describe
	code   jen.Code       // how the program spells it
	output bool           // describe what the encoder writes, not what the decoder reads
	dest   *[]byte        // where the schema goes
	exact  *bool          // set when every value of the type fits the schema
	pos    token.Position // where errors not about a field go: the type, or the method returning it
	subj   string
}

func schemaJobs(servers []*server) []schemaJob {
	var jobs []schemaJob
	for _, s := range servers {
		for _, ev := range s.Events {
			jobs = append(jobs, schemaJob{key: s.Name + "/event/" + ev.Name + "/output", typ: ev.Type, code: jen.Qual(s.PkgPath, ev.TypeName), output: true,
				dest: &ev.PayloadSchema, pos: ev.Pos, subj: "event " + ev.Name})
			if ev.Filter != nil {
				jobs = append(jobs, schemaJob{key: s.Name + "/event/" + ev.Name + "/input", typ: ev.Filter, code: jen.Qual(s.PkgPath, ev.FilterName),
					dest: &ev.InputSchema, pos: ev.Pos, subj: "event " + ev.Name})
			}
		}
		for _, t := range s.Tools {
			jobs = append(jobs, schemaJob{key: s.Name + "/tool/" + t.Name + "/input", typ: t.Type, code: jen.Qual(s.PkgPath, t.TypeName), dest: &t.InputSchema, pos: t.Pos, subj: "tool " + t.Name})
			if t.Handler != nil && t.Handler.Kind == resultStructured {
				jobs = append(jobs, schemaJob{key: s.Name + "/tool/" + t.Name + "/output", typ: t.Handler.Result, code: typeCode(t.Handler.Result), output: true,
					dest: &t.OutputSchema, exact: &t.OutputExact, pos: t.Handler.Pos, subj: "tool " + t.Name})
			}
		}
	}
	return jobs
}

// runSchemas fills every tool's input and output schema.
func runSchemas(ctx context.Context, moduleDir string, servers []*server, fset *token.FileSet) error {
	jobs := schemaJobs(servers)
	if len(jobs) == 0 {
		return nil
	}
	docs := newDocIndex(fset)
	for _, j := range jobs {
		docs.collect(j.typ)
	}
	src, err := schemaProgram(jobs, docs)
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "mcpgen-schema-")
	if err != nil {
		return fmt.Errorf("schema program: %w", err)
	}
	defer os.RemoveAll(tmp)
	real := filepath.Join(tmp, "main.go")
	if err := os.WriteFile(real, src, 0o644); err != nil {
		return fmt.Errorf("schema program: %w", err)
	}
	// The program must build inside the user's module to import its
	// packages; the overlay puts it there without touching the tree.
	virtual := filepath.Join(moduleDir, "mcpgen_schema_program", "main.go")
	overlay, _ := json.Marshal(map[string]any{"Replace": map[string]string{virtual: real}})
	overlayPath := filepath.Join(tmp, "overlay.json")
	if err := os.WriteFile(overlayPath, overlay, 0o644); err != nil {
		return fmt.Errorf("schema program: %w", err)
	}
	cmd := exec.CommandContext(ctx, "go", "run", "-overlay", overlayPath, virtual)
	cmd.Dir = moduleDir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if fix := moduleGraphFix(stderr.String()); fix != "" {
			return fmt.Errorf("mcpgen: cannot build the schema program in module %s: the module graph lacks what it needs:\n%s\n\tfix: %s, then run mcpgen again",
				moduleDir, indent(strings.TrimSpace(stderr.String())), fix)
		}
		return internalError("schema program failed: %v\n%s", err, stderr.String())
	}
	got := map[string]schemaprog.Line{}
	sc := bufio.NewScanner(&stdout)
	sc.Buffer(make([]byte, 1<<20), 256<<20)
	for sc.Scan() {
		var line schemaprog.Line
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			return internalError("schema program printed %.80q: %v", sc.Text(), err)
		}
		got[line.Key] = line
	}
	var diags Diagnostics
	seen := map[string]bool{}
	for _, j := range jobs {
		line, ok := got[j.key]
		if !ok {
			return internalError("schema program printed no schema for %s", j.key)
		}
		for _, e := range line.Errors {
			d := Diagnostic{Pos: j.pos, Subject: j.subj, Problem: e.Msg, Hint: e.Hint}
			if f, ok := docs.pos[e.Field]; ok {
				d.Pos, d.Subject = f.pos, f.subject
			}
			// A type used by two schemas is reported once.
			if k := d.key(); !seen[k] {
				seen[k] = true
				diags = append(diags, d)
			}
		}
		if len(line.Errors) > 0 {
			continue
		}
		out, err := finishSchema(line.Schema, j.output)
		if err != nil {
			diags = append(diags, Diagnostic{Pos: j.pos, Subject: j.subj, Problem: err.Error(),
				Hint: "give every field a concrete type; use jsonschema tags for constraints"})
			continue
		}
		*j.dest = out
		if j.exact != nil {
			*j.exact = line.Exact
		}
	}
	if len(diags) > 0 {
		return diags
	}
	return nil
}

// moduleGraphFix recognises the go command's complaints about a module
// graph that cannot build the schema program (a missing requirement or
// checksum: the user's module, not mcpgen, needs a change) and returns the
// command that fixes them, or "" for any other failure.
func moduleGraphFix(stderr string) string {
	for _, sign := range []string{"missing go.sum entry", "no required module provides package", "updates to go.mod needed", "go: inconsistent vendoring"} {
		if strings.Contains(stderr, sign) {
			return "run `go get " + schemaprog.ImportPath + "` (or `go mod tidy`) in that module"
		}
	}
	return ""
}

func indent(s string) string { return "\t" + strings.ReplaceAll(s, "\n", "\n\t") }

// schemaProgram renders the temporary program.
func schemaProgram(jobs []schemaJob, docs *docIndex) ([]byte, error) {
	f := jen.NewFile("main")
	f.HeaderComment("Temporary program written by mcpgen to derive JSON Schemas; never saved.")
	comments := jen.Dict{}
	keys := make([]string, 0, len(docs.fields))
	for k := range docs.fields {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		comments[jen.Lit(k)] = jen.Lit(docs.fields[k])
	}
	f.Var().Id("comments").Op("=").Map(jen.String()).String().Values(comments)
	var list []jen.Code
	for _, j := range jobs {
		list = append(list, jen.Values(jen.Lit(j.key), jen.New(j.code)))
	}
	body := []jen.Code{jen.Qual(schemaprog.ImportPath, "Main").Call(jen.Id("comments"), jen.Index().Qual(schemaprog.ImportPath, "Job").Values(multiline(list)...))}
	f.Func().Id("main").Params().Block(body...)
	var buf bytes.Buffer
	if err := f.Render(&buf); err != nil {
		return nil, internalError("render schema program: %v", err)
	}
	return buf.Bytes(), nil
}

// finishSchema checks a reflected schema and formats it: no `true`, empty
// or null subschema may remain (they would silently accept anything), and
// an input schema must describe an object.
func finishSchema(doc []byte, output bool) ([]byte, error) {
	var v any
	if err := json.Unmarshal(doc, &v); err != nil {
		return nil, internalError("schema is not JSON: %v", err)
	}
	root, ok := v.(map[string]any)
	if !ok || len(root) == 0 {
		return nil, fmt.Errorf("schema came out as %s, which would accept anything", doc)
	}
	if root["type"] != "object" {
		if output {
			return nil, fmt.Errorf("structured result is %s in JSON, not an object (its type decides its own JSON form)", describeType(root))
		}
		return nil, fmt.Errorf("input schema must describe an object, got %s", describeType(root))
	}
	if p := emptySubschema(root, ""); p != "" {
		return nil, fmt.Errorf("schema at %s came out empty (accepts anything)", p)
	}
	// The runtime validates with internal/jsonschema; what it cannot
	// compile must fail here, not when the server starts.
	if _, err := jsonschema.Compile(doc); err != nil {
		return nil, fmt.Errorf("the runtime cannot validate this schema: %v", err)
	}
	var buf bytes.Buffer
	if err := json.Indent(&buf, doc, "", "  "); err != nil {
		return nil, internalError("indent schema: %v", err)
	}
	buf.WriteByte('\n')
	return buf.Bytes(), nil
}

// describeType names the JSON type a schema describes, for messages.
func describeType(m map[string]any) string {
	switch t := m["type"].(type) {
	case string:
		return "a " + t
	case []any:
		return fmt.Sprintf("%v", t)
	}
	return "not declared as an object"
}

func emptySubschema(v any, at string) string {
	m, ok := v.(map[string]any)
	if !ok {
		if b, isBool := v.(bool); isBool && b || v == nil {
			return at
		}
		return ""
	}
	if len(m) == 0 {
		return at
	}
	if props, ok := m["properties"].(map[string]any); ok {
		names := make([]string, 0, len(props))
		for k := range props {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, k := range names {
			if p := emptySubschema(props[k], at+"/properties/"+k); p != "" {
				return p
			}
		}
	}
	if items, ok := m["items"]; ok {
		if p := emptySubschema(items, at+"/items"); p != "" {
			return p
		}
	}
	if any, ok := m["anyOf"].([]any); ok {
		for i, sub := range any {
			if p := emptySubschema(sub, fmt.Sprintf("%s/anyOf/%d", at, i)); p != "" {
				return p
			}
		}
	}
	if defs, ok := m["$defs"].(map[string]any); ok {
		names := make([]string, 0, len(defs))
		for k := range defs {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, k := range names {
			if p := emptySubschema(defs[k], at+"/$defs/"+k); p != "" {
				return p
			}
		}
	}
	if ap, ok := m["additionalProperties"]; ok {
		if _, isBool := ap.(bool); !isBool {
			if p := emptySubschema(ap, at+"/additionalProperties"); p != "" {
				return p
			}
		}
	}
	return ""
}

// docIndex finds the doc comments of struct fields, wherever their types
// are declared, by parsing the declaring files on demand.
type docIndex struct {
	fset   *token.FileSet
	files  map[string]*ast.File
	fields map[string]string   // "pkgpath.Type.Field" -> doc
	pos    map[string]fieldPos // "pkgpath.Type.Field" -> where the schema program's errors about it go
}

type fieldPos struct {
	pos     token.Position
	subject string // Type.Field
}

func newDocIndex(fset *token.FileSet) *docIndex {
	return &docIndex{fset: fset, files: map[string]*ast.File{}, fields: map[string]string{}, pos: map[string]fieldPos{}}
}

// collect records the doc comment and position of every field of the
// named struct types inside t (map keys aside: they are strings in JSON).
func (d *docIndex) collect(t types.Type) {
	walkType(t, func(n *typeNode) walkAction {
		if n.step == stepKey {
			return walkOver
		}
		switch u := n.typ.(type) {
		case *types.Named:
			if n.repeat || u.Obj().Pkg() == nil {
				return walkOver
			}
			if st, ok := u.Underlying().(*types.Struct); ok {
				d.collectFields(u, st)
			}
		case *types.Chan, *types.Signature:
			return walkOver
		}
		return walkInto
	})
}

// collectFields records the doc comments and positions of the fields of
// the named struct type n.
func (d *docIndex) collectFields(n *types.Named, st *types.Struct) {
	docs := d.structDocs(n.Origin())
	for i := 0; i < st.NumFields(); i++ {
		f := st.Field(i)
		key := n.Obj().Pkg().Path() + "." + n.Obj().Name() + "." + f.Name()
		if doc := docs[f.Name()]; doc != "" {
			d.fields[key] = doc
		}
		d.pos[key] = fieldPos{d.fset.Position(f.Pos()), n.Obj().Name() + "." + f.Name()}
	}
}

// file parses the file holding pos, once.
func (d *docIndex) file(p token.Pos) *ast.File {
	if d.fset == nil {
		return nil
	}
	pos := d.fset.Position(p)
	if pos.Filename == "" {
		return nil
	}
	f, ok := d.files[pos.Filename]
	if !ok {
		var err error
		f, err = parser.ParseFile(token.NewFileSet(), pos.Filename, nil, parser.ParseComments)
		if err != nil {
			f = nil
		}
		d.files[pos.Filename] = f
	}
	return f
}

func (d *docIndex) structDocs(n *types.Named) map[string]string {
	f := d.file(n.Obj().Pos())
	if f == nil {
		return nil
	}
	for _, decl := range f.Decls {
		gd, ok := decl.(*ast.GenDecl)
		if !ok || gd.Tok != token.TYPE {
			continue
		}
		for _, spec := range gd.Specs {
			if ts := spec.(*ast.TypeSpec); ts.Name.Name == n.Obj().Name() {
				return fieldDocs(ts)
			}
		}
	}
	return nil
}

package gen

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"net/url"
	"path"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/tools/go/packages"

	"github.com/mcpgen/mcpgen/internal/jsontag"
)

// Import paths of the runtime: the public package that defines every type
// a handler signature may name, and that generated code imports.
const (
	runtimeModule   = "github.com/mcpgen/mcpgen"
	generatedSuffix = "/generated"
)

var (
	uriSchemeRe = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*:`)
	varNameRe   = regexp.MustCompile(`^[A-Za-z0-9_]+$`)
	// spacedDirective is a directive that is not one: `// mcp:tool`.
	spacedDirective = regexp.MustCompile(`^(?://|/\*)\s+mcp:(server|tool|resource|prompt)\b`)
)

// checker turns loaded packages into the model, collecting every mistake.
type checker struct {
	reporter
	pkg    *packages.Package
	server *server
	deps   map[string]*dep
	names  map[string]token.Position // kind+name -> first declaration
}

// check builds the model of every component package among pkgs. Packages
// without any //mcp: directive are skipped.
func check(pkgs []*packages.Package, fset *token.FileSet) ([]*server, error) {
	var servers []*server
	var diags Diagnostics
	for _, p := range pkgs {
		c := &checker{reporter: reporter{fset: fset}, pkg: p, deps: map[string]*dep{}, names: map[string]token.Position{}}
		if s := c.checkPackage(); s != nil {
			servers = append(servers, s)
		}
		diags = append(diags, c.diags...)
	}
	seen := map[string]*server{}
	for _, s := range servers {
		if prev, dup := seen[s.Name]; dup {
			diags = append(diags, Diagnostic{Pos: s.Pos, Subject: "server " + s.Name,
				Problem: fmt.Sprintf("name already used by package %s", prev.PkgPath),
				Hint:    "give each server a distinct name= in its //mcp:server directive"})
		}
		seen[s.Name] = s
	}
	if len(diags) > 0 {
		return nil, diags.dedupe()
	}
	sort.Slice(servers, func(i, j int) bool { return servers[i].Name < servers[j].Name })
	return servers, nil
}

func (c *checker) checkPackage() *server {
	p := c.pkg
	used := map[*ast.Comment]bool{}
	s := &server{PkgPath: p.PkgPath, PkgName: p.Name, fset: c.fset}
	if p.Module != nil {
		s.Module = p.Module.Path
	}
	if len(p.GoFiles) > 0 {
		s.Dir = path.Dir(p.GoFiles[0])
	}
	hasServer := false
	for _, f := range p.Syntax {
		if f.Doc == nil {
			continue
		}
		for _, cm := range f.Doc.List {
			d, ok, err := parseDirective(cm.Text, cm.Slash)
			if !ok {
				continue
			}
			used[cm] = true
			if err != nil {
				c.directiveError(err)
				continue
			}
			if d.Kind == "skill" {
				c.checkSkillDirective(s, d)
				continue
			}
			if d.Kind == "view" {
				c.checkViewDirective(s, d)
				continue
			}
			if d.Kind != "server" {
				c.at(d.Pos, "//mcp:"+d.Kind, "move it to the doc comment of a type declaration", "only //mcp:server, //mcp:skill and //mcp:view belong in the package doc comment")
				continue
			}
			if hasServer {
				c.at(d.Pos, "//mcp:server", "keep one //mcp:server per package", "duplicate server directive")
				continue
			}
			hasServer = true
			s.Doc = f.Doc.Text()
			s.Pos = c.fset.Position(d.Pos)
			c.serverOptions(s, d)
		}
	}
	for _, f := range p.Syntax {
		for _, decl := range f.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok || gd.Tok != token.TYPE {
				continue
			}
			for _, spec := range gd.Specs {
				ts := spec.(*ast.TypeSpec)
				doc := ts.Doc
				if doc == nil && len(gd.Specs) == 1 {
					doc = gd.Doc
				}
				c.checkType(s, ts, doc, used)
			}
		}
	}
	// Directives anywhere else are mistakes too.
	for _, f := range p.Syntax {
		for _, cg := range f.Comments {
			for _, cm := range cg.List {
				if m := spacedDirective.FindStringSubmatch(cm.Text); m != nil && !used[cm] {
					c.at(cm.Slash, strings.TrimSpace(m[0]), "write //mcp:"+m[1]+" with no space after the slashes; otherwise Go treats it as an ordinary comment", "did you mean //mcp:%s?", m[1])
					continue
				}
				if used[cm] || !strings.HasPrefix(cm.Text, directivePrefix) {
					continue
				}
				c.at(cm.Slash, strings.Fields(cm.Text)[0], "put it in the doc comment of a type declaration (or of the package clause for //mcp:server)", "directive is not attached to a type declaration")
			}
		}
	}
	if !hasServer && len(s.Tools)+len(s.Resources)+len(s.Prompts)+len(s.Skills)+len(s.Views)+len(s.Events) == 0 {
		return nil
	}
	if !hasServer && len(p.Syntax) > 0 {
		s.Pos = c.fset.Position(p.Syntax[0].Package)
	}
	if s.Name == "" {
		s.Name = p.Name
	}
	if why := badPackageName(s.Name); why != "" {
		c.atPosition(s.Pos, "server "+s.Name, "use a lower-case Go identifier that names an importable package, e.g. name=memory", "name %q cannot name the generated package: %s", s.Name, why)
	}
	c.checkImports(s)
	c.checkGeneratedNames(s)
	c.checkSkills(s)
	c.checkViews(s)
	c.checkEmits(s)
	s.Warnings = c.warnings
	for _, d := range c.deps {
		s.Deps = append(s.Deps, d)
	}
	sort.Slice(s.Deps, func(i, j int) bool { return s.Deps[i].VarName < s.Deps[j].VarName })
	sort.Slice(s.Tools, func(i, j int) bool { return s.Tools[i].Name < s.Tools[j].Name })
	sort.Slice(s.Resources, func(i, j int) bool { return s.Resources[i].Name < s.Resources[j].Name })
	sort.Slice(s.Prompts, func(i, j int) bool { return s.Prompts[i].Name < s.Prompts[j].Name })
	return s
}

// badPackageName says why name cannot be the generated package's name and
// directory, or returns "".
func badPackageName(name string) string {
	switch {
	case name == "":
		return "it is empty"
	case token.IsKeyword(name):
		return "it is a Go keyword"
	case !token.IsIdentifier(name):
		return "it is not a Go identifier"
	case strings.ToLower(name) != name:
		return "it is not lower-case"
	case name == "main":
		return "package main is a command, which cannot be imported"
	case strings.HasPrefix(name, "_"):
		return "the go tool ignores directories whose names begin with _"
	case name == "testdata":
		return "the go tool ignores testdata directories"
	}
	return ""
}

func (c *checker) directiveError(err error) {
	if pe, ok := err.(posError); ok {
		c.at(pe.pos, "directive", pe.hint, "%s", pe.msg)
		return
	}
	c.atPosition(token.Position{}, "directive", "", "%v", err)
}

// checkImports refuses component packages that import generated code: the
// generator would then depend on its own output.
func (c *checker) checkImports(s *server) {
	mod := runtimeModule
	if c.pkg.Module != nil {
		mod = c.pkg.Module.Path
	}
	for _, f := range c.pkg.Syntax {
		for _, imp := range f.Imports {
			ip, _ := strconv.Unquote(imp.Path.Value)
			if strings.HasPrefix(ip, mod+generatedSuffix+"/") || ip == mod+generatedSuffix {
				c.at(imp.Path.Pos(), "import "+ip, "components describe servers; only cmd/ and tests import generated/", "component package imports generated code")
			}
		}
	}
}

// checkGeneratedNames refuses components whose generated names would
// collide: Go identifiers derived from type names (HTTPGet and HttpGet both
// give httpGetInput) and schema files named after tools that differ only in
// case (they clash on case-insensitive file systems).
func (c *checker) checkGeneratedNames(s *server) {
	idents := map[string]*component{}
	for _, comp := range s.components() {
		id := lowerFirst(comp.TypeName)
		if prev, dup := idents[id]; dup {
			c.atPosition(comp.Pos, comp.TypeName, "rename one of the two types",
				"type name collides with %s at %s in the generated code (both become %s)", prev.TypeName, prev.Pos, id)
			continue
		}
		idents[id] = comp
	}
	// The typed client names a method after each component (the tool's
	// type, Read+type, Get+type) and copies the tool and prompt types.
	methods := map[string]*component{}
	var comps []*component
	for _, t := range s.Tools {
		comps = append(comps, &t.component)
	}
	for _, r := range s.Resources {
		comps = append(comps, &r.component)
	}
	for _, p := range s.Prompts {
		comps = append(comps, &p.component)
	}
	for _, comp := range comps {
		m := s.clientMethod(comp)
		if slices.Contains(clientMethods, m) {
			c.atPosition(comp.Pos, comp.TypeName, "rename the type", "the typed client's method %s would collide with the client's own %s method", m, m)
			continue
		}
		if prev, dup := methods[m]; dup {
			c.atPosition(comp.Pos, comp.TypeName, "rename one of the two types",
				"its typed client method collides with that of %s at %s (both are %s)", prev.TypeName, prev.Pos, m)
			continue
		}
		methods[m] = comp
		for _, extra := range s.clientExtraMethods(comp) {
			if prev, dup := methods[extra]; dup || slices.Contains(clientMethods, extra) {
				what := "the client's own method"
				if dup {
					what = fmt.Sprintf("the method of %s at %s", prev.TypeName, prev.Pos)
				}
				c.atPosition(comp.Pos, comp.TypeName, "rename one of the two types",
					"its typed client method %s collides with %s", extra, what)
				continue
			}
			methods[extra] = comp
		}
		if (comp.TypeName == "Client" || comp.TypeName == "New") && !strings.HasPrefix(m, "Read") {
			c.atPosition(comp.Pos, comp.TypeName, "rename the type", "the typed client package declares %s itself", comp.TypeName)
		}
	}
	files := map[string]*tool{}
	for _, t := range s.Tools {
		key := strings.ToLower(t.Name)
		if prev, dup := files[key]; dup && prev.Name != t.Name { // exact duplicates are reported by unique
			c.atPosition(t.Pos, "tool "+t.Name, "rename one of them with name=", "tool name differs from %s only in case; their schema files would collide", prev.Name)
			continue
		}
		files[key] = t
	}
}

// registryName is the MCP registry's pattern for server names.
var registryName = regexp.MustCompile(`^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$`)

func (c *checker) serverOptions(s *server, d directive) {
	for _, o := range d.Options {
		switch o.Key {
		case "name":
			s.Name = c.str(o)
		case "title":
			s.Title = c.str(o)
		case "version":
			s.Version = c.str(o)
		case "instructions":
			s.Instructions = c.str(o)
		case "registry":
			s.Registry = c.str(o)
			if !registryName.MatchString(s.Registry) {
				c.at(o.ValPos, "registry", "write the registry name in reverse-DNS form, e.g. registry=io.github.owner/name", "malformed registry name %q", s.Registry)
			}
		case "description":
			s.Description = c.str(o)
			if n := utf8.RuneCountInString(s.Description); n > 100 {
				c.at(o.ValPos, "description", "the MCP registry takes at most 100 characters: shorten it", "description is %d characters long", n)
			}
		case "repository":
			s.Repository = c.str(o)
			if u, err := url.Parse(s.Repository); err != nil || u.Scheme != "https" || u.Host == "" {
				c.at(o.ValPos, "repository", "write the https URL of the source repository", "malformed repository URL %q", s.Repository)
			}
		case "package":
			v := c.str(o)
			if typ, id, ok := strings.Cut(v, ":"); !ok || typ == "" || id == "" {
				c.at(o.ValPos, "package", "write package=TYPE:IDENTIFIER, e.g. package=oci:ghcr.io/owner/server:1.0.0 or package=npm:@scope/server", "malformed package %q", v)
			}
			s.Packages = append(s.Packages, v)
		case "remote":
			v := c.str(o)
			if u, err := url.Parse(v); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
				c.at(o.ValPos, "remote", "write the URL of the server's Streamable HTTP endpoint, e.g. remote=https://example.com/mcp", "malformed remote URL %q", v)
			}
			s.Remotes = append(s.Remotes, v)
		default:
			c.unknownKey(d, o, "name, title, version, instructions, description, registry, repository, package, remote")
		}
	}
}

func (c *checker) unknownKey(d directive, o option, known string) {
	c.at(o.Pos, "//mcp:"+d.Kind, "known keys: "+known, "unknown key %q", o.Key)
}

// str returns an option's string value; a bare key is a mistake.
func (c *checker) str(o option) string {
	if o.Bare {
		c.at(o.Pos, o.Key, fmt.Sprintf("write %s=value", o.Key), "missing value")
	}
	return o.Value
}

func (c *checker) boolean(o option) bool {
	if o.Bare {
		return true
	}
	b, err := strconv.ParseBool(o.Value)
	if err != nil {
		c.at(o.ValPos, o.Key, fmt.Sprintf("write %s, %s=true or %s=false", o.Key, o.Key, o.Key), "malformed boolean %q", o.Value)
	}
	return b
}

// checkType handles one type declaration and its directives.
func (c *checker) checkType(s *server, ts *ast.TypeSpec, doc *ast.CommentGroup, used map[*ast.Comment]bool) {
	if doc == nil {
		return
	}
	var found []directive
	var text []string
	for _, cm := range doc.List {
		d, ok, err := parseDirective(cm.Text, cm.Slash)
		if !ok {
			continue
		}
		used[cm] = true
		if err != nil {
			c.directiveError(err)
			continue
		}
		found = append(found, d)
	}
	for _, line := range strings.Split(doc.Text(), "\n") {
		if !strings.HasPrefix(line, "mcp:") {
			text = append(text, line)
		}
	}
	if len(found) == 0 {
		return
	}
	if len(found) > 1 {
		c.at(found[1].Pos, ts.Name.Name, "declare one component per type", "more than one //mcp: directive")
	}
	d := found[0]
	obj, _ := c.pkg.TypesInfo.Defs[ts.Name].(*types.TypeName)
	if obj == nil {
		return
	}
	// A directive on an alias (type Say = say) describes the aliased type
	// under the alias's name, which is what the generated code spells.
	named, _ := types.Unalias(obj.Type()).(*types.Named)
	st, isStruct := obj.Type().Underlying().(*types.Struct)
	if named == nil || !isStruct {
		c.at(ts.Name.Pos(), ts.Name.Name, "components are struct types: their fields are the input", "//mcp:%s on a non-struct type", d.Kind)
		return
	}
	if d.Kind == "tool" || d.Kind == "resource" || d.Kind == "prompt" || d.Kind == "skill" || d.Kind == "event" {
		// The generated package refers to the type by name.
		switch {
		case !ts.Name.IsExported():
			c.at(ts.Name.Pos(), ts.Name.Name, fmt.Sprintf("export it: type %s struct{...}", exportName(ts.Name.Name)), "component type is not exported: the generated package cannot refer to it")
			return
		case named.TypeParams().Len() > 0 && named.TypeArgs().Len() == 0:
			c.at(ts.Name.Pos(), ts.Name.Name, "declare a concrete type without type parameters", "generic component types are not supported")
			return
		}
	}
	comp := component{
		TypeName:    ts.Name.Name,
		Type:        named,
		Name:        snake(ts.Name.Name),
		Description: dropTypeName(strings.TrimSpace(strings.Join(text, "\n")), ts.Name.Name),
		Pos:         c.fset.Position(ts.Name.Pos()),
	}
	switch d.Kind {
	case "tool":
		c.checkTool(s, comp, d, st)
	case "resource":
		c.checkResource(s, comp, d, st)
	case "prompt":
		c.checkPrompt(s, comp, d, st, ts)
	case "server":
		c.at(d.Pos, "//mcp:server", "move it to the package doc comment", "//mcp:server belongs in the package doc comment")
	case "skill":
		c.checkSkillComponent(s, comp, d)
	case "event":
		c.checkEvent(s, comp, d)
	case "view":
		c.at(d.Pos, "//mcp:view", "move it to the package doc comment, beside //mcp:server; link tools to it with view= on //mcp:tool", "//mcp:view belongs in the package doc comment")
	default:
		c.at(d.Pos, "//mcp:"+d.Kind, "use //mcp:tool, //mcp:resource, //mcp:prompt, //mcp:event or //mcp:skill (or //mcp:server, //mcp:skill and //mcp:view on the package)", "unknown directive %q", d.Kind)
	}
}

// dropTypeName turns a Go doc comment into a description for the model.
// Go doc comments start with the name they document ("AddNote stores a
// note"), which means nothing to a client: when the first word is the
// type's name and the second a verb in the third person ("is", "are", or
// any lower-case word ending in s), the name goes, "is" and "are" with it,
// and what remains starts with a capital letter: "Stores a note", "Note is
// one note" gives "One note". Anything else ("Search for notes", "AddNote
// can ...") stays as written; description= overrides it all.
func dropTypeName(doc, typeName string) string {
	rest, ok := strings.CutPrefix(doc, typeName+" ")
	if !ok {
		return doc
	}
	end := strings.IndexFunc(rest, unicode.IsSpace)
	if end < 0 {
		return doc // a sentence of two words at most: keep it whole
	}
	switch verb := rest[:end]; {
	case verb == "is" || verb == "are":
		rest = strings.TrimLeftFunc(rest[end:], unicode.IsSpace)
	case strings.HasSuffix(verb, "s") && strings.IndexFunc(verb, func(r rune) bool { return !unicode.IsLower(r) }) < 0:
	default:
		return doc
	}
	r, size := utf8.DecodeRuneInString(rest)
	if rest == "" || !unicode.IsLetter(r) {
		return doc
	}
	return string(unicode.ToUpper(r)) + rest[size:]
}

// common handles the options every component has; it reports whether it
// consumed o.
func (c *checker) common(comp *component, o option) bool {
	switch o.Key {
	case "name":
		comp.Name = c.str(o)
	case "title":
		comp.Title = c.str(o)
	case "description":
		comp.Description = c.str(o)
	case "scope":
		comp.Scope = c.str(o)
	case "icon":
		src := c.str(o)
		if u, err := url.Parse(src); err != nil || (u.Scheme != "https" && u.Scheme != "data" && u.Scheme != "http") {
			c.at(o.ValPos, comp.TypeName, "use an https: or data: URI", "icon %q is not an http(s) or data URI", src)
		}
		comp.Icons = append(comp.Icons, icon{Src: src, MimeType: iconMime(src)})
	default:
		return false
	}
	return true
}

const commonKeys = "name, title, description, scope, icon"

func (c *checker) unique(kind, name string, pos token.Position) {
	key := kind + "\x00" + name
	if prev, dup := c.names[key]; dup {
		c.atPosition(pos, kind+" "+name, fmt.Sprintf("rename one of them with name=; the first is at %s", prev), "duplicate %s name", kind)
		return
	}
	c.names[key] = pos
}

func (c *checker) needDescription(kind string, comp *component) {
	if comp.Description == "" {
		c.atPosition(comp.Pos, kind+" "+comp.Name, "write a doc comment on the type, or description=\"...\"", "missing description: clients show it to the model")
	}
}

func (c *checker) checkTool(s *server, comp component, d directive, st *types.Struct) {
	t := &tool{component: comp, OpenWorld: false}
	destructiveSet, idempotentSet := false, false
	for _, o := range d.Options {
		if c.common(&t.component, o) || c.checkToolUI(t, o) {
			continue
		}
		switch o.Key {
		case "readonly":
			t.ReadOnly = c.boolean(o)
		case "destructive":
			t.Destructive, destructiveSet = c.boolean(o), true
		case "idempotent":
			t.Idempotent, idempotentSet = c.boolean(o), true
		case "openworld":
			t.OpenWorld = c.boolean(o)
		case "task":
			t.Task = c.str(o)
			if t.Task != "optional" && t.Task != "required" {
				c.at(o.ValPos, t.TypeName, "write task=optional or task=required", "unknown task mode %q", t.Task)
			}
		default:
			c.unknownKey(d, o, commonKeys+", readonly, destructive, idempotent, openworld, task, view, visibility")
		}
	}
	// Hints are always emitted. Unset ones follow the spec's defaults,
	// except that a read-only tool is neither destructive nor effectful.
	if !destructiveSet {
		t.Destructive = !t.ReadOnly
	}
	if !idempotentSet {
		t.Idempotent = t.ReadOnly
	}
	if t.ReadOnly && t.Destructive {
		c.atPosition(t.Pos, "tool "+t.Name, "drop destructive, or drop readonly", "a read-only tool cannot be destructive")
	}
	if why := CheckName(t.Name); why != "" {
		c.atPosition(t.Pos, "tool "+t.Name, "use "+NameRule+", e.g. name=list-notes", "invalid tool name: %s", why)
	}
	c.unique("tool", t.Name, t.Pos)
	c.needDescription("tool", &t.component)
	c.jsonFields(t.TypeName, token.Position{}, t.Type)
	t.Handler = c.handler(&t.component, "Call", "tool")
	if t.Handler != nil {
		t.Handler.Kind = c.toolResult(t)
	}
	t.Prepare = c.preparer(t)
	s.Tools = append(s.Tools, t)
}

func (c *checker) toolResult(t *tool) resultKind {
	r := t.Handler.Result
	switch {
	case isBasic(r, types.String):
		return resultText
	case isNamed(r, runtimeModule, "CallToolResult", true):
		return resultRaw
	case isSliceOf(r, runtimeModule, "Content"):
		return resultContent
	}
	before := len(c.diags)
	c.jsonFields(t.TypeName+".Call result", t.Handler.Pos, r)
	if len(c.diags) > before {
		return resultStructured // one mistake, one diagnostic
	}
	obj := types.Unalias(r)
	if p, ok := obj.(*types.Pointer); ok {
		obj = p.Elem()
	}
	switch obj.Underlying().(type) {
	case *types.Struct, *types.Map:
	default:
		c.atPosition(t.Handler.Pos, t.TypeName+".Call", "return a struct (or map) and put the value in a field, e.g. struct{ Items []T `json:\"items\"` }",
			"structured result %s is not a JSON object; outputSchema must be an object for 2025 clients", short(r))
	}
	t.Handler.ContentText = hasContentText(r)
	t.Handler.OutputTrusted = outputProvable(r)
	return resultStructured
}

// hasContentText reports whether t (or *t) has the method
// ContentText() string that renders a structured result as text.
func hasContentText(t types.Type) bool {
	obj, _, _ := types.LookupFieldOrMethod(t, true, nil, "ContentText")
	fn, ok := obj.(*types.Func)
	if !ok || !fn.Exported() {
		return false
	}
	sig := fn.Type().(*types.Signature)
	return sig.Params().Len() == 0 && sig.Results().Len() == 1 && isBasic(sig.Results().At(0).Type(), types.String)
}

func (c *checker) checkResource(s *server, comp component, d directive, st *types.Struct) {
	r := &resource{component: comp}
	var uriOpt *option
	for i, o := range d.Options {
		if c.common(&r.component, o) {
			continue
		}
		switch o.Key {
		case "uri":
			r.URI, uriOpt = c.str(o), &d.Options[i]
		case "mime":
			r.MimeType = c.str(o)
		case "ttl":
			n, err := strconv.ParseInt(o.Value, 10, 64)
			if err != nil || n < 0 {
				c.at(o.ValPos, r.TypeName, "give milliseconds as a non-negative integer, e.g. ttl=60000", "malformed ttl %q", o.Value)
			}
			r.CacheTTLMs = n
		case "cache":
			r.CacheScope = c.str(o)
			if r.CacheScope != "public" && r.CacheScope != "private" {
				c.at(o.ValPos, r.TypeName, "write cache=public or cache=private", "unknown cache scope %q", r.CacheScope)
			}
		default:
			c.unknownKey(d, o, commonKeys+", uri, mime, ttl, cache")
		}
	}
	for i := 0; i < st.NumFields(); i++ {
		c.unexportedTag(st.Field(i), st.Tag(i), r.TypeName+"."+st.Field(i).Name(), "no template variable binds to it and its tag is ignored")
	}
	if uriOpt == nil {
		c.atPosition(r.Pos, "resource "+r.Name, "add uri=scheme://path or a template uri=scheme://items/{id}", "missing uri")
	} else {
		c.checkURI(r, uriOpt, st)
	}
	c.unique("resource", r.Name, r.Pos)
	if r.URI != "" {
		c.unique("resource uri", r.URI, r.Pos)
	}
	c.needDescription("resource", &r.component)
	r.Handler = c.handler(&r.component, "Read", "resource")
	if r.Handler != nil {
		res := r.Handler.Result
		switch {
		case isBasic(res, types.String):
			r.Handler.Kind = resultText
		case isByteSlice(res):
			r.Handler.Kind = resultBlob
		case isNamed(res, runtimeModule, "ReadResourceResult", true):
			r.Handler.Kind = resultRaw
		default:
			r.Handler.Kind = resultJSON
			c.jsonFields(r.TypeName+".Read result", r.Handler.Pos, res)
			if r.MimeType == "" {
				r.MimeType = "application/json"
			}
		}
	}
	if r.Template {
		r.Complete = c.completer(&r.component)
	}
	s.Resources = append(s.Resources, r)
}

// checkURI validates a fixed URI or an RFC 6570 template and binds the
// template's variables to string fields.
func (c *checker) checkURI(r *resource, o *option, st *types.Struct) {
	if !uriSchemeRe.MatchString(r.URI) {
		c.at(o.ValPos, r.TypeName, "URIs start with a scheme, e.g. memory://tasks/active", "uri %q has no scheme", r.URI)
		return
	}
	exprs, err := parseTemplate(r.URI)
	if err != nil {
		c.at(o.ValPos, r.TypeName, err.hint, "malformed URI template %q: %s", r.URI, err.msg)
		return
	}
	if len(exprs) == 0 {
		if _, err := url.Parse(r.URI); err != nil {
			c.at(o.ValPos, r.TypeName, "fix the URI, e.g. percent-encode reserved characters", "invalid uri: %v", err)
		}
		return
	}
	r.Template = true
	fields := jsonFieldNames(st)
	for _, name := range exprs {
		f, ok := fields[name]
		if !ok {
			c.at(o.ValPos, r.TypeName, fmt.Sprintf("add a field: %s string `json:\"%s\"`", exportName(name), name), "template variable {%s} matches no field", name)
			continue
		}
		if !isBasic(f.Type(), types.String) {
			c.at(f.Pos(), r.TypeName+"."+f.Name(), "template variables bind to string fields", "field bound to {%s} is %s, not string", name, short(f.Type()))
			continue
		}
		r.Vars = append(r.Vars, templateVar{Name: name, Field: f.Name()})
	}
}

type templateError struct{ msg, hint string }

// parseTemplate reads the subset of RFC 6570 the runtime matches: literal
// text and {var} / {+var} expressions, each variable once, with literal
// text between two expressions (else the split between them is a guess).
// It returns the variable names in order.
func parseTemplate(uri string) ([]string, *templateError) {
	var vars []string
	seen := map[string]bool{}
	lastEnd := -1 // index just after the previous expression
	for i := 0; i < len(uri); i++ {
		switch uri[i] {
		case '}':
			return nil, &templateError{fmt.Sprintf("unmatched } at offset %d", i), "every } closes a {; percent-encode a literal brace as %7D"}
		case '{':
			end := strings.IndexByte(uri[i+1:], '}')
			if end < 0 {
				return nil, &templateError{fmt.Sprintf("unclosed { at offset %d", i), "close the expression: {name}"}
			}
			expr := uri[i+1 : i+1+end]
			if strings.ContainsRune(expr, '{') {
				return nil, &templateError{fmt.Sprintf("{ inside an expression at offset %d", i), "expressions do not nest: {name}"}
			}
			name := strings.TrimPrefix(expr, "+")
			if !varNameRe.MatchString(name) {
				return nil, &templateError{fmt.Sprintf("unsupported expression {%s}", expr), "only {var} and {+var} are supported; variables are letters, digits and _"}
			}
			if seen[name] {
				return nil, &templateError{fmt.Sprintf("variable {%s} appears twice", name), "give each variable its own name"}
			}
			if lastEnd == i {
				return nil, &templateError{fmt.Sprintf("{%s} follows another expression directly", expr), "put literal text between two variables, e.g. {a}-{b} or {a}/{b}"}
			}
			seen[name] = true
			vars = append(vars, name)
			i += end + 1
			lastEnd = i + 1
		}
	}
	return vars, nil
}

func (c *checker) checkPrompt(s *server, comp component, d directive, st *types.Struct, ts *ast.TypeSpec) {
	p := &prompt{component: comp}
	for _, o := range d.Options {
		if !c.common(&p.component, o) {
			c.unknownKey(d, o, commonKeys)
		}
	}
	if why := CheckName(p.Name); why != "" {
		c.atPosition(p.Pos, "prompt "+p.Name, "use "+NameRule+", e.g. name=summarize-note", "invalid prompt name: %s", why)
	}
	c.unique("prompt", p.Name, p.Pos)
	c.needDescription("prompt", &p.component)
	docs := fieldDocs(ts)
	for i := 0; i < st.NumFields(); i++ {
		f := st.Field(i)
		c.unexportedTag(f, st.Tag(i), p.TypeName+"."+f.Name(), "it is no prompt argument and its tag is ignored")
		name, omitempty, skip := jsonName(f, st.Tag(i))
		if skip {
			continue
		}
		if strings.ContainsAny(name, "${}") {
			c.at(f.Pos(), p.TypeName+"."+f.Name(), "rename it with its json tag: an argument's name is written into a ${arguments.NAME} placeholder of the prompt's text in an MCP Bundle (mcpgen bundle)",
				"prompt argument name %q holds $, { or }", name)
			continue
		}
		arg := promptArg{Name: name, Field: f.Name(), Description: docs[f.Name()]}
		switch {
		case isBasic(f.Type(), types.String):
			arg.Required = !omitempty
		case isPointerToString(f.Type()):
			arg.Pointer = true
		default:
			c.at(f.Pos(), p.TypeName+"."+f.Name(), "prompt arguments are strings: use string (required) or *string (optional)", "prompt argument %q has type %s", name, short(f.Type()))
			continue
		}
		p.Args = append(p.Args, arg)
	}
	p.Handler = c.handler(&p.component, "Get", "prompt")
	if p.Handler != nil {
		res := p.Handler.Result
		switch {
		case isBasic(res, types.String):
			p.Handler.Kind = resultText
		case isSliceOf(res, runtimeModule, "PromptMessage"):
			p.Handler.Kind = resultMessages
		case isNamed(res, runtimeModule, "GetPromptResult", true):
			p.Handler.Kind = resultRaw
		default:
			c.atPosition(p.Handler.Pos, p.TypeName+".Get", "return string, []protocol.PromptMessage or *protocol.GetPromptResult", "unsupported prompt result type %s", short(res))
		}
	}
	p.Complete = c.completer(&p.component)
	s.Prompts = append(s.Prompts, p)
}

// handler finds and checks the component's handler method:
//
//	func (T) Name(ctx context.Context, deps...) (Result, error)
func (c *checker) handler(comp *component, name, kind string) *method {
	m := c.method(comp, name, true, fmt.Sprintf("add: func (x %s) %s(ctx context.Context) (Result, error)", comp.TypeName, name))
	if m == nil {
		return nil
	}
	sig := m.Sig
	if sig.Params().Len() == 0 || !isContext(sig.Params().At(0).Type()) {
		c.atPosition(m.Pos, comp.TypeName+"."+name, "make context.Context the first parameter", "%s handler must take a context.Context first", kind)
		return nil
	}
	m.Params = append(m.Params, param{Kind: paramContext})
	for i := 1; i < sig.Params().Len(); i++ {
		if p, ok := c.param(comp, name, sig.Params().At(i)); ok {
			m.Params = append(m.Params, p)
		}
	}
	if sig.Results().Len() != 2 || !isError(sig.Results().At(1).Type()) {
		c.atPosition(m.Pos, comp.TypeName+"."+name, "return (Result, error)", "%s handler must return a result and an error", kind)
		return nil
	}
	m.Result = sig.Results().At(0).Type()
	return m
}

// preparer finds the optional Prepare method of a task tool:
//
//	func (T) Prepare(ctx context.Context, deps...) error
func (c *checker) preparer(t *tool) *method {
	m := c.method(&t.component, "Prepare", false, "")
	if m == nil {
		return nil
	}
	sig := m.Sig
	if t.Task == "" {
		c.atPosition(m.Pos, t.TypeName+".Prepare", "add task=optional or task=required to the //mcp:tool directive, or rename the method", "Prepare only runs for task tools")
		return nil
	}
	if sig.Params().Len() == 0 || !isContext(sig.Params().At(0).Type()) || sig.Results().Len() != 1 || !isError(sig.Results().At(0).Type()) {
		c.atPosition(m.Pos, t.TypeName+".Prepare", "use: func (x "+t.TypeName+") Prepare(ctx context.Context, req *server.Request) error", "wrong Prepare signature %s", short(sig))
		return nil
	}
	m.Params = []param{{Kind: paramContext}}
	for i := 1; i < sig.Params().Len(); i++ {
		if p, ok := c.param(&t.component, "Prepare", sig.Params().At(i)); ok {
			m.Params = append(m.Params, p)
		}
	}
	return m
}

// completer finds the optional completion method:
//
//	func (T) Complete(ctx context.Context, c server.CompleteRequest, deps...) ([]string, error)
func (c *checker) completer(comp *component) *method {
	m := c.method(comp, "Complete", false, "")
	if m == nil {
		return nil
	}
	sig := m.Sig
	bad := func() *method {
		c.atPosition(m.Pos, comp.TypeName+".Complete", "use: func (x "+comp.TypeName+") Complete(ctx context.Context, c server.CompleteRequest) ([]string, error)", "wrong completion method signature %s", short(sig))
		return nil
	}
	if sig.Params().Len() < 2 || !isContext(sig.Params().At(0).Type()) || !isNamed(sig.Params().At(1).Type(), runtimeModule, "CompleteRequest", false) {
		return bad()
	}
	if sig.Results().Len() != 2 || !isError(sig.Results().At(1).Type()) || !isStringSlice(sig.Results().At(0).Type()) {
		return bad()
	}
	m.Params = []param{{Kind: paramContext}, {Kind: paramComplete}}
	for i := 2; i < sig.Params().Len(); i++ {
		if p, ok := c.param(comp, "Complete", sig.Params().At(i)); ok {
			m.Params = append(m.Params, p)
		}
	}
	m.Result, m.Kind = sig.Results().At(0).Type(), resultStrings
	return m
}

func (c *checker) method(comp *component, name string, required bool, hint string) *method {
	ms := types.NewMethodSet(types.NewPointer(comp.Type))
	sel := ms.Lookup(comp.Type.Obj().Pkg(), name)
	if sel == nil {
		if required {
			c.atPosition(comp.Pos, comp.TypeName, hint, "missing method %s", name)
		}
		return nil
	}
	fn := sel.Obj().(*types.Func)
	sig := fn.Type().(*types.Signature)
	_, ptr := sig.Recv().Type().(*types.Pointer)
	if sig.Variadic() || sig.TypeParams().Len() > 0 {
		c.at(fn.Pos(), comp.TypeName+"."+name, "drop the variadic or type parameters", "unsupported method signature")
		return nil
	}
	if t := unnameable(sig); t != nil {
		c.at(fn.Pos(), comp.TypeName+"."+name, "use exported, non-generic named types in the signature: the generated code spells them out",
			"the generated package cannot name the type %s", short(t))
		return nil
	}
	return &method{Name: name, PtrRecv: ptr, Sig: sig, Pos: c.fset.Position(fn.Pos())}
}

// unnameable returns the first type inside t that generated code cannot
// spell: an unexported named type (an instance with one as a type argument
// is reported whole), or a struct type with unexported fields, which
// belong to the package that declared them.
func unnameable(t types.Type) types.Type {
	stop := (&typeWalk{spelled: true, visit: func(n *typeNode) walkAction {
		switch u := n.typ.(type) {
		case *types.Named:
			if u.Obj().Pkg() != nil && !u.Obj().Exported() {
				return walkStop
			}
		case *types.Struct:
			for i := range u.NumFields() {
				if !u.Field(i).Exported() {
					return walkStop
				}
			}
		}
		return walkInto
	}}).walk(t)
	if stop == nil {
		return nil
	}
	for stop.step == stepTypeArg {
		stop = stop.parent
	}
	return stop.typ
}

// param classifies one handler parameter after the context.
func (c *checker) param(comp *component, method string, v *types.Var) (param, bool) {
	t := v.Type()
	if isNamed(t, runtimeModule, "Request", true) {
		return param{Kind: paramRequest}, true
	}
	if isContext(t) {
		c.at(v.Pos(), comp.TypeName+"."+method, "take context.Context once, first", "context.Context parameter after the first")
		return param{}, false
	}
	base := types.Unalias(t)
	if p, ok := base.(*types.Pointer); ok {
		base = types.Unalias(p.Elem())
	}
	named, ok := base.(*types.Named)
	if !ok || named.Obj().Pkg() == nil {
		c.at(v.Pos(), comp.TypeName+"."+method, "declare a named type (type Store struct{...}) so New can take it as a dependency", "the server cannot supply a parameter of type %s", short(t))
		return param{}, false
	}
	// One type spelled through aliases (*DB with type DB = store.DB) is
	// one dependency.
	dt := types.Unalias(t)
	if p, ok := dt.(*types.Pointer); ok {
		dt = types.NewPointer(types.Unalias(p.Elem()))
	}
	key := types.TypeString(dt, nil)
	d, ok := c.deps[key]
	if !ok {
		d = &dep{Type: dt, VarName: c.depName(named.Obj().Name())}
		c.deps[key] = d
	}
	return param{Kind: paramDep, Dep: d}, true
}

func (c *checker) depName(typeName string) string {
	base := strings.ToLower(typeName[:1]) + typeName[1:]
	// New's parameters must not shadow what its body refers to (the
	// options, the handlers value and type), nor Main's locals what its
	// body refers to (the context, the dependencies, the error, the
	// runtime package).
	switch base {
	case "opts", "h", "handlers", "server", "ctx", "deps", "err", "mcpgen":
		base += "Dep"
	}
	if token.IsKeyword(base) {
		base += "Dep"
	}
	name := base
	for i := 2; ; i++ {
		clash := false
		for _, d := range c.deps {
			if d.VarName == name {
				clash = true
			}
		}
		if !clash {
			return name
		}
		name = fmt.Sprintf("%s%d", base, i)
	}
}

// jsonFields reports types JSON cannot carry anywhere inside t. subject
// names t in messages (each field on the way is added to it), and a
// problem is reported at the field it is in, or at pos when t itself has
// it (a handler's result).
func (c *checker) jsonFields(subject string, pos token.Position, t types.Type) {
	walkType(t, func(n *typeNode) walkAction {
		if n.step == stepKey {
			return walkOver // checked with its map
		}
		sub, at := subject+n.fieldPath(), pos
		if f := n.nearestField(); f != nil {
			at = c.fset.Position(f.field.Pos())
		}
		if n.step == stepField {
			c.unexportedTag(n.field, n.tag, sub, "encoding/json ignores it and its tag")
			if _, _, skip := jsonName(n.field, n.tag); skip {
				return walkOver
			}
		}
		// Recursive types are described through $ref; each named type is
		// looked at once, so that one bad field is one diagnostic.
		if n.repeat {
			return walkOver
		}
		t := n.typ
		if n, ok := t.(*types.Named); ok && n.Obj().Pkg() != nil {
			switch n.Obj().Pkg().Path() + "." + n.Obj().Name() {
			case "time.Time", "encoding/json.Number":
				return walkOver
			case "encoding/json.RawMessage":
				c.atPosition(at, sub, "use a concrete type", "json.RawMessage has no schema")
				return walkOver
			}
		}
		if ownJSON(t) {
			return walkOver // its methods decide its JSON; the schema stage checks them
		}
		switch u := t.Underlying().(type) {
		case *types.Basic:
			switch {
			case u.Info()&types.IsComplex != 0:
				c.badType(at, sub, t, "complex numbers")
			case u.Kind() == types.UnsafePointer:
				c.badType(at, sub, t, "pointers")
			}
		case *types.Chan:
			c.badType(at, sub, t, "channels")
			return walkOver
		case *types.Signature:
			c.badType(at, sub, t, "functions")
			return walkOver
		case *types.Interface:
			c.badType(at, sub, t, "interfaces (any)")
		case *types.Map:
			if !jsonKey(u.Key()) {
				c.badType(at, sub, t, "maps with keys other than strings, integers and text marshalers")
			}
		}
		return walkInto
	})
}

// unexportedTag reports an unexported field of the user's module that
// carries a json or jsonschema tag: encoding/json skips the field, tag
// and all, so what the tag asks for would silently not happen. An
// embedded field is promoted by its exported fields instead, and
// `json:"-"` says the field is left out on purpose.
func (c *checker) unexportedTag(f *types.Var, tag, subject, consequence string) {
	if f.Exported() || f.Embedded() || !c.inModule(f.Pkg()) {
		return
	}
	st := reflect.StructTag(tag)
	name, hasJSON := st.Lookup("json")
	_, hasSchema := st.Lookup("jsonschema")
	if name == "-" || !hasJSON && !hasSchema {
		return
	}
	c.at(f.Pos(), subject, fmt.Sprintf("export it (%s %s `%s`), or drop the tag (json:\"-\" to leave it out on purpose)", exportName(f.Name()), short(f.Type()), tag),
		"field is not exported, so %s", consequence)
}

// inModule reports whether pkg belongs to the module of the package being
// checked: mistakes in other modules' types are not the user's to fix.
func (c *checker) inModule(pkg *types.Package) bool {
	if pkg == nil {
		return false
	}
	if c.pkg.Module == nil {
		return pkg.Path() == c.pkg.PkgPath
	}
	mod := c.pkg.Module.Path
	return pkg.Path() == mod || strings.HasPrefix(pkg.Path(), mod+"/")
}

func (c *checker) badType(pos token.Position, subject string, t types.Type, what string) {
	c.atPosition(pos, subject, "use a concrete JSON-friendly type (string, number, bool, struct, slice, map[string]T), or tag the field json:\"-\"",
		"type %s cannot be carried in JSON: %s have no JSON form", short(t), what)
}

// ownJSON reports whether t (or *t) has a method that decides its JSON
// form: JSONSchema, or a JSON or text (un)marshaler.
func ownJSON(t types.Type) bool {
	if _, ok := t.Underlying().(*types.Interface); ok {
		return false
	}
	for _, m := range []string{"JSONSchema", "MarshalJSON", "UnmarshalJSON", "MarshalText", "UnmarshalText"} {
		if obj, _, _ := types.LookupFieldOrMethod(t, true, nil, m); obj != nil {
			if _, ok := obj.(*types.Func); ok {
				return true
			}
		}
	}
	return false
}

// jsonKey reports whether encoding/json can use t as a map key: a string
// or integer kind, or a text marshaler.
func jsonKey(t types.Type) bool {
	if b, ok := t.Underlying().(*types.Basic); ok && b.Info()&(types.IsString|types.IsInteger) != 0 {
		return true
	}
	obj, _, _ := types.LookupFieldOrMethod(t, true, nil, "MarshalText")
	_, ok := obj.(*types.Func)
	return ok
}

// jsonName returns a field's JSON name as encoding/json sees it.
func jsonName(f *types.Var, tag string) (name string, omitempty, skip bool) {
	if !f.Exported() {
		return "", false, true
	}
	jt := jsontag.Parse(tag)
	if jt.Skip {
		return "", false, true
	}
	name = jt.Name
	if name == "" {
		name = f.Name()
	}
	return name, jt.OmitEmpty || jt.OmitZero, false
}

func jsonFieldNames(st *types.Struct) map[string]*types.Var {
	m := map[string]*types.Var{}
	for i := 0; i < st.NumFields(); i++ {
		if name, _, skip := jsonName(st.Field(i), st.Tag(i)); !skip {
			m[name] = st.Field(i)
		}
	}
	return m
}

func fieldDocs(ts *ast.TypeSpec) map[string]string {
	docs := map[string]string{}
	st, ok := ts.Type.(*ast.StructType)
	if !ok {
		return docs
	}
	for _, f := range st.Fields.List {
		text := ""
		if f.Doc != nil {
			text = f.Doc.Text()
		} else if f.Comment != nil {
			text = f.Comment.Text()
		}
		for _, n := range f.Names {
			docs[n.Name] = strings.TrimSpace(text)
		}
	}
	return docs
}

// Type predicates.

func isBasic(t types.Type, k types.BasicKind) bool {
	b, ok := types.Unalias(t).(*types.Basic)
	return ok && b.Kind() == k
}

func isPointerToString(t types.Type) bool {
	p, ok := types.Unalias(t).(*types.Pointer)
	return ok && isBasic(p.Elem(), types.String)
}

func isByteSlice(t types.Type) bool {
	s, ok := types.Unalias(t).(*types.Slice)
	return ok && isBasic(s.Elem(), types.Byte)
}

func isStringSlice(t types.Type) bool {
	s, ok := types.Unalias(t).(*types.Slice)
	return ok && isBasic(s.Elem(), types.String)
}

func isNamed(t types.Type, pkg, name string, pointer bool) bool {
	if pointer {
		p, ok := types.Unalias(t).(*types.Pointer)
		if !ok {
			return false
		}
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == pkg && n.Obj().Name() == name
}

func isSliceOf(t types.Type, pkg, name string) bool {
	s, ok := types.Unalias(t).(*types.Slice)
	return ok && isNamed(s.Elem(), pkg, name, false)
}

func isContext(t types.Type) bool { return isNamed(t, "context", "Context", false) }

func isError(t types.Type) bool { return types.Identical(t, types.Universe.Lookup("error").Type()) }

// snake turns a Go type name into snake_case: CreateEntities -> create_entities.
func snake(name string) string {
	var b strings.Builder
	runes := []rune(name)
	for i, r := range runes {
		if unicode.IsUpper(r) {
			if i > 0 && (unicode.IsLower(runes[i-1]) || (i+1 < len(runes) && unicode.IsLower(runes[i+1]) && unicode.IsUpper(runes[i-1]))) {
				b.WriteByte('_')
			}
			b.WriteRune(unicode.ToLower(r))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func exportName(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func iconMime(src string) string {
	if strings.HasPrefix(src, "data:") {
		if i := strings.IndexAny(src, ";,"); i > 5 {
			return src[5:i]
		}
		return ""
	}
	switch strings.ToLower(path.Ext(strings.SplitN(src, "?", 2)[0])) {
	case ".png":
		return "image/png"
	case ".svg":
		return "image/svg+xml"
	case ".jpg", ".jpeg":
		return "image/jpeg"
	case ".webp":
		return "image/webp"
	}
	return ""
}

// short renders a type for messages with package names, not import
// paths: store.DB, not github.com/acme/app/store.DB.
func short(t types.Type) string {
	return types.TypeString(t, func(p *types.Package) string { return p.Name() })
}

package gen

import (
	"errors"
	"fmt"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/mcpgen/mcpgen/internal/skills"
	"github.com/mcpgen/mcpgen/internal/views"
)

// This file is the check stage of the MCP Apps extension
// (io.modelcontextprotocol/ui): the //mcp:view directive, which declares
// views (HTML documents served at ui:// URIs), and the view= and
// visibility= keys of //mcp:tool, which link tools to them. Like skills,
// views are files of the package read when mcpgen runs: each is checked
// and digested here, copied into the generated package and embedded
// (emit_views.go), so that `mcpgen -check` covers its bytes.
//
// Grammar (in the package doc comment, beside //mcp:server):
//
//	//mcp:view uri=ui://weather/dashboard.html file=ui/dashboard.html title="Weather"
//	         csp.connect=https://api.example.com permissions=clipboardWrite border
//	//mcp:view uri=ui://weather/ dir=ui          every .html file of ui is a view:
//	                                             ui://weather/<file>
//
// and on a tool:
//
//	//mcp:tool view=ui://weather/dashboard.html            shown in the view
//	//mcp:tool view=ui://weather/dashboard.html visibility=app   called by it only

// view is one view a server serves.
type view struct {
	URI         string
	Name        string // the resource's name; the copy is _views/<Name>.html
	Title       string
	Description string
	Source      string // the file, as the directive names it (relative to the package)
	Content     []byte
	Digest      string
	CSP         viewCSP
	Permissions []string
	Domain      string
	Border      *bool          // prefersBorder; nil: the host decides
	Pos         token.Position // of the directive
}

// viewCSP lists the origins of a view's Content-Security-Policy.
type viewCSP struct {
	Connect, Resource, Frame, BaseURI []string
}

// viewDirName is the directory of a generated package that holds the
// copies of its views, embedded from there (go:embed reaches only the
// package's own directory).
const viewDirName = "_views"

// viewCopy is the path, inside the generated package, of a view's copy.
func viewCopy(v *view) string { return path.Join(viewDirName, v.Name+".html") }

// viewKeys are the keys of //mcp:view, for the hint of an unknown one.
const viewKeys = "uri, file, dir, name, title, description, csp.connect, csp.resource, csp.frame, csp.baseuri, permissions, domain, border"

// checkViewDirective handles one //mcp:view directive of the package doc.
func (c *checker) checkViewDirective(s *server, d directive) {
	var uriOpt, fileOpt, dirOpt *option
	proto := view{Pos: c.fset.Position(d.Pos)}
	var named []option // name, title, description: one view's own
	for i := range d.Options {
		o := &d.Options[i]
		switch o.Key {
		case "uri":
			uriOpt = o
		case "file":
			fileOpt = o
		case "dir":
			dirOpt = o
		case "name", "title", "description":
			named = append(named, *o)
		case "csp.connect":
			proto.CSP.Connect = append(proto.CSP.Connect, c.origins(*o)...)
		case "csp.resource":
			proto.CSP.Resource = append(proto.CSP.Resource, c.origins(*o)...)
		case "csp.frame":
			proto.CSP.Frame = append(proto.CSP.Frame, c.origins(*o)...)
		case "csp.baseuri":
			proto.CSP.BaseURI = append(proto.CSP.BaseURI, c.origins(*o)...)
		case "permissions":
			for _, p := range c.list(*o) {
				if why := views.CheckPermission(p); why != "" {
					c.at(o.ValPos, "//mcp:view", "ask for camera, microphone, geolocation or clipboardWrite, e.g. permissions=clipboardWrite", "permission %q %s", p, why)
					continue
				}
				proto.Permissions = append(proto.Permissions, p)
			}
		case "domain":
			proto.Domain = c.str(*o)
		case "border":
			b := c.boolean(*o)
			proto.Border = &b
		default:
			if strings.HasPrefix(o.Key, "csp.") {
				c.at(o.Pos, "//mcp:view", "the CSP keys are csp.connect, csp.resource, csp.frame and csp.baseuri (connectDomains, resourceDomains, frameDomains, baseUriDomains)", "unknown CSP key %q", o.Key)
				continue
			}
			c.unknownKey(d, *o, viewKeys)
		}
	}
	if uriOpt == nil {
		c.at(d.Pos, "//mcp:view", "add uri=ui://<server>/<view>.html, the URI tools link to with view=", "missing uri")
		return
	}
	proto.URI = c.str(*uriOpt)
	if (fileOpt == nil) == (dirOpt == nil) {
		c.at(d.Pos, "//mcp:view", "write file=path/to/view.html for one view, or dir=path/to/views for one view per .html file", "need exactly one of file= and dir=")
		return
	}
	if why := views.CheckURI(proto.URI); why != "" {
		c.at(uriOpt.ValPos, "//mcp:view", "write a ui:// URI such as uri=ui://weather/dashboard.html", "uri %q %s", proto.URI, why)
		return
	}
	if fileOpt != nil {
		v := proto
		v.Name = strings.TrimSuffix(path.Base(fileOpt.Value), path.Ext(fileOpt.Value))
		for _, o := range named {
			switch o.Key {
			case "name":
				v.Name = c.str(o)
			case "title":
				v.Title = c.str(o)
			case "description":
				v.Description = c.str(o)
			}
		}
		file, ok := c.packagePath(s, *fileOpt, "//mcp:view")
		if !ok {
			return
		}
		v.Source = fileOpt.Value
		if c.readView(&v, file, fileOpt.ValPos) {
			s.Views = append(s.Views, &v)
		}
		return
	}
	for _, o := range named {
		c.at(o.Pos, "//mcp:view", "each file of dir= is a view named after the file; declare a view with file= to give it a "+o.Key, "%s= with dir=", o.Key)
	}
	if !strings.HasSuffix(proto.URI, "/") {
		c.at(uriOpt.ValPos, "//mcp:view", fmt.Sprintf("with dir=, uri= is the prefix of the views' URIs: uri=%s/", proto.URI), "uri %q does not end with /", proto.URI)
		return
	}
	dir, ok := c.packagePath(s, *dirOpt, "//mcp:view")
	if !ok {
		return
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		c.at(dirOpt.ValPos, "//mcp:view", "name a directory of .html files, relative to the package", "cannot read dir %s: %v", dirOpt.Value, errors.Unwrap(err))
		return
	}
	found := false
	for _, e := range entries {
		if e.IsDir() || strings.HasPrefix(e.Name(), ".") || !strings.EqualFold(path.Ext(e.Name()), ".html") {
			continue // sources, assets and READMEs beside the views are not views
		}
		found = true
		v := proto
		v.URI = proto.URI + e.Name()
		v.Name = strings.TrimSuffix(e.Name(), path.Ext(e.Name()))
		v.Source = path.Join(dirOpt.Value, e.Name())
		if c.readView(&v, filepath.Join(dir, e.Name()), dirOpt.ValPos) {
			s.Views = append(s.Views, &v)
		}
	}
	if !found {
		c.at(dirOpt.ValPos, "//mcp:view", "put the views in it as .html files", "dir %s holds no .html file", dirOpt.Value)
	}
}

// origins reads the comma-separated origins of a csp.* key, reporting
// each that is not one.
func (c *checker) origins(o option) []string {
	var out []string
	for _, d := range c.list(o) {
		if why := views.CheckOrigin(d); why != "" {
			c.at(o.ValPos, "//mcp:view", "write origins such as https://api.example.com or https://*.example.com, comma-separated", "%s: %q %s", o.Key, d, why)
			continue
		}
		out = append(out, d)
	}
	return out
}

// list splits a comma-separated value; empty items are mistakes.
func (c *checker) list(o option) []string {
	v := c.str(o)
	if v == "" {
		return nil
	}
	items := strings.Split(v, ",")
	for _, it := range items {
		if it == "" {
			c.at(o.ValPos, o.Key, "separate the items with single commas, without spaces", "empty item in %q", v)
			return nil
		}
	}
	return items
}

// packagePath resolves a path option (a skill's dir= or root=, a view's
// file= or dir=): relative to the package directory, '/'-separated, and
// inside the module.
func (c *checker) packagePath(s *server, o option, directive string) (string, bool) {
	v := c.str(o)
	if v == "" {
		return "", false
	}
	if filepath.IsAbs(v) || strings.Contains(v, `\`) {
		c.at(o.ValPos, directive, "write a '/'-separated path relative to the package directory", "%s=%s is not a relative slash path", o.Key, v)
		return "", false
	}
	p := filepath.Join(s.Dir, filepath.FromSlash(v))
	if c.pkg.Module != nil && c.pkg.Module.Dir != "" {
		if rel, err := filepath.Rel(c.pkg.Module.Dir, p); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			c.at(o.ValPos, directive, "keep the files inside the module, so that every build sees the same ones", "%s=%s leaves the module", o.Key, v)
			return "", false
		}
	}
	return p, true
}

// readView reads, checks and digests the view's file, reporting problems
// at valPos (the file= or dir= value).
func (c *checker) readView(v *view, file string, valPos token.Pos) bool {
	subject := "view " + v.URI
	if why := CheckName(v.Name); why != "" || strings.HasPrefix(v.Name, ".") {
		if why == "" {
			why = "it starts with '.'"
		}
		c.at(valPos, subject, "name it with name= ("+NameRule+")", "invalid view name %q: %s", v.Name, why)
		return false
	}
	fi, err := os.Lstat(file)
	switch {
	case err != nil:
		c.at(valPos, subject, "paths are relative to the package directory", "no file %s", v.Source)
		return false
	case fi.Mode()&fs.ModeSymlink != 0:
		c.at(valPos, subject, "copy the file here, or build it here", "%s is a symbolic link; links are not followed", v.Source)
		return false
	case fi.IsDir():
		c.at(valPos, subject, "name the HTML file with file=, or use dir= for a directory of views", "%s is a directory", v.Source)
		return false
	case !fi.Mode().IsRegular():
		c.at(valPos, subject, "a view is a regular HTML file", "%s is not a regular file", v.Source)
		return false
	}
	b, err := os.ReadFile(file)
	if err != nil {
		c.at(valPos, subject, "", "read %s: %v", v.Source, err)
		return false
	}
	if why := views.CheckHTML(b); why != "" {
		c.at(valPos, subject, "a view is one self-contained HTML5 document starting with <!DOCTYPE html>, its scripts and styles inlined (bundle them into it)", "%s %s", v.Source, why)
		return false
	}
	v.Content, v.Digest = b, skills.Digest(b)
	return true
}

// checkToolUI handles the view= and visibility= keys of //mcp:tool; it
// reports whether it consumed o.
func (c *checker) checkToolUI(t *tool, o option) bool {
	switch o.Key {
	case "view":
		t.View, t.ViewPos = c.str(o), c.fset.Position(o.ValPos)
		if why := views.CheckURI(t.View); t.View != "" && why != "" {
			c.at(o.ValPos, t.TypeName, "write the ui:// URI of a view the package declares with //mcp:view", "view=%s %s", t.View, why)
			t.View = ""
		}
	case "visibility":
		vis := c.list(o)
		if why := views.CheckVisibility(vis); len(vis) > 0 && why != "" {
			c.at(o.ValPos, t.TypeName, "write visibility=model,app (the default), visibility=app (only views call it) or visibility=model", "visibility %s", why)
			return true
		}
		t.Visibility = vis
	default:
		return false
	}
	return true
}

// checkViews runs once every directive of a server is read: view URIs and
// names are unique, every view= names a view of the server, and a view
// no tool links to is worth a warning (no host would show it).
func (c *checker) checkViews(s *server) {
	sort.SliceStable(s.Views, func(i, j int) bool { return s.Views[i].URI < s.Views[j].URI })
	byURI := map[string]*view{}
	names := map[string]*view{}
	resources := map[string]*resource{}
	for _, r := range s.Resources {
		resources[r.URI] = r
	}
	var declared []string
	for _, v := range s.Views {
		switch prev := byURI[v.URI]; {
		case prev != nil:
			c.atPosition(v.Pos, "view "+v.URI, "give each view its own URI; the first is at "+prev.Pos.String(), "duplicate view URI")
			continue
		case resources[v.URI] != nil:
			c.atPosition(v.Pos, "view "+v.URI, "give the view or the resource at "+resources[v.URI].Pos.String()+" another URI", "a resource has that URI already")
			continue
		}
		if prev := names[v.Name]; prev != nil {
			c.atPosition(v.Pos, "view "+v.URI, "rename one of them with name=; "+prev.URI+" is at "+prev.Pos.String(), "view name %q is taken by %s", v.Name, prev.URI)
		}
		byURI[v.URI], names[v.Name] = v, v
		declared = append(declared, v.URI)
	}
	linked := map[string]bool{}
	for _, t := range s.Tools {
		if t.View == "" {
			continue
		}
		if byURI[t.View] == nil {
			hint := "declare it in the package doc comment: //mcp:view uri=" + t.View + " file=path/to/view.html"
			if len(declared) > 0 {
				hint += "; the package declares " + strings.Join(declared, ", ")
			}
			c.atPosition(t.ViewPos, "tool "+t.Name, hint, "view=%s names no view of server %s", t.View, s.Name)
			continue
		}
		linked[t.View] = true
	}
	for _, v := range s.Views {
		if !linked[v.URI] && byURI[v.URI] == v {
			c.warnAt(v.Pos, "view "+v.URI, "link it from a tool with view="+v.URI+" (hosts show a view for the results of the tools that link it), or drop the directive", "no tool links to it")
		}
	}
}

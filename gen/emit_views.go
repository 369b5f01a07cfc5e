package gen

import (
	"path"

	"github.com/dave/jennifer/jen"
)

// views renders the views of a server (the MCP Apps extension): a copy of
// each view's HTML under _views/ and views.go, which embeds the copies
// and lists each view with the digest mcpgen computed (New verifies it)
// and its _meta.ui. `mcpgen -check` compares the copies byte for byte,
// so an edited view makes the output stale.
func (e *emitter) views() ([]File, error) {
	s := e.s
	var files []File
	f := e.newFile()
	f.Comment("//go:embed all:" + viewDirName)
	f.Var().Id("viewFiles").Qual("embed", "FS")
	f.Line()
	var entries []jen.Code
	for _, v := range s.Views {
		copyPath := viewCopy(v)
		files = append(files, File{Path: path.Join(s.Name, copyPath), Content: v.Content})
		var entry fields
		entry.add("URI", jen.Lit(v.URI))
		entry.add("Name", jen.Lit(v.Name))
		entry.addString("Title", v.Title)
		entry.addString("Description", v.Description)
		entry.add("Content", rt("MustReadFile").Call(jen.Id("viewFiles"), jen.Lit(copyPath)))
		entry.add("Digest", jen.Lit(v.Digest))
		var meta fields
		var csp fields
		for _, d := range []struct {
			key     string
			origins []string
		}{{"ConnectDomains", v.CSP.Connect}, {"ResourceDomains", v.CSP.Resource}, {"FrameDomains", v.CSP.Frame}, {"BaseURIDomains", v.CSP.BaseURI}} {
			if len(d.origins) > 0 {
				csp.add(d.key, stringList(d.origins))
			}
		}
		if len(csp) > 0 {
			meta.add("CSP", rt("ViewCSP").Values(csp.lines()...))
		}
		if len(v.Permissions) > 0 {
			meta.add("Permissions", stringList(v.Permissions))
		}
		meta.addString("Domain", v.Domain)
		if v.Border != nil {
			meta.add("PrefersBorder", rt("Bool").Call(jen.Lit(*v.Border)))
		}
		if len(meta) > 0 {
			entry.add("Meta", rt("ViewMeta").Values(meta.lines()...))
		}
		entries = append(entries, jen.Values(entry.lines()...))
	}
	f.Comment("views lists the views of the //mcp:view directives in URI order, as")
	f.Comment("mcpgen read and checked them (New verifies every digest again).")
	f.Func().Id("views").Params().Index().Add(rt("View")).Block(
		jen.Return(jen.Index().Add(rt("View")).Values(multiline(entries)...)),
	)
	b, err := render(f, s.Module)
	if err != nil {
		return nil, internalError("render %s/views.go: %v", s.Name, err)
	}
	files = append(files, File{Path: path.Join(s.Name, "views.go"), Content: b})
	return files, nil
}

// stringList renders a []string literal.
func stringList(items []string) jen.Code {
	return jen.Index().String().ValuesFunc(func(g *jen.Group) {
		for _, it := range items {
			g.Lit(it)
		}
	})
}

// toolUI renders a pointer to a tool's link to the MCP Apps extension,
// or nil.
func toolUI(t *tool) jen.Code {
	if v := toolUIValue(t); v != nil {
		return jen.Op("&").Add(v)
	}
	return nil
}

// toolUIValue renders a tool's link to the MCP Apps extension, or nil.
func toolUIValue(t *tool) jen.Code {
	if t.View == "" && t.Visibility == nil {
		return nil
	}
	var ui fields
	ui.addString("ResourceURI", t.View)
	if t.Visibility != nil {
		ui.add("Visibility", stringList(t.Visibility))
	}
	return rt("ToolUI").Values(ui...)
}

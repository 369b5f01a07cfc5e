package gen

import (
	"go/token"
	"go/types"
	"strings"

	"github.com/mcpgen/mcpgen/gen/surface"
)

// ServerSurface is one generated server's surface, with a way back from
// a change in it to today's source.
type ServerSurface struct {
	Name    string
	Surface *surface.Surface
	// Pos is the server directive.
	Pos token.Position

	server *server
	fset   *token.FileSet
}

// Surfaces returns the surface of every server the run generated, in the
// order of Servers.
func (r *Result) Surfaces() []ServerSurface {
	var out []ServerSurface
	for _, s := range r.servers {
		out = append(out, ServerSurface{Name: s.Name, Surface: surfaceOf(s), Pos: s.Pos, server: s, fset: r.fset})
	}
	return out
}

// Position is where in today's source a change shows: the Go field of an
// input or output property (or prompt argument) when it still exists,
// else the directive of the tool, resource, template or prompt (the view=
// value of a tool whose link changed), else the directive of the skill or
// view, else the server directive (for what was removed). A likely
// rename shows at the item's directive under its new name.
func (ss ServerSurface) Position(c surface.Change) token.Position {
	s := ss.server
	if c.Renamed != "" {
		c.Name = c.Renamed // the item as it is named today
	}
	var comp *component
	var typ types.Type
	switch c.Kind {
	case "tool":
		for _, t := range s.Tools {
			if t.Name == c.Name {
				comp, typ = &t.component, t.Type
				if c.Output && t.Handler != nil {
					typ = t.Handler.Result
				}
			}
		}
	case "resource", "template":
		for _, r := range s.Resources {
			if r.Name == c.Name || r.URI == c.Name {
				comp = &r.component
			}
		}
	case "prompt":
		for _, p := range s.Prompts {
			if p.Name == c.Name {
				comp, typ = &p.component, p.Type
				for _, a := range p.Args {
					if a.Name == c.Field {
						c.Field = a.Field // the Go field the argument binds
					}
				}
			}
		}
	case "skill":
		for _, sk := range s.Skills {
			if sk.Path == c.Name {
				return sk.Pos
			}
		}
	case "view":
		for _, v := range s.Views {
			if v.URI == c.Name {
				return v.Pos
			}
		}
	}
	if comp == nil {
		return s.Pos
	}
	if c.Kind == "tool" && (c.Rule == "tool-view-changed" || c.Rule == "tool-view-added") {
		for _, t := range s.Tools {
			if t.Name == c.Name && t.View != "" {
				return t.ViewPos
			}
		}
	}
	if c.Field != "" && typ != nil && ss.fset != nil {
		if p := propertyPos(typ, c.Field, c.Kind == "prompt"); p.IsValid() {
			return ss.fset.Position(p)
		}
	}
	return comp.Pos
}

// propertyPos finds the struct field a property path ("a.b[].c") names
// in t, as encoding/json names fields (goName: the path holds Go names).
func propertyPos(t types.Type, path string, goName bool) token.Pos {
	var pos token.Pos
	for _, seg := range strings.Split(path, ".") {
		name, items := strings.CutSuffix(seg, "[]")
		f := jsonField(t, name, goName)
		if f == nil {
			return token.NoPos
		}
		pos, t = f.Pos(), f.Type()
		if items {
			t = elem(t)
		}
	}
	return pos
}

// elem is the element type of a slice, array or pointer to one.
func elem(t types.Type) types.Type {
	for {
		switch u := t.Underlying().(type) {
		case *types.Pointer:
			t = u.Elem()
		case *types.Slice:
			return u.Elem()
		case *types.Array:
			return u.Elem()
		default:
			return t
		}
	}
}

// jsonField is the field of struct type t (or a pointer to one) encoded
// under name (its Go name, with goName), looking into embedded structs as
// encoding/json does.
func jsonField(t types.Type, name string, goName bool) *types.Var {
	for {
		p, ok := t.Underlying().(*types.Pointer)
		if !ok {
			break
		}
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return nil
	}
	for _, m := range jsonMembers(st) {
		key := m.name
		if goName {
			key = m.v.Name()
		}
		if key == name {
			return m.v
		}
	}
	return nil
}

package gen

import (
	"go/types"

	"github.com/mcpgen/mcpgen/internal/jsontag"
)

// jsonMember is one member of a struct's JSON object, as encoding/json
// sees it: a field of the struct, or one an embedded struct promotes.
type jsonMember struct {
	name   string     // the JSON name
	v      *types.Var // the Go field
	tag    string     // its whole struct tag
	owner  types.Type // the struct type that declares it (a *types.Named when named)
	index  []int
	tagged bool // the JSON name comes from the json tag
	viaPtr bool // promoted through an embedded pointer: absent while it is nil
}

// jsonMembers lists the members of st as encoding/json does (the go/types
// twin of the schema program's structFields): exported fields, those of
// embedded structs promoted breadth first, a shallower field hiding deeper
// ones of its name, a tagged one winning among fields at one depth, and a
// name that stays ambiguous dropped altogether. The order is the fields'
// (by index path), as encoding/json writes them.
func jsonMembers(st *types.Struct) []jsonMember {
	type pending struct {
		typ    types.Type // a struct type, named or not
		index  []int
		viaPtr bool
	}
	var all []jsonMember
	next := []pending{{typ: st}}
	visited := map[string]bool{}
	// A struct embedded twice at one depth contributes its fields twice,
	// so that they cancel out.
	nextCount := map[string]int{}
	for len(next) > 0 {
		current := next
		next = nil
		count := nextCount
		nextCount = map[string]int{}
		for _, p := range current {
			key := types.TypeString(p.typ, nil)
			if visited[key] {
				continue
			}
			visited[key] = true
			s := p.typ.Underlying().(*types.Struct)
			for i := range s.NumFields() {
				f := s.Field(i)
				ft := types.Unalias(f.Type())
				if ptr, ok := ft.(*types.Pointer); ok {
					ft = types.Unalias(ptr.Elem())
				}
				_, isStruct := ft.Underlying().(*types.Struct)
				if f.Embedded() {
					if !f.Exported() && !isStruct {
						continue
					}
				} else if !f.Exported() {
					continue
				}
				jt := jsontag.Parse(s.Tag(i))
				if jt.Skip {
					continue
				}
				index := append(append([]int(nil), p.index...), i)
				if jt.Name != "" || !f.Embedded() || !isStruct {
					if !f.Exported() {
						continue // an unexported embedded struct with a name: encoding/json skips it
					}
					jf := jsonMember{name: jt.Name, v: f, tag: s.Tag(i), owner: p.typ, index: index, tagged: jt.Name != "", viaPtr: p.viaPtr}
					if jf.name == "" {
						jf.name = f.Name()
					}
					all = append(all, jf)
					if count[key] > 1 {
						all = append(all, jf)
					}
					continue
				}
				k := types.TypeString(ft, nil)
				nextCount[k]++
				if nextCount[k] == 1 {
					_, isPtr := types.Unalias(f.Type()).(*types.Pointer)
					next = append(next, pending{typ: ft, index: index, viaPtr: p.viaPtr || isPtr})
				}
			}
		}
	}
	return jsontag.Resolve(all, func(f jsonMember) string { return f.name }, func(f jsonMember) []int { return f.index }, func(f jsonMember) bool { return f.tagged })
}

package schemaprog

import (
	"reflect"

	"github.com/mcpgen/mcpgen/internal/jsontag"
)

// field is one JSON member of a struct, as encoding/json sees it.
type field struct {
	name   string       // JSON name
	goName string       // Go field name
	owner  reflect.Type // the struct type that declares it
	index  []int
	typ    reflect.Type
	tag    reflect.StructTag
	json   jsontag.Tag
	tagged bool // the name comes from the json tag
	viaPtr bool // reached through an embedded pointer: absent when it is nil
	quoted bool // ",string" applies
}

// structFields lists the members of struct type t in encoding/json's
// order, with its rules: exported fields only, the fields of embedded
// structs promoted (breadth first), a shallower field hiding deeper ones of
// the same name, and names that stay ambiguous at their shallowest depth
// dropped altogether (unless exactly one of them is tagged).
func structFields(t reflect.Type) []field {
	type pending struct {
		typ    reflect.Type
		index  []int
		viaPtr bool
	}
	var all []field
	next := []pending{{typ: t}}
	visited := map[reflect.Type]bool{}
	// A type embedded more than once at one depth (through different
	// parents) is explored once but contributes its fields twice, so that
	// they cancel out below.
	nextCount := map[reflect.Type]int{}
	for len(next) > 0 {
		current := next
		next = nil
		count := nextCount
		nextCount = map[reflect.Type]int{}
		for _, p := range current {
			if visited[p.typ] {
				continue
			}
			visited[p.typ] = true
			for i := 0; i < p.typ.NumField(); i++ {
				sf := p.typ.Field(i)
				if sf.Anonymous {
					et := sf.Type
					if et.Kind() == reflect.Pointer {
						et = et.Elem()
					}
					if !sf.IsExported() && et.Kind() != reflect.Struct {
						continue
					}
				} else if !sf.IsExported() {
					continue
				}
				jt := jsontag.Parse(string(sf.Tag))
				if jt.Skip {
					continue
				}
				index := append(append([]int(nil), p.index...), i)
				ft := sf.Type
				if ft.Name() == "" && ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				if jt.Name != "" || !sf.Anonymous || ft.Kind() != reflect.Struct {
					f := field{name: jt.Name, goName: sf.Name, owner: p.typ, index: index, typ: sf.Type,
						tag: sf.Tag, json: jt, tagged: jt.Name != "", viaPtr: p.viaPtr}
					if f.name == "" {
						f.name = sf.Name
					}
					if jt.String {
						switch ft.Kind() {
						case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
							reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
							reflect.Float32, reflect.Float64, reflect.String:
							f.quoted = true
						}
					}
					all = append(all, f)
					if count[p.typ] > 1 {
						all = append(all, f)
					}
					continue
				}
				nextCount[ft]++
				if nextCount[ft] == 1 {
					next = append(next, pending{typ: ft, index: index, viaPtr: p.viaPtr || sf.Type.Kind() == reflect.Pointer})
				}
			}
		}
	}
	// Keep the dominant field of each name.
	return jsontag.Resolve(all, func(f field) string { return f.name }, func(f field) []int { return f.index }, func(f field) bool { return f.tagged })
}

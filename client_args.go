package mcpgen

import (
	"bytes"
	"encoding"
	"encoding/json"
	"reflect"
	"strings"
	"sync"

	"github.com/mcpgen/mcpgen/internal/jsonschema"
)

// emptyNilSlices returns b, the JSON encoding of v, with each null that
// encodes a nil slice of v written as []: arguments are sent the way a
// generated server sends results, since a schema derived from a Go slice
// (a tool's inputSchema) says "array" and a server that checks it refuses
// null. A nil pointer, map or []byte, and a slice behind a pointer, stay
// null; a field with omitempty is left out as before.
func emptyNilSlices(v any, b []byte) []byte {
	if !bytes.Contains(b, []byte("null")) {
		return b
	}
	s := sliceSchema(reflect.TypeOf(v))
	if s == nil {
		return b
	}
	out, _ := s.FillNullArrays(b)
	return out
}

// sliceSchemas caches, by Go type, the schema that says where its slices
// are (nil: the type has none to fill).
var sliceSchemas sync.Map // reflect.Type → *jsonschema.Schema

func sliceSchema(t reflect.Type) *jsonschema.Schema {
	if t == nil {
		return nil
	}
	if s, ok := sliceSchemas.Load(t); ok {
		return s.(*jsonschema.Schema)
	}
	var s *jsonschema.Schema
	if shape, ok := slicesOf(t, 0); ok {
		b, err := json.Marshal(shape)
		if err == nil {
			s, _ = jsonschema.Compile(b)
		}
	}
	sliceSchemas.Store(t, s)
	return s
}

// maxSliceDepth bounds how deep slicesOf looks into a type (a recursive
// type is cut there: deeper nulls stay).
const maxSliceDepth = 8

var (
	jsonMarshaler = reflect.TypeFor[json.Marshaler]()
	textMarshaler = reflect.TypeFor[encoding.TextMarshaler]()
)

// slicesOf is a schema of t naming only where its slices are, and whether
// there is any.
func slicesOf(t reflect.Type, depth int) (map[string]any, bool) {
	if depth > maxSliceDepth || t.Implements(jsonMarshaler) || t.Implements(textMarshaler) ||
		reflect.PointerTo(t).Implements(jsonMarshaler) || reflect.PointerTo(t).Implements(textMarshaler) {
		return nil, false // encoded its own way
	}
	switch t.Kind() {
	case reflect.Pointer:
		if t.Elem().Kind() == reflect.Slice {
			return nil, false // a nil *[]T means null
		}
		return slicesOf(t.Elem(), depth)
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return nil, false // []byte is a base64 string
		}
		s := map[string]any{"type": "array"}
		if items, ok := slicesOf(t.Elem(), depth+1); ok {
			s["items"] = items
		}
		return s, true
	case reflect.Array:
		if items, ok := slicesOf(t.Elem(), depth+1); ok {
			return map[string]any{"items": items}, true
		}
	case reflect.Map:
		if values, ok := slicesOf(t.Elem(), depth+1); ok {
			return map[string]any{"additionalProperties": values}, true
		}
	case reflect.Struct:
		props := map[string]any{}
		structSlices(t, depth, props)
		if len(props) > 0 {
			return map[string]any{"properties": props}, true
		}
	}
	return nil, false
}

// structSlices adds to props the fields of struct t that hold slices, by
// JSON name; embedded structs without a name lend theirs (encoding/json's
// rule, closer fields first).
func structSlices(t reflect.Type, depth int, props map[string]any) {
	var embedded []reflect.Type
	named := map[string]bool{} // the names this level's fields take
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		ft := f.Type
		if f.Anonymous && name == "" {
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				embedded = append(embedded, ft)
				continue
			}
		}
		if !f.IsExported() || strings.Contains(","+opts+",", ",string,") {
			continue
		}
		if name == "" {
			name = f.Name
		}
		named[name] = true
		if s, ok := slicesOf(ft, depth+1); ok {
			if _, taken := props[name]; !taken {
				props[name] = s
			}
		}
	}
	for _, e := range embedded {
		if depth < maxSliceDepth {
			inner := map[string]any{}
			structSlices(e, depth+1, inner)
			for k, v := range inner {
				if _, taken := props[k]; !taken && !named[k] {
					props[k] = v
				}
			}
		}
	}
}

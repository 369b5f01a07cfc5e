package gen

import (
	"go/types"
	"reflect"
	"strings"
)

// outputProvable reports whether every value of the tool result type t
// encodes, through json.Marshal, to JSON that the output schema reflected
// from t accepts, so that the runtime may skip validating it
// (server.Tool.OutputTrusted). It is deliberately narrow, so that the
// proof is plain: t is a struct (not a pointer: a nil pointer encodes as
// null) whose exported fields are, recursively, such structs or bool,
// integer, float or string kinds. That rules out:
//   - slices, maps, pointers and interfaces, which encode as null when nil
//     where the schema says array or object;
//   - anything with its own encoding or schema: methods MarshalJSON,
//     MarshalText, EncodedJSON (the runtime's pre-encoded results),
//     JSONSchema, JSONSchemaExtend, JSONSchemaAlias, and json.Number;
//   - fields whose encoding or schema depends on tags: omitempty,
//     omitzero and string options (a required key could be missing or
//     change type), any jsonschema or jsonschema_extras tag (enum,
//     minimum, pattern... a Go value can break), and embedded fields.
//
// Reflected schemas of such types hold only type, properties, required,
// additionalProperties and descriptions, which every value satisfies.
func outputProvable(t types.Type) bool {
	if _, ok := t.Underlying().(*types.Struct); !ok {
		return false
	}
	return walkType(t, func(n *typeNode) walkAction {
		if n.step == stepField {
			f := n.field
			if !f.Exported() {
				return walkOver
			}
			tag := reflect.StructTag(n.tag)
			name, opts, _ := strings.Cut(tag.Get("json"), ",")
			if name == "-" && opts == "" {
				return walkOver
			}
			if f.Anonymous() || opts != "" || tag.Get("jsonschema") != "" || tag.Get("jsonschema_extras") != "" {
				return walkStop
			}
		}
		if n.repeat {
			return walkOver // proved where the walk first reached it
		}
		if ownEncoding(n.typ) {
			return walkStop
		}
		switch u := n.typ.Underlying().(type) {
		case *types.Basic:
			if u.Info()&(types.IsBoolean|types.IsInteger|types.IsFloat|types.IsString) != 0 && u.Kind() != types.Uintptr {
				return walkOver
			}
		case *types.Struct:
			return walkInto
		}
		return walkStop
	}) == nil
}

// ownEncoding reports whether t or *t has a method that replaces the
// reflected encoding or schema, or t is json.Number.
func ownEncoding(t types.Type) bool {
	if n, ok := t.(*types.Named); ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "encoding/json" {
		return true
	}
	for _, m := range []string{"MarshalJSON", "MarshalText", "EncodedJSON", "JSONSchema", "JSONSchemaExtend", "JSONSchemaAlias"} {
		if obj, _, _ := types.LookupFieldOrMethod(t, true, nil, m); obj != nil {
			return true
		}
	}
	return false
}

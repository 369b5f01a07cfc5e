package jsonschema

import "testing"

// TestFillNullArrays: a null where the schema takes only an array (a
// property, an item, a map value, through $ref and nullable objects)
// becomes []; a null the schema allows stays; a document without such a
// null comes back as it is, and so does a malformed one.
func TestFillNullArrays(t *testing.T) {
	s, err := Compile([]byte(`{
		"type": "object",
		"properties": {
			"list": {"type": "array", "items": {"type": "string"}},
			"maybe": {"anyOf": [{"type": "array", "items": {"type": "string"}}, {"type": "null"}]},
			"old": {"type": ["array", "null"]},
			"name": {"type": "string"},
			"rows": {"type": "array", "items": {"$ref": "#/$defs/Row"}},
			"byKey": {"type": "object", "additionalProperties": {"type": "array", "items": {"type": "integer"}}},
			"parent": {"anyOf": [{"$ref": "#/$defs/Row"}, {"type": "null"}]}
		},
		"$defs": {"Row": {"type": "object", "properties": {"tags": {"type": "array"}, "note": {"type": "string"}}}}
	}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ in, want string }{
		{`{"list":null,"maybe":null,"old":null,"name":"null"}`, `{"list":[],"maybe":null,"old":null,"name":"null"}`},
		{`{"rows":[{"tags":null,"note":"x"},{"tags":["a"]}],"byKey":{"a":null,"b":[1]},"parent":{"tags":null}}`,
			`{"rows":[{"tags":[],"note":"x"},{"tags":["a"]}],"byKey":{"a":[],"b":[1]},"parent":{"tags":[]}}`},
		{`{"parent":null,"rows":null}`, `{"parent":null,"rows":[]}`},
		{`{"na\u006de":"null","list":[]}`, `{"na\u006de":"null","list":[]}`},
		{`{"list":nul`, `{"list":nul`},
	} {
		got, changed := s.FillNullArrays([]byte(c.in))
		if string(got) != c.want || changed != (c.in != c.want) {
			t.Errorf("FillNullArrays(%s) = %s, %v; want %s", c.in, got, changed, c.want)
		}
		if !changed && &got[0] != &[]byte(c.in)[0] && string(got) != c.in {
			t.Errorf("unchanged document copied")
		}
	}
}

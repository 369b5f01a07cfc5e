package jsonschema

import (
	"strings"
	"testing"
)

func TestCompileErrors(t *testing.T) {
	for _, tc := range []struct{ schema, want string }{
		{`{"type":"object","dependentSchemas":{"a":{}}}`, `at #: unsupported keyword "dependentSchemas"`},
		{`{"if":{"$ref":"#"},"then":{}}`, `$ref cycle`},
		{`{"properties":{"a":{"dependentRequired":{}}}}`, `at #/properties/a: unsupported keyword "dependentRequired"`},
		{`{"items":{"contains":{}}}`, `at #/items: unsupported keyword "contains"`},
		{`{"unevaluatedProperties":false}`, `unsupported keyword "unevaluatedProperties"`},
		{`{"$dynamicRef":"#x"}`, `unsupported keyword "$dynamicRef"`},
		{`{"minLenght":3}`, `unsupported keyword "minLenght"`},
		{`{"additionalItems":false}`, `unsupported keyword "additionalItems"`},
		{`{"items":[{}]}`, `at #: items: array form of items is not supported`},
		{`{"pattern":"^(?=a)"}`, `at #: pattern: "^(?=a)": error parsing regexp`},
		{`{"patternProperties":{"(?!x)":{}}}`, `at #/patternProperties: pattern "(?!x)"`},
		{`{"pattern":1}`, `at #: pattern: must be a string`},
		{`{"type":"str"}`, `type: unknown type "str"`},
		{`{"type":[]}`, `type: must not be an empty array`},
		{`{"minLength":-1}`, `minLength: must be a non-negative integer`},
		{`{"maxItems":1.5}`, `maxItems: must be a non-negative integer`},
		{`{"minimum":"1"}`, `minimum: must be a number`},
		{`{"exclusiveMinimum":true}`, `exclusiveMinimum: must be a number`},
		{`{"multipleOf":0}`, `multipleOf: must be greater than 0`},
		{`{"enum":"a"}`, `enum: must be an array`},
		{`{"required":"a"}`, `required: must be an array of strings`},
		{`{"required":["a","a"]}`, `required: duplicate name "a"`},
		{`{"anyOf":[]}`, `anyOf: must be a non-empty array of schemas`},
		{`{"allOf":[1]}`, `at #/allOf/0: schema must be an object or a boolean, got number`},
		{`{"properties":{"a":"string"}}`, `at #/properties/a: schema must be an object or a boolean`},
		{`{"$ref":"#/$defs/missing"}`, `at #: $ref "#/$defs/missing": does not point at a schema`},
		{`{"$ref":"https://example.com/x.json"}`, `only references within the schema document are supported`},
		{`{"$ref":"#nope"}`, `no such $anchor`},
		{`{"$ref":"#/enum/0","enum":[1]}`, `does not point at a schema`},
		{`{"$ref":"#"}`, `$ref cycle that never descends into the instance`},
		{`{"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"anyOf":[{"$ref":"#/$defs/a"}]}},"$ref":"#/$defs/a"}`, `$ref cycle`},
		{`{"$schema":"http://json-schema.org/draft-04/schema#"}`, `unsupported $schema`},
		{`{"properties":{"a":{"$schema":"https://json-schema.org/draft/2020-12/schema"}}}`, `$schema: only allowed at the document root`},
		{`{"uniqueItems":"yes"}`, `uniqueItems: must be a boolean`},
		{`{"type":"object"} {}`, `unexpected data after top-level value`},
		{`{"type":`, `parse schema`},
		{`[]`, `schema must be an object or a boolean, got array`},
	} {
		_, err := Compile([]byte(tc.schema))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Compile(%s) = %v, want error containing %q", tc.schema, err, tc.want)
		}
	}
}

func TestCompileAccepts(t *testing.T) {
	for _, s := range []string{
		`true`, `false`, `{}`,
		`{"$schema":"https://json-schema.org/draft/2020-12/schema#","$id":"https://example.com/x","$comment":"c"}`,
		`{"$schema":"http://json-schema.org/draft-07/schema#"}`,
		`{"type":"string","format":"ipv4","contentEncoding":"base64","contentMediaType":"image/png"}`,
		`{"type":"string","format":"int64"}`,
		`{"x-go-type":"Foo","properties":{"if":{"type":"string"},"$ref":{"type":"string"}}}`,
		`{"$defs":{"unused":{"type":"string"}}}`,
		`{"pattern":"\\d+\\/\\u0041"}`,
	} {
		if _, err := Compile([]byte(s)); err != nil {
			t.Errorf("Compile(%s): %v", s, err)
		}
	}
}

// A schema shaped like github.com/invopop/jsonschema output: root $ref into
// $defs, a recursive type, anchors, and formats.
const invopopStyle = `{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "https://github.com/mcpgen/mcpgen/tool-input",
  "$ref": "#/$defs/Input",
  "$defs": {
    "Input": {
      "properties": {
        "id": {"type": "string", "format": "uuid"},
        "created": {"type": "string", "format": "date-time"},
        "tags": {"items": {"type": "string"}, "type": "array", "uniqueItems": true},
        "tree": {"$ref": "#/$defs/Tree"},
        "level": {"type": "string", "enum": ["low", "high"], "default": "low"},
        "count": {"type": "integer", "minimum": 0, "maximum": 100},
        "meta": {"additionalProperties": {"type": "string"}, "type": "object"},
        "maybe": {"oneOf": [{"type": "string"}, {"type": "null"}]}
      },
      "additionalProperties": false,
      "type": "object",
      "required": ["id", "tree"]
    },
    "Tree": {
      "$anchor": "tree",
      "properties": {
        "name": {"type": "string", "minLength": 1},
        "children": {"items": {"$ref": "#tree"}, "type": "array"}
      },
      "additionalProperties": false,
      "type": "object",
      "required": ["name"]
    }
  }
}`

func TestInvopopStyleSchema(t *testing.T) {
	s := MustCompile([]byte(invopopStyle))
	good := `{"id":"123e4567-e89b-12d3-a456-426614174000","created":"2024-05-01T10:00:00Z","tags":["a","b"],
		"tree":{"name":"root","children":[{"name":"kid","children":[]}]},"level":"high","count":7,"meta":{"k":"v"},"maybe":null}`
	if err := s.Validate([]byte(good)); err != nil {
		t.Fatalf("good: %v", err)
	}
	for _, tc := range []struct{ data, want string }{
		{`{"id":"nope","tree":{"name":"r"}}`, "id: must be a valid uuid"},
		{`{"id":"123e4567-e89b-12d3-a456-426614174000","tree":{"name":"r","children":[{"name":""}]}}`, "tree.children[0].name: must be at least 1 characters long"},
		{`{"id":"123e4567-e89b-12d3-a456-426614174000","tree":{"name":"r"},"tags":["a","a"]}`, "tags: must not contain duplicate items (items 0 and 1 are equal)"},
		{`{"id":"123e4567-e89b-12d3-a456-426614174000","tree":{"name":"r"},"level":"mid"}`, `level: must be one of ["low","high"]`},
		{`{"id":"123e4567-e89b-12d3-a456-426614174000","tree":{"name":"r"},"count":101}`, `count: must be <= 100`},
		{`{"id":"123e4567-e89b-12d3-a456-426614174000","tree":{"name":"r"},"maybe":3}`, `maybe: expected string or null, got number`},
		{`{"id":"123e4567-e89b-12d3-a456-426614174000"}`, `missing required property "tree"`},
		{`{"id":"123e4567-e89b-12d3-a456-426614174000","tree":{"name":"r"},"extra":1}`, `additional property "extra" is not allowed`},
	} {
		err := s.Validate([]byte(tc.data))
		if err == nil || err.Error() != tc.want {
			t.Errorf("Validate(%s) = %v, want %q", tc.data, err, tc.want)
		}
	}
}

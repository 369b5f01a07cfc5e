package jsonschema

import (
	"errors"
	"fmt"
	"math/bits"
	"slices"
	"strings"
	"testing"
)

type vcase struct {
	name   string
	schema string
	data   string
	field  string // expected Field(); ignored when msg == ""
	msg    string // expected Message; "" means valid
}

var validateCases = []vcase{
	// true / false / empty schemas
	{"true schema", `true`, `{"a":[1,2,{"b":null}]}`, "", ""},
	{"empty schema", `{}`, `"x"`, "", ""},
	{"false schema", `false`, `1`, "", "no value is allowed here"},
	{"annotations only", `{"title":"t","description":"d","examples":[1],"default":2,"$comment":"c","deprecated":true,"readOnly":true,"writeOnly":false,"x-foo":1}`, `null`, "", ""},

	// type
	{"type string ok", `{"type":"string"}`, `"a"`, "", ""},
	{"type string bad", `{"type":"string"}`, `1`, "", "expected string, got number"},
	{"type object bad", `{"type":"object"}`, `[]`, "", "expected object, got array"},
	{"type array bad", `{"type":"array"}`, `{}`, "", "expected array, got object"},
	{"type boolean ok", `{"type":"boolean"}`, `false`, "", ""},
	{"type boolean bad", `{"type":"boolean"}`, `null`, "", "expected boolean, got null"},
	{"type null ok", `{"type":"null"}`, `null`, "", ""},
	{"type null bad", `{"type":"null"}`, `"null"`, "", "expected null, got string"},
	{"type number ok", `{"type":"number"}`, `-1.5e3`, "", ""},
	{"type number bad", `{"type":"number"}`, `true`, "", "expected number, got boolean"},
	{"type integer ok", `{"type":"integer"}`, `42`, "", ""},
	{"type integer 1.0", `{"type":"integer"}`, `1.0`, "", ""},
	{"type integer 1.5e1", `{"type":"integer"}`, `1.5e1`, "", ""},
	{"type integer 1e2", `{"type":"integer"}`, `1E+2`, "", ""},
	{"type integer big", `{"type":"integer"}`, `123456789012345678901234567890`, "", ""},
	{"type integer -0", `{"type":"integer"}`, `-0.0`, "", ""},
	{"type integer frac", `{"type":"integer"}`, `1.5`, "", "expected integer, got number"},
	{"type integer tiny", `{"type":"integer"}`, `1e-400`, "", "expected integer, got number"},
	{"type integer big frac", `{"type":"integer"}`, `12345678901234567890.5`, "", "expected integer, got number"},
	{"type integer string", `{"type":"integer"}`, `"1"`, "", "expected integer, got string"},
	{"type array of types ok", `{"type":["string","null"]}`, `null`, "", ""},
	{"type array of types bad", `{"type":["string","null"]}`, `1`, "", "expected string or null, got number"},
	{"type number and integer", `{"type":["integer","number"]}`, `true`, "", "expected number, got boolean"},

	// properties, required, additionalProperties
	{"properties ok", `{"properties":{"a":{"type":"string"}}}`, `{"a":"x","b":1}`, "", ""},
	{"properties bad", `{"properties":{"a":{"type":"string"}}}`, `{"b":1,"a":2}`, "a", "expected string, got number"},
	{"properties non-object ignored", `{"properties":{"a":{"type":"string"}}}`, `[1]`, "", ""},
	{"properties escaped key", `{"properties":{"a/b":{"type":"string"}}}`, `{"a\u002fb":1}`, `["a/b"]`, "expected string, got number"},
	{"required ok", `{"required":["a","b"]}`, `{"b":1,"a":null}`, "", ""},
	{"required missing", `{"required":["name"]}`, `{"nam":1}`, "", `missing required property "name"`},
	{"required missing many", `{"required":["a","b","c"]}`, `{"b":1}`, "", `missing required properties "a", "c"`},
	{"required escaped key", `{"required":["é"]}`, `{"\u00e9":1}`, "", ""},
	{"required only on objects", `{"required":["a"]}`, `"x"`, "", ""},
	{"additionalProperties false ok", `{"properties":{"a":{}},"additionalProperties":false}`, `{"a":1}`, "", ""},
	{"additionalProperties false bad", `{"properties":{"a":{}},"additionalProperties":false}`, `{"a":1,"x":2}`, "", `additional property "x" is not allowed`},
	// Keys are recognised by their bytes where a name needs no escapes;
	// escaped keys, names that need escapes and near misses still work.
	{"key escaped", `{"properties":{"name":{"type":"string"}},"additionalProperties":false}`, `{"n\u0061me":"x"}`, "", ""},
	{"key escaped checked", `{"properties":{"name":{"type":"string"}}}`, `{"n\u0061me":1}`, "name", "expected string, got number"},
	{"key a prefix of a name", `{"properties":{"name":{}},"additionalProperties":false}`, `{"nam":1}`, "", `additional property "nam" is not allowed`},
	{"key a name's prefix", `{"properties":{"nam":{}},"additionalProperties":false}`, `{"name":1}`, "", `additional property "name" is not allowed`},
	{"name needing escapes", `{"properties":{"a\"b":{"type":"integer"},"c":{}},"additionalProperties":false}`, `{"a\"b":"x"}`, `["a\"b"]`, "expected integer, got string"},
	{"empty name", `{"properties":{"":{"type":"integer"}},"required":[""]}`, `{"":1}`, "", ""},
	{"additionalProperties required-only name", `{"required":["x"],"additionalProperties":false}`, `{"x":2}`, "", `additional property "x" is not allowed`},
	{"additionalProperties schema ok", `{"additionalProperties":{"type":"integer"}}`, `{"a":1,"b":2}`, "", ""},
	{"additionalProperties schema bad", `{"additionalProperties":{"type":"integer"}}`, `{"a":1,"b":"2"}`, "b", "expected integer, got string"},
	{"patternProperties ok", `{"patternProperties":{"^x-":{"type":"string"}},"additionalProperties":false}`, `{"x-a":"1"}`, "", ""},
	{"patternProperties bad", `{"patternProperties":{"^x-":{"type":"string"}}}`, `{"x-a":1}`, `["x-a"]`, "expected string, got number"},
	{"patternProperties and properties both apply", `{"properties":{"x-a":{"type":"integer"}},"patternProperties":{"^x-":{"minimum":5}}}`, `{"x-a":3}`, `["x-a"]`, "must be >= 5"},
	{"patternProperties blocks additional", `{"patternProperties":{"^x-":true},"additionalProperties":false}`, `{"x-a":1,"y":2}`, "", `additional property "y" is not allowed`},
	{"propertyNames ok", `{"propertyNames":{"pattern":"^[a-z]+$"}}`, `{"abc":1}`, "", ""},
	{"propertyNames bad", `{"propertyNames":{"maxLength":3}}`, `{"abcd":1}`, "", `invalid property name "abcd": must be at most 3 characters long`},
	{"minProperties ok", `{"minProperties":1}`, `{"a":1}`, "", ""},
	{"minProperties bad", `{"minProperties":2}`, `{"a":1}`, "", "must have at least 2 properties"},
	{"maxProperties ok", `{"maxProperties":1}`, `{"a":1}`, "", ""},
	{"maxProperties bad", `{"maxProperties":1}`, `{"a":1,"b":2}`, "", "must have at most 1 properties"},
	{"nested path", `{"properties":{"entities":{"items":{"properties":{"name":{"type":"string"}}}}}}`, `{"entities":[{"name":"a"},{"name":7}]}`, "entities[1].name", "expected string, got number"},
	{"many properties map lookup", `{"properties":{"a":{},"b":{},"c":{},"d":{},"e":{},"f":{},"g":{},"h":{},"i":{"type":"string"}},"additionalProperties":false}`, `{"i":"x","a":1}`, "", ""},
	{"many properties map lookup bad", `{"properties":{"a":{},"b":{},"c":{},"d":{},"e":{},"f":{},"g":{},"h":{},"i":{"type":"string"}},"additionalProperties":false}`, `{"i":1}`, "i", "expected string, got number"},

	// arrays
	{"items ok", `{"items":{"type":"integer"}}`, `[1,2,3]`, "", ""},
	{"items bad", `{"items":{"type":"integer"}}`, `[1,2,"3"]`, "[2]", "expected integer, got string"},
	{"items empty", `{"items":false}`, `[]`, "", ""},
	{"items false", `{"items":false}`, `[1]`, "", "must have at most 0 items"},
	{"prefixItems ok", `{"prefixItems":[{"type":"string"},{"type":"integer"}]}`, `["a",1,true]`, "", ""},
	{"prefixItems bad", `{"prefixItems":[{"type":"string"},{"type":"integer"}]}`, `["a","b"]`, "[1]", "expected integer, got string"},
	{"prefixItems short ok", `{"prefixItems":[{"type":"string"},{"type":"integer"}]}`, `["a"]`, "", ""},
	{"prefixItems with items", `{"prefixItems":[{"type":"string"}],"items":{"type":"integer"}}`, `["a",1,"b"]`, "[2]", "expected integer, got string"},
	{"prefixItems items false", `{"prefixItems":[{"type":"string"}],"items":false}`, `["a",1]`, "", "must have at most 1 items"},
	{"minItems ok", `{"minItems":1}`, `[1]`, "", ""},
	{"minItems bad", `{"minItems":1}`, `[]`, "", "must have at least 1 items"},
	{"maxItems ok", `{"maxItems":2}`, `[1,2]`, "", ""},
	{"maxItems bad", `{"maxItems":2}`, `[1,2,3]`, "", "must have at most 2 items"},
	{"uniqueItems ok", `{"uniqueItems":true}`, `[1,"1",[1],{"a":1},true,null,1.5]`, "", ""},
	{"uniqueItems numbers", `{"uniqueItems":true}`, `[1,2,1.0]`, "", "must not contain duplicate items (items 0 and 2 are equal)"},
	{"uniqueItems strings escaped", `{"uniqueItems":true}`, `["a","b","\u0061"]`, "", "must not contain duplicate items (items 0 and 2 are equal)"},
	{"uniqueItems objects reordered", `{"uniqueItems":true}`, `[{"a":1,"b":[2]},{"b":[2.0],"a":1}]`, "", "must not contain duplicate items (items 0 and 1 are equal)"},
	{"uniqueItems arrays order matters", `{"uniqueItems":true}`, `[[1,2],[2,1]]`, "", ""},
	{"uniqueItems false", `{"uniqueItems":false}`, `[1,1]`, "", ""},
	{"uniqueItems nested", `{"items":{"uniqueItems":true}}`, `[[1,2],[3,3]]`, "[1]", "must not contain duplicate items (items 0 and 1 are equal)"},

	// strings
	{"minLength ok", `{"minLength":2}`, `"ab"`, "", ""},
	{"minLength bad", `{"minLength":3}`, `"ab"`, "", "must be at least 3 characters long"},
	{"minLength code points", `{"minLength":2,"maxLength":2}`, `"é😀"`, "", ""},
	{"minLength escapes", `{"maxLength":2}`, `"\u00e9\ud83d\ude00"`, "", ""},
	{"maxLength escapes bad", `{"maxLength":1}`, `"\n\t"`, "", "must be at most 1 characters long"},
	{"maxLength bad", `{"maxLength":3}`, `"abcd"`, "", "must be at most 3 characters long"},
	{"minLength non-string", `{"minLength":3}`, `1`, "", ""},
	{"pattern ok", `{"pattern":"^a"}`, `"abc"`, "", ""},
	{"pattern bad", `{"pattern":"^a"}`, `"bac"`, "", "must match pattern ^a"},
	{"pattern unanchored", `{"pattern":"b"}`, `"abc"`, "", ""},
	{"pattern escaped input", `{"pattern":"^a\\nb$"}`, `"a\nb"`, "", ""},
	{"pattern unicode escape", `{"pattern":"^\\u00e9+$"}`, `"éé"`, "", ""},
	{"format date-time ok", `{"format":"date-time"}`, `"2024-02-29T12:30:00.123+05:30"`, "", ""},
	{"format date-time Z", `{"format":"date-time"}`, `"2024-01-01t00:00:60z"`, "", ""},
	{"format date-time bad", `{"format":"date-time"}`, `"2023-02-29T12:30:00Z"`, "", "must be a valid date-time"},
	{"format date-time no zone", `{"format":"date-time"}`, `"2023-02-20T12:30:00"`, "", "must be a valid date-time"},
	{"format date ok", `{"format":"date"}`, `"2000-02-29"`, "", ""},
	{"format date bad", `{"format":"date"}`, `"1900-02-29"`, "", "must be a valid date"},
	{"format email ok", `{"format":"email"}`, `"john.doe+tag@example.co.uk"`, "", ""},
	{"format email bad", `{"format":"email"}`, `"john@@example.com"`, "", "must be a valid email"},
	{"format email no at", `{"format":"email"}`, `"example.com"`, "", "must be a valid email"},
	{"format uri ok", `{"format":"uri"}`, `"https://example.com/a%20b?q=1#frag"`, "", ""},
	{"format uri relative", `{"format":"uri"}`, `"/a/b"`, "", "must be a valid uri"},
	{"format uri space", `{"format":"uri"}`, `"http://a b"`, "", "must be a valid uri"},
	{"format uuid ok", `{"format":"uuid"}`, `"123e4567-E89b-12d3-a456-426614174000"`, "", ""},
	{"format uuid bad", `{"format":"uuid"}`, `"123e4567e89b12d3a456426614174000"`, "", "must be a valid uuid"},
	{"format unknown", `{"format":"ipv4"}`, `"not an ip"`, "", ""},
	{"format non-string", `{"format":"uuid"}`, `12`, "", ""},

	// numbers
	{"minimum ok", `{"minimum":1}`, `1`, "", ""},
	{"minimum bad", `{"minimum":1}`, `0.999`, "", "must be >= 1"},
	{"maximum ok", `{"maximum":1.5}`, `15e-1`, "", ""},
	{"maximum bad", `{"maximum":10}`, `10.0001`, "", "must be <= 10"},
	{"exclusiveMinimum ok", `{"exclusiveMinimum":0}`, `1e-300`, "", ""},
	{"exclusiveMinimum bad", `{"exclusiveMinimum":0}`, `-0`, "", "must be > 0"},
	{"exclusiveMaximum ok", `{"exclusiveMaximum":-1}`, `-1.0001`, "", ""},
	{"exclusiveMaximum bad", `{"exclusiveMaximum":-1}`, `-1.0`, "", "must be < -1"},
	{"maximum big exact", `{"maximum":9007199254740993}`, `9007199254740994`, "", "must be <= 9007199254740993"},
	{"maximum big exact ok", `{"maximum":9007199254740993}`, `9007199254740993`, "", ""},
	{"minimum negative", `{"minimum":-5}`, `-6`, "", "must be >= -5"},
	{"minimum huge exponent", `{"maximum":1e308}`, `1e309`, "", "must be <= 1e308"},
	{"multipleOf ok", `{"multipleOf":0.01}`, `0.07`, "", ""},
	{"multipleOf int ok", `{"multipleOf":3}`, `-9e3`, "", ""},
	{"multipleOf bad", `{"multipleOf":0.01}`, `0.075`, "", "must be a multiple of 0.01"},
	{"multipleOf int bad", `{"multipleOf":2}`, `7`, "", "must be a multiple of 2"},
	{"multipleOf large", `{"multipleOf":7}`, `1e30`, "", "must be a multiple of 7"},
	{"multipleOf large ok", `{"multipleOf":8}`, `1e30`, "", ""},
	{"multipleOf bigint ok", `{"multipleOf":3}`, `123456789012345678901234567890`, "", ""},
	{"multipleOf bigint bad", `{"multipleOf":7}`, `123456789012345678901234567891`, "", "must be a multiple of 7"},
	{"multipleOf zero", `{"multipleOf":7.5}`, `0`, "", ""},
	{"number keywords ignore strings", `{"minimum":5}`, `"1"`, "", ""},

	// enum / const
	{"enum ok", `{"enum":["a","b"]}`, `"b"`, "", ""},
	{"enum escaped ok", `{"enum":["a","b"]}`, `"\u0062"`, "", ""},
	{"enum bad", `{"enum":["a","b"]}`, `"c"`, "", `must be one of ["a","b"]`},
	{"enum type mismatch", `{"enum":["a","b"]}`, `1`, "", `must be one of ["a","b"]`},
	{"enum numbers", `{"enum":[1,2.5]}`, `2.50`, "", ""},
	{"enum numbers bad", `{"enum":[1,2.5]}`, `2`, "", `must be one of [1,2.5]`},
	{"enum literals", `{"enum":[true,null]}`, `null`, "", ""},
	{"enum literals bad", `{"enum":[true,null]}`, `false`, "", `must be one of [true,null]`},
	{"enum composite", `{"enum":[{"a":[1]},[1,2]]}`, `{"a":[1.0]}`, "", ""},
	{"enum composite bad", `{"enum":[{"a":[1]},[1,2]]}`, `[2,1]`, "", `must be one of [{"a":[1]},[1,2]]`},
	{"enum many strings", `{"enum":["a","b","c","d","e","f","g","h","i","j"]}`, `"j"`, "", ""},
	{"enum many strings bad", `{"enum":["a","b","c","d","e","f","g","h","i","j"]}`, `"k"`, "", `must be one of ["a","b","c","d","e","f","g","h","i","j"]`},
	{"const ok", `{"const":"x"}`, `"x"`, "", ""},
	{"const bad", `{"const":"x"}`, `"y"`, "", `must be equal to "x"`},
	{"const number", `{"const":10}`, `1e1`, "", ""},
	{"const object bad", `{"const":{"a":1}}`, `{"a":2}`, "", `must be equal to {"a":1}`},
	{"const null", `{"const":null}`, `0`, "", `must be equal to null`},

	// combinators
	{"allOf ok", `{"allOf":[{"type":"integer"},{"minimum":2}]}`, `3`, "", ""},
	{"allOf bad", `{"allOf":[{"type":"integer"},{"minimum":2}]}`, `1`, "", "must be >= 2"},
	{"anyOf ok", `{"anyOf":[{"type":"string"},{"type":"integer"}]}`, `3`, "", ""},
	{"anyOf types", `{"anyOf":[{"type":"string"},{"type":"integer"}]}`, `3.5`, "", "expected string or integer, got number"},
	{"anyOf deep", `{"anyOf":[{"type":"null"},{"type":"object","properties":{"a":{"type":"string"}}}]}`, `{"a":1}`, "a", "expected string, got number"},
	{"anyOf several", `{"anyOf":[{"type":"string","minLength":5},{"type":"string","pattern":"^a"}]}`, `"bc"`, "", "must satisfy at least one of: must be at least 5 characters long; or must match pattern ^a"},
	{"anyOf in items", `{"items":{"anyOf":[{"type":"string"},{"type":"null"}]}}`, `["a",null,1]`, "[2]", "expected string or null, got number"},
	{"oneOf ok", `{"oneOf":[{"type":"string"},{"type":"integer"}]}`, `"x"`, "", ""},
	{"oneOf none", `{"oneOf":[{"type":"string"},{"type":"integer"}]}`, `null`, "", "expected string or integer, got null"},
	{"oneOf both", `{"oneOf":[{"type":"number"},{"type":"integer"}]}`, `1`, "", "must match exactly one schema in oneOf, but matches both schema 0 and schema 1"},
	{"not ok", `{"not":{"type":"string"}}`, `1`, "", ""},
	{"not bad", `{"not":{"type":"string"}}`, `"a"`, "", `must not match the schema in "not"`},
	{"not with own keywords", `{"type":"integer","not":{"const":3}}`, `3`, "", `must not match the schema in "not"`},
	{"combinator with siblings", `{"type":"object","required":["a"],"anyOf":[{"required":["b"]},{"required":["c"]}]}`, `{"a":1,"c":1}`, "", ""},
	{"combinator with siblings bad", `{"type":"object","required":["a"],"anyOf":[{"required":["b"]},{"required":["c"]}]}`, `{"a":1}`, "", `must satisfy at least one of: missing required property "b"; or missing required property "c"`},

	{"if then ok", `{"if":{"properties":{"m":{"const":"phone"}}},"then":{"required":["phone"]},"else":{"required":["email"]}}`, `{"m":"phone","phone":"1"}`, "", ""},
	{"if then bad", `{"if":{"properties":{"m":{"const":"phone"}}},"then":{"required":["phone"]},"else":{"required":["email"]}}`, `{"m":"phone","email":"a"}`, "", `missing required property "phone"`},
	{"if else ok", `{"if":{"properties":{"m":{"const":"phone"}}},"then":{"required":["phone"]},"else":{"required":["email"]}}`, `{"m":"mail","email":"a"}`, "", ""},
	{"if else bad", `{"if":{"properties":{"m":{"const":"phone"}}},"then":{"required":["phone"]},"else":{"required":["email"]}}`, `{"m":"mail"}`, "", `missing required property "email"`},
	{"if without else", `{"if":{"type":"string"},"then":{"minLength":2}}`, `1`, "", ""},
	{"if without else bad", `{"if":{"type":"string"},"then":{"minLength":2}}`, `"a"`, "", "must be at least 2 characters long"},
	{"then without if", `{"then":false,"else":false}`, `1`, "", ""},
	{"if alone", `{"if":false}`, `1`, "", ""},
	{"if nested path", `{"items":{"if":{"type":"object"},"then":{"properties":{"a":{"type":"integer"}}}}}`, `[1,{"a":"x"}]`, "[1].a", "expected integer, got string"},

	// $ref
	{"ref defs", `{"$defs":{"s":{"type":"string"}},"properties":{"a":{"$ref":"#/$defs/s"}}}`, `{"a":"x"}`, "", ""},
	{"ref defs bad", `{"$defs":{"s":{"type":"string"}},"properties":{"a":{"$ref":"#/$defs/s"}}}`, `{"a":1}`, "a", "expected string, got number"},
	{"ref definitions", `{"definitions":{"s":{"type":"string"}},"items":{"$ref":"#/definitions/s"}}`, `[1]`, "[0]", "expected string, got number"},
	{"ref root", `{"$ref":"#/$defs/T","$defs":{"T":{"type":"object","required":["x"]}}}`, `{}`, "", `missing required property "x"`},
	{"ref with siblings", `{"$defs":{"s":{"type":"string"}},"$ref":"#/$defs/s","maxLength":2}`, `"abc"`, "", "must be at most 2 characters long"},
	{"ref recursive ok", `{"$defs":{"node":{"type":"object","properties":{"children":{"type":"array","items":{"$ref":"#/$defs/node"}},"v":{"type":"integer"}},"additionalProperties":false}},"$ref":"#/$defs/node"}`, `{"v":1,"children":[{"v":2,"children":[]},{"children":[{"v":3}]}]}`, "", ""},
	{"ref recursive bad", `{"$defs":{"node":{"type":"object","properties":{"children":{"type":"array","items":{"$ref":"#/$defs/node"}},"v":{"type":"integer"}},"additionalProperties":false}},"$ref":"#/$defs/node"}`, `{"v":1,"children":[{"v":2,"children":[]},{"children":[{"v":3.5}]}]}`, "children[1].children[0].v", "expected integer, got number"},
	{"ref hash root", `{"properties":{"next":{"$ref":"#"}},"type":"object","additionalProperties":false}`, `{"next":{"next":{"x":1}}}`, "next.next", `additional property "x" is not allowed`},
	{"ref escaped pointer", `{"$defs":{"a/b":{"type":"string"},"c%d":{"type":"integer"}},"properties":{"x":{"$ref":"#/$defs/a~1b"},"y":{"$ref":"#/$defs/c%25d"}}}`, `{"x":"s","y":"t"}`, "y", "expected integer, got string"},
	{"ref anchor", `{"$defs":{"s":{"$anchor":"str","type":"string"}},"items":{"$ref":"#str"}}`, `["a",2]`, "[1]", "expected string, got number"},
	{"ref by id", `{"$id":"https://example.com/root.json","$defs":{"s":{"$id":"str.json","type":"string"}},"items":{"$ref":"https://example.com/str.json"}}`, `[2]`, "[0]", "expected string, got number"},
	{"ref relative id", `{"$id":"https://example.com/root.json","$defs":{"s":{"$id":"str.json","type":"string"}},"items":{"$ref":"str.json"}}`, `[2]`, "[0]", "expected string, got number"},
	{"ref root id pointer", `{"$id":"https://example.com/root.json","$defs":{"s":{"type":"string"}},"items":{"$ref":"https://example.com/root.json#/$defs/s"}}`, `["a"]`, "", ""},
	{"ref false", `{"$defs":{"no":false},"properties":{"a":{"$ref":"#/$defs/no"}}}`, `{"a":1}`, "a", "no value is allowed here"},

	// paths and keys
	{"path escaping", `{"properties":{"a b":{"properties":{"~/":{"type":"string"}}}}}`, `{"a b":{"~/":1}}`, `["a b"]["~/"]`, "expected string, got number"},
	{"duplicate keys all validated", `{"properties":{"a":{"type":"string"}}}`, `{"a":"x","a":1}`, "a", "expected string, got number"},
	{"whitespace everywhere", `{"properties":{"a":{"type":"array","items":{"type":"integer"}}},"required":["a"]}`, " \t\n{ \"a\" : [ 1 , 2 ] } \r\n", "", ""},
}

func TestValidate(t *testing.T) {
	for _, tc := range validateCases {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Compile([]byte(tc.schema))
			if err != nil {
				t.Fatalf("Compile: %v", err)
			}
			err = s.Validate([]byte(tc.data))
			if tc.msg == "" {
				if err != nil {
					t.Fatalf("Validate(%s) = %v, want nil", tc.data, err)
				}
				return
			}
			var ve *ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("Validate(%s) = %v (%T), want *ValidationError", tc.data, err, err)
			}
			if ve.Field() != tc.field || ve.Message != tc.msg {
				t.Errorf("Validate(%s):\n got field %q message %q\nwant field %q message %q", tc.data, ve.Field(), ve.Message, tc.field, tc.msg)
			}
			want := tc.msg
			if tc.field != "" {
				want = tc.field + ": " + tc.msg
			}
			if ve.Error() != want {
				t.Errorf("Error() = %q, want %q", ve.Error(), want)
			}
		})
	}
}

func TestValidationErrorPathAndKeyword(t *testing.T) {
	s := MustCompile([]byte(`{"properties":{"entities":{"items":{"properties":{"a/b~c":{"type":"string"}},"required":["name"]}}}}`))
	for _, tc := range []struct{ data, path, field, kw string }{
		{`{"entities":[{"name":"x","a/b~c":1}]}`, "/entities/0/a~1b~0c", `entities[0]["a/b~c"]`, "type"},
		{`{"entities":[{"name":"x"},{}]}`, "/entities/1", "entities[1]", "required"},
	} {
		err := s.Validate([]byte(tc.data))
		var ve *ValidationError
		if !errors.As(err, &ve) {
			t.Fatalf("%s: got %v", tc.data, err)
		}
		if ve.Path != tc.path || ve.Field() != tc.field || ve.Keyword != tc.kw {
			t.Errorf("%s: got path %q field %q keyword %q, want %q %q %q", tc.data, ve.Path, ve.Field(), ve.Keyword, tc.path, tc.field, tc.kw)
		}
	}
}

func TestSyntaxErrors(t *testing.T) {
	schemas := []string{`true`, `{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":false}`, `{"type":"integer"}`, `{"anyOf":[{"type":"string"},{"type":"array","items":{"type":"integer"}}]}`}
	bad := []string{
		``, ` `, `{`, `[`, `"abc`, `{"a"`, `{"a":`, `{"a":1`, `{"a":1,`, `[1,`, `[1,]`, `{"a":1,}`, `{,}`, `[,1]`,
		`{"a" 1}`, `{1:2}`, `{'a':1}`, `tru`, `nul`, `falsey`, `nulll`, `01`, `-`, `1.`, `.5`, `1e`, `1e+`, `+1`, `0x10`, `NaN`, `Infinity`,
		`{}x`, `1 2`, `[] []`, `"a" "b"`, `{"a":1}}`, `[1]]`,
		`"\x"`, `"\u12"`, `"\u12G4"`, `"\`, `"a` + "\x00" + `"`, "\"\t\"", "\"\xff\"", "\"\xc3\"", "\"\xed\xa0\x80\"", "\"\xf4\x90\x80\x80\"",
		"\xef\xbb\xbf{}", "{\"a\":1}\x00", `[1 2]`, `{"a":1 "b":2}`,
		strings.Repeat("[", 100) + strings.Repeat("]", 99),
	}
	for _, sch := range schemas {
		s := MustCompile([]byte(sch))
		for _, data := range bad {
			err := s.Validate([]byte(data))
			if !errors.Is(err, ErrSyntax) {
				t.Errorf("schema %s: Validate(%q) = %v, want ErrSyntax", sch, data, err)
			}
			var ie *InputError
			if !errors.As(err, &ie) || ie.Offset < 0 || ie.Offset > len(data) {
				t.Errorf("Validate(%q) = %#v, want *InputError with offset in range", data, err)
			}
		}
	}
}

func TestSyntaxErrorBeatsValidationError(t *testing.T) {
	s := MustCompile([]byte(`{"type":"object","properties":{"a":{"type":"string"}}}`))
	for _, data := range []string{`{"a":1,"b":}`, `[1,2,`, `{"a":1} x`, `{"a":1,"b":"\q"}`} {
		if err := s.Validate([]byte(data)); !errors.Is(err, ErrSyntax) {
			t.Errorf("Validate(%q) = %v, want ErrSyntax", data, err)
		}
	}
}

func TestDepthLimit(t *testing.T) {
	ok := strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth)
	deep := strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1)
	deepObj := strings.Repeat(`{"a":`, MaxDepth+1) + "1" + strings.Repeat("}", MaxDepth+1)
	huge := strings.Repeat("[", 1<<20)
	recursive := `{"$defs":{"n":{"type":["array","object"],"items":{"$ref":"#/$defs/n"},"additionalProperties":{"$ref":"#/$defs/n"}}},"$ref":"#/$defs/n"}`
	for _, sch := range []string{`true`, `{"type":"array"}`, recursive, `{"type":"string"}`} {
		s := MustCompile([]byte(sch))
		if err := s.Validate([]byte(ok)); err != nil && !strings.Contains(sch, "string") {
			t.Errorf("schema %s: depth %d: %v", sch, MaxDepth, err)
		}
		for _, data := range []string{deep, deepObj, huge} {
			if err := s.Validate([]byte(data)); !errors.Is(err, ErrTooDeep) {
				t.Errorf("schema %s: Validate(deep %d bytes) = %v, want ErrTooDeep", sch, len(data), err)
			}
		}
	}
}

func TestTooComplex(t *testing.T) {
	// Each level tries both anyOf branches, each recursing: 2^depth
	// evaluations without the step budget.
	s := MustCompile([]byte(`{"$defs":{"n":{"anyOf":[
		{"type":"array","items":{"$ref":"#/$defs/n"},"maxItems":1,"minItems":2},
		{"type":"array","items":{"$ref":"#/$defs/n"}},
		{"type":"integer"}]}},"$ref":"#/$defs/n"}`))
	data := strings.Repeat("[", 200) + "1" + strings.Repeat("]", 200)
	if err := s.Validate([]byte(data)); !errors.Is(err, ErrTooComplex) {
		t.Fatalf("got %v, want ErrTooComplex", err)
	}
	small := strings.Repeat("[", 5) + "1" + strings.Repeat("]", 5)
	if err := s.Validate([]byte(small)); err != nil {
		t.Fatalf("small: %v", err)
	}
}

func TestSpecialMask(t *testing.T) {
	// The index of the first byte that is not strPlain, or -1.
	naive := func(b []byte) int {
		for i, c := range b {
			if !strPlain[c] {
				return i
			}
		}
		return -1
	}
	check := func(b []byte) {
		w := uint64(0)
		for k := 7; k >= 0; k-- {
			w = w<<8 | uint64(b[k])
		}
		got := -1
		if m := specialMask(w); m != 0 {
			got = bits.TrailingZeros64(m) >> 3
		}
		if want := naive(b); got != want {
			t.Fatalf("specialMask(%q): first special byte %d, want %d", b, got, want)
		}
	}
	for pos := range 8 {
		for c := range 256 {
			for _, base := range []string{"abcdefgh", "\x21\x21\x21\x21\x21\x21\x21\x21", "\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f"} {
				b := []byte(base)
				b[pos] = byte(c)
				check(b)
				// A second special byte above or below the first.
				for other := range 8 {
					if other != pos {
						b2 := slices.Clone(b)
						b2[other] = []byte{0, '"', '\\', 0x1f, 0x80, 0xff}[(c+other)%6]
						check(b2)
					}
				}
			}
		}
	}
}

func TestEnumDisplay(t *testing.T) {
	long := `"` + strings.Repeat("é", 400) + `"`
	for _, tc := range []struct{ schema, data, want string }{
		{`{"enum":["<a>","b&c"]}`, `"x"`, `must be one of ["<a>","b&c"]`},
		{`{"const":"<a>"}`, `"x"`, `must be equal to "<a>"`},
		{`{"const":` + long + `}`, `"x"`, `must be equal to "` + strings.Repeat("é", 149) + `…`},
	} {
		err := MustCompile([]byte(tc.schema)).Validate([]byte(tc.data))
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s: got %v, want %q", tc.schema, err, tc.want)
		}
	}
}

func TestConcurrentValidate(t *testing.T) {
	s := MustCompile([]byte(ingestSchema))
	good := ingestPayload(5)
	bad := []byte(strings.Replace(string(good), `"entityType":"person"`, `"entityType":7`, 1))
	done := make(chan bool)
	for g := range 4 {
		go func() {
			defer func() { done <- true }()
			for range 200 {
				if err := s.Validate(good); err != nil {
					t.Errorf("goroutine %d: %v", g, err)
					return
				}
				if err := s.Validate(bad); err == nil || err.Error() != "entities[0].entityType: expected string, got number" {
					t.Errorf("goroutine %d: %v", g, err)
					return
				}
			}
		}()
	}
	for range 4 {
		<-done
	}
}

func TestManyRequired(t *testing.T) {
	for _, n := range []int{63, 64, 65, 130} {
		var names, members []string
		for i := range n {
			names = append(names, fmt.Sprintf("%q", fmt.Sprint("p", i)))
			members = append(members, fmt.Sprintf("%q:%d", fmt.Sprint("p", i), i))
		}
		s := MustCompile([]byte(`{"required":[` + strings.Join(names, ",") + `]}`))
		if err := s.Validate([]byte("{" + strings.Join(members, ",") + "}")); err != nil {
			t.Errorf("%d required, all present: %v", n, err)
		}
		missing := fmt.Sprintf(`missing required property "p%d"`, n-1)
		if err := s.Validate([]byte("{" + strings.Join(members[:n-1], ",") + "}")); err == nil || err.Error() != missing {
			t.Errorf("%d required, last missing: %v", n, err)
		}
	}
}

// TestStringSyntax checks that a malformed string is a syntax error under
// every kind of string schema, including the plain ones validated by the
// shortest path, and in keys recognised by their bytes.
func TestStringSyntax(t *testing.T) {
	schemas := []string{`{}`, `{"type":"string"}`, `{"type":"string","minLength":1}`, `{"type":["string","null"]}`}
	for _, bad := range []string{"\"x\ty\"", "\"x\xffy\"", `"x\qy"`, `"x\u12"`, `"xy`} {
		for _, sch := range schemas {
			for _, c := range []struct{ schema, data string }{
				{sch, bad},
				{`{"properties":{"a":` + sch + `}}`, `{"a":` + bad + `}`},
				{`{"items":` + sch + `}`, `[` + bad + `]`},
			} {
				err := MustCompile([]byte(c.schema)).Validate([]byte(c.data))
				if !errors.Is(err, ErrSyntax) {
					t.Errorf("Validate(%q) against %s = %v, want a syntax error", c.data, c.schema, err)
				}
			}
		}
	}
	s := MustCompile([]byte(`{"properties":{"ab":{}},"additionalProperties":false}`))
	for _, data := range []string{"{\"a\tb\":1}", `{"ab`, `{"ab"`, `{"ab":}`} {
		if err := s.Validate([]byte(data)); !errors.Is(err, ErrSyntax) {
			t.Errorf("Validate(%q) = %v, want a syntax error", data, err)
		}
	}
}

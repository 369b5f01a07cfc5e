package jsonschema

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// TestValidateAll reports every failure of a document, in document order,
// each at its own path, where Validate reports the first.
func TestValidateAll(t *testing.T) {
	s := MustCompile([]byte(`{
		"type": "object",
		"properties": {
			"a": {"type": "string"},
			"b": {"type": "integer", "minimum": 0},
			"c": {"type": "array", "items": {"type": "string"}, "maxItems": 2},
			"n": {"type": "object", "properties": {"x": {"type": "boolean"}}, "required": ["x", "y"]},
			"u": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
			"d": {}
		},
		"required": ["d"],
		"additionalProperties": false
	}`))
	doc := []byte(`{"a":1,"b":-1,"c":["x",2,"y"],"n":{"x":"no"},"u":true,"e":true}`)
	var want = []string{
		"/a: expected string, got number",
		"/b: must be >= 0",
		"/c/1: expected string, got number",
		"/c: must have at most 2 items",
		"/n/x: expected boolean, got string",
		`/n: missing required property "y"`,
		"/u: expected string or integer, got boolean",
		`: additional property "e" is not allowed`,
		`: missing required property "d"`,
	}
	err := s.ValidateAll(doc, 100)
	var ves ValidationErrors
	if !errors.As(err, &ves) {
		t.Fatalf("ValidateAll: %v (%T), want ValidationErrors", err, err)
	}
	var got []string
	for _, e := range ves {
		got = append(got, e.Path+": "+e.Message)
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("ValidateAll found\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// Validate still stops at the first.
	var ve *ValidationError
	if err := s.Validate(doc); !errors.As(err, &ve) || ve.Path != "/a" {
		t.Errorf("Validate: %v, want the failure at /a", err)
	}
	if err := s.ValidateAll([]byte(`{"d":1,"a":"x"}`), 100); err != nil {
		t.Errorf("a valid document: %v", err)
	}
	if err := s.ValidateAll([]byte(`{"a":1,`), 100); !errors.Is(err, ErrSyntax) {
		t.Errorf("a broken document: %v, want ErrSyntax", err)
	}
}

// TestValidateAllBounded stops at the limit, however many failures the
// document holds.
func TestValidateAllBounded(t *testing.T) {
	s := MustCompile([]byte(`{"type":"array","items":{"type":"string"}}`))
	doc := "[" + strings.Repeat("1,", 999) + "1]"
	err := s.ValidateAll([]byte(doc), 10)
	var ves ValidationErrors
	if !errors.As(err, &ves) || len(ves) != 10 {
		t.Fatalf("ValidateAll: %d failures (%v), want 10", len(ves), err)
	}
	for i, e := range ves {
		if want := fmt.Sprintf("/%d", i); e.Path != want {
			t.Errorf("failure %d at %q, want %q", i, e.Path, want)
		}
	}
}

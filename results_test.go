package mcpgen

import (
	"strings"
	"testing"
)

// TestStructuredResultNil checks that a nil pointer or map returned with
// no error is a tool error saying so, not a null structuredContent that
// breaks the output schema (or a panic).
func TestStructuredResultNil(t *testing.T) {
	type out struct{ N int }
	for name, call := range map[string]func() (bool, string, []byte, error){
		"pointer": func() (bool, string, []byte, error) {
			r, err := StructuredResult[*out](nil, nil)
			return r.IsError, r.Content[0].Text, r.StructuredContent, err
		},
		"map": func() (bool, string, []byte, error) {
			r, err := StructuredResult[map[string]int](nil, nil)
			return r.IsError, r.Content[0].Text, r.StructuredContent, err
		},
		"with text": func() (bool, string, []byte, error) {
			r, err := StructuredResultText[*out](nil, "unused")
			return r.IsError, r.Content[0].Text, r.StructuredContent, err
		},
	} {
		isErr, text, sc, err := call()
		if err != nil || !isErr || !strings.Contains(text, "no result") || sc != nil {
			t.Errorf("%s: isError=%v text=%q structuredContent=%s err=%v", name, isErr, text, sc, err)
		}
	}
	r, err := StructuredResult(&out{N: 1}, nil)
	if err != nil || r.IsError || string(r.StructuredContent) != `{"N":1}` {
		t.Errorf("a value: %+v, %v", r, err)
	}
}

// Package p8 is a random component package (seed 1796199688383063429) of the property test.
//
//mcp:server
package p8

import (
	"context"
)

// Lang is a string-kinded type, usable as a map key.
type Lang string

// Score is a named sized integer.
type Score int16

// I0 is generated.
type I0 struct {
	F0 map[Lang][1]map[int]int `json:"dup"`
}

// O0 is generated.
type O0 struct {
	*O0 `json:"x-y"`
}

// O1 is generated.
type O1 struct {
	// F0 has a doc comment, "quoted", with <html> & unicode: Åland.
	F0 map[string]O0 `json:"dup"`
	*I0
	F2 map[string]I0 `json:"Name"`
	F3 Score `json:"Name,string"`
	F4 uint64 `json:"a"`
}

// Tool0 is a generated tool with "quotes" and é in its doc.
//
//mcp:tool readonly
type Tool0 struct {
	// F0 has a doc comment, "quoted", with <html> & unicode: Åland.
	F0 int64 `json:"x-y"`
	*I0
	// F2 has a doc comment, "quoted", with <html> & unicode: Åland.
	F2 I0 `json:"a"`
	// F3 has a doc comment, "quoted", with <html> & unicode: Åland.
	F3 map[uint64]string `json:"F1,omitempty"`
	F4 bool `json:"" jsonschema:"title=constrained,enum=true"`
}

// Call returns a zero result.
func (in Tool0) Call(ctx context.Context) (*O1, error) {
	var out *O1
	return out, nil
}


// Package p2 is a random component package (seed 1796199688383063423) of the property test.
//
//mcp:server
package p2

import (
	"context"
)

// Lang is a string-kinded type, usable as a map key.
type Lang string

// Score is a named sized integer.
type Score int16

// I0 is generated.
type I0 struct {
	*I0
	F1 Lang
	// F2 has a doc comment, "quoted", with <html> & unicode: Åland.
	F2 *uint16 `json:"-," jsonschema:"title=constrained,enum=1,enum=2"`
	F3 map[string][]I0 `json:"-"`
}

// O0 is generated.
type O0 struct {
	F0 I0
	F1 uint8 `json:"Name" jsonschema:"title=T,description=Set by a tag."`
	F2 uint8 `json:"-"`
	F3 uint `json:",omitzero"`
	*O0
	hidden int
}

// O1 is generated.
type O1 struct {
	I0
	// F1 has a doc comment, "quoted", with <html> & unicode: Åland.
	F1 map[uint64]int16 `json:"F1"`
	F2 *O1
}

// O2 is generated.
type O2 struct {
	F0 *O1
	F1 *int64 `json:"名前"`
	F2 int8
	// F3 has a doc comment, "quoted", with <html> & unicode: Åland.
	F3 uint64
	F4 *Score
}

// Tool0 is a generated tool with "quotes" and é in its doc.
//
//mcp:tool readonly
type Tool0 struct {
	F0 map[int]string
	// F1 has a doc comment, "quoted", with <html> & unicode: Åland.
	F1 int `json:"x-y"`
	I0
	F3 I0 `json:",omitzero"`
}

// Call returns a zero result.
func (in Tool0) Call(ctx context.Context) (I0, error) {
	var out I0
	return out, nil
}

// Tool1 is a generated tool with "quotes" and é in its doc.
//
//mcp:tool readonly
type Tool1 struct {
	F0 map[string]I0 `json:"" jsonschema:"title=T,description=Set by a tag."`
}

// Call returns a zero result.
func (in Tool1) Call(ctx context.Context) (O2, error) {
	var out O2
	return out, nil
}


// Package p6 is a random component package (seed 1796199688383063427) of the property test.
//
//mcp:server
package p6

import (
	"context"
	"github.com/mcpgen/mcpgen/gen/testdata/golden/wire/units"
	"math/big"
)

// Lang is a string-kinded type, usable as a map key.
type Lang string

// Score is a named sized integer.
type Score int16

// I0 is generated.
type I0 struct {
	// F0 has a doc comment, "quoted", with <html> & unicode: Åland.
	F0 units.Level `json:"dup,omitempty"`
	F1 map[string]I0 `json:"dup"`
}

// O0 is generated.
type O0 struct {
	// F0 has a doc comment, "quoted", with <html> & unicode: Åland.
	F0 int8 `json:"-,"`
	// F1 has a doc comment, "quoted", with <html> & unicode: Åland.
	F1 *O0 `json:"Name"`
	F2 Lang
}

// O1 is generated.
type O1 struct {
	*O1
	F1 units.Level `json:"名前"`
	hidden int
}

// Tool0 is a generated tool with "quotes" and é in its doc.
//
//mcp:tool readonly
type Tool0 struct {
	F0 [2][]I0 `json:"-"`
	F1 map[string]int16 `json:",omitempty"`
	// F2 has a doc comment, "quoted", with <html> & unicode: Åland.
	F2 uint16 `json:"a,omitzero" jsonschema:"title=constrained,minimum=-5,maximum=5"`
	F3 *big.Int `json:""`
}

// Call returns a zero result.
func (in Tool0) Call(ctx context.Context) (*I0, error) {
	var out *I0
	return out, nil
}

// Tool1 is a generated tool with "quotes" and é in its doc.
//
//mcp:tool readonly
type Tool1 struct {
	I0 `json:"b"`
	F1 I0 `json:"Name"`
	// F2 has a doc comment, "quoted", with <html> & unicode: Åland.
	F2 int8 `json:"dup" jsonschema:"title=T,description=Set by a tag."`
}

// Call returns a zero result.
func (in Tool1) Call(ctx context.Context) (*O1, error) {
	var out *O1
	return out, nil
}


// Package p31 is a random component package (seed 1796199688383063452) of the property test.
//
//mcp:server
package p31

import (
	"context"
	"github.com/mcpgen/mcpgen/gen/testdata/golden/wire/units"
)

// Lang is a string-kinded type, usable as a map key.
type Lang string

// Score is a named sized integer.
type Score int16

// I0 is generated.
type I0 struct {
	F0 *map[Lang]int8 `json:"a"`
	*I0
	// F2 has a doc comment, "quoted", with <html> & unicode: Åland.
	F2 int8 `json:"" jsonschema:"title=constrained,enum=1,enum=2"`
}

// I1 is generated.
type I1 struct {
	F0 Lang `json:"-"`
}

// O0 is generated.
type O0 struct {
	F0 string `json:",omitzero"`
	// F1 has a doc comment, "quoted", with <html> & unicode: Åland.
	F1 units.Temp `json:"a,omitempty"`
	F2 []uint32 `json:"Name"`
	hidden int
}

// Tool0 is a generated tool with "quotes" and é in its doc.
//
//mcp:tool readonly
type Tool0 struct {
	F0 map[int][]uint16 `json:""`
	F1 int64 `json:",omitzero" jsonschema:"title=T,description=Set by a tag."`
	*I1
	F3 I1 `json:"-,"`
}

// Call returns a zero result.
func (in Tool0) Call(ctx context.Context) (O0, error) {
	var out O0
	return out, nil
}


// Package p35 is a random component package (seed 1796199688383063456) of the property test.
//
//mcp:server
package p35

import (
	"context"
	"github.com/mcpgen/mcpgen/gen/testdata/golden/wire/units"
	"time"
)

// Lang is a string-kinded type, usable as a map key.
type Lang string

// Score is a named sized integer.
type Score int16

// I0 is generated.
type I0 struct {
	F0 []I2 `json:"名前" jsonschema:"title=constrained,maxItems=2"`
	F1 *time.Time `json:"x-y"`
}

// I1 is generated.
type I1 struct {
	F0 []map[int][]float32 `json:""`
	F1 *I0 `json:"x-y"`
}

// I2 is generated.
type I2 struct {
	F0 *[]I2 `json:"-"`
	*I1 `json:"x-y"`
}

// I3 is generated.
type I3 struct {
	// F0 has a doc comment, "quoted", with <html> & unicode: Åland.
	F0 map[string]I0 `json:"-,"`
}

// O0 is generated.
type O0 struct {
	// F0 has a doc comment, "quoted", with <html> & unicode: Åland.
	F0 units.Level `json:",omitzero"`
	*O0
}

// O1 is generated.
type O1 struct {
	// F0 has a doc comment, "quoted", with <html> & unicode: Åland.
	F0 *[]I1 `json:""`
	// F1 has a doc comment, "quoted", with <html> & unicode: Åland.
	F1 *O0 `json:"Name,omitempty"`
}

// Tool0 is a generated tool with "quotes" and é in its doc.
//
//mcp:tool readonly
type Tool0 struct {
	F0 uint `json:"F1,string" jsonschema:"title=T,description=Set by a tag."`
	*I1 `json:"dup"`
	F2 I2 `json:"a,omitzero"`
	F3 I1 `json:"b,omitzero"`
}

// Call returns a zero result.
func (in Tool0) Call(ctx context.Context) (I3, error) {
	var out I3
	return out, nil
}

// Tool1 is a generated tool with "quotes" and é in its doc.
//
//mcp:tool readonly
type Tool1 struct {
	F0 map[Lang]*I1 `json:",omitempty"`
	// F1 has a doc comment, "quoted", with <html> & unicode: Åland.
	F1 []int8 `json:"b"`
	F2 map[uint16]map[string]I3
	hidden int
}

// Call returns a zero result.
func (in Tool1) Call(ctx context.Context) (*I0, error) {
	var out *I0
	return out, nil
}


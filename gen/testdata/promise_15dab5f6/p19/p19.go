// Package p19 is a random component package (seed 1796199688383063440) of the property test.
//
//mcp:server
package p19

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
	// F0 has a doc comment, "quoted", with <html> & unicode: Åland.
	F0 int32 `json:"Name" jsonschema:"title=T,description=Set by a tag."`
	// F1 has a doc comment, "quoted", with <html> & unicode: Åland.
	F1 Lang `json:"b,string"`
	F2 **int64
}

// I1 is generated.
type I1 struct {
	*I0
	// F1 has a doc comment, "quoted", with <html> & unicode: Åland.
	F1 *[]byte `json:"-"`
	F2 int16 `json:""`
}

// O0 is generated.
type O0 struct {
	// F0 has a doc comment, "quoted", with <html> & unicode: Åland.
	F0 units.Level `json:"F1,omitzero"`
	F1 map[uint16]map[uint16][]units.Temp `json:"Name"`
	F2 *I0 `json:"dup"`
	F3 I0 `json:"名前"`
	F4 I1 `json:"b"`
}

// O1 is generated.
type O1 struct {
	// F0 has a doc comment, "quoted", with <html> & unicode: Åland.
	F0 float32 `json:",omitzero"`
	F1 uint `json:"x-y,omitzero"`
}

// Tool0 is a generated tool with "quotes" and é in its doc.
//
//mcp:tool readonly
type Tool0 struct {
	// F0 has a doc comment, "quoted", with <html> & unicode: Åland.
	F0 int32 `json:"名前"`
	F1 []I0
	F2 map[uint16]I1 `json:"Name"`
}

// Call returns a zero result.
func (in Tool0) Call(ctx context.Context) (map[Lang]int16, error) {
	var out map[Lang]int16
	return out, nil
}


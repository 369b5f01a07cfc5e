// Package p23 is a random component package (seed 1796199688383063444) of the property test.
//
//mcp:server
package p23

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
	I1
	// F1 has a doc comment, "quoted", with <html> & unicode: Åland.
	F1 units.Level
	*I3
	F3 I1 `json:"b"`
}

// I1 is generated.
type I1 struct {
	// F0 has a doc comment, "quoted", with <html> & unicode: Åland.
	F0 Score `json:"b"`
	F1 map[int8]uint `json:"Name,omitzero"`
	F2 float32 `json:"dup,string"`
	F3 uint8 `json:"F1,string"`
}

// I2 is generated.
type I2 struct {
	// F0 has a doc comment, "quoted", with <html> & unicode: Åland.
	F0 Score
}

// I3 is generated.
type I3 struct {
	F0 []map[string]I1 `json:"F1" jsonschema:"title=constrained,maxItems=2"`
	F1 [1]uint64 `json:"名前" jsonschema:"title=T,description=Set by a tag."`
}

// O0 is generated.
type O0 struct {
	F0 int8 `json:"a,string"`
	*I2
	// F2 has a doc comment, "quoted", with <html> & unicode: Åland.
	F2 []byte `json:"x-y,omitempty"`
}

// O1 is generated.
type O1 struct {
	F0 units.Level `json:"-"`
	F1 bool `json:"-"`
	F2 []I1 `json:"dup"`
	*O0 `json:"F1"`
	// F4 has a doc comment, "quoted", with <html> & unicode: Åland.
	F4 string `json:"名前,string"`
}

// Tool0 is a generated tool with "quotes" and é in its doc.
//
//mcp:tool readonly
type Tool0 struct {
	I2
	// F1 has a doc comment, "quoted", with <html> & unicode: Åland.
	F1 uint32 `json:"-"`
	F2 [2][]byte `json:"名前"`
	I1
	F4 []map[string]I2 `json:"-," jsonschema:"title=constrained,maxItems=2"`
}

// Call returns a zero result.
func (in Tool0) Call(ctx context.Context) (*O0, error) {
	var out *O0
	return out, nil
}

// Tool1 is a generated tool with "quotes" and é in its doc.
//
//mcp:tool readonly
type Tool1 struct {
	F0 int
	*I0
	F2 I0 `json:"x-y"`
	F3 int32
}

// Call returns a zero result.
func (in Tool1) Call(ctx context.Context) (*O0, error) {
	var out *O0
	return out, nil
}


// Package p27 is a random component package (seed 1796199688383063448) of the property test.
//
//mcp:server
package p27

import (
	"context"
	"github.com/mcpgen/mcpgen/gen/testdata/golden/wire/units"
	"math/big"
	"time"
)

// Lang is a string-kinded type, usable as a map key.
type Lang string

// Score is a named sized integer.
type Score int16

// I0 is generated.
type I0 struct {
	I2
	F1 int8 `json:"" jsonschema:"title=constrained,exclusiveMinimum=0,multipleOf=3"`
	F2 I1 `json:",omitzero"`
}

// I1 is generated.
type I1 struct {
	F0 map[int]int8 `json:",omitempty"`
	// F1 has a doc comment, "quoted", with <html> & unicode: Åland.
	F1 uint8 `json:"Name,string"`
	*I0 `json:"dup"`
}

// I2 is generated.
type I2 struct {
	*I0
	// F1 has a doc comment, "quoted", with <html> & unicode: Åland.
	F1 int `json:",string"`
	*I2
	F3 int `json:"" jsonschema:"title=constrained,enum=1,enum=2"`
	hidden int
}

// O0 is generated.
type O0 struct {
	F0 int16
	F1 map[uint16]units.Level `json:"-"`
	F2 [2][2]units.Temp
	// F3 has a doc comment, "quoted", with <html> & unicode: Åland.
	F3 []O1 `json:"x-y,omitempty"`
	F4 O1 `json:"dup"`
}

// O1 is generated.
type O1 struct {
	F0 O2 `json:"dup"`
	F1 int8 `json:"dup,string"`
	*O1
	// F3 has a doc comment, "quoted", with <html> & unicode: Åland.
	F3 *[]O0 `json:"dup"`
	F4 [2]time.Duration
}

// O2 is generated.
type O2 struct {
	F0 int16 `json:"-"`
}

// Tool0 is a generated tool with "quotes" and é in its doc.
//
//mcp:tool readonly
type Tool0 struct {
	*I0
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
	F0 []map[int8]map[uint64]int16 `json:"-"`
	F1 map[uint64]*big.Int `json:"b"`
	F2 uint `json:""`
	hidden int
}

// Call returns a zero result.
func (in Tool1) Call(ctx context.Context) (*I2, error) {
	var out *I2
	return out, nil
}


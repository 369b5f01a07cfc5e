// Package p38 is a random component package (seed 1796199688383063459) of the property test.
//
//mcp:server
package p38

import (
	"context"
	"encoding/json"
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
	I1
	F1 [1]uint8 `json:",omitzero" jsonschema:"title=T,description=Set by a tag."`
	*I0
	F3 **time.Duration `json:""`
	// F4 has a doc comment, "quoted", with <html> & unicode: Åland.
	F4 Score
}

// I1 is generated.
type I1 struct {
	F0 []*big.Int `json:"" jsonschema:"title=constrained,maxItems=2"`
	// F1 has a doc comment, "quoted", with <html> & unicode: Åland.
	F1 uint16 `json:"-,"`
	I2
	F3 *[]float32 `json:"-"`
}

// I2 is generated.
type I2 struct {
	F0 int8 `json:"x-y,omitzero"`
	F1 []I1 `json:""`
}

// I3 is generated.
type I3 struct {
	*I0 `json:"F1"`
	F1 time.Time `json:"x-y"`
	// F2 has a doc comment, "quoted", with <html> & unicode: Åland.
	F2 int8 `json:"名前"`
	hidden int
}

// O0 is generated.
type O0 struct {
	// F0 has a doc comment, "quoted", with <html> & unicode: Åland.
	F0 map[uint64][2][2]json.Number `json:"-"`
	F1 I2 `json:"" jsonschema:"title=T,description=Set by a tag."`
	// F2 has a doc comment, "quoted", with <html> & unicode: Åland.
	F2 float64 `json:",omitzero"`
	F3 int `json:",string"`
	// F4 has a doc comment, "quoted", with <html> & unicode: Åland.
	F4 map[Lang][]byte `json:"b"`
}

// O1 is generated.
type O1 struct {
	I2
	I1 `json:"名前"`
}

// O2 is generated.
type O2 struct {
	*I1
	F1 map[int8]string `json:"b"`
	// F2 has a doc comment, "quoted", with <html> & unicode: Åland.
	F2 I3 `json:"dup" jsonschema:"title=T,description=Set by a tag."`
	// F3 has a doc comment, "quoted", with <html> & unicode: Åland.
	F3 units.Temp `json:"-"`
}

// Tool0 is a generated tool with "quotes" and é in its doc.
//
//mcp:tool readonly
type Tool0 struct {
	F0 I0 `json:"a"`
	// F1 has a doc comment, "quoted", with <html> & unicode: Åland.
	F1 float64 `json:"dup" jsonschema:"title=constrained,minimum=-1.5,exclusiveMaximum=1e3"`
	// F2 has a doc comment, "quoted", with <html> & unicode: Åland.
	F2 units.Level `json:"a"`
	F3 map[uint16]uint `json:"名前"`
	*I3
}

// Call returns a zero result.
func (in Tool0) Call(ctx context.Context) (*I2, error) {
	var out *I2
	return out, nil
}


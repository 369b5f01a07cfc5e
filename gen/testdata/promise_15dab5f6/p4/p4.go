// Package p4 is a random component package (seed 1796199688383063425) of the property test.
//
//mcp:server
package p4

import (
	"context"
	"encoding/json"
	"github.com/google/uuid"
	"github.com/mcpgen/mcpgen/gen/testdata/golden/wire/units"
	"time"
)

// Lang is a string-kinded type, usable as a map key.
type Lang string

// Score is a named sized integer.
type Score int16

// I0 is generated.
type I0 struct {
	// F0 has a doc comment, "quoted", with <html> & unicode: Åland.
	F0 map[uint16]string `json:"-"`
	*I2
}

// I1 is generated.
type I1 struct {
	F0 float32 `json:"a,omitempty" jsonschema:"title=constrained,minimum=-1.5,exclusiveMaximum=1e3"`
	// F1 has a doc comment, "quoted", with <html> & unicode: Åland.
	F1 *[]I1
	F2 int16
	// F3 has a doc comment, "quoted", with <html> & unicode: Åland.
	F3 *I0 `json:"-,"`
	// F4 has a doc comment, "quoted", with <html> & unicode: Åland.
	F4 int32 `json:",omitempty"`
}

// I2 is generated.
type I2 struct {
	F0 map[uint64]string `json:"-,"`
}

// I3 is generated.
type I3 struct {
	// F0 has a doc comment, "quoted", with <html> & unicode: Åland.
	F0 [2]Lang `json:"-,"`
	*I2
}

// O0 is generated.
type O0 struct {
	F0 json.Number
	F1 time.Time
	F2 units.Temp `json:""`
	*O1 `json:"F1"`
	hidden int
}

// O1 is generated.
type O1 struct {
	I3
	// F1 has a doc comment, "quoted", with <html> & unicode: Åland.
	F1 uint `json:"名前"`
}

// Tool0 is a generated tool with "quotes" and é in its doc.
//
//mcp:tool readonly
type Tool0 struct {
	*I2 `json:"b"`
	F1 []*units.Level `json:"-"`
	// F2 has a doc comment, "quoted", with <html> & unicode: Åland.
	F2 units.Level `json:"-"`
	// F3 has a doc comment, "quoted", with <html> & unicode: Åland.
	F3 uuid.UUID `json:"-,"`
	// F4 has a doc comment, "quoted", with <html> & unicode: Åland.
	F4 []Lang
}

// Call returns a zero result.
func (in Tool0) Call(ctx context.Context) (O1, error) {
	var out O1
	return out, nil
}

// Tool1 is a generated tool with "quotes" and é in its doc.
//
//mcp:tool readonly
type Tool1 struct {
	*I1
	hidden int
}

// Call returns a zero result.
func (in Tool1) Call(ctx context.Context) (map[Lang]*[]int16, error) {
	var out map[Lang]*[]int16
	return out, nil
}

// Tool2 is a generated tool with "quotes" and é in its doc.
//
//mcp:tool readonly
type Tool2 struct {
	F0 map[Lang]map[Lang][]uuid.UUID `json:"-,"`
}

// Call returns a zero result.
func (in Tool2) Call(ctx context.Context) (I1, error) {
	var out I1
	return out, nil
}


// Package p14 is a random component package (seed 1796199688383063435) of the property test.
//
//mcp:server
package p14

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
	// F0 has a doc comment, "quoted", with <html> & unicode: Åland.
	F0 time.Time `json:"名前"`
	F1 *big.Int `json:"-,"`
}

// I1 is generated.
type I1 struct {
	// F0 has a doc comment, "quoted", with <html> & unicode: Åland.
	F0 json.Number `json:"Name"`
}

// O0 is generated.
type O0 struct {
	*O0
	*I0
	F2 *[1]map[units.Temp]uint8 `json:"F1"`
	// F3 has a doc comment, "quoted", with <html> & unicode: Åland.
	F3 time.Duration `json:"F1"`
	// F4 has a doc comment, "quoted", with <html> & unicode: Åland.
	F4 []I1 `json:"F1"`
	hidden int
}

// O1 is generated.
type O1 struct {
	F0 bool `json:",string"`
	// F1 has a doc comment, "quoted", with <html> & unicode: Åland.
	F1 []*O1 `json:"Name,omitzero"`
}

// Tool0 is a generated tool with "quotes" and é in its doc.
//
//mcp:tool readonly
type Tool0 struct {
	// F0 has a doc comment, "quoted", with <html> & unicode: Åland.
	F0 float32 `json:"名前" jsonschema:"title=constrained,minimum=-1.5,exclusiveMaximum=1e3"`
	// F1 has a doc comment, "quoted", with <html> & unicode: Åland.
	F1 I0
	F2 [][]*int32 `json:"dup"`
	F3 *units.Level `json:"a"`
	hidden int
}

// Call returns a zero result.
func (in Tool0) Call(ctx context.Context) (map[Lang]uint, error) {
	var out map[Lang]uint
	return out, nil
}

// Tool1 is a generated tool with "quotes" and é in its doc.
//
//mcp:tool readonly
type Tool1 struct {
	F0 [][]I1 `json:"F1,omitzero"`
	F1 []Lang `json:"Name" jsonschema:"title=constrained,maxItems=2"`
}

// Call returns a zero result.
func (in Tool1) Call(ctx context.Context) (*I0, error) {
	var out *I0
	return out, nil
}


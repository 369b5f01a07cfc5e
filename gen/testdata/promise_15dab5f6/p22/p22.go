// Package p22 is a random component package (seed 1796199688383063443) of the property test.
//
//mcp:server
package p22

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
	F0 []I2 `json:"-"`
	F1 map[string]I0 `json:"x-y" jsonschema:"title=T,description=Set by a tag."`
	F2 [1][]map[string]I1
	F3 [2][2]map[uint16]units.Level `json:"x-y"`
	// F4 has a doc comment, "quoted", with <html> & unicode: Åland.
	F4 *int8 `json:""`
}

// I1 is generated.
type I1 struct {
	F0 Score `json:"名前,string"`
}

// I2 is generated.
type I2 struct {
	// F0 has a doc comment, "quoted", with <html> & unicode: Åland.
	F0 map[Lang]map[Lang]*I1 `json:"-,"`
	// F1 has a doc comment, "quoted", with <html> & unicode: Åland.
	F1 int `json:",omitempty"`
	F2 int32 `json:"b,string"`
}

// O0 is generated.
type O0 struct {
	F0 int8
	F1 json.Number `json:"x-y"`
	// F2 has a doc comment, "quoted", with <html> & unicode: Åland.
	F2 uint8
	F3 uint `json:"-,"`
}

// O1 is generated.
type O1 struct {
	F0 *big.Int `json:"dup"`
}

// O2 is generated.
type O2 struct {
	F0 time.Duration `json:",omitzero" jsonschema:"title=T,description=Set by a tag."`
	F1 int16 `json:"x-y"`
	// F2 has a doc comment, "quoted", with <html> & unicode: Åland.
	F2 uint64 `json:"Name,omitempty"`
	F3 *I1 `json:"-,"`
}

// O3 is generated.
type O3 struct {
	F0 time.Time
	I1
	// F2 has a doc comment, "quoted", with <html> & unicode: Åland.
	F2 []I2 `json:"Name,omitzero"`
	// F3 has a doc comment, "quoted", with <html> & unicode: Åland.
	F3 *O1 `json:""`
}

// Tool0 is a generated tool with "quotes" and é in its doc.
//
//mcp:tool readonly
type Tool0 struct {
	F0 [][]uint64 `json:"-"`
	I1
	F2 string `json:"x-y,omitzero" jsonschema:"title=constrained,pattern=^[a-z]*$"`
	F3 [1]uint `json:"-"`
	F4 Lang `json:""`
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
	*I0
}

// Call returns a zero result.
func (in Tool1) Call(ctx context.Context) (*O2, error) {
	var out *O2
	return out, nil
}

// Tool2 is a generated tool with "quotes" and é in its doc.
//
//mcp:tool readonly
type Tool2 struct {
	F0 []map[string]string `json:"x-y" jsonschema:"title=constrained,maxItems=2"`
	F1 uint16 `json:""`
}

// Call returns a zero result.
func (in Tool2) Call(ctx context.Context) (I1, error) {
	var out I1
	return out, nil
}


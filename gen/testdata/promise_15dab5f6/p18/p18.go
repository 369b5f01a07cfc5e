// Package p18 is a random component package (seed 1796199688383063439) of the property test.
//
//mcp:server
package p18

import (
	"context"
	"encoding/json"
	"github.com/google/uuid"
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
	F0 []map[string]I1 `json:"" jsonschema:"title=constrained,maxItems=2"`
	F1 [1]int8
	// F2 has a doc comment, "quoted", with <html> & unicode: Åland.
	F2 Lang `json:"Name"`
	F3 int32 `json:"Name,omitempty"`
	// F4 has a doc comment, "quoted", with <html> & unicode: Åland.
	F4 [2]map[Lang]uuid.UUID
}

// I1 is generated.
type I1 struct {
	F0 string `json:"F1"`
	F1 **string `json:"-,"`
	I3 `json:"Name"`
	// F3 has a doc comment, "quoted", with <html> & unicode: Åland.
	F3 int32 `json:""`
}

// I2 is generated.
type I2 struct {
	// F0 has a doc comment, "quoted", with <html> & unicode: Åland.
	F0 int `json:"名前" jsonschema:"title=T,description=Set by a tag."`
}

// I3 is generated.
type I3 struct {
	F0 *I2 `json:",omitempty"`
	hidden int
}

// O0 is generated.
type O0 struct {
	F0 map[units.Temp][2]int8 `json:"a"`
	F1 bool `json:"F1"`
}

// O1 is generated.
type O1 struct {
	// F0 has a doc comment, "quoted", with <html> & unicode: Åland.
	F0 []*I0 `json:"Name"`
	*I2
	F2 *[1]json.Number `json:"Name"`
	F3 []byte `json:"名前,omitzero"`
	// F4 has a doc comment, "quoted", with <html> & unicode: Åland.
	F4 time.Time
}

// O2 is generated.
type O2 struct {
	// F0 has a doc comment, "quoted", with <html> & unicode: Åland.
	F0 [][2]int32 `json:"名前"`
	F1 I2
	F2 uuid.UUID `json:"F1"`
	I3
}

// Tool0 is a generated tool with "quotes" and é in its doc.
//
//mcp:tool readonly
type Tool0 struct {
	F0 [][]I2 `json:"-,"`
	// F1 has a doc comment, "quoted", with <html> & unicode: Åland.
	F1 uint8
	F2 **units.Level `json:"名前"`
	// F3 has a doc comment, "quoted", with <html> & unicode: Åland.
	F3 int32 `json:"-"`
	I1
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
	I0
	F1 *uint8 `json:"-"`
	I3 `json:"x-y"`
	*I2
	F4 *big.Int `json:"Name,omitzero"`
}

// Call returns a zero result.
func (in Tool1) Call(ctx context.Context) (O1, error) {
	var out O1
	return out, nil
}


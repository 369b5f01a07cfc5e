// Package p20 is a random component package (seed 1796199688383063441) of the property test.
//
//mcp:server
package p20

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
	*I3
}

// I1 is generated.
type I1 struct {
	// F0 has a doc comment, "quoted", with <html> & unicode: Åland.
	F0 int64
	F1 map[string]int8 `json:""`
	*I1
}

// I2 is generated.
type I2 struct {
	// F0 has a doc comment, "quoted", with <html> & unicode: Åland.
	F0 map[Lang]*map[uint16]int8
	F1 float32 `json:"名前"`
	F2 Score `json:"x-y,omitzero"`
	F3 int8 `json:"名前"`
	F4 map[int8]map[string]map[uint64]*big.Int `json:"F1"`
}

// I3 is generated.
type I3 struct {
	F0 uint32
	F1 uint `json:"b"`
	F2 map[int8]*map[string]I2 `json:"Name,omitzero" jsonschema:"title=T,description=Set by a tag."`
	F3 time.Duration `json:"x-y,omitzero"`
}

// O0 is generated.
type O0 struct {
	// F0 has a doc comment, "quoted", with <html> & unicode: Åland.
	F0 [2]int32 `json:"-"`
}

// O1 is generated.
type O1 struct {
	F0 units.Level `json:"-,"`
	F1 uint `json:"F1"`
	F2 *I0 `json:"F1,omitempty"`
}

// Tool0 is a generated tool with "quotes" and é in its doc.
//
//mcp:tool readonly
type Tool0 struct {
	F0 I2 `json:"Name"`
	F1 [1][][1]json.Number `json:""`
	// F2 has a doc comment, "quoted", with <html> & unicode: Åland.
	F2 uint `json:""`
	*I3
}

// Call returns a zero result.
func (in Tool0) Call(ctx context.Context) (map[Lang]Lang, error) {
	var out map[Lang]Lang
	return out, nil
}


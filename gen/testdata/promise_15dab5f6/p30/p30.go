// Package p30 is a random component package (seed 1796199688383063451) of the property test.
//
//mcp:server
package p30

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
	F0 *I1 `json:"" jsonschema:"title=T,description=Set by a tag."`
	F1 map[uint16]bool
	F2 []I1 `json:"" jsonschema:"title=constrained,maxItems=2"`
}

// I1 is generated.
type I1 struct {
	F0 map[string]I2 `json:"F1"`
	*I2
	// F2 has a doc comment, "quoted", with <html> & unicode: Åland.
	F2 time.Duration `json:"b"`
	F3 uint `json:"-,"`
	F4 I2
}

// I2 is generated.
type I2 struct {
	I3 `json:"a"`
	F1 *map[uint64][]uint16
	F2 []map[uint64]units.Level `json:"" jsonschema:"title=constrained,maxItems=2"`
	*I0
	F4 uuid.UUID `json:"F1"`
}

// I3 is generated.
type I3 struct {
	// F0 has a doc comment, "quoted", with <html> & unicode: Åland.
	F0 uint `json:"-,"`
	F1 float64 `json:"b" jsonschema:"title=constrained,minimum=-1.5,exclusiveMaximum=1e3"`
	hidden int
}

// O0 is generated.
type O0 struct {
	F0 []O0 `json:""`
	F1 Lang `json:"b,omitempty" jsonschema:"title=T,description=Set by a tag."`
	*O0
	hidden int
}

// O1 is generated.
type O1 struct {
	I2
	F1 int8
	F2 []uint `json:"x-y"`
}

// Tool0 is a generated tool with "quotes" and é in its doc.
//
//mcp:tool readonly
type Tool0 struct {
	F0 []*big.Int `json:"Name,omitzero" jsonschema:"title=constrained,maxItems=2"`
	F1 time.Time
}

// Call returns a zero result.
func (in Tool0) Call(ctx context.Context) (I2, error) {
	var out I2
	return out, nil
}

// Tool1 is a generated tool with "quotes" and é in its doc.
//
//mcp:tool readonly
type Tool1 struct {
	F0 json.Number `json:",omitzero"`
	I0
	F2 time.Duration
	F3 [1]string `json:"名前"`
	// F4 has a doc comment, "quoted", with <html> & unicode: Åland.
	F4 *I1
}

// Call returns a zero result.
func (in Tool1) Call(ctx context.Context) (map[Lang][]units.Level, error) {
	var out map[Lang][]units.Level
	return out, nil
}

// Tool2 is a generated tool with "quotes" and é in its doc.
//
//mcp:tool readonly
type Tool2 struct {
	F0 I1 `json:"dup"`
	F1 [][][]bool `json:",omitempty" jsonschema:"title=constrained,maxItems=2"`
	*I3 `json:"a"`
}

// Call returns a zero result.
func (in Tool2) Call(ctx context.Context) (I1, error) {
	var out I1
	return out, nil
}


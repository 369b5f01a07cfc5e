// Package p3 is a random component package (seed 1796199688383063424) of the property test.
//
//mcp:server
package p3

import (
	"context"
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
	F0 *time.Duration
	// F1 has a doc comment, "quoted", with <html> & unicode: Åland.
	F1 [1]map[uint64]I1 `json:"" jsonschema:"title=T,description=Set by a tag."`
	*I0
	// F3 has a doc comment, "quoted", with <html> & unicode: Åland.
	F3 map[uint16]*I0 `json:",omitempty" jsonschema:"title=T,description=Set by a tag."`
	F4 int32 `json:"-,"`
}

// I1 is generated.
type I1 struct {
	F0 [][]Lang `json:",omitzero"`
	F1 uuid.UUID `json:"F1"`
	hidden int
}

// O0 is generated.
type O0 struct {
	F0 *float64
	F1 map[units.Temp]map[string]O1 `json:"" jsonschema:"title=T,description=Set by a tag."`
}

// O1 is generated.
type O1 struct {
	// F0 has a doc comment, "quoted", with <html> & unicode: Åland.
	F0 map[string]int32 `json:"-"`
	F1 time.Duration
	I1
	// F3 has a doc comment, "quoted", with <html> & unicode: Åland.
	F3 *big.Int `json:"b"`
}

// O2 is generated.
type O2 struct {
	F0 []I1 `json:"F1,omitempty"`
	// F1 has a doc comment, "quoted", with <html> & unicode: Åland.
	F1 *O1 `json:""`
	F2 ***uint64 `json:"dup" jsonschema:"title=T,description=Set by a tag."`
}

// Tool0 is a generated tool with "quotes" and é in its doc.
//
//mcp:tool readonly
type Tool0 struct {
	// F0 has a doc comment, "quoted", with <html> & unicode: Åland.
	F0 []I1 `json:"x-y"`
	F1 map[int]*map[string]I0
}

// Call returns a zero result.
func (in Tool0) Call(ctx context.Context) (I1, error) {
	var out I1
	return out, nil
}


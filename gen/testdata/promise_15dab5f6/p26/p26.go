// Package p26 is a random component package (seed 1796199688383063447) of the property test.
//
//mcp:server
package p26

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
	F0 *time.Time `json:"名前"`
	F1 *uint8 `json:"-,"`
	F2 int32
}

// O0 is generated.
type O0 struct {
	I0
	// F1 has a doc comment, "quoted", with <html> & unicode: Åland.
	F1 units.Level `json:"dup"`
	F2 *big.Int
	F3 time.Duration `json:"-"`
	F4 int16 `json:",string"`
}

// O1 is generated.
type O1 struct {
	F0 []uint64
	F1 units.Level
	F2 uint16 `json:"dup,omitempty"`
	F3 Lang `json:"Name"`
	// F4 has a doc comment, "quoted", with <html> & unicode: Åland.
	F4 map[string]O0 `json:"-"`
}

// Tool0 is a generated tool with "quotes" and é in its doc.
//
//mcp:tool readonly
type Tool0 struct {
	F0 map[string][]byte
	F1 I0
	F2 *big.Int `json:"F1" jsonschema:"title=T,description=Set by a tag."`
}

// Call returns a zero result.
func (in Tool0) Call(ctx context.Context) (I0, error) {
	var out I0
	return out, nil
}


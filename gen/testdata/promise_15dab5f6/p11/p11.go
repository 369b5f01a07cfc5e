// Package p11 is a random component package (seed 1796199688383063432) of the property test.
//
//mcp:server
package p11

import (
	"context"
	"encoding/json"
	"github.com/mcpgen/mcpgen/gen/testdata/golden/wire/units"
	"math/big"
	"net/netip"
	"time"
)

// Lang is a string-kinded type, usable as a map key.
type Lang string

// Score is a named sized integer.
type Score int16

// I0 is generated.
type I0 struct {
	F0 []I1 `json:"a"`
	I1
	F2 *big.Int `json:"F1"`
	F3 time.Time `json:"-"`
	// F4 has a doc comment, "quoted", with <html> & unicode: Åland.
	F4 Lang `json:"Name,omitempty"`
}

// I1 is generated.
type I1 struct {
	// F0 has a doc comment, "quoted", with <html> & unicode: Åland.
	F0 int8 `json:"x-y"`
	// F1 has a doc comment, "quoted", with <html> & unicode: Åland.
	F1 []I0 `json:"dup,omitempty" jsonschema:"title=constrained,maxItems=2"`
}

// O0 is generated.
type O0 struct {
	F0 [1]I0 `json:"a"`
	F1 units.Temp `json:"-,"`
	F2 netip.Addr
}

// Tool0 is a generated tool with "quotes" and é in its doc.
//
//mcp:tool readonly
type Tool0 struct {
	// F0 has a doc comment, "quoted", with <html> & unicode: Åland.
	F0 **[]uint8 `json:"-,"`
	F1 float64
	// F2 has a doc comment, "quoted", with <html> & unicode: Åland.
	F2 [][]json.Number `json:"Name"`
	*I1
	hidden int
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
	F0 I1
	// F1 has a doc comment, "quoted", with <html> & unicode: Åland.
	F1 bool `json:"dup" jsonschema:"title=T,description=Set by a tag."`
	// F2 has a doc comment, "quoted", with <html> & unicode: Åland.
	F2 I1 `json:"-,"`
	F3 []float64 `json:""`
	I1
}

// Call returns a zero result.
func (in Tool1) Call(ctx context.Context) (*I0, error) {
	var out *I0
	return out, nil
}

// Tool2 is a generated tool with "quotes" and é in its doc.
//
//mcp:tool readonly
type Tool2 struct {
	F0 I0 `json:"F1"`
	F1 []map[Lang]json.Number `json:"名前" jsonschema:"title=constrained,maxItems=2"`
	I1
}

// Call returns a zero result.
func (in Tool2) Call(ctx context.Context) (I1, error) {
	var out I1
	return out, nil
}


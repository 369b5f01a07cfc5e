// Package p1 is a random component package (seed 1796199688383063422) of the property test.
//
//mcp:server
package p1

import (
	"context"
	"encoding/json"
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
	F0 []I0 `json:"a"`
	F1 bool `json:"a"`
	*I0
	F3 [1][]I2 `json:"-"`
}

// I1 is generated.
type I1 struct {
	// F0 has a doc comment, "quoted", with <html> & unicode: Åland.
	F0 map[string][1][1]int32 `json:"-"`
}

// I2 is generated.
type I2 struct {
	F0 float64 `json:"名前,omitzero"`
	// F1 has a doc comment, "quoted", with <html> & unicode: Åland.
	F1 string `json:"-"`
	// F2 has a doc comment, "quoted", with <html> & unicode: Åland.
	F2 *I1 `json:",omitempty"`
	F3 **I0 `json:"-"`
}

// O0 is generated.
type O0 struct {
	F0 uint32 `json:"-,"`
	*O0
	F2 *big.Int `json:"x-y" jsonschema:"title=T,description=Set by a tag."`
	F3 map[uint64][]O1 `json:"名前" jsonschema:"title=T,description=Set by a tag."`
}

// O1 is generated.
type O1 struct {
	I0
	F1 map[string]bool `json:",omitzero"`
	I1 `json:"b"`
	// F3 has a doc comment, "quoted", with <html> & unicode: Åland.
	F3 time.Time
}

// Tool0 is a generated tool with "quotes" and é in its doc.
//
//mcp:tool readonly
type Tool0 struct {
	F0 [1]uint `json:"x-y"`
	// F1 has a doc comment, "quoted", with <html> & unicode: Åland.
	F1 uint32 `json:"F1"`
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
	F0 []json.Number `json:"F1,omitzero"`
	F1 []I1 `json:"-,"`
	hidden int
}

// Call returns a zero result.
func (in Tool1) Call(ctx context.Context) (map[Lang]map[int8]Score, error) {
	var out map[Lang]map[int8]Score
	return out, nil
}


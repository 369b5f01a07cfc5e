// Package p37 is a random component package (seed 1796199688383063458) of the property test.
//
//mcp:server
package p37

import (
	"context"
	"github.com/google/uuid"
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
	F0 uuid.UUID
	// F1 has a doc comment, "quoted", with <html> & unicode: Åland.
	F1 int64 `json:"x-y"`
}

// I1 is generated.
type I1 struct {
	// F0 has a doc comment, "quoted", with <html> & unicode: Åland.
	F0 []I2 `json:"" jsonschema:"title=constrained,maxItems=2"`
	*I2
	F2 time.Duration `json:",omitzero"`
	// F3 has a doc comment, "quoted", with <html> & unicode: Åland.
	F3 float32 `json:"b,omitempty"`
}

// I2 is generated.
type I2 struct {
	F0 []bool `json:"Name" jsonschema:"title=constrained,maxItems=2"`
	// F1 has a doc comment, "quoted", with <html> & unicode: Åland.
	F1 uint32 `json:""`
	// F2 has a doc comment, "quoted", with <html> & unicode: Åland.
	F2 time.Duration `json:"dup,omitzero"`
	F3 time.Time `json:"-,"`
}

// O0 is generated.
type O0 struct {
	F0 float32 `json:"Name,omitempty"`
	// F1 has a doc comment, "quoted", with <html> & unicode: Åland.
	F1 bool
	F2 uint `json:""`
	F3 []float32 `json:""`
	*O0
}

// O1 is generated.
type O1 struct {
	*I2
	// F1 has a doc comment, "quoted", with <html> & unicode: Åland.
	F1 int64 `json:"Name"`
	F2 uint64 `json:"b"`
	// F3 has a doc comment, "quoted", with <html> & unicode: Åland.
	F3 [][2]bool `json:"" jsonschema:"title=T,description=Set by a tag."`
	F4 netip.Addr `json:""`
}

// O2 is generated.
type O2 struct {
	F0 I0 `json:"-"`
	F1 float64 `json:""`
	F2 int `json:"F1"`
	F3 *big.Int
	F4 time.Time `json:",omitempty"`
	hidden int
}

// Tool0 is a generated tool with "quotes" and é in its doc.
//
//mcp:tool readonly
type Tool0 struct {
	// F0 has a doc comment, "quoted", with <html> & unicode: Åland.
	F0 time.Duration `json:"名前"`
	F1 time.Duration `json:"-,"`
	F2 uint32
	I1
	F4 map[string]uuid.UUID `json:"-,"`
}

// Call returns a zero result.
func (in Tool0) Call(ctx context.Context) (O0, error) {
	var out O0
	return out, nil
}


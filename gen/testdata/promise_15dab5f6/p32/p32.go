// Package p32 is a random component package (seed 1796199688383063453) of the property test.
//
//mcp:server
package p32

import (
	"context"
	"github.com/google/uuid"
	"math/big"
	"time"
)

// Lang is a string-kinded type, usable as a map key.
type Lang string

// Score is a named sized integer.
type Score int16

// I0 is generated.
type I0 struct {
	F0 Score `json:"名前,omitzero"`
	F1 *I2
	F2 *I2 `json:"Name"`
}

// I1 is generated.
type I1 struct {
	I2
}

// I2 is generated.
type I2 struct {
	*I2
}

// O0 is generated.
type O0 struct {
	// F0 has a doc comment, "quoted", with <html> & unicode: Åland.
	F0 time.Time `json:"-"`
	*O2
}

// O1 is generated.
type O1 struct {
	// F0 has a doc comment, "quoted", with <html> & unicode: Åland.
	F0 []map[int]uuid.UUID `json:"a"`
	O2
	*I2
}

// O2 is generated.
type O2 struct {
	F0 map[string]Lang `json:",omitempty"`
}

// Tool0 is a generated tool with "quotes" and é in its doc.
//
//mcp:tool readonly
type Tool0 struct {
	// F0 has a doc comment, "quoted", with <html> & unicode: Åland.
	F0 []uint8 `json:"-,"`
	F1 map[string]I0 `json:"x-y"`
	F2 map[uint64]map[uint64][]string
	F3 map[int]*big.Int
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
	F0 int8
	F1 **float64
	*I2
}

// Call returns a zero result.
func (in Tool1) Call(ctx context.Context) (*I1, error) {
	var out *I1
	return out, nil
}


// Package p16 is a random component package (seed 1796199688383063437) of the property test.
//
//mcp:server
package p16

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
	F0 []I0 `json:"a"`
	F1 uint16 `json:"-"`
	F2 []uuid.UUID `json:"b" jsonschema:"title=constrained,maxItems=2"`
}

// O0 is generated.
type O0 struct {
	I0
	F1 uint16 `json:"-,"`
	F2 map[uint64][]map[uint64]int `json:"-"`
}

// Tool0 is a generated tool with "quotes" and é in its doc.
//
//mcp:tool readonly
type Tool0 struct {
	// F0 has a doc comment, "quoted", with <html> & unicode: Åland.
	F0 int16
}

// Call returns a zero result.
func (in Tool0) Call(ctx context.Context) (map[Lang]string, error) {
	var out map[Lang]string
	return out, nil
}

// Tool1 is a generated tool with "quotes" and é in its doc.
//
//mcp:tool readonly
type Tool1 struct {
	*I0
	F1 map[int8]int64
	F2 *[]*string `json:"Name" jsonschema:"title=T,description=Set by a tag."`
	F3 int
}

// Call returns a zero result.
func (in Tool1) Call(ctx context.Context) (I0, error) {
	var out I0
	return out, nil
}

// Tool2 is a generated tool with "quotes" and é in its doc.
//
//mcp:tool readonly
type Tool2 struct {
	// F0 has a doc comment, "quoted", with <html> & unicode: Åland.
	F0 [2]*I0 `json:"dup"`
	F1 **[]time.Duration
	F2 map[uint16]*big.Int `json:"" jsonschema:"title=T,description=Set by a tag."`
	F3 [2]int16 `json:"-"`
	hidden int
}

// Call returns a zero result.
func (in Tool2) Call(ctx context.Context) (*I0, error) {
	var out *I0
	return out, nil
}


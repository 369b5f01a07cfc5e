// Package p21 is a random component package (seed 1796199688383063442) of the property test.
//
//mcp:server
package p21

import (
	"context"
	"github.com/google/uuid"
	"github.com/mcpgen/mcpgen/gen/testdata/golden/wire/units"
	"time"
)

// Lang is a string-kinded type, usable as a map key.
type Lang string

// Score is a named sized integer.
type Score int16

// I0 is generated.
type I0 struct {
	// F0 has a doc comment, "quoted", with <html> & unicode: Åland.
	F0 [1]Lang `json:"-"`
	F1 float32
	*I0
	F3 []I0
	F4 uuid.UUID `json:"dup"`
}

// O0 is generated.
type O0 struct {
	// F0 has a doc comment, "quoted", with <html> & unicode: Åland.
	F0 [][]uint `json:"a"`
	// F1 has a doc comment, "quoted", with <html> & unicode: Åland.
	F1 time.Time
	// F2 has a doc comment, "quoted", with <html> & unicode: Åland.
	F2 *O0 `json:",omitzero"`
	*O0
	// F4 has a doc comment, "quoted", with <html> & unicode: Åland.
	F4 map[string]I0 `json:"a"`
}

// O1 is generated.
type O1 struct {
	// F0 has a doc comment, "quoted", with <html> & unicode: Åland.
	F0 *map[Lang]uint64 `json:"a,omitempty"`
	// F1 has a doc comment, "quoted", with <html> & unicode: Åland.
	F1 map[uint16]units.Level
	*I0
}

// Tool0 is a generated tool with "quotes" and é in its doc.
//
//mcp:tool readonly
type Tool0 struct {
	I0
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
	F0 map[uint16][]string `json:"名前,omitzero"`
	F1 int8 `json:"-,"`
	I0
}

// Call returns a zero result.
func (in Tool1) Call(ctx context.Context) (I0, error) {
	var out I0
	return out, nil
}


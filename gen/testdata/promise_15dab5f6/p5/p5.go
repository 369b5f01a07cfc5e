// Package p5 is a random component package (seed 1796199688383063426) of the property test.
//
//mcp:server
package p5

import (
	"context"
	"github.com/google/uuid"
	"github.com/mcpgen/mcpgen/gen/testdata/golden/wire/units"
)

// Lang is a string-kinded type, usable as a map key.
type Lang string

// Score is a named sized integer.
type Score int16

// I0 is generated.
type I0 struct {
	F0 map[string]I0 `json:"Name,omitempty"`
	F1 *I0 `json:"x-y,omitzero"`
	F2 map[string]I0 `json:"dup"`
	hidden int
}

// O0 is generated.
type O0 struct {
	I0
	F1 []byte `json:"x-y"`
}

// O1 is generated.
type O1 struct {
	F0 map[string]O1 `json:""`
	F1 map[int8][]*int32 `json:"b"`
	hidden int
}

// Tool0 is a generated tool with "quotes" and é in its doc.
//
//mcp:tool readonly
type Tool0 struct {
	// F0 has a doc comment, "quoted", with <html> & unicode: Åland.
	F0 *I0 `json:""`
	F1 map[int][2]*units.Level `json:"dup,omitzero"`
	*I0
	// F3 has a doc comment, "quoted", with <html> & unicode: Åland.
	F3 Lang `json:"-"`
	// F4 has a doc comment, "quoted", with <html> & unicode: Åland.
	F4 float64 `json:"b,omitempty"`
}

// Call returns a zero result.
func (in Tool0) Call(ctx context.Context) (I0, error) {
	var out I0
	return out, nil
}

// Tool1 is a generated tool with "quotes" and é in its doc.
//
//mcp:tool readonly
type Tool1 struct {
	// F0 has a doc comment, "quoted", with <html> & unicode: Åland.
	F0 []map[uint16]units.Level `json:"a" jsonschema:"title=constrained,maxItems=2"`
	I0
	F2 string `json:"F1,omitzero"`
	F3 int16 `json:"-,"`
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
	F0 map[int]Score `json:"a"`
	F1 uuid.UUID `json:"a,omitempty"`
	// F2 has a doc comment, "quoted", with <html> & unicode: Åland.
	F2 *I0
	F3 []I0 `json:"a,omitempty"`
	F4 uuid.UUID `json:"dup" jsonschema:"title=T,description=Set by a tag."`
}

// Call returns a zero result.
func (in Tool2) Call(ctx context.Context) (I0, error) {
	var out I0
	return out, nil
}


// Package p36 is a random component package (seed 1796199688383063457) of the property test.
//
//mcp:server
package p36

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
	F0 map[string]I0 `json:",omitzero"`
	// F1 has a doc comment, "quoted", with <html> & unicode: Åland.
	F1 [2]*map[string]I0 `json:"b"`
	F2 **I0 `json:"-"`
	F3 uint16 `json:"-"`
}

// O0 is generated.
type O0 struct {
	F0 uuid.UUID `json:"b" jsonschema:"title=T,description=Set by a tag."`
	O1
	I0
	F3 int8 `json:""`
	F4 []*[1][]byte `json:"x-y"`
}

// O1 is generated.
type O1 struct {
	*I0
	F1 Score `json:"名前,string"`
	// F2 has a doc comment, "quoted", with <html> & unicode: Åland.
	F2 []byte `json:"b"`
	// F3 has a doc comment, "quoted", with <html> & unicode: Åland.
	F3 map[uint64][]int16
}

// Tool0 is a generated tool with "quotes" and é in its doc.
//
//mcp:tool readonly
type Tool0 struct {
	// F0 has a doc comment, "quoted", with <html> & unicode: Åland.
	F0 bool
	F1 units.Level `json:"-"`
	// F2 has a doc comment, "quoted", with <html> & unicode: Åland.
	F2 string `json:"x-y,string"`
	F3 uint8 `json:"-,"`
	// F4 has a doc comment, "quoted", with <html> & unicode: Åland.
	F4 I0
}

// Call returns a zero result.
func (in Tool0) Call(ctx context.Context) (I0, error) {
	var out I0
	return out, nil
}


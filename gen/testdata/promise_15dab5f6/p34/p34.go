// Package p34 is a random component package (seed 1796199688383063455) of the property test.
//
//mcp:server
package p34

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
	I1
	// F1 has a doc comment, "quoted", with <html> & unicode: Åland.
	F1 I1 `json:"a,omitempty"`
	*I0
}

// I1 is generated.
type I1 struct {
	F0 []I1 `json:"dup" jsonschema:"title=T,description=Set by a tag."`
	F1 [][][2]uint64
	F2 uuid.UUID `json:"a"`
	*I1
	F4 uint `json:"x-y,omitempty" jsonschema:"title=T,description=Set by a tag."`
}

// O0 is generated.
type O0 struct {
	O2
	F1 units.Level `json:""`
	// F2 has a doc comment, "quoted", with <html> & unicode: Åland.
	F2 O1
	// F3 has a doc comment, "quoted", with <html> & unicode: Åland.
	F3 int8 `json:"-"`
}

// O1 is generated.
type O1 struct {
	// F0 has a doc comment, "quoted", with <html> & unicode: Åland.
	F0 map[string]I1 `json:"b"`
	F1 []O2 `json:"F1" jsonschema:"title=T,description=Set by a tag."`
}

// O2 is generated.
type O2 struct {
	*O0
	F1 *I1 `json:"Name"`
	F2 *map[string]O2 `json:"-"`
}

// O3 is generated.
type O3 struct {
	F0 units.Level
	F1 uint32 `json:"-,"`
	I1
	// F3 has a doc comment, "quoted", with <html> & unicode: Åland.
	F3 string `json:""`
	F4 units.Level `json:"-"`
}

// Tool0 is a generated tool with "quotes" and é in its doc.
//
//mcp:tool readonly
type Tool0 struct {
	F0 int32 `json:"x-y"`
	F1 units.Level `json:"x-y"`
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
	I1
	F1 uint `json:"-,"`
	// F2 has a doc comment, "quoted", with <html> & unicode: Åland.
	F2 int32 `json:"-,"`
	// F3 has a doc comment, "quoted", with <html> & unicode: Åland.
	F3 Lang `json:",omitempty" jsonschema:"title=constrained,minLength=1,maxLength=8"`
}

// Call returns a zero result.
func (in Tool1) Call(ctx context.Context) (O2, error) {
	var out O2
	return out, nil
}

// Tool2 is a generated tool with "quotes" and é in its doc.
//
//mcp:tool readonly
type Tool2 struct {
	// F0 has a doc comment, "quoted", with <html> & unicode: Åland.
	F0 []byte `json:""`
}

// Call returns a zero result.
func (in Tool2) Call(ctx context.Context) (map[Lang]string, error) {
	var out map[Lang]string
	return out, nil
}


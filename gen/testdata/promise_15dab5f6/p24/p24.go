// Package p24 is a random component package (seed 1796199688383063445) of the property test.
//
//mcp:server
package p24

import (
	"context"
	"github.com/mcpgen/mcpgen/gen/testdata/golden/wire/units"
	"net/netip"
)

// Lang is a string-kinded type, usable as a map key.
type Lang string

// Score is a named sized integer.
type Score int16

// I0 is generated.
type I0 struct {
	// F0 has a doc comment, "quoted", with <html> & unicode: Åland.
	F0 []I0 `json:"-"`
	// F1 has a doc comment, "quoted", with <html> & unicode: Åland.
	F1 *int8 `json:"-"`
	F2 []I1 `json:"" jsonschema:"title=constrained,maxItems=2"`
	// F3 has a doc comment, "quoted", with <html> & unicode: Åland.
	F3 map[int8]uint `json:"dup"`
}

// I1 is generated.
type I1 struct {
	F0 map[string][2]int16 `json:"-"`
	F1 map[string]I1 `json:"-,"`
	*I0
}

// O0 is generated.
type O0 struct {
	F0 [1]*O1 `json:"x-y,omitempty"`
	F1 map[string]I1 `json:"名前"`
}

// O1 is generated.
type O1 struct {
	*O1
	F1 netip.Addr `json:"dup,omitempty"`
}

// Tool0 is a generated tool with "quotes" and é in its doc.
//
//mcp:tool readonly
type Tool0 struct {
	F0 float64 `json:"-"`
	*I1
	F2 units.Level `json:""`
	F3 uint16 `json:"Name,omitzero" jsonschema:"title=T,description=Set by a tag."`
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
	F0 []units.Level `json:"名前"`
	*I0
	F2 I0 `json:"a"`
	F3 [2]uint32
}

// Call returns a zero result.
func (in Tool1) Call(ctx context.Context) (O0, error) {
	var out O0
	return out, nil
}


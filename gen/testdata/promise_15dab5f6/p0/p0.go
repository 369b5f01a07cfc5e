// Package p0 is a random component package (seed 1796199688383063421) of the property test.
//
//mcp:server
package p0

import (
	"context"
	"github.com/google/uuid"
	"github.com/mcpgen/mcpgen/gen/testdata/golden/wire/units"
	"net/netip"
	"time"
)

// Lang is a string-kinded type, usable as a map key.
type Lang string

// Score is a named sized integer.
type Score int16

// I0 is generated.
type I0 struct {
	F0 []map[int]float64 `json:"名前"`
	// F1 has a doc comment, "quoted", with <html> & unicode: Åland.
	F1 Lang `json:""`
	F2 time.Time
	// F3 has a doc comment, "quoted", with <html> & unicode: Åland.
	F3 uint16
}

// I1 is generated.
type I1 struct {
	F0 uuid.UUID `json:"Name,omitempty" jsonschema:"title=T,description=Set by a tag."`
	F1 []int `json:"-"`
	F2 []I0 `json:",omitzero"`
	*I0 `json:"dup"`
	// F4 has a doc comment, "quoted", with <html> & unicode: Åland.
	F4 map[string][]I0 `json:"F1"`
	hidden int
}

// O0 is generated.
type O0 struct {
	// F0 has a doc comment, "quoted", with <html> & unicode: Åland.
	F0 map[int][2]float64 `json:"Name" jsonschema:"title=T,description=Set by a tag."`
	// F1 has a doc comment, "quoted", with <html> & unicode: Åland.
	F1 *[]I0 `json:",omitzero" jsonschema:"title=T,description=Set by a tag."`
	F2 *O0
	hidden int
}

// O1 is generated.
type O1 struct {
	I1
	// F1 has a doc comment, "quoted", with <html> & unicode: Åland.
	F1 map[string]O0 `json:""`
	F2 uint32 `json:"-"`
	F3 netip.Addr
}

// Tool0 is a generated tool with "quotes" and é in its doc.
//
//mcp:tool readonly
type Tool0 struct {
	F0 *string `json:"名前,string" jsonschema:"title=T,description=Set by a tag."`
	F1 Score `json:"dup,omitempty"`
	hidden int
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
	F0 map[Lang]I0 `json:"x-y"`
	*I0
	// F2 has a doc comment, "quoted", with <html> & unicode: Åland.
	F2 I0 `json:"x-y"`
	hidden int
}

// Call returns a zero result.
func (in Tool1) Call(ctx context.Context) (map[Lang]units.Level, error) {
	var out map[Lang]units.Level
	return out, nil
}


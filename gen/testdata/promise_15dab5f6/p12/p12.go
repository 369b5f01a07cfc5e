// Package p12 is a random component package (seed 1796199688383063433) of the property test.
//
//mcp:server
package p12

import (
	"context"
	"encoding/json"
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
	F0 *json.Number `json:""`
}

// I1 is generated.
type I1 struct {
	*I2
	F1 uuid.UUID `json:"x-y,omitzero" jsonschema:"title=T,description=Set by a tag."`
	// F2 has a doc comment, "quoted", with <html> & unicode: Åland.
	F2 time.Duration `json:"b,omitzero"`
	F3 map[uint64]int8 `json:"x-y" jsonschema:"title=T,description=Set by a tag."`
	*I1
}

// I2 is generated.
type I2 struct {
	F0 time.Time `json:"-,"`
	F1 [2]map[string]I0 `json:"b"`
	F2 *I1 `json:"x-y,omitempty"`
	F3 [2]*I2 `json:""`
	hidden int
}

// O0 is generated.
type O0 struct {
	// F0 has a doc comment, "quoted", with <html> & unicode: Åland.
	F0 *json.Number `json:"b" jsonschema:"title=T,description=Set by a tag."`
	O3
	F2 [2]*map[uint16]netip.Addr `json:"-"`
}

// O1 is generated.
type O1 struct {
	// F0 has a doc comment, "quoted", with <html> & unicode: Åland.
	F0 time.Time `json:"dup,omitempty"`
	F1 json.Number `json:"-"`
	F2 map[units.Temp]time.Duration
	// F3 has a doc comment, "quoted", with <html> & unicode: Åland.
	F3 *uint32 `json:"-,"`
	O2
}

// O2 is generated.
type O2 struct {
	F0 units.Level
	// F1 has a doc comment, "quoted", with <html> & unicode: Åland.
	F1 string
	F2 Lang `json:"b"`
}

// O3 is generated.
type O3 struct {
	// F0 has a doc comment, "quoted", with <html> & unicode: Åland.
	F0 bool `json:""`
	F1 bool `json:"dup,string"`
	// F2 has a doc comment, "quoted", with <html> & unicode: Åland.
	F2 map[Lang]map[string]O1 `json:"x-y"`
	*I2
	hidden int
}

// Tool0 is a generated tool with "quotes" and é in its doc.
//
//mcp:tool readonly
type Tool0 struct {
	F0 []*I1 `json:"" jsonschema:"title=constrained,maxItems=2"`
	F1 *uint `json:",string"`
	F2 []*bool `json:"名前" jsonschema:"title=T,description=Set by a tag."`
	// F3 has a doc comment, "quoted", with <html> & unicode: Åland.
	F3 [1]map[uint16]int `json:"dup,omitzero"`
	I1
}

// Call returns a zero result.
func (in Tool0) Call(ctx context.Context) (O1, error) {
	var out O1
	return out, nil
}

// Tool1 is a generated tool with "quotes" and é in its doc.
//
//mcp:tool readonly
type Tool1 struct {
	// F0 has a doc comment, "quoted", with <html> & unicode: Åland.
	F0 *I1 `json:"dup"`
	I0 `json:"x-y"`
	// F2 has a doc comment, "quoted", with <html> & unicode: Åland.
	F2 time.Time `json:"a,omitzero"`
	F3 Lang `json:"名前"`
	F4 []*I1
	hidden int
}

// Call returns a zero result.
func (in Tool1) Call(ctx context.Context) (*O1, error) {
	var out *O1
	return out, nil
}


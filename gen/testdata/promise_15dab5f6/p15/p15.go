// Package p15 is a random component package (seed 1796199688383063436) of the property test.
//
//mcp:server
package p15

import (
	"context"
	"encoding/json"
	"github.com/mcpgen/mcpgen/gen/testdata/golden/wire/units"
	"time"
)

// Lang is a string-kinded type, usable as a map key.
type Lang string

// Score is a named sized integer.
type Score int16

// I0 is generated.
type I0 struct {
	*I2
}

// I1 is generated.
type I1 struct {
	F0 Score `json:"-"`
}

// I2 is generated.
type I2 struct {
	F0 uint16 `json:"b" jsonschema:"title=T,description=Set by a tag."`
}

// I3 is generated.
type I3 struct {
	F0 []I2 `json:""`
	F1 [1]int16 `json:"x-y,omitzero"`
	*I0
	F3 time.Duration `json:"-"`
	F4 []I0 `json:"Name" jsonschema:"title=T,description=Set by a tag."`
}

// O0 is generated.
type O0 struct {
	// F0 has a doc comment, "quoted", with <html> & unicode: Åland.
	F0 map[string]I2 `json:"dup,omitzero"`
	// F1 has a doc comment, "quoted", with <html> & unicode: Åland.
	F1 *[]uint64
	F2 Score `json:"名前,string" jsonschema:"title=T,description=Set by a tag."`
}

// O1 is generated.
type O1 struct {
	I1
	F1 *O0 `json:"a"`
	F2 Lang `json:"dup,string"`
	*O0
	// F4 has a doc comment, "quoted", with <html> & unicode: Åland.
	F4 units.Level `json:"a"`
}

// Tool0 is a generated tool with "quotes" and é in its doc.
//
//mcp:tool readonly
type Tool0 struct {
	// F0 has a doc comment, "quoted", with <html> & unicode: Åland.
	F0 [2][2]float64 `json:"b,omitzero"`
	F1 json.Number `json:"-"`
	F2 []I0 `json:"-"`
	I1
	hidden int
}

// Call returns a zero result.
func (in Tool0) Call(ctx context.Context) (map[Lang]I1, error) {
	var out map[Lang]I1
	return out, nil
}

// Tool1 is a generated tool with "quotes" and é in its doc.
//
//mcp:tool readonly
type Tool1 struct {
	F0 *I1 `json:"-,"`
	*I2
	F2 int `json:"-"`
	F3 uint32 `json:"dup" jsonschema:"title=T,description=Set by a tag."`
}

// Call returns a zero result.
func (in Tool1) Call(ctx context.Context) (I2, error) {
	var out I2
	return out, nil
}

// Tool2 is a generated tool with "quotes" and é in its doc.
//
//mcp:tool readonly
type Tool2 struct {
	F0 int16
	F1 []I1 `json:""`
	I2 `json:"dup"`
	F3 int `json:"a,string"`
	F4 units.Level `json:"Name"`
}

// Call returns a zero result.
func (in Tool2) Call(ctx context.Context) (map[Lang][][2]float32, error) {
	var out map[Lang][][2]float32
	return out, nil
}


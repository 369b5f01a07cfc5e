// Package p17 is a random component package (seed 1796199688383063438) of the property test.
//
//mcp:server
package p17

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
	F0 json.Number `json:"a"`
	// F1 has a doc comment, "quoted", with <html> & unicode: Åland.
	F1 units.Level `json:"F1" jsonschema:"title=T,description=Set by a tag."`
	F2 uint64 `json:"dup,omitempty"`
	hidden int
}

// I1 is generated.
type I1 struct {
	F0 time.Duration `json:"-,"`
	I2
	// F2 has a doc comment, "quoted", with <html> & unicode: Åland.
	F2 units.Level `json:"-"`
	F3 *[]units.Level `json:"-,"`
}

// I2 is generated.
type I2 struct {
	// F0 has a doc comment, "quoted", with <html> & unicode: Åland.
	F0 int `json:"名前,omitzero" jsonschema:"title=constrained,exclusiveMinimum=0,multipleOf=3"`
	*I0
}

// O0 is generated.
type O0 struct {
	// F0 has a doc comment, "quoted", with <html> & unicode: Åland.
	F0 int32 `json:"dup,omitempty"`
	F1 []byte `json:""`
	// F2 has a doc comment, "quoted", with <html> & unicode: Åland.
	F2 int16 `json:"-"`
}

// O1 is generated.
type O1 struct {
	F0 map[string]O2 `json:""`
}

// O2 is generated.
type O2 struct {
	F0 []O3 `json:""`
	F1 uint16 `json:"" jsonschema:"title=T,description=Set by a tag."`
	hidden int
}

// O3 is generated.
type O3 struct {
	F0 *map[string]O2 `json:",omitzero"`
	F1 float32 `json:",string"`
}

// Tool0 is a generated tool with "quotes" and é in its doc.
//
//mcp:tool readonly
type Tool0 struct {
	*I1 `json:"Name"`
	// F1 has a doc comment, "quoted", with <html> & unicode: Åland.
	F1 *I0 `json:"F1"`
	*I2
	F3 [1]uint
	F4 []byte
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
	// F0 has a doc comment, "quoted", with <html> & unicode: Åland.
	F0 int8 `json:"-,"`
	I1
}

// Call returns a zero result.
func (in Tool1) Call(ctx context.Context) (*I1, error) {
	var out *I1
	return out, nil
}


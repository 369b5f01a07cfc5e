// Package p33 is a random component package (seed 1796199688383063454) of the property test.
//
//mcp:server
package p33

import (
	"context"
	"encoding/json"
	"github.com/mcpgen/mcpgen/gen/testdata/golden/wire/units"
)

// Lang is a string-kinded type, usable as a map key.
type Lang string

// Score is a named sized integer.
type Score int16

// I0 is generated.
type I0 struct {
	F0 map[string]I0 `json:"-,"`
	F1 int8 `json:"-,"`
}

// O0 is generated.
type O0 struct {
	*O1
	F1 json.Number `json:"F1"`
	// F2 has a doc comment, "quoted", with <html> & unicode: Åland.
	F2 units.Level `json:"" jsonschema:"title=T,description=Set by a tag."`
}

// O1 is generated.
type O1 struct {
	F0 *O0 `json:"dup,omitempty"`
}

// O2 is generated.
type O2 struct {
	F0 json.Number `json:""`
	F1 *string
}

// Tool0 is a generated tool with "quotes" and é in its doc.
//
//mcp:tool readonly
type Tool0 struct {
	*I0
	// F1 has a doc comment, "quoted", with <html> & unicode: Åland.
	F1 I0 `json:"名前"`
	F2 *int16
}

// Call returns a zero result.
func (in Tool0) Call(ctx context.Context) (*O2, error) {
	var out *O2
	return out, nil
}


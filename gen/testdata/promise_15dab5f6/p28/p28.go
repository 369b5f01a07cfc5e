// Package p28 is a random component package (seed 1796199688383063449) of the property test.
//
//mcp:server
package p28

import (
	"context"
	"encoding/json"
)

// Lang is a string-kinded type, usable as a map key.
type Lang string

// Score is a named sized integer.
type Score int16

// I0 is generated.
type I0 struct {
	F0 *I0 `json:"名前"`
	// F1 has a doc comment, "quoted", with <html> & unicode: Åland.
	F1 *I0 `json:"-,"`
	F2 map[string]I0 `json:""`
}

// O0 is generated.
type O0 struct {
	F0 I0 `json:"a,omitempty"`
	F1 *[][2]float32 `json:""`
	hidden int
}

// O1 is generated.
type O1 struct {
	// F0 has a doc comment, "quoted", with <html> & unicode: Åland.
	F0 []O0 `json:"b,omitzero"`
	*I0
	F2 [1]uint32 `json:""`
	// F3 has a doc comment, "quoted", with <html> & unicode: Åland.
	F3 []I0 `json:"名前"`
	F4 I0 `json:"b,omitempty"`
	hidden int
}

// Tool0 is a generated tool with "quotes" and é in its doc.
//
//mcp:tool readonly
type Tool0 struct {
	F0 map[uint16]int16 `json:"-,"`
	F1 []json.Number `json:"dup" jsonschema:"title=T,description=Set by a tag."`
}

// Call returns a zero result.
func (in Tool0) Call(ctx context.Context) (*O0, error) {
	var out *O0
	return out, nil
}


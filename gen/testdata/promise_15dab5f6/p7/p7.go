// Package p7 is a random component package (seed 1796199688383063428) of the property test.
//
//mcp:server
package p7

import (
	"context"
	"time"
)

// Lang is a string-kinded type, usable as a map key.
type Lang string

// Score is a named sized integer.
type Score int16

// I0 is generated.
type I0 struct {
	F0 Score `json:"Name"`
	F1 [1]uint64 `json:""`
	*I0
	F3 []I2 `json:"" jsonschema:"title=constrained,maxItems=2"`
}

// I1 is generated.
type I1 struct {
	F0 time.Duration `json:"F1"`
}

// I2 is generated.
type I2 struct {
	*I2
	F1 int
	F2 int32 `json:"名前"`
}

// O0 is generated.
type O0 struct {
	// F0 has a doc comment, "quoted", with <html> & unicode: Åland.
	F0 []I2 `json:"x-y"`
	F1 I0 `json:"名前"`
}

// O1 is generated.
type O1 struct {
	F0 *[]O1 `json:"b" jsonschema:"title=T,description=Set by a tag."`
	*I1
	F2 []O2 `json:"b,omitzero"`
	// F3 has a doc comment, "quoted", with <html> & unicode: Åland.
	F3 uint8 `json:"-,"`
	*O0
}

// O2 is generated.
type O2 struct {
	// F0 has a doc comment, "quoted", with <html> & unicode: Åland.
	F0 map[string]int64 `json:"" jsonschema:"title=T,description=Set by a tag."`
	F1 map[string]O2 `json:"-,"`
	hidden int
}

// Tool0 is a generated tool with "quotes" and é in its doc.
//
//mcp:tool readonly
type Tool0 struct {
	*I0
	I2 `json:"名前"`
}

// Call returns a zero result.
func (in Tool0) Call(ctx context.Context) (*O0, error) {
	var out *O0
	return out, nil
}


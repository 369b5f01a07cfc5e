// Package p29 is a random component package (seed 1796199688383063450) of the property test.
//
//mcp:server
package p29

import (
	"context"
	"encoding/json"
	"time"
)

// Lang is a string-kinded type, usable as a map key.
type Lang string

// Score is a named sized integer.
type Score int16

// I0 is generated.
type I0 struct {
	F0 map[uint64]uint `json:",omitempty" jsonschema:"title=T,description=Set by a tag."`
	F1 uint `json:"dup"`
	// F2 has a doc comment, "quoted", with <html> & unicode: Åland.
	F2 map[int]uint64 `json:"b"`
	// F3 has a doc comment, "quoted", with <html> & unicode: Åland.
	F3 uint64 `json:"-,"`
	// F4 has a doc comment, "quoted", with <html> & unicode: Åland.
	F4 Score `json:"-"`
}

// I1 is generated.
type I1 struct {
	F0 []I0 `json:"Name"`
	F1 int8 `json:"-," jsonschema:"title=constrained,exclusiveMinimum=0,multipleOf=3"`
	*I1 `json:"x-y"`
}

// I2 is generated.
type I2 struct {
	F0 *I1 `json:"x-y"`
	// F1 has a doc comment, "quoted", with <html> & unicode: Åland.
	F1 [1][]byte `json:"a"`
	F2 int `json:",omitzero" jsonschema:"title=constrained,exclusiveMinimum=0,multipleOf=3"`
}

// O0 is generated.
type O0 struct {
	I0
}

// O1 is generated.
type O1 struct {
	F0 [][][]byte `json:"-,"`
	F1 int64 `json:"-"`
	F2 int `json:"Name,omitempty"`
	F3 uint16 `json:"-"`
	F4 json.Number `json:"a,omitempty"`
}

// Tool0 is a generated tool with "quotes" and é in its doc.
//
//mcp:tool readonly
type Tool0 struct {
	// F0 has a doc comment, "quoted", with <html> & unicode: Åland.
	F0 map[uint64]map[int]*int64 `json:"F1,omitzero" jsonschema:"title=T,description=Set by a tag."`
	F1 time.Duration
	F2 time.Time
}

// Call returns a zero result.
func (in Tool0) Call(ctx context.Context) (*O1, error) {
	var out *O1
	return out, nil
}

// Tool1 is a generated tool with "quotes" and é in its doc.
//
//mcp:tool readonly
type Tool1 struct {
	F0 []float64
	I1 `json:"名前"`
	F2 float64 `json:"名前"`
}

// Call returns a zero result.
func (in Tool1) Call(ctx context.Context) (O0, error) {
	var out O0
	return out, nil
}

// Tool2 is a generated tool with "quotes" and é in its doc.
//
//mcp:tool readonly
type Tool2 struct {
	*I2
	// F1 has a doc comment, "quoted", with <html> & unicode: Åland.
	F1 I0 `json:"-"`
	F2 int32 `json:"-,"`
	// F3 has a doc comment, "quoted", with <html> & unicode: Åland.
	F3 [2]*I0
	F4 map[string][][]I0 `json:"名前" jsonschema:"title=T,description=Set by a tag."`
}

// Call returns a zero result.
func (in Tool2) Call(ctx context.Context) (*O1, error) {
	var out *O1
	return out, nil
}


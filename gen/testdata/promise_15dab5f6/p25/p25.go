// Package p25 is a random component package (seed 1796199688383063446) of the property test.
//
//mcp:server
package p25

import (
	"context"
	"encoding/json"
	"github.com/google/uuid"
)

// Lang is a string-kinded type, usable as a map key.
type Lang string

// Score is a named sized integer.
type Score int16

// I0 is generated.
type I0 struct {
	F0 int64 `json:"b,string"`
}

// I1 is generated.
type I1 struct {
	// F0 has a doc comment, "quoted", with <html> & unicode: Åland.
	F0 I2 `json:"-"`
	F1 map[string]I3
	F2 uuid.UUID `json:"x-y"`
	*I3
}

// I2 is generated.
type I2 struct {
	F0 float64 `json:"Name"`
	*I2
}

// I3 is generated.
type I3 struct {
	// F0 has a doc comment, "quoted", with <html> & unicode: Åland.
	F0 [2]*map[string]I3 `json:",omitempty"`
	F1 uint64 `json:"x-y"`
	F2 []byte `json:"dup,omitempty"`
	*I3 `json:"名前"`
}

// O0 is generated.
type O0 struct {
	F0 []int16 `json:"F1"`
	F1 *O0 `json:"F1,omitempty"`
	// F2 has a doc comment, "quoted", with <html> & unicode: Åland.
	F2 []O0 `json:"b"`
	F3 *I1 `json:""`
}

// O1 is generated.
type O1 struct {
	*I2
	F1 int16 `json:"dup"`
	F2 **Lang
}

// Tool0 is a generated tool with "quotes" and é in its doc.
//
//mcp:tool readonly
type Tool0 struct {
	F0 map[string]int8 `json:"名前,omitempty" jsonschema:"title=T,description=Set by a tag."`
	// F1 has a doc comment, "quoted", with <html> & unicode: Åland.
	F1 uint64 `json:",omitzero"`
	F2 Score `json:"b"`
	// F3 has a doc comment, "quoted", with <html> & unicode: Åland.
	F3 *I0 `json:"a,omitzero" jsonschema:"title=T,description=Set by a tag."`
	*I0
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
	F0 json.Number `json:"F1" jsonschema:"title=T,description=Set by a tag."`
	hidden int
}

// Call returns a zero result.
func (in Tool1) Call(ctx context.Context) (*I2, error) {
	var out *I2
	return out, nil
}

// Tool2 is a generated tool with "quotes" and é in its doc.
//
//mcp:tool readonly
type Tool2 struct {
	F0 I2
	// F1 has a doc comment, "quoted", with <html> & unicode: Åland.
	F1 uint32 `json:"dup" jsonschema:"title=T,description=Set by a tag."`
	F2 []I2 `json:"dup"`
	F3 map[string]I3 `json:"-"`
}

// Call returns a zero result.
func (in Tool2) Call(ctx context.Context) (I0, error) {
	var out I0
	return out, nil
}


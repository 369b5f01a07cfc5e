// Package p13 is a random component package (seed 1796199688383063434) of the property test.
//
//mcp:server
package p13

import (
	"context"
	"encoding/json"
	"math/big"
)

// Lang is a string-kinded type, usable as a map key.
type Lang string

// Score is a named sized integer.
type Score int16

// I0 is generated.
type I0 struct {
	F0 []float32 `json:"" jsonschema:"title=constrained,maxItems=2"`
	F1 map[Lang][]byte `json:",omitempty" jsonschema:"title=T,description=Set by a tag."`
	// F2 has a doc comment, "quoted", with <html> & unicode: Åland.
	F2 *I0 `json:"-"`
	F3 Score `json:"名前,string"`
}

// O0 is generated.
type O0 struct {
	// F0 has a doc comment, "quoted", with <html> & unicode: Åland.
	F0 map[int]int32 `json:"x-y"`
	// F1 has a doc comment, "quoted", with <html> & unicode: Åland.
	F1 uint32 `json:"F1"`
	F2 uint64
	F3 uint32 `json:"-"`
	F4 I0 `json:"dup" jsonschema:"title=T,description=Set by a tag."`
}

// O1 is generated.
type O1 struct {
	F0 map[string]O0 `json:"b" jsonschema:"title=T,description=Set by a tag."`
	// F1 has a doc comment, "quoted", with <html> & unicode: Åland.
	F1 *I0 `json:",omitempty" jsonschema:"title=T,description=Set by a tag."`
	F2 int64 `json:"F1,omitempty"`
}

// O2 is generated.
type O2 struct {
	// F0 has a doc comment, "quoted", with <html> & unicode: Åland.
	F0 [2]*big.Int `json:"" jsonschema:"title=T,description=Set by a tag."`
	F1 int64 `json:"a"`
}

// Tool0 is a generated tool with "quotes" and é in its doc.
//
//mcp:tool readonly
type Tool0 struct {
	F0 json.Number `json:"-"`
	*I0
	F2 I0 `json:"名前" jsonschema:"title=T,description=Set by a tag."`
}

// Call returns a zero result.
func (in Tool0) Call(ctx context.Context) (*I0, error) {
	var out *I0
	return out, nil
}


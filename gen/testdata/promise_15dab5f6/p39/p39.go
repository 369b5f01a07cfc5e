// Package p39 is a random component package (seed 1796199688383063460) of the property test.
//
//mcp:server
package p39

import (
	"context"
	"encoding/json"
	"github.com/mcpgen/mcpgen/gen/testdata/golden/wire/units"
	"math/big"
	"time"
)

// Lang is a string-kinded type, usable as a map key.
type Lang string

// Score is a named sized integer.
type Score int16

// I0 is generated.
type I0 struct {
	F0 []uint32 `json:"-,"`
	// F1 has a doc comment, "quoted", with <html> & unicode: Åland.
	F1 map[uint16]int8 `json:"-,"`
	F2 time.Time `json:"a,omitempty" jsonschema:"title=T,description=Set by a tag."`
}

// I1 is generated.
type I1 struct {
	// F0 has a doc comment, "quoted", with <html> & unicode: Åland.
	F0 []map[uint64][]int16 `json:"F1" jsonschema:"title=constrained,maxItems=2"`
	F1 *big.Int `json:",omitzero"`
	// F2 has a doc comment, "quoted", with <html> & unicode: Åland.
	F2 map[string]I0 `json:"dup"`
	F3 uint16 `json:"-,"`
}

// O0 is generated.
type O0 struct {
	// F0 has a doc comment, "quoted", with <html> & unicode: Åland.
	F0 Lang `json:"-"`
	hidden int
}

// O1 is generated.
type O1 struct {
	F0 units.Level `json:"-"`
	F1 Score `json:"-"`
	F2 json.Number `json:"Name"`
	F3 [2]json.Number `json:"-,"`
}

// O2 is generated.
type O2 struct {
	*O2 `json:"名前"`
	// F1 has a doc comment, "quoted", with <html> & unicode: Åland.
	F1 Score `json:""`
	// F2 has a doc comment, "quoted", with <html> & unicode: Åland.
	F2 *[1]*big.Int
	// F3 has a doc comment, "quoted", with <html> & unicode: Åland.
	F3 uint64 `json:"F1"`
}

// O3 is generated.
type O3 struct {
	// F0 has a doc comment, "quoted", with <html> & unicode: Åland.
	F0 uint16 `json:",omitempty" jsonschema:"title=T,description=Set by a tag."`
	*O2 `json:"b"`
}

// Tool0 is a generated tool with "quotes" and é in its doc.
//
//mcp:tool readonly
type Tool0 struct {
	I1
	F1 *map[uint64]*int8
	// F2 has a doc comment, "quoted", with <html> & unicode: Åland.
	F2 uint64 `json:"dup"`
	// F3 has a doc comment, "quoted", with <html> & unicode: Åland.
	F3 map[Lang]*[]I1 `json:"Name,omitzero"`
}

// Call returns a zero result.
func (in Tool0) Call(ctx context.Context) (*O3, error) {
	var out *O3
	return out, nil
}

// Tool1 is a generated tool with "quotes" and é in its doc.
//
//mcp:tool readonly
type Tool1 struct {
	F0 float32 `json:",string"`
	F1 Lang
	F2 string `json:",omitempty"`
	// F3 has a doc comment, "quoted", with <html> & unicode: Åland.
	F3 time.Duration `json:"a,omitempty"`
	// F4 has a doc comment, "quoted", with <html> & unicode: Åland.
	F4 uint8 `json:"" jsonschema:"title=T,description=Set by a tag."`
}

// Call returns a zero result.
func (in Tool1) Call(ctx context.Context) (I1, error) {
	var out I1
	return out, nil
}

// Tool2 is a generated tool with "quotes" and é in its doc.
//
//mcp:tool readonly
type Tool2 struct {
	// F0 has a doc comment, "quoted", with <html> & unicode: Åland.
	F0 map[uint16]uint8
	F1 []byte
	F2 []uint8
	F3 []byte `json:"b"`
	F4 []I0 `json:"" jsonschema:"title=T,description=Set by a tag."`
}

// Call returns a zero result.
func (in Tool2) Call(ctx context.Context) (I0, error) {
	var out I0
	return out, nil
}


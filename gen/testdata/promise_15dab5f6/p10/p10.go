// Package p10 is a random component package (seed 1796199688383063431) of the property test.
//
//mcp:server
package p10

import (
	"context"
	"encoding/json"
	"github.com/google/uuid"
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
	F0 json.Number `json:"x-y"`
	F1 map[int]Lang `json:"F1" jsonschema:"title=T,description=Set by a tag."`
}

// I1 is generated.
type I1 struct {
	F0 int8 `json:"-"`
	// F1 has a doc comment, "quoted", with <html> & unicode: Åland.
	F1 [][]units.Level `json:"F1,omitempty" jsonschema:"title=T,description=Set by a tag."`
	hidden int
}

// I2 is generated.
type I2 struct {
	F0 int64 `json:"a,omitempty"`
	F1 [][]*big.Int `json:"Name,omitzero" jsonschema:"title=T,description=Set by a tag."`
	F2 []byte `json:"-,"`
	F3 *I0 `json:""`
	// F4 has a doc comment, "quoted", with <html> & unicode: Åland.
	F4 int64 `json:"dup,omitzero"`
}

// I3 is generated.
type I3 struct {
	// F0 has a doc comment, "quoted", with <html> & unicode: Åland.
	F0 map[string]I2 `json:"-,"`
	F1 units.Level `json:"dup"`
	F2 json.Number `json:""`
	// F3 has a doc comment, "quoted", with <html> & unicode: Åland.
	F3 int64 `json:"x-y"`
}

// O0 is generated.
type O0 struct {
	F0 map[int]time.Duration `json:"名前"`
	F1 map[uint64][]O0 `json:""`
	F2 []byte
	F3 I1 `json:"x-y" jsonschema:"title=T,description=Set by a tag."`
}

// O1 is generated.
type O1 struct {
	// F0 has a doc comment, "quoted", with <html> & unicode: Åland.
	F0 **map[uint64]*big.Int `json:"-,"`
	F1 []I0
}

// Tool0 is a generated tool with "quotes" and é in its doc.
//
//mcp:tool readonly
type Tool0 struct {
	F0 uint64 `json:"-"`
	*I0
	F2 [1]map[string][]uint64 `json:"x-y" jsonschema:"title=T,description=Set by a tag."`
	// F3 has a doc comment, "quoted", with <html> & unicode: Åland.
	F3 Lang `json:"Name" jsonschema:"title=constrained,enum=a,enum=b\,c"`
}

// Call returns a zero result.
func (in Tool0) Call(ctx context.Context) (*I3, error) {
	var out *I3
	return out, nil
}

// Tool1 is a generated tool with "quotes" and é in its doc.
//
//mcp:tool readonly
type Tool1 struct {
	// F0 has a doc comment, "quoted", with <html> & unicode: Åland.
	F0 I3 `json:""`
	I0
	// F2 has a doc comment, "quoted", with <html> & unicode: Åland.
	F2 uuid.UUID `json:""`
	// F3 has a doc comment, "quoted", with <html> & unicode: Åland.
	F3 map[string]I2 `json:",omitempty" jsonschema:"title=T,description=Set by a tag."`
}

// Call returns a zero result.
func (in Tool1) Call(ctx context.Context) (O1, error) {
	var out O1
	return out, nil
}


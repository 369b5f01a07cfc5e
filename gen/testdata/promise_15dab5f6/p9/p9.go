// Package p9 is a random component package (seed 1796199688383063430) of the property test.
//
//mcp:server
package p9

import (
	"context"
	"net/netip"
	"time"
)

// Lang is a string-kinded type, usable as a map key.
type Lang string

// Score is a named sized integer.
type Score int16

// I0 is generated.
type I0 struct {
	*I0
	// F1 has a doc comment, "quoted", with <html> & unicode: Åland.
	F1 Score `json:"a"`
	F2 **I0 `json:"-,"`
}

// I1 is generated.
type I1 struct {
	*I0
	F1 uint64
	*I1
	F3 *time.Time
}

// O0 is generated.
type O0 struct {
	// F0 has a doc comment, "quoted", with <html> & unicode: Åland.
	F0 netip.Addr `json:""`
	*I0 `json:"a"`
	F2 int16 `json:"b,omitzero"`
}

// O1 is generated.
type O1 struct {
	*O1
	F1 []O1
	F2 *I0
	F3 []map[uint64]map[string]I1 `json:"-,"`
}

// Tool0 is a generated tool with "quotes" and é in its doc.
//
//mcp:tool readonly
type Tool0 struct {
	F0 []byte `json:"-,"`
	F1 map[string]I1
	F2 I1 `json:"F1"`
	I0
	F4 []Lang `json:"dup"`
}

// Call returns a zero result.
func (in Tool0) Call(ctx context.Context) (O0, error) {
	var out O0
	return out, nil
}

// Tool1 is a generated tool with "quotes" and é in its doc.
//
//mcp:tool readonly
type Tool1 struct {
	F0 *int8
	// F1 has a doc comment, "quoted", with <html> & unicode: Åland.
	F1 [2]int64 `json:"名前,omitzero" jsonschema:"title=T,description=Set by a tag."`
	F2 float64 `json:""`
}

// Call returns a zero result.
func (in Tool1) Call(ctx context.Context) (*O1, error) {
	var out *O1
	return out, nil
}


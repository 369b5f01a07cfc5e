// Package wire is a golden case for the schemas' promise: each describes
// the JSON that encoding/json writes (outputs) or reads (inputs). Its types
// have their own JSON forms (text marshalers, JSONSchema methods,
// well-known types), nil pointers and slices, ",string", sized integers,
// a field named "-", ambiguous and pointer embedded structs, shared and
// recursive types, maps with named keys, a generic result and an
// anonymous one, aliases, and options with non-ASCII values.
//
//mcp:server name=wire title="Wire – forms à la encoding/json"
package wire

import (
	"context"
	"errors"
	"math/big"
	"net/netip"
	"time"

	"github.com/google/uuid"

	"github.com/mcpgen/mcpgen/gen/testdata/golden/wire/units"
)

// Ctx is an alias of context.Context, which handlers may take.
type Ctx = context.Context

// Lang is a string-kinded map key.
type Lang string

// Base and Other both have a Name at the same depth: encoding/json drops
// both, and so do the schemas.
type Base struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// Other is embedded beside Base.
type Other struct {
	Name string `json:"name"`
	Kind string `json:"kind"`
}

// Extra is embedded through a pointer: when nil, its fields are absent.
type Extra struct {
	Note string `json:"note"`
}

// Point is used twice at two levels: it is described once, in $defs.
type Point struct {
	X int32 `json:"x"`
	Y int32 `json:"y"`
}

// Segment uses Point twice.
type Segment struct {
	From Point `json:"from"`
	To   Point `json:"to"`
}

// Tree is recursive through a map.
type Tree map[string]Tree

// Node is recursive through a slice and a pointer.
type Node struct {
	Label    string `json:"label"`
	Children []Node `json:"children,omitempty"`
	Parent   *Node  `json:"parent,omitempty"`
}

// Record exercises the wire forms.
//
//mcp:tool readonly title="Récupère – «record»"
type Record struct {
	Base
	Other
	*Extra
	// A temperature such as "21.5C".
	Temp units.Temp `json:"temp"`
	// A level "L<n>", described by its JSONSchema method.
	Level   units.Level     `json:"level"`
	ID2     uuid.UUID       `json:"uuid"`
	Big     *big.Int        `json:"big"`
	Addr    netip.Addr      `json:"addr"`
	At      time.Time       `json:"at"`
	Quoted  int64           `json:"quoted,string"`
	Small   int8            `json:"small"`
	Huge    uint64          `json:"huge"`
	Dash    string          `json:"-,"`
	Maybe   *string         `json:"maybe"`
	List    []string        `json:"list"`
	Names   map[Lang]string `json:"names"`
	Seg     Segment         `json:"seg"`
	Origin  *Point          `json:"origin,omitempty"`
	Tree    Tree            `json:"tree,omitempty"`
	Root    *Node           `json:"root,omitempty"`
	Ignored string          `json:"-"`
}

// Call echoes the record.
func (in Record) Call(ctx Ctx) (Record, error) { return in, nil }

// Page is a generic result.
type Page[T any] struct {
	Items []T  `json:"items"`
	More  bool `json:"more"`
}

// Item is what a page holds.
type Item struct {
	Name string `json:"name"`
}

// Browse returns a page of items: a generic instantiation as a result.
//
//mcp:tool readonly
type Browse struct {
	// How many items.
	N int `json:"n" jsonschema:"minimum=0,maximum=5"`
}

// Call returns n items.
func (in Browse) Call(ctx context.Context) (Page[Item], error) {
	p := Page[Item]{More: in.N > 3}
	for i := 0; i < in.N; i++ {
		p.Items = append(p.Items, Item{Name: string(rune('a' + i))})
	}
	return p, nil
}

// Count returns an anonymous struct.
//
//mcp:tool readonly
type Count struct {
	// The words; null is refused although a nil slice would decode.
	Words []string `json:"words" jsonschema:"nullable=false"`
}

// Call counts the words.
func (in Count) Call(ctx context.Context) (struct {
	N int `json:"n"`
}, error) {
	return struct {
		N int `json:"n"`
	}{len(in.Words)}, nil
}

// Found is a result with a text of its own.
type Found struct {
	Key string `json:"key"`
}

// ContentText is the text block.
func (f Found) ContentText() string { return "found " + f.Key }

// Find returns nothing for an unknown key: a nil *Found and no error.
//
//mcp:tool readonly
type Find struct {
	Key string `json:"key"`
}

// Call finds the key "known" only.
func (in Find) Call(ctx context.Context, _ *Greeter) (*Found, error) {
	if in.Key != "known" {
		return nil, nil
	}
	return &Found{Key: in.Key}, nil
}

// say is unexported; the directive sits on its exported alias.
type say struct {
	Text string `json:"text"`
}

// Say says the text back.
//
//mcp:tool readonly
type Say = say

// Greeter is a dependency; G spells it through an alias.
type Greeter struct{ Prefix string }

// G is an alias of Greeter: *G and *Greeter are one dependency.
type G = Greeter

// Call returns the text with the greeter's prefix.
func (s say) Call(ctx context.Context, g *G) (string, error) {
	if s.Text == "" {
		return "", errors.New("nothing to say")
	}
	return g.Prefix + s.Text, nil
}

// Place reads a place by name; the URI has non-ASCII letters.
//
//mcp:resource uri=geo://Åland/{name} mime=text/plain
type Place struct {
	Name string `json:"name"`
}

// Read names the place.
func (p Place) Read(ctx context.Context) (string, error) { return "Åland: " + p.Name, nil }

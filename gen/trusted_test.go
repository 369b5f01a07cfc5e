package gen

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"testing"
)

// TestOutputProvable checks which result types the generator trusts to
// match their output schema: only structs of plain scalars and such
// structs, with no tag or method that changes the encoding or the schema.
func TestOutputProvable(t *testing.T) {
	const src = `package p

import "encoding/json"

type Plain struct {
	OK    bool    ` + "`json:\"ok\"`" + `
	N     int     ` + "`json:\"n\"`" + `
	F     float64
	S     string
	Inner Inner
	Skip  []string ` + "`json:\"-\"`" + `
	priv  []string
}
type Inner struct{ X uint32 }
type WithSlice struct{ L []string }
type WithMap struct{ M map[string]int }
type WithPtr struct{ P *Inner }
type WithAny struct{ A any }
type WithOmit struct{ S string ` + "`json:\"s,omitempty\"`" + ` }
type WithStringOpt struct{ N int ` + "`json:\"n,string\"`" + ` }
type WithSchemaTag struct{ N int ` + "`jsonschema:\"minimum=1\"`" + ` }
type WithEmbedded struct{ Inner }
type WithNumber struct{ N json.Number }
type Marshals struct{ S string }
func (Marshals) MarshalJSON() ([]byte, error) { return nil, nil }
type HasMarshaler struct{ M Marshals }
type Encoded struct{ S string }
func (*Encoded) EncodedJSON() []byte { return nil }
type Text struct{ S string }
func (Text) MarshalText() ([]byte, error) { return nil, nil }
type HasText struct{ T Text }
type Schema struct{ S string }
func (Schema) JSONSchemaExtend(any) {}
type WithArray struct{ A [2]int }
type WithComplex struct{ C complex128 }
type Named string
type WithNamed struct{ N Named }
type PtrResult = *Plain
type Twice struct {
	A Inner
	B Inner ` + "`json:\",omitempty\"`" + `
}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	pkg, err := (&types.Config{Importer: importer.Default()}).Check("p", fset, []*ast.File{f}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{
		"Plain": true, "Inner": true, "WithNamed": true,
		"WithSlice": false, "WithMap": false, "WithPtr": false, "WithAny": false, "WithOmit": false,
		"WithStringOpt": false, "WithSchemaTag": false, "WithEmbedded": false, "WithNumber": false,
		"Marshals": false, "HasMarshaler": false, "Encoded": false, "HasText": false, "Schema": false,
		"WithArray": false, "WithComplex": false, "PtrResult": false,
		// A type met twice is proved once, but each field's tag counts.
		"Twice": false,
	}
	for name, ok := range want {
		typ := pkg.Scope().Lookup(name).Type()
		if got := outputProvable(typ); got != ok {
			t.Errorf("outputProvable(%s) = %v, want %v", name, got, ok)
		}
	}
}

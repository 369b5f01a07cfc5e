package gen

import (
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
	"testing"
)

// checkSource type-checks one file of package p.
func checkSource(t *testing.T, src string) *types.Package {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", "package p\n"+src, 0)
	if err != nil {
		t.Fatal(err)
	}
	pkg, err := (&types.Config{Importer: importer.Default()}).Check("p", fset, []*ast.File{f}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return pkg
}

// trace walks root with w's settings and lists what the visitor saw, one
// line per type: its step, field path, type, and "again" when repeated.
func trace(w typeWalk, root types.Type) []string {
	steps := map[typeStep]string{stepRoot: "root", stepElem: "elem", stepKey: "key", stepField: "field", stepTypeArg: "arg", stepParam: "param", stepResult: "result"}
	var out []string
	w.visit = func(n *typeNode) walkAction {
		line := fmt.Sprintf("%s%s %s", steps[n.step], n.fieldPath(), types.TypeString(n.typ, func(*types.Package) string { return "" }))
		if n.repeat {
			line += " again"
		}
		out = append(out, line)
		return walkInto
	}
	w.walk(root)
	return out
}

func TestTypeWalk(t *testing.T) {
	pkg := checkSource(t, `
type Tree struct {
	Name string
	Kids []*Tree
	Tags map[Key]Leaf
	Next Leaf
}
type Key string
type Leaf struct{ N int }
type Page[T any] struct{ Items []T }
type Use struct{ P Page[Leaf] }
`)
	lookup := func(name string) types.Type { return pkg.Scope().Lookup(name).Type() }

	// As encoding/json sees it: a named type's parts are its underlying
	// type's, entered once per walk; a recursive type ends, and a type
	// reached again is visited (for what the field says) but not entered.
	got := trace(typeWalk{}, lookup("Tree"))
	want := []string{
		"root Tree",
		"field.Name string",
		"field.Kids []*Tree",
		"elem.Kids *Tree",
		"elem.Kids Tree again",
		"field.Tags map[Key]Leaf",
		"key.Tags Key",
		"elem.Tags Leaf",
		"field.Tags.N int",
		"field.Next Leaf again",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("walk of Tree:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	// Spelled as source writes it: a named type's parts are its type
	// arguments, never its declaration.
	got = trace(typeWalk{spelled: true}, lookup("Use").Underlying())
	want = []string{
		"root struct{P Page[Leaf]}",
		"field.P Page[Leaf]",
		"arg.P Leaf",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("spelled walk of Use's struct:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	// walkStop ends the walk and returns where it stopped.
	stop := walkType(lookup("Tree"), func(n *typeNode) walkAction {
		if n.step == stepKey {
			return walkStop
		}
		return walkInto
	})
	if stop == nil || stop.fieldPath() != ".Tags" || types.TypeString(stop.typ, nil) != "p.Key" {
		t.Errorf("walkStop at the map key: stopped at %+v", stop)
	}
}

// A named type reached on two paths at different depths is entered on
// each with everyPath: vet compares promoted tags per depth, so B's "id"
// at depth 3 (through C) clashes with D's, though B was entered at depth
// 2 already (through A).
func TestRepeatsTagEveryPath(t *testing.T) {
	pkg := checkSource(t, "type A struct{ B; C }\n"+
		"type C struct{ B; D }\n"+
		"type B struct{ ID int `json:\"id\"` }\n"+
		"type D struct{ ID int `json:\"id\"` }\n"+
		"type E struct{ B; D }\n"+
		"type F struct{ B; *D }\n")
	for name, want := range map[string]bool{"A": true, "C": true, "E": true, "F": false, "B": false} {
		st := pkg.Scope().Lookup(name).Type().Underlying().(*types.Struct)
		if got := repeatsTag(st, "json"); got != want {
			t.Errorf("repeatsTag(%s) = %v, want %v", name, got, want)
		}
	}
}

package gen_test

import (
	"fmt"
	"math/rand"
	"sort"
	"strings"
)

// This file writes random component packages for the property test of
// the generator's promise (promise_test.go): field types drawn from
// everything the manual accepts (basic types of every size, []byte,
// slices, arrays, maps with string, named and integer keys, pointers,
// structs nested, embedded by value and by pointer, recursive, and named
// types from other packages: time, math/big, net/netip, uuid and a text
// marshaler and a JSONSchema type of our own), with json tags of every
// kind (renamed, "-", "-,", omitempty, omitzero, ",string", colliding
// names).

// unitsPkg holds the text marshaler and the JSONSchema type.
const unitsPkg = modulePath + "/gen/testdata/golden/wire/units"

// Leaves an input type may use: the input schema of each describes
// exactly the JSON that decodes into it.
var inputLeaves = []string{
	"bool", "string", "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64",
	"float32", "float64", "[]byte", "Lang", "Score",
	"time.Time", "time.Duration", "json.Number", "*big.Int", "uuid.UUID", "units.Level",
}

// outputLeaves adds text marshalers, which an output schema describes as
// "a string" exactly; as inputs, which strings they accept is theirs.
var outputLeaves = append(append([]string(nil), inputLeaves...), "netip.Addr", "units.Temp")

var inputKeys = []string{"string", "Lang", "int", "int8", "uint16", "uint64"}
var outputKeys = append(append([]string(nil), inputKeys...), "units.Temp")

// quotable are the leaves ",string" applies to.
var quotable = map[string]bool{"bool": true, "string": true, "int": true, "int8": true, "int16": true, "int32": true, "int64": true,
	"uint": true, "uint8": true, "uint16": true, "uint32": true, "uint64": true, "float32": true, "float64": true, "Score": true, "Lang": true}

// jsonNames collide on purpose, across fields and embedded structs.
var jsonNames = []string{"a", "b", "dup", "名前", "x-y", "Name", "F1"}

// propTool is one tool of a random package.
type propTool struct {
	Type string // the tool's Go type
	Name string // its MCP name
}

// propPkg is a random component package.
type propPkg struct {
	Name   string
	Source string
	Tools  []propTool
}

type pkgWriter struct {
	r        *rand.Rand
	nIn      int // structs I0.. (input-safe)
	nOut     int // structs O0.. (may use output-only leaves)
	b        strings.Builder
	embedded map[string]bool // embedded types of the struct being written
}

// randomPackage writes the component package name from seed.
func randomPackage(seed int64, name string) propPkg {
	w := &pkgWriter{r: rand.New(rand.NewSource(seed))}
	w.nIn, w.nOut = 1+w.r.Intn(4), 1+w.r.Intn(4)
	var body strings.Builder
	fmt.Fprintf(&body, "// Lang is a string-kinded type, usable as a map key.\ntype Lang string\n\n")
	fmt.Fprintf(&body, "// Score is a named sized integer.\ntype Score int16\n\n")
	for i := 0; i < w.nIn; i++ {
		body.WriteString(w.structDecl(fmt.Sprintf("I%d", i), true, i))
	}
	for i := 0; i < w.nOut; i++ {
		body.WriteString(w.structDecl(fmt.Sprintf("O%d", i), false, i))
	}
	pkg := propPkg{Name: name}
	nTools := 1 + w.r.Intn(3)
	for k := 0; k < nTools; k++ {
		typ := fmt.Sprintf("Tool%d", k)
		body.WriteString(fmt.Sprintf("// %s is a generated tool with \"quotes\" and é in its doc.\n//\n//mcp:tool readonly\n", typ))
		body.WriteString(w.structDecl(typ, true, -1)[len("// "+typ+" is generated.\n"):])
		out := w.result()
		fmt.Fprintf(&body, "// Call returns a zero result.\nfunc (in %s) Call(ctx context.Context) (%s, error) {\n\tvar out %s\n\treturn out, nil\n}\n\n", typ, out, out)
		pkg.Tools = append(pkg.Tools, propTool{Type: typ, Name: strings.ToLower(typ[:1]) + typ[1:]})
	}
	src := body.String()
	imports := []string{`"context"`}
	for _, imp := range []struct{ use, path string }{
		{"time.", `"time"`}, {"json.", `"encoding/json"`}, {"big.", `"math/big"`}, {"netip.", `"net/netip"`},
		{"uuid.", `"github.com/google/uuid"`}, {"units.", `"` + unitsPkg + `"`},
	} {
		if strings.Contains(src, imp.use) {
			imports = append(imports, imp.path)
		}
	}
	sort.Strings(imports)
	pkg.Source = fmt.Sprintf("// Package %s is a random component package (seed %d) of the property test.\n//\n//mcp:server\npackage %s\n\nimport (\n\t%s\n)\n\n%s",
		name, seed, name, strings.Join(imports, "\n\t"), src)
	for i := range pkg.Tools {
		pkg.Tools[i].Name = snakeName(pkg.Tools[i].Type)
	}
	return pkg
}

func snakeName(s string) string { // Tool3 -> tool3, as mcpgen names it
	return strings.ToLower(s)
}

// structDecl writes one struct type. Family I (input) structs refer to
// I structs only; O structs to both. By value, a struct refers only to
// structs after it, so that no type contains itself.
func (w *pkgWriter) structDecl(name string, input bool, idx int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "// %s is generated.\ntype %s struct {\n", name, name)
	w.embedded = map[string]bool{}
	n := 1 + w.r.Intn(5)
	for i := 0; i < n; i++ {
		if w.r.Intn(5) == 0 {
			if e := w.embed(input, idx); e != "" {
				tag := ""
				if w.r.Intn(6) == 0 {
					tag = fmt.Sprintf(" `json:%q`", jsonNames[w.r.Intn(len(jsonNames))])
				}
				fmt.Fprintf(&b, "\t%s%s\n", e, tag)
				continue
			}
		}
		t := w.typ(input, idx, 0)
		if w.r.Intn(3) == 0 {
			fmt.Fprintf(&b, "\t// F%d has a doc comment, \"quoted\", with <html> & unicode: Åland.\n", i)
		}
		tag := w.tag(t)
		if c := w.constraint(t); input && c != "" && !strings.Contains(tag, "jsonschema") && !strings.Contains(tag, ",string") && !strings.Contains(tag, `"-"`) {
			if tag == "" {
				tag = " `json:\"\"`"
			}
			tag = strings.TrimSuffix(tag, "`") + ` jsonschema:"title=` + constrainedTitle + "," + c + "\"`"
		}
		fmt.Fprintf(&b, "\tF%d %s%s\n", i, t, tag)
	}
	if w.r.Intn(8) == 0 {
		b.WriteString("\thidden int\n")
	}
	b.WriteString("}\n\n")
	return b.String()
}

// embed picks a struct to embed: by value only one declared after idx.
func (w *pkgWriter) embed(input bool, idx int) string {
	fam, n := "I", w.nIn
	if !input && w.r.Intn(2) == 0 {
		fam, n = "O", w.nOut
	}
	k := w.r.Intn(n)
	name := fmt.Sprintf("%s%d", fam, k)
	if w.embedded[name] {
		return ""
	}
	byValue := idx < 0 || (fam == "I" && !input) || k > idx && (fam == "O") == !input
	w.embedded[name] = true
	if byValue && w.r.Intn(2) == 0 {
		return name
	}
	return "*" + name
}

func (w *pkgWriter) tag(t string) string {
	switch w.r.Intn(10) {
	case 0, 1:
		return ""
	case 2:
		return " `json:\"-\"`"
	case 3:
		return " `json:\"-,\"`"
	}
	name := ""
	if w.r.Intn(4) != 0 {
		name = jsonNames[w.r.Intn(len(jsonNames))]
	}
	opts := ""
	switch w.r.Intn(6) {
	case 0:
		opts = ",omitempty"
	case 1:
		opts = ",omitzero"
	case 2:
		if quotable[strings.TrimPrefix(t, "*")] {
			opts = ",string"
		}
	}
	if w.r.Intn(6) == 0 {
		return fmt.Sprintf(" `json:\"%s%s\" jsonschema:\"title=T,description=Set by a tag.\"`", name, opts)
	}
	return fmt.Sprintf(" `json:\"%s%s\"`", name, opts)
}

// typ draws a field type.
func (w *pkgWriter) typ(input bool, idx, depth int) string {
	leaves, keys := outputLeaves, outputKeys
	if input {
		leaves, keys = inputLeaves, inputKeys
	}
	switch r := w.r.Intn(100); {
	case depth >= 3 || r < 45:
		return leaves[w.r.Intn(len(leaves))]
	case r < 55:
		return "[]" + w.typ(input, idx, depth+1)
	case r < 60:
		return fmt.Sprintf("[%d]", 1+w.r.Intn(2)) + w.typ(input, idx, depth+1)
	case r < 70:
		return "map[" + keys[w.r.Intn(len(keys))] + "]" + w.typ(input, idx, depth+1)
	case r < 78:
		return "*" + w.typ(input, idx, depth+1)
	default:
		fam, n := "I", w.nIn
		if !input && w.r.Intn(2) == 0 {
			fam, n = "O", w.nOut
		}
		k := w.r.Intn(n)
		name := fmt.Sprintf("%s%d", fam, k)
		byValue := idx < 0 || (fam == "I" && !input) || k > idx && (fam == "O") == !input
		if byValue && w.r.Intn(2) == 0 {
			return name
		}
		return []string{"*", "[]", "map[string]"}[w.r.Intn(3)] + name
	}
}

// result draws a structured result type: an object.
func (w *pkgWriter) result() string {
	switch w.r.Intn(5) {
	case 0:
		return fmt.Sprintf("O%d", w.r.Intn(w.nOut))
	case 1:
		return fmt.Sprintf("*O%d", w.r.Intn(w.nOut))
	case 2:
		return fmt.Sprintf("I%d", w.r.Intn(w.nIn))
	case 3:
		return "map[Lang]" + w.typ(false, -1, 1)
	}
	return fmt.Sprintf("*I%d", w.r.Intn(w.nIn))
}

// constrainedTitle marks fields with constraint tags: Go values of their
// types may break the constraints (such a schema is not exact), so for
// those schemas the test checks only that what the input schema accepts
// decodes.
const constrainedTitle = "constrained"

// constraint draws jsonschema constraints for a field of type t, or "".
func (w *pkgWriter) constraint(t string) string {
	if w.r.Intn(4) != 0 {
		return ""
	}
	base := strings.TrimPrefix(t, "*")
	switch {
	case base == "string" || base == "Lang":
		return []string{"minLength=1,maxLength=8", "enum=a,enum=b\\,c", "pattern=^[a-z]*$"}[w.r.Intn(3)]
	case base == "int" || base == "int8" || base == "int64" || base == "uint16" || base == "Score":
		return []string{"minimum=-5,maximum=5", "enum=1,enum=2", "exclusiveMinimum=0,multipleOf=3"}[w.r.Intn(3)]
	case base == "float64" || base == "float32":
		return "minimum=-1.5,exclusiveMaximum=1e3"
	case base == "bool":
		return "enum=true"
	case strings.HasPrefix(t, "[]") && t != "[]byte" && t != "[]uint8":
		item := strings.TrimPrefix(t, "[]")
		if item == "string" {
			return "minItems=1,maxItems=2,uniqueItems,minLength=1"
		}
		return "maxItems=2"
	}
	return ""
}

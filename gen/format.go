package gen

import (
	"bytes"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"strings"

	"github.com/dave/jennifer/jen"
)

// render writes a generated Go file: jennifer's output, with its imports
// grouped as goimports -local groups them, and gofmt'ed.
func render(f *jen.File, local string) ([]byte, error) {
	var buf bytes.Buffer
	if err := f.Render(&buf); err != nil {
		return nil, err
	}
	return groupImports(buf.Bytes(), local)
}

// groupImports rewrites the import declaration of src in three groups, a
// blank line apart and each sorted: the standard library, other modules,
// then the packages of the module local (where the components, and so the
// generated code, live). Jennifer writes them all in one block.
func groupImports(src []byte, local string) ([]byte, error) {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "", src, parser.ParseComments|parser.ImportsOnly)
	if err != nil {
		return nil, err
	}
	var decls []*ast.GenDecl
	for _, d := range file.Decls {
		if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.IMPORT {
			decls = append(decls, gd)
		}
	}
	if len(decls) == 0 || len(file.Imports) < 2 {
		return src, nil
	}
	var groups [3][]string
	for _, imp := range file.Imports {
		spec := imp.Path.Value
		if imp.Name != nil {
			spec = imp.Name.Name + " " + spec
		}
		g := importGroup(strings.Trim(imp.Path.Value, `"`), local)
		groups[g] = append(groups[g], spec)
	}
	var b bytes.Buffer
	b.WriteString("import (\n")
	first := true
	for _, g := range groups {
		if len(g) == 0 {
			continue
		}
		if !first {
			b.WriteByte('\n')
		}
		first = false
		for _, spec := range g {
			b.WriteString("\t" + spec + "\n")
		}
	}
	b.WriteString(")")
	start := fset.Position(decls[0].Pos()).Offset
	end := fset.Position(decls[len(decls)-1].End()).Offset
	out := append(append(append([]byte{}, src[:start]...), b.Bytes()...), src[end:]...)
	return format.Source(out)
}

// importGroup is the group of an import path: 0 for the standard library
// (no dot in its first element), 2 for the module local, 1 for the rest.
func importGroup(path, local string) int {
	switch {
	case local != "" && (path == local || strings.HasPrefix(path, local+"/")):
		return 2
	case !strings.Contains(strings.SplitN(path, "/", 2)[0], "."):
		return 0
	}
	return 1
}

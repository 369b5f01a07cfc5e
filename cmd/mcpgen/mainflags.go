package main

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"time"

	"golang.org/x/tools/go/packages"
)

// mainFlag is one flag a main package declares with the flag package.
// Default is its constant default (string, bool, int64, float64, or a
// duration as a string like "30s"), nil when the code computes it.
// NamePos and DefaultPos are where the name and the default are written,
// for messages.
type mainFlag struct {
	Name    string
	Kind    string // bool, int, uint, int64, uint64, float64, string, duration, or func for the rest
	Usage   string
	Default any

	NamePos, DefaultPos token.Position
}

// flagFuncs are the functions and FlagSet methods of package flag that
// declare a flag: the kind of flag, and the positions of the name,
// default and usage arguments (-1: none).
var flagFuncs = map[string]struct {
	kind               string
	name, value, usage int
}{
	"Bool": {"bool", 0, 1, 2}, "BoolVar": {"bool", 1, 2, 3},
	"Int": {"int", 0, 1, 2}, "IntVar": {"int", 1, 2, 3},
	"Int64": {"int64", 0, 1, 2}, "Int64Var": {"int64", 1, 2, 3},
	"Uint": {"uint", 0, 1, 2}, "UintVar": {"uint", 1, 2, 3},
	"Uint64": {"uint64", 0, 1, 2}, "Uint64Var": {"uint64", 1, 2, 3},
	"Float64": {"float64", 0, 1, 2}, "Float64Var": {"float64", 1, 2, 3},
	"String": {"string", 0, 1, 2}, "StringVar": {"string", 1, 2, 3},
	"Duration": {"duration", 0, 1, 2}, "DurationVar": {"duration", 1, 2, 3},
	"Func": {"func", 0, -1, 1}, "BoolFunc": {"func", 0, -1, 1},
	"Var": {"func", 1, -1, 2}, "TextVar": {"func", 1, -1, 3},
}

// mainFlags lists the flags pkg's own code declares, in source order:
// every call of a flag-declaring function or FlagSet method of package
// flag whose name is a constant. It reads the type-checked syntax rather
// than running the binary with -h, so it needs no build for the host and
// tells a computed default from a constant one. Flags that other
// packages register (mcpgen.Flags: --http, --log-level, the OAuth and
// cluster flags) are not the main's and are not listed: a desktop client
// runs the server over stdio, on its own.
func mainFlags(pkg *packages.Package) []mainFlag {
	var flags []mainFlag
	for _, f := range pkg.Syntax {
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			fn, ok := pkg.TypesInfo.Uses[sel.Sel].(*types.Func)
			if !ok || fn.Pkg() == nil || fn.Pkg().Path() != "flag" {
				return true
			}
			spec, ok := flagFuncs[fn.Name()]
			if !ok || len(call.Args) <= spec.usage {
				return true
			}
			name, ok := constString(pkg, call.Args[spec.name])
			if !ok {
				return true
			}
			usage, _ := constString(pkg, call.Args[spec.usage])
			mf := mainFlag{Name: name, Kind: spec.kind, Usage: usage, NamePos: pkg.Fset.Position(call.Args[spec.name].Pos())}
			if spec.value >= 0 {
				mf.Default = constDefault(pkg, call.Args[spec.value], spec.kind)
				mf.DefaultPos = pkg.Fset.Position(call.Args[spec.value].Pos())
			}
			flags = append(flags, mf)
			return true
		})
	}
	return flags
}

func constString(pkg *packages.Package, e ast.Expr) (string, bool) {
	tv, ok := pkg.TypesInfo.Types[e]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.String {
		return "", false
	}
	return constant.StringVal(tv.Value), true
}

// constDefault is the value of the constant expression e as the JSON of a
// default of a kind flag, nil when e is not constant.
func constDefault(pkg *packages.Package, e ast.Expr, kind string) any {
	tv, ok := pkg.TypesInfo.Types[e]
	if !ok || tv.Value == nil {
		return nil
	}
	v := tv.Value
	switch kind {
	case "bool":
		if v.Kind() == constant.Bool {
			return constant.BoolVal(v)
		}
	case "string":
		if v.Kind() == constant.String {
			return constant.StringVal(v)
		}
	case "duration":
		if n, ok := constant.Int64Val(constant.ToInt(v)); ok {
			return time.Duration(n).String()
		}
	case "float64":
		if f, ok := constant.Float64Val(constant.ToFloat(v)); ok {
			return f
		}
	default: // the integers
		if n, ok := constant.Int64Val(constant.ToInt(v)); ok {
			return n
		}
	}
	return nil
}

package gen

import (
	"fmt"
	"go/token"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/tools/go/packages"
)

const loadMode = packages.NeedName | packages.NeedFiles | packages.NeedSyntax | packages.NeedTypes |
	packages.NeedTypesInfo | packages.NeedImports | packages.NeedModule

// load type-checks the requested packages. Every load or type error is
// reported, positioned, before any directive is looked at: checking
// directives of a package that does not compile would only add noise.
func load(dir string, patterns []string) ([]*packages.Package, *token.FileSet, error) {
	fset := token.NewFileSet()
	cfg := &packages.Config{Mode: loadMode, Dir: dir, Fset: fset}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		return nil, nil, fmt.Errorf("load %s: %w", strings.Join(patterns, " "), err)
	}
	var diags Diagnostics
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		positioned := false
		for _, e := range p.Errors {
			pos := parsePos(e.Pos)
			positioned = positioned || pos.IsValid()
		}
		for _, e := range p.Errors {
			// go list also compiles the package for its export data and
			// repeats the type errors, unpositioned, under "# path": the
			// positioned ones already say it all.
			pos := parsePos(e.Pos)
			if positioned && !pos.IsValid() && strings.HasPrefix(e.Msg, "# ") {
				continue
			}
			diags = append(diags, Diagnostic{Pos: pos, Subject: p.PkgPath, Problem: e.Msg})
		}
	})
	if len(diags) > 0 {
		return nil, nil, diags
	}
	for _, pat := range patterns {
		if !matchesSome(pat, dir, pkgs) {
			return nil, nil, fmt.Errorf("mcpgen: pattern %s matches no Go packages", pat)
		}
	}
	if len(pkgs) == 0 {
		// go/packages says nothing when go list fails as a whole (a go.mod
		// that needs tidying, say); go list itself says why.
		cmd := exec.Command("go", append([]string{"list"}, patterns...)...)
		cmd.Dir = dir
		out, _ := cmd.CombinedOutput()
		return nil, nil, fmt.Errorf("mcpgen: no Go package loaded for %s: %s", strings.Join(patterns, " "), strings.TrimSpace(string(out)))
	}
	return pkgs, fset, nil
}

// matchesSome reports whether a wildcard pattern matched any of pkgs (the
// go tool only warns when it matches nothing). Other patterns name one
// package, whose absence go/packages reports itself.
func matchesSome(pat, dir string, pkgs []*packages.Package) bool {
	base, wild := strings.CutSuffix(pat, "...")
	if !wild || strings.Contains(base, "...") {
		return true
	}
	base = strings.TrimSuffix(base, "/")
	fsPath := base == "." || base == "" || strings.HasPrefix(base, "./") || strings.HasPrefix(base, "../") || filepath.IsAbs(base)
	if fsPath {
		abs, err := filepath.Abs(filepath.Join(dir, base))
		if err != nil {
			return true
		}
		for _, p := range pkgs {
			for _, f := range p.GoFiles {
				if d := filepath.Dir(f); d == abs || strings.HasPrefix(d, abs+string(filepath.Separator)) {
					return true
				}
			}
		}
		return false
	}
	for _, p := range pkgs {
		if p.PkgPath == base || strings.HasPrefix(p.PkgPath, base+"/") || base == "" {
			return true
		}
	}
	return false
}

// parsePos reads the "file:line:col" form go/packages uses.
func parsePos(s string) token.Position {
	var p token.Position
	parts := strings.Split(s, ":")
	if len(parts) >= 3 {
		p.Filename = strings.Join(parts[:len(parts)-2], ":")
		p.Line, _ = strconv.Atoi(parts[len(parts)-2])
		p.Column, _ = strconv.Atoi(parts[len(parts)-1])
	} else if len(parts) == 2 {
		p.Filename = parts[0]
		p.Line, _ = strconv.Atoi(parts[1])
	} else {
		p.Filename = s
	}
	return p
}

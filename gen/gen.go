// Package gen is the mcpgen generator library: it turns packages of plain
// Go structs annotated with //mcp: comments into one generated package per
// MCP server (registry, JSON Schemas, typed adapters), in five stages:
//
//	load   go/packages: syntax and types of the requested packages
//	check  every directive parsed, every mistake reported at once (check.go)
//	model  the servers, components and methods found (model.go)
//	schema JSON Schemas of inputs and outputs from the Go types (schema.go)
//	emit   gofmt-clean Go code and schema files, in memory (emit.go)
//
// Generation is pure: [Generate] returns the files; [Write] and [Stale]
// compare them with the output directory. Nothing is written when any error
// was found. The directive grammar is documented in docs/annotations.md.
package gen

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Config says what to generate.
type Config struct {
	Dir      string   // working directory for package patterns ("" = current)
	Patterns []string // packages to scan, e.g. ./components/...
}

// Result is the complete output of one run, not yet written.
type Result struct {
	Files   []File   // every file of the output directory, sorted by path
	Servers []string // generated package names
}

// Generate runs the pipeline and returns the files to write. A
// [Diagnostics] error lists every user mistake found.
func Generate(ctx context.Context, cfg Config) (*Result, error) {
	pkgs, fset, err := load(cfg.Dir, cfg.Patterns)
	if err != nil {
		return nil, err
	}
	servers, err := check(pkgs, fset)
	if err != nil {
		return nil, err
	}
	if len(servers) == 0 {
		return &Result{}, nil
	}
	moduleDir := ""
	for _, p := range pkgs {
		if p.Module != nil {
			moduleDir = p.Module.Dir
			break
		}
	}
	if moduleDir == "" {
		return nil, errors.New("mcpgen: the component packages are not in a Go module")
	}
	if err := runSchemas(ctx, moduleDir, servers, fset); err != nil {
		return nil, err
	}
	res := &Result{}
	for _, s := range servers {
		files, err := emit(s)
		if err != nil {
			return nil, err
		}
		res.Files = append(res.Files, files...)
		res.Servers = append(res.Servers, s.Name)
	}
	sort.Slice(res.Files, func(i, j int) bool { return res.Files[i].Path < res.Files[j].Path })
	return res, nil
}

// Write makes outDir hold exactly the generated servers: changed files are
// rewritten, unchanged ones left alone (keeping the build cache warm), and
// files of a generated server package that are no longer produced removed.
// It returns the paths it wrote or removed.
func Write(outDir string, res *Result) ([]string, error) {
	stale, err := Stale(outDir, res)
	if err != nil {
		return nil, err
	}
	want := map[string][]byte{}
	for _, f := range res.Files {
		want[f.Path] = f.Content
	}
	for _, rel := range stale {
		p := filepath.Join(outDir, filepath.FromSlash(rel))
		content, keep := want[rel]
		if !keep {
			if err := os.Remove(p); err != nil {
				return nil, fmt.Errorf("remove %s: %w", p, err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return nil, fmt.Errorf("write %s: %w", p, err)
		}
		if err := os.WriteFile(p, content, 0o644); err != nil {
			return nil, fmt.Errorf("write %s: %w", p, err)
		}
	}
	return stale, nil
}

// Stale lists the files of outDir that differ from res: missing, changed,
// or left over in a server package directory the generator owns.
func Stale(outDir string, res *Result) ([]string, error) {
	var out []string
	owned := map[string]bool{}
	want := map[string]bool{}
	for _, f := range res.Files {
		want[f.Path] = true
		owned[strings.SplitN(f.Path, "/", 2)[0]] = true
		got, err := os.ReadFile(filepath.Join(outDir, filepath.FromSlash(f.Path)))
		if err != nil && !os.IsNotExist(err) {
			return nil, fmt.Errorf("read %s: %w", f.Path, err)
		}
		if err != nil || !bytes.Equal(got, f.Content) {
			out = append(out, f.Path)
		}
	}
	for dir := range owned {
		root := filepath.Join(outDir, dir)
		err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			rel, _ := filepath.Rel(outDir, p)
			rel = filepath.ToSlash(rel)
			if !want[rel] && (generatedFile(p) || isSkillCopy(rel)) {
				out = append(out, rel)
			}
			return nil
		})
		if err != nil && !os.IsNotExist(err) {
			return nil, fmt.Errorf("scan %s: %w", root, err)
		}
	}
	sort.Strings(out)
	return out, nil
}

// generatedFile reports whether p is ours to remove: a Go file with our
// header, or a schema document.
func generatedFile(p string) bool {
	if strings.HasSuffix(p, ".json") && filepath.Base(filepath.Dir(p)) == "schemas" {
		return true
	}
	b, err := os.ReadFile(p)
	return err == nil && bytes.HasPrefix(b, []byte("// "+Header))
}

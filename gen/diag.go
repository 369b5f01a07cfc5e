package gen

import (
	"fmt"
	"go/token"
	"path/filepath"
	"sort"
	"strings"
)

// Diagnostic is one user mistake, reported as
// `file:line:col: subject: problem` with an optional fix hint.
type Diagnostic struct {
	Pos     token.Position
	Subject string
	Problem string
	Hint    string
	// Warning marks what is worth saying but does not stop generation
	// ([Result].Warnings); it prints as "warning: " after the position.
	Warning bool
}

func (d Diagnostic) String() string {
	var b strings.Builder
	if d.Pos.IsValid() {
		fmt.Fprintf(&b, "%s:%d:%d: ", d.Pos.Filename, d.Pos.Line, d.Pos.Column)
	}
	if d.Warning {
		b.WriteString("warning: ")
	}
	if d.Subject != "" {
		b.WriteString(d.Subject)
		b.WriteString(": ")
	}
	b.WriteString(d.Problem)
	if d.Hint != "" {
		b.WriteString("\n\t")
		b.WriteString(d.Hint)
	}
	return b.String()
}

// Diagnostics is every mistake found in one run. As an error it prints them
// all, sorted by position.
type Diagnostics []Diagnostic

func (ds Diagnostics) Error() string {
	ds.sort()
	lines := make([]string, len(ds))
	for i, d := range ds {
		lines[i] = d.String()
	}
	return strings.Join(lines, "\n")
}

// Relative returns the diagnostics with each file name made relative to
// dir when that is shorter, as the go command prints paths (so
// components/notes/notes.go:8:1 from the module root, ../notes/notes.go
// from a sibling directory); the directory of a diagnostic's file is
// shortened the same way where its text names it (a hint naming the
// package directory). Absolute names stay as they are otherwise.
func (ds Diagnostics) Relative(dir string) Diagnostics {
	out := make(Diagnostics, len(ds))
	for i, d := range ds {
		if f := d.Pos.Filename; filepath.IsAbs(f) {
			d.Pos.Filename = shortPath(dir, f)
			abs := filepath.Dir(f)
			short := shortPath(dir, abs)
			d.Problem = strings.ReplaceAll(d.Problem, abs, short)
			d.Hint = strings.ReplaceAll(d.Hint, abs, short)
		}
		out[i] = d
	}
	return out
}

// shortPath is path relative to dir when that is shorter.
func shortPath(dir, path string) string {
	if dir == "" {
		return path
	}
	rel, err := filepath.Rel(dir, path)
	if err != nil || len(rel) >= len(path) {
		return path
	}
	return rel
}

// dedupe drops repeats: one mistake reached twice (a bad field of a type
// two tools share, reached as A.Shared.C and as B.Shared.C) is one
// diagnostic, the first, whatever its subject.
func (ds Diagnostics) dedupe() Diagnostics {
	seen := map[string]bool{}
	var out Diagnostics
	for _, d := range ds {
		if k := d.key(); !seen[k] {
			seen[k] = true
			out = append(out, d)
		}
	}
	return out
}

// key identifies the mistake a diagnostic reports: its position and
// problem. Without a position, the subject tells mistakes apart.
func (d Diagnostic) key() string {
	if !d.Pos.IsValid() {
		return d.Subject + "\x00" + d.Problem
	}
	return d.Pos.String() + "\x00" + d.Problem
}

func (ds Diagnostics) sort() {
	sort.SliceStable(ds, func(i, j int) bool {
		a, b := ds[i].Pos, ds[j].Pos
		if a.Filename != b.Filename {
			return a.Filename < b.Filename
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Column < b.Column
	})
}

// reporter collects diagnostics during check.
type reporter struct {
	fset     *token.FileSet
	diags    Diagnostics
	warnings Diagnostics
}

// warnAt records a warning, which does not stop generation.
func (r *reporter) warnAt(pos token.Position, subject, hint, format string, args ...any) {
	r.warnings = append(r.warnings, Diagnostic{Pos: pos, Subject: subject, Problem: fmt.Sprintf(format, args...), Hint: hint, Warning: true})
}

func (r *reporter) at(pos token.Pos, subject, hint, format string, args ...any) {
	r.atPosition(r.fset.Position(pos), subject, hint, format, args...)
}

func (r *reporter) atPosition(pos token.Position, subject, hint, format string, args ...any) {
	r.diags = append(r.diags, Diagnostic{Pos: pos, Subject: subject, Problem: fmt.Sprintf(format, args...), Hint: hint})
}

// internalError marks a broken invariant of the generator itself, kept
// apart from user mistakes.
func internalError(format string, args ...any) error {
	return fmt.Errorf("mcpgen: internal error: %s (please report this)", fmt.Sprintf(format, args...))
}

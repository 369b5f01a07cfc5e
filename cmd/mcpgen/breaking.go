package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpgen/mcpgen/gen"
	"github.com/mcpgen/mcpgen/gen/surface"
)

// runBreaking is `mcpgen breaking`: today's surface of each server
// against a baseline, reporting the changes that break callers.
func runBreaking(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("mcpgen breaking", flag.ContinueOnError)
	fs.SetOutput(stderr)
	against := fs.String("against", "", "the baseline: a git `revision` (its committed surface.json files) or the path of a surface.json")
	out := fs.String("out", "generated", "the generated `directory` whose surface.json files the revision holds")
	verbose := fs.Bool("v", false, "also list the changes that break nothing, and the version bump the changes call for")
	checkVersion := fs.Bool("check-version", false, "also fail (exit 1) when the server's version= is not bumped as far as the changes call for (a break: major, or minor in 0.x; an addition: minor; other changes: patch)")
	var allow []string
	fs.Func("allow", "accept breaks of this `rule` (repeat or comma-separate); the rules are listed below", func(v string) error {
		for _, r := range strings.Split(v, ",") {
			if !slices.ContainsFunc(surface.Rules, func(x struct {
				Name     string
				Breaking bool
				Doc      string
			}) bool {
				return x.Name == r
			}) {
				return fmt.Errorf("unknown rule %q", r)
			}
			allow = append(allow, r)
		}
		return nil
	})
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: mcpgen breaking -against REF [-v] [-check-version] [-allow RULE] [packages...]\n\n"+
			"Compares each server's surface (tools, resources, templates, prompts, skills and\n"+
			"their schemas) with a baseline and lists, at today's source, every change that\n"+
			"breaks an existing caller; exits 1 when there is one. Changes that break nothing\n"+
			"print nothing unless -v. REF is a git revision\n"+
			"(HEAD, main, v1.2.0: the generated/<server>/surface.json committed there) or\n"+
			"the path of a surface.json file.\n\n")
		fs.PrintDefaults()
		fmt.Fprintf(fs.Output(), "\nRules (breaking first):\n")
		for _, r := range surface.Rules {
			kind := "breaking"
			if !r.Breaking {
				kind = "fine"
			}
			fmt.Fprintf(fs.Output(), "  %-28s %-8s  %s\n", r.Name, kind, r.Doc)
		}
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if *against == "" {
		fmt.Fprintln(stderr, "mcpgen breaking: -against is required: a git revision (e.g. -against origin/main) or a surface.json file")
		return 2
	}
	patterns := fs.Args()
	if len(patterns) == 0 {
		patterns = []string{"./components/..."}
	}
	res, err := gen.Generate(ctx, gen.Config{Patterns: patterns})
	if err != nil {
		var diags gen.Diagnostics
		if errors.As(err, &diags) {
			fmt.Fprintln(stderr, diags.Relative(workDir()).Error())
			fmt.Fprintf(stderr, "mcpgen breaking: %d error(s) in the components; fix them first\n", len(diags))
			return 1
		}
		fmt.Fprintln(stderr, "mcpgen breaking:", err)
		return 1
	}
	surfaces := res.Surfaces()
	if len(surfaces) == 0 {
		fmt.Fprintf(stderr, "mcpgen breaking: no //mcp:server package in %s\n", strings.Join(patterns, " "))
		return 2
	}
	broken, unbumped := 0, 0
	for _, ss := range surfaces {
		old, where, err := baseline(*against, *out, ss.Name, res.ModuleDir, len(surfaces))
		if err != nil {
			fmt.Fprintln(stderr, "mcpgen breaking:", err)
			return 2
		}
		if old == nil {
			if *verbose {
				fmt.Fprintf(stdout, "%s: server %s: new since %s\n", ss.Pos, ss.Name, where)
			}
			continue
		}
		changes := surface.Compare(old, ss.Surface)
		n := 0
		for _, c := range changes {
			allowed := slices.Contains(allow, c.Rule)
			if c.Breaking && !allowed {
				n++
				fmt.Fprintf(stdout, "%s: server %s: %s (rule %s)\n", relPos(ss.Position(c)), ss.Name, c, c.Rule)
			} else if *verbose {
				note := "fine"
				if c.Breaking {
					note = "allowed"
				}
				fmt.Fprintf(stdout, "%s: server %s: %s (%s: rule %s)\n", relPos(ss.Position(c)), ss.Name, c, note, c.Rule)
			}
		}
		broken += n
		bump := surface.Bump(changes)
		if bump == "" {
			continue
		}
		advice, short := versionAdvice(old.Server.Version, ss.Surface.Server.Version, bump)
		switch {
		case *checkVersion && short:
			unbumped++
			fmt.Fprintf(stdout, "%s: server %s: %s (-check-version)\n", relPos(ss.Pos), ss.Name, advice)
		case *verbose:
			fmt.Fprintf(stdout, "server %s: %s\n", ss.Name, advice)
		}
	}
	if unbumped > 0 {
		fmt.Fprintf(stderr, "mcpgen breaking: %d server(s) need a higher version= (-check-version)\n", unbumped)
	}
	if broken > 0 {
		fmt.Fprintf(stderr, "mcpgen breaking: %d breaking change(s) since %s; accept a known one with -allow RULE\n", broken, *against)
	}
	if broken > 0 || unbumped > 0 {
		return 1
	}
	return 0
}

// baseline reads the surface of server at ref: a surface.json path, or
// the file committed at a git revision (nil when the server is new).
func baseline(ref, out, server, moduleDir string, servers int) (*surface.Surface, string, error) {
	if st, err := os.Stat(ref); err == nil && !st.IsDir() {
		b, err := os.ReadFile(ref)
		if err != nil {
			return nil, "", err
		}
		s, err := surface.Parse(b)
		if err != nil {
			return nil, "", fmt.Errorf("%s: %w", ref, err)
		}
		if s.Server.Name != server {
			if servers == 1 {
				return nil, "", fmt.Errorf("%s is the surface of server %q, not %q", ref, s.Server.Name, server)
			}
			return nil, ref, nil // another server's file: this one has no baseline here
		}
		return s, ref, nil
	}
	rel := filepath.ToSlash(filepath.Join(out, server, "surface.json"))
	cmd := exec.Command("git", "show", ref+":./"+rel)
	cmd.Dir = moduleDir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	b, err := cmd.Output()
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		switch {
		case strings.Contains(msg, "does not exist in") || strings.Contains(msg, "exists on disk, but not in"):
			return nil, ref, nil // the server is new since ref
		case errors.Is(err, exec.ErrNotFound):
			return nil, "", fmt.Errorf("-against %s: git is not installed; pass the path of a surface.json instead", ref)
		}
		return nil, "", fmt.Errorf("-against %s: not a surface.json file, and git cannot read %s at that revision: %s", ref, rel, msg)
	}
	s, err := surface.Parse(b)
	if err != nil {
		return nil, "", fmt.Errorf("%s at %s: %w", rel, ref, err)
	}
	return s, ref, nil
}

// versionAdvice says which version the changes call for, given the bump
// surface.Bump names, and whether newV falls short of it. In 0.x, where
// semantic versioning promises nothing, the convention is one step down:
// a break bumps the minor version, anything else the patch version.
func versionAdvice(oldV, newV, bump string) (advice string, short bool) {
	o, okO := semver(oldV)
	n, okN := semver(newV)
	if !okO || !okN {
		return fmt.Sprintf("these changes need a %s version bump, and version %q (was %q) is not X.Y.Z: set //mcp:server version=X.Y.Z", bump, newV, oldV), true
	}
	if o[0] == 0 {
		if bump == "major" {
			bump = "minor"
		} else {
			bump = "patch"
		}
	}
	var want [3]int
	switch bump {
	case "major":
		want = [3]int{o[0] + 1, 0, 0}
	case "minor":
		want = [3]int{o[0], o[1] + 1, 0}
	default:
		want = [3]int{o[0], o[1], o[2] + 1}
	}
	wantV := fmt.Sprintf("%d.%d.%d", want[0], want[1], want[2])
	if compareVersions(n, want) >= 0 {
		return fmt.Sprintf("these changes need a %s version bump: version=%s is at least %s (was %s)", bump, newV, wantV, oldV), false
	}
	return fmt.Sprintf("these changes need a %s version bump: version=%s is still below %s (was %s)", bump, newV, wantV, oldV), true
}

func semver(v string) ([3]int, bool) {
	var out [3]int
	v = strings.TrimPrefix(v, "v")
	v, _, _ = strings.Cut(v, "-")
	parts := strings.Split(v, ".")
	if len(parts) != 3 {
		return out, false
	}
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil {
			return out, false
		}
		out[i] = n
	}
	return out, true
}

func compareVersions(a, b [3]int) int {
	for i := range a {
		if a[i] != b[i] {
			return a[i] - b[i]
		}
	}
	return 0
}

// relPos prints a position relative to the working directory when it is
// inside it, as compilers do.
func relPos(p fmt.Stringer) string {
	s := p.String()
	if wd, err := os.Getwd(); err == nil {
		if rel, ok := strings.CutPrefix(s, wd+string(filepath.Separator)); ok {
			return rel
		}
	}
	return s
}

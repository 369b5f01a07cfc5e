package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// runIn runs mcpgen in dir and returns its exit code and output.
func runIn(t *testing.T, dir string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "MCPGEN_TEST_RUN_MAIN=1")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode(), out.String(), errb.String()
	}
	if err != nil {
		t.Fatal(err)
	}
	return 0, out.String(), errb.String()
}

// scratchNotes makes a module in a temp dir holding the notes example
// (with a few more fields, so that each rule has something to change),
// generated and committed; it returns the module dir and the component.
func scratchNotes(t *testing.T) (dir, src string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	root := repoRoot(t)
	dir = t.TempDir()
	b, err := os.ReadFile(filepath.Join(root, "components", "notes", "notes.go"))
	if err != nil {
		t.Fatal(err)
	}
	notes := strings.Replace(string(b), "	Text string `json:\"text\" jsonschema:\"minLength=1\"`\n}", `	Text string `+"`json:\"text\" jsonschema:\"minLength=1\"`"+`
	// How urgent it is.
	Priority int `+"`json:\"priority,omitempty\" jsonschema:\"minimum=0,maximum=10\"`"+`
	// What kind of note it is.
	Kind string `+"`json:\"kind,omitempty\" jsonschema:\"enum=todo,enum=idea\"`"+`
}`, 1)
	notes = strings.Replace(notes, "	Count int `json:\"count\"`\n}", "	Count int `json:\"count\"`\n	// When it was saved.\n	At string `json:\"at,omitempty\"`\n}", 1)
	write := func(rel, content string) {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("notes/notes.go", notes)
	write("go.mod", "module example.com/scratch\n\ngo 1.26\n\nrequire github.com/mcpgen/mcpgen v0.0.0\n\nreplace github.com/mcpgen/mcpgen => "+root+"\n")
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	write("go.sum", string(sum))
	// -e: the modules of its dependencies' tests need not be in the
	// offline cache (a fresh machine has not downloaded them).
	sh(t, dir, "go mod tidy -e 2>/dev/null", offlineEnv())
	if code, _, stderr := runIn(t, dir, "./notes"); code != 0 {
		t.Fatalf("mcpgen ./notes exited %d:\n%s", code, stderr)
	}
	sh(t, dir, "git init -q && git add -A && git -c user.name=t -c user.email=t@t commit -qm base", offlineEnv())
	return dir, filepath.Join(dir, "notes", "notes.go")
}

// TestBreakingReportsEachBreak makes each breaking change of the notes
// example in a scratch module and checks `mcpgen breaking -against HEAD`
// names it at its place in the source, on one line (a rename too), and
// exits 1, with no word of version bumps (that is -v's and
// -check-version's); then each of eight changes that break nothing
// prints nothing at all and exits 0.
func TestBreakingReportsEachBreak(t *testing.T) {
	if testing.Short() {
		t.Skip("loads the scratch module once per change (~1 min)")
	}
	dir, src := scratchNotes(t)
	base, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	edit := func(t *testing.T, old, new string) {
		t.Helper()
		edited := strings.Replace(string(base), old, new, 1)
		if edited == string(base) {
			t.Fatalf("%q is not in the component", old)
		}
		if err := os.WriteFile(src, []byte(edited), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		name     string
		old, new string
		want     string // the line, after "notes/notes.go:LINE:COL: server notes: "
	}{
		{"tool renamed", "name=add_note", "name=add_memo", `tool add_note: renamed to "add_memo"\? \(callers of tool "add_note" fail\) \(rule tool-removed\)`},
		{"template renamed", "name=note uri", "name=entry uri", `template note: renamed to "entry"\? .*\(rule template-removed\)`},
		{"template variables", "uri=notes://{id}", "uri=notes://item/{id}", `template note: URI template notes://\{id\} is now notes://item/\{id\} \(rule template-variables-changed\)`},
		{"template MIME type", "mime=text/plain", "mime=text/markdown", `template note: MIME type text/plain is now text/markdown \(rule mime-type-changed\)`},
		{"prompt renamed", "name=summarize", "name=digest", `prompt summarize: renamed to "digest"\? .*\(rule prompt-removed\)`},
		{"input property added as required", "	// How urgent it is.", "	Tags []string `json:\"tags\"`\n	// How urgent it is.", `tool add_note: input property "tags" was added as required \(rule input-required\)`},
		{"input property removed", "`json:\"text\" jsonschema:\"minLength=1\"`", "`json:\"-\"`", `tool add_note: input property "text" was removed, and unknown properties are refused \(rule input-property-removed\)`},
		{"input type changed", "Priority int `json:\"priority,omitempty\" jsonschema:\"minimum=0,maximum=10\"`", "Priority bool `json:\"priority,omitempty\"`", `tool add_note: input property "priority" is now boolean \(was integer\) \(rule input-type-changed\)`},
		{"input enum narrowed", "enum=todo,enum=idea", "enum=todo", `tool add_note: input property "kind" no longer takes "idea" \(rule input-enum-narrowed\)`},
		{"input bounds narrowed", "maximum=10", "maximum=5", `tool add_note: input property "priority": maximum is now 5 \(was 10\) \(rule input-bounds-narrowed\)`},
		{"input pattern", "enum=todo,enum=idea", "enum=todo,enum=idea,pattern=^t", `tool add_note: input property "kind" now has pattern "\^t" \(rule input-pattern-changed\)`},
		{"output property removed", "At string `json:\"at,omitempty\"`", "At string `json:\"-\"`", `tool add_note: output property "at" was removed \(rule output-property-removed\)`},
		{"output made optional", "Count int `json:\"count\"`", "Count int `json:\"count,omitempty\"`", `tool add_note: output property "count" is no longer always present \(rule output-now-optional\)`},
		{"output type changed", "At string `", "At int `", `tool add_note: output property "at" is now integer \(was string\) \(rule output-type-changed\)`},
		{"prompt argument added as required", "type Summarize struct {", "type Summarize struct {\n	// The tone.\n	Tone string `json:\"tone\"`", `prompt summarize: argument "tone" was added as required \(rule prompt-argument-required\)`},
		{"tool now destructive", "idempotent destructive=false", "idempotent", `tool add_note: is now destructive \(rule tool-now-destructive\)`},
		{"tool no longer idempotent", "idempotent destructive=false", "destructive=false", `tool add_note: is no longer idempotent .*\(rule tool-no-longer-idempotent\)`},
	} {
		t.Run(c.name, func(t *testing.T) {
			edit(t, c.old, c.new)
			code, stdout, stderr := runIn(t, dir, "breaking", "-against", "HEAD", "./notes")
			if code != 1 {
				t.Fatalf("exit %d, want 1\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
			}
			re := regexp.MustCompile(`(?m)^notes/notes\.go:\d+:\d+: server notes: ` + c.want + `$`)
			if !re.MatchString(stdout) {
				t.Fatalf("no line matching %s in:\n%s", re, stdout)
			}
			if n := strings.Count(stdout, "\n"); n != 1 {
				t.Errorf("%d lines, want the one change:\n%s", n, stdout)
			}
			if strings.Contains(stdout+stderr, "version") {
				t.Errorf("without -v or -check-version, a version bump is mentioned:\n%s%s", stdout, stderr)
			}
		})
	}

	// Eight changes that break nothing: not a word, exit 0.
	for _, c := range []struct{ name, old, new string }{
		{"description", "// AddNote stores a note under an identifier.", "// AddNote keeps one note."},
		{"title", `title="Add note"`, `title="Add a note"`},
		{"optional input property", "	// How urgent it is.", "	// Who wrote it.\n	Author string `json:\"author,omitempty\"`\n	// How urgent it is."},
		{"enum widened", "enum=todo,enum=idea", "enum=todo,enum=idea,enum=bug"},
		{"bounds relaxed", "maximum=10", "maximum=100"},
		{"output property added", "	// When it was saved.", "	// Who saved it.\n	By string `json:\"by\"`\n	// When it was saved."},
		{"optional prompt argument", "type Summarize struct {", "type Summarize struct {\n	// The tone.\n	Tone string `json:\"tone,omitempty\"`"},
		{"tool added", "// Note is one note, by identifier.", "// Ping answers.\n//\n//mcp:tool name=ping readonly\ntype Ping struct{}\n\n// Call answers.\nfunc (Ping) Call(ctx context.Context) (string, error) { return \"pong\", nil }\n\n// Note is one note, by identifier."},
	} {
		t.Run("fine/"+c.name, func(t *testing.T) {
			edit(t, c.old, c.new)
			if code, stdout, stderr := runIn(t, dir, "breaking", "-against", "HEAD", "./notes"); code != 0 || stdout != "" || stderr != "" {
				t.Fatalf("exit %d, want 0 and no output\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
			}
		})
	}

	// -v lists the change and the bump it needs; -check-version enforces
	// the bump.
	edit(t, "// AddNote stores a note under an identifier.", "// AddNote keeps one note.")
	if _, stdout, _ := runIn(t, dir, "breaking", "-against", "HEAD", "-v", "./notes"); !strings.Contains(stdout, "tool add_note: title or description changed (fine: rule described)") ||
		!strings.Contains(stdout, "server notes: these changes need a patch version bump: version=1.0.0 is still below 1.0.1 (was 1.0.0)") {
		t.Fatalf("-v does not list the description change and its bump:\n%s", stdout)
	}
	code, stdout, stderr := runIn(t, dir, "breaking", "-against", "HEAD", "-check-version", "./notes")
	if code != 1 || !regexp.MustCompile(`(?m)^notes/notes\.go:\d+:\d+: server notes: these changes need a patch version bump: version=1\.0\.0 is still below 1\.0\.1 \(was 1\.0\.0\) \(-check-version\)$`).MatchString(stdout) {
		t.Fatalf("-check-version, version not bumped: exit %d\n%s%s", code, stdout, stderr)
	}
	if err := os.WriteFile(src, bytes.Replace(bytes.Replace(base, []byte("// AddNote stores a note under an identifier."), []byte("// AddNote keeps one note."), 1), []byte("version=1.0.0"), []byte("version=1.0.1"), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, stdout, stderr := runIn(t, dir, "breaking", "-against", "HEAD", "-check-version", "./notes"); code != 0 || stdout != "" {
		t.Fatalf("-check-version, version bumped: exit %d\n%s%s", code, stdout, stderr)
	}
}

// TestVersionAdvice: the bump a change needs, and 0.x's convention (a
// break bumps the minor version, anything else the patch version).
func TestVersionAdvice(t *testing.T) {
	for _, c := range []struct {
		old, new, bump string
		short          bool
		want           string
	}{
		{"1.2.3", "1.2.3", "major", true, "need a major version bump: version=1.2.3 is still below 2.0.0"},
		{"1.2.3", "2.0.0", "major", false, "need a major version bump: version=2.0.0 is at least 2.0.0"},
		{"1.2.3", "1.2.9", "minor", true, "need a minor version bump: version=1.2.9 is still below 1.3.0"},
		{"1.2.3", "1.2.4", "patch", false, "need a patch version bump"},
		{"0.2.3", "0.2.9", "major", true, "need a minor version bump: version=0.2.9 is still below 0.3.0"},
		{"0.2.3", "0.3.0", "major", false, "need a minor version bump: version=0.3.0 is at least 0.3.0"},
		{"0.2.3", "0.2.4", "minor", false, "need a patch version bump"},
		{"0.2.3", "0.2.3", "minor", true, "need a patch version bump: version=0.2.3 is still below 0.2.4"},
		{"", "", "patch", true, "is not X.Y.Z"},
	} {
		got, short := versionAdvice(c.old, c.new, c.bump)
		if short != c.short || !strings.Contains(got, c.want) {
			t.Errorf("versionAdvice(%q, %q, %s) = %q, %v; want %q, %v", c.old, c.new, c.bump, got, short, c.want, c.short)
		}
	}
}

// TestBreakingAllowAndFile: -allow accepts a rule; a surface.json path
// works as the baseline; a bad rule or no -against is a usage error.
func TestBreakingAllowAndFile(t *testing.T) {
	if testing.Short() {
		t.Skip("loads a scratch module")
	}
	dir, src := scratchNotes(t)
	base, _ := os.ReadFile(src)
	baseline := filepath.Join(t.TempDir(), "surface.json")
	b, err := os.ReadFile(filepath.Join(dir, "generated", "notes", "surface.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(baseline, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(src, bytes.Replace(base, []byte("maximum=10"), []byte("maximum=5"), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, stdout, stderr := runIn(t, dir, "breaking", "-against", baseline, "./notes"); code != 1 || !strings.Contains(stdout, "rule input-bounds-narrowed") {
		t.Fatalf("against a file: exit %d\n%s%s", code, stdout, stderr)
	}
	if code, stdout, stderr := runIn(t, dir, "breaking", "-against", baseline, "-allow", "input-bounds-narrowed", "./notes"); code != 0 || stdout != "" {
		t.Fatalf("-allow: exit %d\n%s%s", code, stdout, stderr)
	}
	if code, _, stderr := runIn(t, dir, "breaking", "-against", "HEAD", "-allow", "no-such-rule", "./notes"); code != 2 || !strings.Contains(stderr, `unknown rule "no-such-rule"`) {
		t.Fatalf("unknown rule: exit %d\n%s", code, stderr)
	}
	if code, _, stderr := runIn(t, dir, "breaking", "./notes"); code != 2 || !strings.Contains(stderr, "-against is required") {
		t.Fatalf("no -against: exit %d\n%s", code, stderr)
	}
	if code, _, stderr := runIn(t, dir, "breaking", "-against", "no-such-rev", "./notes"); code != 2 || !strings.Contains(stderr, "git cannot read") {
		t.Fatalf("unknown revision: exit %d\n%s", code, stderr)
	}
}

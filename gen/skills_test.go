package gen_test

import (
	"bufio"
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/gen"
	"github.com/mcpgen/mcpgen/internal/skills"
)

// TestSkillDiagnostics runs the generator over testdata/skilldiag, whose
// //mcp:skill directives and SKILL.md files hold every mistake the skill
// checks report, and checks each diagnostic in place: in the Go file as in
// TestDiagnostics, and in a SKILL.md by a `want "regexp"` in a YAML or
// HTML comment on the line (`want@N "regexp"` for line N, when that line
// cannot carry a comment).
func TestSkillDiagnostics(t *testing.T) {
	dir := filepath.Join("testdata", "skilldiag")
	_, err := gen.Generate(context.Background(), gen.Config{Patterns: []string{"./testdata/skilldiag"}})
	var diags gen.Diagnostics
	if !errors.As(err, &diags) {
		t.Fatalf("Generate = %v, want a gen.Diagnostics error", err)
	}
	wants := readWants(t, dir)
	readSkillWants(t, dir, wants)
	for _, d := range diags {
		if !d.Pos.IsValid() || d.Pos.Column == 0 {
			t.Errorf("diagnostic without a full position: %s", d)
			continue
		}
		text := d.Subject + ": " + d.Problem
		if d.Hint == "" && strings.HasPrefix(d.Subject, "SKILL.md") {
			t.Errorf("%s: SKILL.md diagnostic without a fix hint", d)
		}
		k := lineKey{abs(t, d.Pos.Filename), d.Pos.Line}
		if !wants.match(k, text) {
			t.Errorf("%s:%d:%d: unexpected diagnostic: %s", rel(k.file), k.line, d.Pos.Column, text)
		}
	}
	for _, k := range wants.keys() {
		for _, w := range wants[k] {
			if !w.met {
				t.Errorf("%s:%d: no diagnostic matched %q", rel(k.file), k.line, w.re)
			}
		}
	}
	if t.Failed() {
		t.Logf("all diagnostics:\n%v", diags)
	}
}

var skillWantRe = regexp.MustCompile(`want(@\d+)? ("(?:[^"\\]|\\.)*")`)

// readSkillWants adds the wants of every SKILL.md under dir.
func readSkillWants(t *testing.T, dir string, ws wantSet) {
	t.Helper()
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.Name() != skills.Manifest {
			return err
		}
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<20)
		for line := 1; sc.Scan(); line++ {
			for _, m := range skillWantRe.FindAllStringSubmatch(sc.Text(), -1) {
				at := line
				if m[1] != "" {
					at, _ = strconv.Atoi(m[1][1:])
				}
				res, err := parseWant(m[2])
				if err != nil {
					t.Fatalf("%s:%d: %v", p, line, err)
				}
				k := lineKey{abs(t, p), at}
				ws[k] = append(ws[k], res...)
			}
		}
		return sc.Err()
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestSkillCopiesMakeCheckStale edits a skill file after generating and
// expects Stale (what `mcpgen -check` runs) to name its copy, and a file
// removed from the skill to leave a stale copy behind that Write removes.
func TestSkillCopiesMakeCheckStale(t *testing.T) {
	src := t.TempDir()
	writeFile := func(rel, content string) {
		p := filepath.Join(src, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	writeFile("go.mod", "module example.com/skilly\n\ngo 1.22\n")
	writeFile("comp/comp.go", "// Package comp publishes one skill.\n//\n//mcp:server name=skilly\n//mcp:skill dir=skills/tidy\npackage comp\n")
	writeFile("comp/skills/tidy/SKILL.md", "---\nname: tidy\ndescription: Keep things tidy.\n---\nBody.\n")
	writeFile("comp/skills/tidy/notes.md", "notes\n")
	out := filepath.Join(src, "generated")
	run := func() *gen.Result {
		t.Helper()
		res, err := gen.Generate(context.Background(), gen.Config{Dir: src, Patterns: []string{"./comp"}})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	if _, err := run().Write(out); err != nil {
		t.Fatal(err)
	}
	if stale, err := run().Stale(out); err != nil || len(stale) != 0 {
		t.Fatalf("fresh output stale: %v %v", stale, err)
	}
	writeFile("comp/skills/tidy/notes.md", "notes, edited\n")
	stale, err := run().Stale(out)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(stale, " ") != "skilly/_skills/tidy/notes.md skilly/skills.go skilly/surface.json" {
		t.Errorf("after editing notes.md, stale = %v; want its copy, the digest in skills.go and the skill's digest in surface.json", stale)
	}
	if err := os.Remove(filepath.Join(src, "comp", "skills", "tidy", "notes.md")); err != nil {
		t.Fatal(err)
	}
	res := run()
	if _, err := res.Write(out); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(out, "skilly", "_skills", "tidy", "notes.md")); !os.IsNotExist(err) {
		t.Errorf("copy of a removed skill file left behind: %v", err)
	}
	if stale, err := res.Stale(out); err != nil || len(stale) != 0 {
		t.Errorf("after Write, stale = %v %v", stale, err)
	}
}

// TestSkillLimits refuses a skill over either per-skill limit of the
// extension (512 files, 16 MiB), at the directive, and accepts one at the
// file limit exactly.
func TestSkillLimits(t *testing.T) {
	src := t.TempDir()
	write := func(rel string, content []byte) {
		p := filepath.Join(src, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, content, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", []byte("module example.com/limits\n\ngo 1.22\n"))
	write("comp/comp.go", []byte("// Package comp has skills at and over the limits.\n//\n//mcp:server name=limits\n//mcp:skill dir=many\n//mcp:skill dir=most\n//mcp:skill dir=big\npackage comp\n"))
	for _, name := range []string{"many", "most", "big"} {
		write("comp/"+name+"/SKILL.md", []byte("---\nname: "+name+"\ndescription: At or over a limit.\n---\n"))
	}
	for i := 1; i <= 512; i++ { // 513 files with SKILL.md
		write("comp/many/f/"+strconv.Itoa(i)+".txt", []byte("x"))
		if i < 512 {
			write("comp/most/f/"+strconv.Itoa(i)+".txt", []byte("x"))
		}
	}
	write("comp/big/blob.bin", make([]byte, skills.MaxBytes))
	_, err := gen.Generate(context.Background(), gen.Config{Dir: src, Patterns: []string{"./comp"}})
	var diags gen.Diagnostics
	if !errors.As(err, &diags) {
		t.Fatalf("Generate = %v, want diagnostics", err)
	}
	var got []string
	for _, d := range diags {
		got = append(got, d.Subject+": "+d.Problem)
	}
	want := []string{
		"skill many: 513 files; hosts are only required to accept 512 per skill",
		"skill big: " + strconv.Itoa(skills.MaxBytes+len("---\nname: big\ndescription: At or over a limit.\n---\n")) + " bytes in total; hosts are only required to accept 16777216 (16 MiB) per skill",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("diagnostics:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

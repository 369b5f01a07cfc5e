package gen_test

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestDriftGuard changes a component under the generated code (through a
// build overlay, so the tree is untouched) and checks that the generated
// package then fails to compile at its drift guard in guard.go, and that
// the compiler's first error says, in its first line, what changed and to
// run go generate: the guard's call, which the message quotes, carries the
// advice. A handler's signature (a dynamic skill's Files method too), a
// removed method and the fields of an input type are guarded: a new field
// would otherwise build with a stale schema that refuses it. The adapters
// that call the changed method fail too (in prompts.go, say): the guard's
// error must still come first.
func TestDriftGuard(t *testing.T) {
	for _, tc := range []struct {
		name               string
		caseDir, file, pkg string // golden case, its component file, its generated package
		before, after      string
		guard              string    // the guard's advice, as its call in guard.go spells it
		detail             string    // regexp: what the first error line says after the guard's call
		removed            string    // regexp: the whole first error, at the guard's line (a field gone: the call is not quoted)
		also               [2]string // a second replacement in the component, which keeps it compiling
	}{
		{
			name:    "method",
			caseDir: "gen/testdata/golden/results", file: "results.go", pkg: "results",
			before: "func (in Shout) Call(ctx context.Context) (string, error) {",
			after:  "func (in Shout) Call(ctx context.Context, loud bool) (string, error) {",
			guard:  "results.Shout.Call changed after mcpgen ran: run go generate ./...",
			detail: `\(wrong type for method Call\)$`,
		},
		{
			name:    "removed method",
			caseDir: "gen/testdata/golden/results", file: "results.go", pkg: "results",
			before: "func (in Shout) Call(ctx context.Context) (string, error) {",
			after:  "func (in Shout) Shout(ctx context.Context) (string, error) {",
			guard:  "results.Shout.Call changed after mcpgen ran: run go generate ./...",
			detail: `\(missing method Call\)$`,
		},
		{
			// A new field: each field's guard holds, the struct's fails.
			name:    "field added",
			caseDir: "gen/testdata/golden/results", file: "results.go", pkg: "results",
			before: "type Shout struct {",
			after:  "type Shout struct {\n\tLoud bool `json:\"loud\"`",
			guard:  "results.Shout has a new field, or a changed tag or field order, since mcpgen ran: run go generate ./...",
			detail: `, component\.Shout\{\}\) \(value of struct type .*Shout\) as struct\{Text string .*\} value in variable declaration$`,
		},
		{
			// A field's type: its own guard names it, not the whole struct.
			name:    "field type",
			caseDir: "gen/testdata/golden/results", file: "results.go", pkg: "results",
			before: "	Bangs int `json:\"bangs,omitempty\"",
			after:  "	Bangs int8 `json:\"bangs,omitempty\"",
			also:   [2]string{`strings.Repeat("!", in.Bangs)`, `strings.Repeat("!", int(in.Bangs))`},
			guard:  "results.Shout.Bangs changed after mcpgen ran: run go generate ./...",
			detail: `, component\.Shout\{\}\.Bangs\) \(value of type int8\) as int value in variable declaration$`,
		},
		{
			// A field gone: the compiler names it at its guard.
			name:    "field removed",
			caseDir: "gen/testdata/golden/results", file: "results.go", pkg: "results",
			before:  "	Bangs int `json:\"bangs,omitempty\"",
			after:   "	Exclamations int `json:\"bangs,omitempty\"",
			also:    [2]string{`strings.Repeat("!", in.Bangs)`, `strings.Repeat("!", in.Exclamations)`},
			guard:   "results.Shout.Bangs changed after mcpgen ran: run go generate ./...",
			removed: `component\.Shout\{\}\.Bangs undefined \(type .*Shout has no field or method Bangs\)$`,
		},
		{
			// prompts.go calls Review.Get: it fails to compile too.
			name:    "prompt",
			caseDir: "gen/testdata/golden/prompts", file: "prompts.go", pkg: "prompts",
			before: "func (p Review) Get(ctx context.Context) (string, error) {",
			after:  "func (p Review) Get(ctx context.Context, verbose bool) (string, error) {",
			guard:  "prompts.Review.Get changed after mcpgen ran: run go generate ./...",
			detail: `\(wrong type for method Get\)$`,
		},
		{
			// A dynamic skill's Files method is pinned like a handler.
			name:    "skill",
			caseDir: "gen/testdata/golden/skills", file: "status.go", pkg: "skilled",
			before: "func (Status) Files(ctx context.Context, req *mcpgen.Request, clock *Clock) ([]mcpgen.SkillFile, error) {",
			after:  "func (Status) Files(ctx context.Context, clock *Clock) ([]mcpgen.SkillFile, error) {",
			guard:  "skills.Status.Files changed after mcpgen ran: run go generate ./...",
			detail: `\(wrong type for method Files\)$`,
		},
	} {
		component := tc.caseDir + "/" + tc.file
		generated := tc.caseDir + "/want/" + tc.pkg
		if out, err := goCmd(t, "build", "./"+generated); err != nil {
			t.Fatalf("the golden package does not compile before the change:\n%s", out)
		}
		src, err := os.ReadFile("../" + component)
		if err != nil {
			t.Fatal(err)
		}
		guardGo, err := os.ReadFile("../" + generated + "/guard.go")
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(guardGo), "\n")
		// The guard's own doc says what to do.
		if !strings.Contains(string(guardGo), "Run `go generate ./...` (mcpgen) again") {
			t.Errorf("%s/guard.go does not tell the reader to re-run mcpgen", generated)
		}
		t.Run(tc.name, func(t *testing.T) {
			if !strings.Contains(string(src), tc.before) {
				t.Fatalf("%s no longer declares %q; update this test", component, tc.before)
			}
			o := newOverlay(t)
			changed := strings.Replace(string(src), tc.before, tc.after, 1)
			if tc.also[0] != "" {
				if !strings.Contains(changed, tc.also[0]) {
					t.Fatalf("%s no longer holds %q; update this test", component, tc.also[0])
				}
				changed = strings.Replace(changed, tc.also[0], tc.also[1], 1)
			}
			o.add(component, []byte(changed))
			out, err := goCmd(t, "build", "-overlay", o.file(), "./"+generated)
			if err == nil {
				t.Fatalf("the generated package still compiles after the change:\n%s", out)
			}
			// The guard's error is reported on the line of its call.
			call := `stale(` + strconv.Quote(tc.guard)
			guard := 0
			for i, l := range lines {
				if strings.Contains(l, call) {
					guard = i + 1
				}
			}
			if guard == 0 {
				t.Fatalf("no drift guard %s in %s/guard.go", call, generated)
			}
			first := strings.SplitN(strings.TrimPrefix(out, "# "+modulePath+"/"+generated+"\n"), "\n", 2)[0]
			at := regexp.MustCompile("^" + regexp.QuoteMeta(generated+"/guard.go:") + `(\d+):\d+: cannot use ` + regexp.QuoteMeta(call) + `.*` + tc.detail)
			if tc.removed != "" {
				at = regexp.MustCompile("^" + regexp.QuoteMeta(generated+"/guard.go:") + `(\d+):\d+: ` + tc.removed)
			}
			m := at.FindStringSubmatch(first)
			if m == nil {
				t.Fatalf("the compiler's first error is not the drift guard's %s ... %s:\n%s", call, tc.detail, out)
			}
			if m[1] != strconv.Itoa(guard) {
				t.Errorf("the compiler points at guard.go:%s, the guard is at line %d:\n%s", m[1], guard, out)
			}
		})
	}
}

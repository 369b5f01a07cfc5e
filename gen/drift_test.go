package gen_test

import (
	"os"
	"path"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestDriftGuard changes a component under the generated code (through a
// build overlay, so the tree is untouched) and checks that the generated
// package then fails to compile at its drift guard in server.go, with a
// compiler message that itself names the guard, whose name and comment
// tell the reader to re-run mcpgen. A handler's signature (a dynamic
// skill's Files method too) and the fields of an input type are guarded:
// a new field would otherwise build with a stale schema that refuses it.
func TestDriftGuard(t *testing.T) {
	for _, tc := range []struct {
		name               string
		caseDir, file, pkg string // golden case, its component file, its generated package
		before, after      string
		guard              string // text on the guard's line in server.go
		message            string // what the compiler says about it
	}{
		{
			name:    "method",
			caseDir: "gen/testdata/golden/results", file: "results.go", pkg: "results",
			before:  "func (in Shout) Call(ctx context.Context) (string, error) {",
			after:   "func (in Shout) Call(ctx context.Context, loud bool) (string, error) {",
			guard:   "](component.Shout.Call)",
			message: `cannot use component\.Shout\.Call .* in argument to _mcpgen_stale_run_go_generate\[`,
		},
		{
			name:    "field",
			caseDir: "gen/testdata/golden/results", file: "results.go", pkg: "results",
			before:  "type Shout struct {",
			after:   "type Shout struct {\n\tLoud bool `json:\"loud\"`",
			guard:   "](component.Shout{})",
			message: `cannot use component\.Shout\{\} .* in argument to _mcpgen_stale_run_go_generate\[`,
		},
		{
			// A dynamic skill's Files method is pinned like a handler.
			name:    "skill",
			caseDir: "gen/testdata/golden/skills", file: "status.go", pkg: "skilled",
			before:  "func (Status) Files(ctx context.Context, req *mcpgen.Request, clock *Clock) ([]mcpgen.SkillFile, error) {",
			after:   "func (Status) Files(ctx context.Context, clock *Clock) ([]mcpgen.SkillFile, error) {",
			guard:   "](component.Status.Files)",
			message: `cannot use component\.Status\.Files .* in argument to _mcpgen_stale_run_go_generate\[`,
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
		serverGo, err := os.ReadFile("../" + generated + "/server.go")
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(serverGo), "\n")
		// The guard's own doc says what to do.
		if !regexp.MustCompile("Run `go generate ./...` \\(mcpgen\\) again").Match(serverGo) {
			t.Errorf("%s/server.go does not tell the reader to re-run mcpgen", generated)
		}
		t.Run(tc.name, func(t *testing.T) {
			if !strings.Contains(string(src), tc.before) {
				t.Fatalf("%s no longer declares %q; update this test", component, tc.before)
			}
			o := newOverlay(t)
			o.add(component, []byte(strings.Replace(string(src), tc.before, tc.after, 1)))
			out, err := goCmd(t, "build", "-overlay", o.file(), "./"+generated)
			if err == nil {
				t.Fatalf("the generated package still compiles after the change:\n%s", out)
			}
			// The guard's call ends on the line holding its argument.
			guard := 0
			for i, l := range lines {
				if strings.Contains(l, tc.guard) {
					guard = i + 1
				}
			}
			if guard == 0 {
				t.Fatalf("no drift guard %q in %s/server.go", tc.guard, generated)
			}
			at := regexp.MustCompile(regexp.QuoteMeta(path.Base(generated)+"/server.go:") + `(\d+):\d+: ` + tc.message)
			m := at.FindStringSubmatch(out)
			if m == nil {
				t.Fatalf("the compiler did not stop at the drift guard in server.go naming _mcpgen_stale_run_go_generate:\n%s", out)
			}
			if m[1] != strconv.Itoa(guard) {
				t.Errorf("the compiler points at server.go:%s, the guard is at line %d:\n%s", m[1], guard, out)
			}
			// The guard comes first: server.go sorts before the adapters' files.
			if first := strings.SplitN(strings.TrimPrefix(out, "# "+modulePath+"/"+generated+"\n"), "\n", 2)[0]; !strings.Contains(first, "server.go:") {
				t.Errorf("the first compiler error is not the drift guard: %s", first)
			}
		})
	}
}

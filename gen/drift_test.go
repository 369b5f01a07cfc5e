package gen_test

import (
	"os"
	"path"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestDriftGuard changes a handler's signature under the generated code
// (through a build overlay, so the tree is untouched) and checks that the
// generated package then fails to compile at its drift guard in server.go,
// whose comment tells the reader to re-run mcpgen.
func TestDriftGuard(t *testing.T) {
	const (
		caseDir   = "gen/testdata/golden/results"
		component = caseDir + "/results.go"
		generated = caseDir + "/want/results"
	)
	if out, err := goCmd(t, "build", "./"+generated); err != nil {
		t.Fatalf("the golden package does not compile before the change:\n%s", out)
	}

	src, err := os.ReadFile("../" + component)
	if err != nil {
		t.Fatal(err)
	}
	const before = "func (in Shout) Call(ctx context.Context) (string, error) {"
	const after = "func (in Shout) Call(ctx context.Context, loud bool) (string, error) {"
	if !strings.Contains(string(src), before) {
		t.Fatalf("%s no longer declares %q; update this test", component, before)
	}
	o := newOverlay(t)
	o.add(component, []byte(strings.Replace(string(src), before, after, 1)))
	out, err := goCmd(t, "build", "-overlay", o.file(), "./"+generated)
	if err == nil {
		t.Fatalf("the generated package still compiles after Shout.Call changed:\n%s", out)
	}

	// Find the guard line of Shout.Call and the comment above the block.
	serverGo, err := os.ReadFile("../" + generated + "/server.go")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(serverGo), "\n")
	guard, block := 0, 0
	for i, l := range lines {
		if strings.HasPrefix(l, "var (") {
			block = i
		}
		if strings.Contains(l, "= component.Shout.Call") {
			guard = i + 1
			break
		}
	}
	if guard == 0 || block == 0 {
		t.Fatalf("no drift guard for Shout.Call in %s/server.go", generated)
	}
	comment := strings.Join(lines[max(0, block-3):block], "\n")
	if !regexp.MustCompile("run `go generate ./...` \\(mcpgen\\) again").MatchString(comment) {
		t.Errorf("the comment above the drift guard does not tell to re-run mcpgen:\n%s", comment)
	}
	at := regexp.MustCompile(regexp.QuoteMeta(path.Base(generated)+"/server.go:") + `(\d+):\d+: cannot use component\.Shout\.Call`)
	m := at.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("the compiler did not stop at the drift guard in server.go:\n%s", out)
	}
	if m[1] != strconv.Itoa(guard) {
		t.Errorf("the compiler points at server.go:%s, the guard of Shout.Call is at line %d:\n%s", m[1], guard, out)
	}
	// The guard comes first: server.go sorts before the adapters' files.
	if first := strings.SplitN(strings.TrimPrefix(out, "# "+modulePath+"/"+generated+"\n"), "\n", 2)[0]; !strings.Contains(first, "server.go:") {
		t.Errorf("the first compiler error is not the drift guard: %s", first)
	}
}

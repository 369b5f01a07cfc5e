package gen_test

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/gen"
)

// TestOrphanedServers checks that a server package left behind in the
// output directory (its component package was renamed or lost its
// directives, or is gone) is reported by Stale (mcpgen -check) and removed
// by Write, while a server generated from packages this run did not scan,
// and files mcpgen did not write, are left alone. Which package a server
// came from is read from the //mcpgen:source line of its server.go.
func TestOrphanedServers(t *testing.T) {
	res := generate(t, "./testdata/golden/tasks")
	out := t.TempDir()
	if _, err := res.Write(out); err != nil {
		t.Fatal(err)
	}
	serverGo, err := os.ReadFile(filepath.Join(out, "tasks", "server.go"))
	if err != nil {
		t.Fatal(err)
	}
	// plant writes a generated server package named name, generated from
	// the component package src.
	plant := func(name, src string) {
		doc := strings.ReplaceAll(string(serverGo), `"tasks"`, `"`+name+`"`)
		marker := "\n//mcpgen:source " + modulePath + "/gen/testdata/golden/tasks\n"
		if !strings.Contains(doc, marker) {
			t.Fatalf("tasks/server.go has no line %q in its header:\n%s", marker, serverGo)
		}
		doc = strings.Replace(doc, marker, "\n//mcpgen:source "+src+"\n", 1)
		dir := filepath.Join(out, name, "schemas")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for p, b := range map[string]string{"server.go": doc, "schemas/x.input.json": "{}\n"} {
			if err := os.WriteFile(filepath.Join(out, name, p), []byte(b), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	plant("renamed", modulePath+"/gen/testdata/golden/tasks") // scanned, now named tasks
	plant("gone", modulePath+"/gen/testdata/golden/nosuchpackage")
	plant("elsewhere", modulePath+"/gen/testdata/golden/deps") // not scanned by this run
	if err := os.WriteFile(filepath.Join(out, "renamed", "NOTES.md"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}

	stale, err := res.Stale(out)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"gone/schemas/x.input.json", "gone/server.go", "renamed/schemas/x.input.json", "renamed/server.go"}
	if !reflect.DeepEqual(stale, want) {
		t.Fatalf("Stale = %q, want %q", stale, want)
	}
	if _, err := res.Write(out); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(out, "gone")); !os.IsNotExist(err) {
		t.Errorf("the orphaned package gone/ is still there: %v", err)
	}
	if _, err := os.Stat(filepath.Join(out, "renamed", "server.go")); !os.IsNotExist(err) {
		t.Errorf("renamed/server.go is still there: %v", err)
	}
	if _, err := os.Stat(filepath.Join(out, "renamed", "NOTES.md")); err != nil {
		t.Errorf("a file mcpgen did not write was removed: %v", err)
	}
	if _, err := os.Stat(filepath.Join(out, "elsewhere", "server.go")); err != nil {
		t.Errorf("a server of a package this run did not scan was removed: %v", err)
	}
	if stale, err := res.Stale(out); err != nil || len(stale) != 0 {
		t.Errorf("after Write, Stale = %q, %v", stale, err)
	}
}

// TestPatternMatchesNothing checks that a pattern matching no package is
// an error, not a silent success.
func TestPatternMatchesNothing(t *testing.T) {
	for pat, msg := range map[string]string{
		"./testdata/golden/nosuchdir/...":              "no such file or directory", // go list says so
		"./testdata/golden/deps/want/deps/schemas/...": "matches no Go packages",    // go list only warns
	} {
		_, err := gen.Generate(context.Background(), gen.Config{Patterns: []string{pat}})
		if err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("Generate(%s) = %v, want an error saying %q", pat, err, msg)
		}
	}
	empty := filepath.Join("testdata", "golden", "empty_"+strings.ReplaceAll(t.Name(), "/", "_"))
	if err := os.Mkdir(empty, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Remove(empty) })
	if _, err := gen.Generate(context.Background(), gen.Config{Patterns: []string{"./" + filepath.ToSlash(empty)}}); err == nil {
		t.Errorf("Generate of an empty directory succeeded")
	}
}

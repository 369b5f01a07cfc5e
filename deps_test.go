package mcpgen_test

import (
	"errors"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// heavyDeps are the integrations a server pays for only when it opts in:
// a program that imports the root package and a generated server must link
// none of them. Each entry matches the package path and the paths below it.
var heavyDeps = []struct{ prefix, what string }{
	{"github.com/jackc/pgx", "PostgreSQL driver"},
	{"go.opentelemetry.io/otel/sdk", "OpenTelemetry SDK"},
	{"go.opentelemetry.io/otel/exporters", "OpenTelemetry exporters"},
	{"google.golang.org/grpc", "gRPC"},
	{"google.golang.org/protobuf", "protobuf"},
	{"github.com/prometheus", "Prometheus client"},
	{"github.com/go-jose", "JOSE"},
}

// lightMain is a program that serves generated/notes over stdio and
// imports nothing of this module but the root package, generated/notes and
// components/notes. testdata is outside ./..., so only
// the tests that name it build it.
const lightMain = "./testdata/lightmain"

// TestLightProgramLinksNoHeavyDependency lists every package that
// testdata/lightmain links and fails on each one of heavyDeps it finds,
// naming the packages and the shortest import chain that reaches them.
func TestLightProgramLinksNoHeavyDependency(t *testing.T) {
	g := listDeps(t, lightMain)
	for _, want := range []string{"github.com/mcpgen/mcpgen", "github.com/mcpgen/mcpgen/generated/notes"} {
		if _, ok := g.imports[want]; !ok {
			t.Fatalf("%s does not link %s; the test would prove nothing", lightMain, want)
		}
	}
	for _, h := range heavyDeps {
		var found []string
		for _, p := range g.order {
			if underPrefix(p, h.prefix) {
				found = append(found, p)
			}
		}
		if len(found) == 0 {
			continue
		}
		chain := g.shortestChain(func(p string) bool { return underPrefix(p, h.prefix) })
		t.Errorf("%s (the root package and a generated server) links %d %s packages (%s); they belong in an opt-in package.\n"+
			"import chain:\n\t%s\npackages:\n\t%s",
			lightMain, len(found), h.prefix, h.what,
			strings.Join(chain, "\n\t-> "), strings.Join(found, "\n\t"))
	}
}

// depGraph is the output of go list -deps: every package, dependencies
// before the packages that import them, and what each imports.
type depGraph struct {
	root    string // the import path of the listed package
	order   []string
	imports map[string][]string
}

// listDeps runs go list -deps on pkg in the module root.
func listDeps(t *testing.T, pkg string) depGraph {
	t.Helper()
	cmd := exec.Command("go", "list", "-deps", "-f", `{{.ImportPath}} {{join .Imports " "}}`, pkg)
	out, err := cmd.Output()
	if err != nil {
		var stderr []byte
		if ee := (*exec.ExitError)(nil); errors.As(err, &ee) {
			stderr = ee.Stderr
		}
		t.Fatalf("go list -deps %s: %v\n%s", pkg, err, stderr)
	}
	g := depGraph{imports: map[string][]string{}}
	for line := range strings.Lines(string(out)) {
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		g.order = append(g.order, fields[0])
		g.imports[fields[0]] = fields[1:]
	}
	if len(g.order) == 0 {
		t.Fatalf("go list -deps %s listed nothing", pkg)
	}
	g.root = g.order[len(g.order)-1] // -deps lists the named package last
	return g
}

// shortestChain returns the import path from the root to the nearest
// package that match accepts, breadth first in go list's (sorted) import
// order, or nil.
func (g depGraph) shortestChain(match func(string) bool) []string {
	parent := map[string]string{g.root: ""}
	queue := []string{g.root}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		if match(p) {
			var chain []string
			for ; p != ""; p = parent[p] {
				chain = append(chain, p)
			}
			slices.Reverse(chain)
			return chain
		}
		for _, q := range g.imports[p] {
			if _, seen := parent[q]; !seen {
				parent[q] = p
				queue = append(queue, q)
			}
		}
	}
	return nil
}

// underPrefix reports whether the import path p is prefix or lies below it.
func underPrefix(p, prefix string) bool {
	return p == prefix || strings.HasPrefix(p, prefix+"/")
}

// TestTypedClientLinksNoServer lists what testdata/memoryclient links, a
// program that imports only the root package and the generated typed
// client of mcp-memory, and fails on any package of the server: its
// components, its store and the store's drivers (SQLite, PostgreSQL), its
// generated server package. The client holds copies of the types instead.
func TestTypedClientLinksNoServer(t *testing.T) {
	g := listDeps(t, "./testdata/memoryclient")
	if _, ok := g.imports["github.com/mcpgen/mcpgen/generated/memory/memoryclient"]; !ok {
		t.Fatal("testdata/memoryclient does not link generated/memory/memoryclient; the test would prove nothing")
	}
	server := []struct{ prefix, what string }{
		{"modernc.org/sqlite", "SQLite driver"},
		{"modernc.org/libc", "SQLite's C runtime"},
		{"github.com/jackc/pgx", "PostgreSQL driver"},
		{"database/sql", "database/sql"},
		{"github.com/mcpgen/mcpgen/components", "component packages"},
		{"github.com/mcpgen/mcpgen/pgcluster", "PostgreSQL cluster"},
	}
	for _, h := range server {
		var found []string
		for _, p := range g.order {
			if underPrefix(p, h.prefix) {
				found = append(found, p)
			}
		}
		if p := "github.com/mcpgen/mcpgen/generated/memory"; h.prefix == "github.com/mcpgen/mcpgen/components" && slices.Contains(g.order, p) {
			found = append(found, p)
		}
		if len(found) == 0 {
			continue
		}
		chain := g.shortestChain(func(p string) bool { return slices.Contains(found, p) })
		t.Errorf("a program using only memoryclient links %d packages of the server's %s (%s)\nimport chain:\n\t%s",
			len(found), h.what, strings.Join(found, ", "), strings.Join(chain, "\n\t-> "))
	}
}

// TestTypedClientsImportNoServerPackage checks every generated typed
// client: none may link a package of this module but the root package,
// whatever the server's components import.
func TestTypedClientsImportNoServerPackage(t *testing.T) {
	for _, server := range []string{"bench", "everything", "memory", "notes"} {
		pkg := "./generated/" + server + "/" + server + "client"
		g := listDeps(t, pkg)
		for _, p := range g.order {
			if underPrefix(p, "github.com/mcpgen/mcpgen") && p != g.root && p != "github.com/mcpgen/mcpgen" && !underPrefix(p, "github.com/mcpgen/mcpgen/internal") {
				chain := g.shortestChain(func(q string) bool { return q == p })
				t.Errorf("%s links %s:\n\t%s", pkg, p, strings.Join(chain, "\n\t-> "))
			}
		}
	}
}

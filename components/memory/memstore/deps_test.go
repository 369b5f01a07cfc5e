package memstore

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestImportsNeitherRuntimeNorPgcluster checks that the store depends on
// neither the MCP runtime (the module's root package) nor pgcluster, not
// even indirectly: it is a storage library that the memory server wires
// into the runtime, not a part of it. Like every component it imports no
// internal package of the module either: only what an outside team could.
func TestImportsNeitherRuntimeNorPgcluster(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go command to list the imports with: %v", err)
	}
	out, err := exec.Command(goTool, "list", "-deps", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 10 {
		t.Fatalf("go list -deps listed too little to be the real list:\n%s", out)
	}
	for _, d := range deps {
		switch {
		case d == "github.com/mcpgen/mcpgen", d == "github.com/mcpgen/mcpgen/pgcluster",
			strings.HasPrefix(d, "github.com/mcpgen/mcpgen/") && slices.Contains(strings.Split(d, "/"), "internal"):
			t.Errorf("memstore depends on %s", d)
		}
	}
}

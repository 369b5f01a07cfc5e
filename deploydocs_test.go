package mcpgen_test

import (
	"os"
	"strings"
	"testing"
)

// TestDeploymentSamples: the nginx and HAProxy configurations that
// docs/deployment.md shows are the files make conformance-balancers runs
// (docs/deploy/), past their leading comment block, so that the docs
// cannot drift from what is tested.
func TestDeploymentSamples(t *testing.T) {
	page, err := os.ReadFile("docs/deployment.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"docs/deploy/nginx.conf", "docs/deploy/haproxy.cfg"} {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(b), "\n")
		i := 0
		for i < len(lines) && (lines[i] == "" || strings.HasPrefix(lines[i], "#")) {
			i++
		}
		body := strings.Join(lines[i:], "\n")
		if !strings.Contains(string(page), "\n"+body) {
			t.Errorf("docs/deployment.md does not show %s as it is (past its leading comments); copy it into its code block", name)
		}
	}
}

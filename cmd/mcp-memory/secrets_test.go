package main

import (
	"net/url"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/testutil/pgtest"
)

// runBinary runs mcp-memory with args and an empty stdin (so that serving
// on stdio ends at once) and returns its exit status and output.
func runBinary(t *testing.T, args ...string) (int, string) {
	t.Helper()
	cmd := exec.Command(sharedBinary(t), args...)
	cmd.Stdin = strings.NewReader("")
	out, _ := cmd.CombinedOutput()
	return cmd.ProcessState.ExitCode(), string(out)
}

// TestStartupNeverPrintsPasswords: the two forms in which a password
// reached stderr. A libpq key=value string given to --cluster (which
// wants a URL) was quoted whole in the refusal, password included; a
// postgres:// URL with password= in its query printed that password in
// the errors and in the "store ready" log line, since only the user
// information's password was hidden.
func TestStartupNeverPrintsPasswords(t *testing.T) {
	const secret = "s3cretPW"
	db := filepath.Join(t.TempDir(), "m.db")
	code, out := runBinary(t, "--db", db, "--cluster", "host=127.0.0.1 port=1 user=mem password="+secret+" dbname=memory")
	if code == 0 || strings.Contains(out, secret) || !strings.Contains(out, "password=xxxxx") {
		t.Errorf("--cluster key=value: exit %d, want the refusal without the password:\n%s", code, out)
	}
	code, out = runBinary(t, "--db", "postgres://mem:pw1@127.0.0.1:1/memory?password="+secret+"&sslmode=disable")
	if code != 1 || strings.Contains(out, secret) || strings.Contains(out, "pw1") || !strings.Contains(out, "password=xxxxx") {
		t.Errorf("--db URL with ?password= (unreachable): exit %d, want 1 and no password:\n%s", code, out)
	}

	// On a database that is there, the URL is logged when the store is
	// ready: without the query's password too.
	u, err := url.Parse(pgtest.SearchPathURL(t, "mcpmem"))
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("password", secret) // ignored by a trust server, printed by the old code
	u.RawQuery = q.Encode()
	code, out = runBinary(t, "--db", u.String())
	if code != 0 || strings.Contains(out, secret) || !strings.Contains(out, "store ready") {
		t.Errorf("--db URL with ?password=: exit %d, want 0 and no password:\n%s", code, out)
	}
}

// TestMissingDatabaseExitsOne: a database that does not exist on a
// reachable server is an unavailable dependency, exit status 1 as
// docs/deployment.md says, not a usage error (2), for --db and for
// --cluster alike.
func TestMissingDatabaseExitsOne(t *testing.T) {
	u, err := url.Parse(pgtest.Server())
	if err != nil {
		t.Fatal(err)
	}
	pgtest.Connect(t).Close(t.Context()) // skip (fail under CI=true) when unreachable
	u.Path = "/mcp_memory_no_such_database"
	missing := u.String()
	for _, args := range [][]string{
		{"--db", missing},
		{"--db", missing, "export"},
		{"--db", filepath.Join(t.TempDir(), "m.db"), "--cluster", missing},
	} {
		code, out := runBinary(t, args...)
		if code != 1 || !strings.Contains(out, "does not exist") {
			t.Errorf("%v: exit %d, want 1 naming the missing database:\n%s", args, code, out)
		}
	}
}

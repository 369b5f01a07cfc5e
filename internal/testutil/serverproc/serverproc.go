// Package serverproc runs a built server binary for end-to-end tests.
package serverproc

import (
	"bufio"
	"context"
	"io"
	"os/exec"
	"regexp"
	"testing"
	"time"
)

var endpoint = regexp.MustCompile(`http://127\.0\.0\.1:[0-9]+/mcp`)

// HTTP starts bin with args (which make it serve Streamable HTTP on a
// loopback port, e.g. --http 127.0.0.1:0), until the test ends, and
// returns the endpoint URL the server logs on stderr.
func HTTP(ctx context.Context, t testing.TB, bin string, args ...string) string {
	t.Helper()
	cmd := exec.CommandContext(ctx, bin, args...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if u := endpoint.FindString(sc.Text()); u != "" {
				found <- u
				break
			}
		}
		_, _ = io.Copy(io.Discard, stderr)
	}()
	select {
	case u := <-found:
		return u
	case <-time.After(time.Minute):
		t.Fatalf("%s logged no URL within a minute", bin)
	}
	return ""
}

package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// These tests use mcpgen as a team outside this repository would: in a
// module of their own that requires github.com/mcpgen/mcpgen (replaced onto
// this checkout, since the module is not fetched from a proxy here), with
// `go get -tool` and `go tool mcpgen`. Everything the external module needs
// comes from the module cache (see checkout), so the go command runs
// offline.

// checkout is the root of the mcpgen module this test belongs to, with
// the module cache holding every go.mod of its whole module graph: an
// external module's graph is not pruned as this repository's is, and needs
// go.mod files (older versions) that building this repository does not
// fetch; `go mod graph` fetches them, once, with the usual proxy.
func checkout(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("no go.mod at %s: %v", root, err)
	}
	graphOnce.Do(func() {
		cmd := exec.Command("go", "mod", "graph")
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			graphErr = fmt.Errorf("go mod graph: %v\n%s", err, out)
		}
	})
	if graphErr != nil {
		t.Fatal(graphErr)
	}
	return root
}

var (
	graphOnce sync.Once
	graphErr  error
)

// offlineEnv is the environment of the go commands run in an external
// module: no proxy (mcpgen itself is replaced onto the checkout), no
// checksum database, no workspace, no inherited -mod flag.
func offlineEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		switch k, _, _ := strings.Cut(kv, "="); k {
		case "GOPROXY", "GOSUMDB", "GOFLAGS", "GOWORK", "MCPGEN_TEST_RUN_MAIN":
			continue
		}
		env = append(env, kv)
	}
	return append(env, "GOPROXY=off", "GOSUMDB=off", "GOWORK=off", "GOFLAGS=")
}

func sh(t *testing.T, dir, script string) string {
	t.Helper()
	cmd := exec.Command("bash", "-euo", "pipefail", "-c", script)
	cmd.Dir = dir
	cmd.Env = offlineEnv()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("in %s: %s\n%v\n%s", dir, script, err, out)
	}
	return string(out)
}

// quickstart returns the shell commands of the README's "Use it in your
// module" section, in order.
func quickstart(t *testing.T, root string) []string {
	t.Helper()
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(readme), "\n## Use it in your module\n")
	if !ok {
		t.Fatal(`README.md has no "## Use it in your module" section`)
	}
	_, block, ok := strings.Cut(section, "```sh\n")
	if !ok {
		t.Fatal("the README's quickstart has no ```sh block")
	}
	block, _, _ = strings.Cut(block, "```")
	var cmds []string
	for _, line := range strings.Split(block, "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			cmds = append(cmds, line)
		}
	}
	if len(cmds) < 3 {
		t.Fatalf("the README's quickstart has %d commands: %q", len(cmds), cmds)
	}
	return cmds
}

// TestReadmeQuickstart runs the README's quickstart verbatim in an empty
// directory, with one step added after `go mod init`: the replace of
// mcpgen onto this checkout. Its last command serves the scaffolded
// server on stdio; the official Go SDK client calls its tool.
func TestReadmeQuickstart(t *testing.T) {
	if testing.Short() {
		t.Skip("builds an external module; skipped with -short")
	}
	root := checkout(t)
	cmds := quickstart(t, root)
	dir := t.TempDir()
	var script []string
	for _, c := range cmds[:len(cmds)-1] {
		script = append(script, c)
		if strings.Contains(c, "go mod init") {
			script = append(script, "go mod edit -require github.com/mcpgen/mcpgen@v0.0.0-00010101000000-000000000000 -replace github.com/mcpgen/mcpgen="+root)
		}
	}
	// The commands may cd into a new directory; the server runs there.
	script = append(script, "pwd")
	out := sh(t, dir, strings.Join(script, "\n"))
	lines := strings.Split(strings.TrimSpace(out), "\n")
	moduleDir := lines[len(lines)-1]
	assertPublicImports(t, moduleDir)

	serve := exec.Command("bash", "-c", cmds[len(cmds)-1])
	serve.Dir = moduleDir
	serve.Env = offlineEnv()
	serve.Stderr = io.Discard
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	s := connectSDK(ctx, t, &mcp.CommandTransport{Command: serve}, "2025-11-25")
	res, err := s.CallTool(ctx, &mcp.CallToolParams{Name: "greet", Arguments: map[string]any{"name": "Ada"}})
	if err != nil {
		t.Fatalf("call greet: %v", err)
	}
	if got := textOf(res.Content); res.IsError || got != "Hello, Ada!" {
		t.Errorf("greet answered %q (isError %v), want %q", got, res.IsError, "Hello, Ada!")
	}
}

// TestExternalModule generates, builds and vets a module made of
// testdata/external and components/notes (a tool, a resource template with
// completion and a prompt),
// then drives its binary with the Go SDK client over stdio and Streamable
// HTTP in both protocol eras.
func TestExternalModule(t *testing.T) {
	if testing.Short() {
		t.Skip("builds an external module; skipped with -short")
	}
	root := checkout(t)
	dir := t.TempDir()
	// The module: go.mod, generate.go and a main from testdata, and this
	// repository's example component package, copied as it stands.
	if err := os.CopyFS(dir, os.DirFS("testdata/external")); err != nil {
		t.Fatal(err)
	}
	if err := os.CopyFS(filepath.Join(dir, "components", "notes"), os.DirFS(filepath.Join(root, "components", "notes"))); err != nil {
		t.Fatal(err)
	}
	sh(t, dir, `go mod edit -replace github.com/mcpgen/mcpgen=`+root+`
go get -tool github.com/mcpgen/mcpgen/cmd/mcpgen
go generate ./...
go build ./...
go vet ./...
go tool mcpgen -check
go build -o notes-server ./cmd/notes`)
	assertPublicImports(t, dir)
	bin := filepath.Join(dir, "notes-server")

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	for _, version := range []string{"2025-11-25", "2026-07-28"} {
		t.Run("stdio/"+version, func(t *testing.T) {
			exerciseNotes(ctx, t, connectSDK(ctx, t, &mcp.CommandTransport{Command: exec.Command(bin)}, version))
		})
	}
	endpoint := startHTTP(ctx, t, bin)
	for _, version := range []string{"2025-11-25", "2026-07-28"} {
		t.Run("http/"+version, func(t *testing.T) {
			tr := &mcp.StreamableClientTransport{Endpoint: endpoint, MaxRetries: -1}
			exerciseNotes(ctx, t, connectSDK(ctx, t, tr, version))
		})
	}
}

// exerciseNotes calls the tool, reads the template and gets the prompt.
func exerciseNotes(ctx context.Context, t *testing.T, s *mcp.ClientSession) {
	t.Helper()
	res, err := s.CallTool(ctx, &mcp.CallToolParams{Name: "add_note", Arguments: map[string]any{"id": "groceries", "text": "eggs, flour"}})
	if err != nil {
		t.Fatalf("add_note: %v", err)
	}
	var saved struct {
		ID    string `json:"id"`
		Count int    `json:"count"`
	}
	raw, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(raw, &saved); res.IsError || err != nil || saved.ID != "groceries" || saved.Count < 1 {
		t.Errorf("add_note: structured %s (isError %v, %v)", raw, res.IsError, err)
	}
	bad, err := s.CallTool(ctx, &mcp.CallToolParams{Name: "add_note", Arguments: map[string]any{"id": "Not An ID", "text": "x"}})
	if err == nil && !bad.IsError {
		t.Errorf("add_note accepted an id that breaks its pattern: %+v", bad)
	}

	read, err := s.ReadResource(ctx, &mcp.ReadResourceParams{URI: "notes://groceries"})
	if err != nil {
		t.Fatalf("read notes://groceries: %v", err)
	}
	if len(read.Contents) != 1 || read.Contents[0].Text != "eggs, flour" || read.Contents[0].MIMEType != "text/plain" {
		t.Errorf("read notes://groceries: %+v", read.Contents)
	}
	if _, err := s.ReadResource(ctx, &mcp.ReadResourceParams{URI: "notes://missing"}); err == nil {
		t.Error("reading a missing note succeeded")
	}
	comp, err := s.Complete(ctx, &mcp.CompleteParams{
		Ref:      &mcp.CompleteReference{Type: "ref/resource", URI: "notes://{id}"},
		Argument: mcp.CompleteParamsArgument{Name: "id", Value: "gro"},
	})
	if err != nil {
		t.Fatalf("complete: %v", err)
	}
	if len(comp.Completion.Values) != 1 || comp.Completion.Values[0] != "groceries" {
		t.Errorf("completion of gro: %v", comp.Completion.Values)
	}

	prompt, err := s.GetPrompt(ctx, &mcp.GetPromptParams{Name: "summarize", Arguments: map[string]string{"id": "groceries"}})
	if err != nil {
		t.Fatalf("get summarize: %v", err)
	}
	if len(prompt.Messages) != 1 || !strings.Contains(textOf([]mcp.Content{prompt.Messages[0].Content}), "eggs, flour") {
		t.Errorf("summarize: %+v", prompt.Messages)
	}
}

// startHTTP runs the binary on a free loopback port and returns its
// endpoint, read from the URL it logs.
func startHTTP(ctx context.Context, t *testing.T, bin string) string {
	t.Helper()
	cmd := exec.CommandContext(ctx, bin, "--http", "127.0.0.1:0")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	urlRe := regexp.MustCompile(`http://127\.0\.0\.1:[0-9]+/mcp`)
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if u := urlRe.FindString(sc.Text()); u != "" {
				found <- u
				break
			}
		}
		io.Copy(io.Discard, stderr)
	}()
	select {
	case u := <-found:
		return u
	case <-time.After(time.Minute):
		t.Fatal("the server logged no URL within a minute")
	}
	return ""
}

func connectSDK(ctx context.Context, t *testing.T, tr mcp.Transport, version string) *mcp.ClientSession {
	t.Helper()
	client := mcp.NewClient(&mcp.Implementation{Name: "external-module-test", Version: "1.0.0"}, nil)
	s, err := client.Connect(ctx, tr, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatalf("connect (%s): %v", version, err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func textOf(content []mcp.Content) string {
	var b strings.Builder
	for _, c := range content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// assertPublicImports fails if any Go file of the module imports an
// internal package of mcpgen: the build would refuse it too, but this says
// which file.
func assertPublicImports(t *testing.T, dir string) {
	t.Helper()
	n := 0
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		n++
		if strings.Contains(string(b), `"github.com/mcpgen/mcpgen/internal`) {
			t.Errorf("%s imports an internal package of mcpgen", p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Fatalf("no Go files under %s", dir)
	}
}

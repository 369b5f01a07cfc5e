package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
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

	"github.com/mcpgen/mcpgen/internal/testutil/serverproc"
)

// These tests use mcpgen as a team outside this repository would: in a
// module of their own that requires github.com/mcpgen/mcpgen, replaced onto
// this checkout (the module is not fetched from a proxy here), with
// `go tool mcpgen`. TestExternalQuickstart runs the README's quickstart for
// a clone as a user runs it, with the machine's Go environment (module
// proxy and checksum database); TestExternalModule runs offline, from the
// module cache.

// repoRoot is the root of the mcpgen module this test belongs to.
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("no go.mod at %s: %v", root, err)
	}
	return root
}

// checkout is repoRoot, with the module cache holding every go.mod of the
// module's whole graph, for the offline tests: an external module's graph
// is not pruned as this repository's is, and needs go.mod files (older
// versions) that building this repository does not fetch; `go mod graph`
// fetches them, once, with the usual proxy.
func checkout(t *testing.T) string {
	t.Helper()
	root := repoRoot(t)
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

// userEnv is the environment of a user's shell: this process's, without
// the go flags and workspace a test run may have been given and without
// the variables this package's tests use.
func userEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		switch k, _, _ := strings.Cut(kv, "="); k {
		case "GOFLAGS", "GOWORK", "MCPGEN", "MCPGEN_TEST_RUN_MAIN":
			continue
		}
		env = append(env, kv)
	}
	return env
}

// offlineEnv is the environment of the go commands run in an external
// module by the offline tests: no proxy (mcpgen itself is replaced onto
// the checkout), no checksum database, no workspace, no inherited -mod
// flag.
func offlineEnv() []string {
	return append(userEnv(), "GOPROXY=off", "GOSUMDB=off", "GOWORK=off", "GOFLAGS=")
}

func sh(t *testing.T, dir, script string, env []string) string {
	t.Helper()
	cmd := exec.Command("bash", "-euo", "pipefail", "-c", script)
	cmd.Dir = dir
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("in %s: %s\n%v\n%s", dir, script, err, out)
	}
	return string(out)
}

// readmeBlock returns the lines of the ```sh block that follows the
// comment <!-- quickstart: name --> in the README, as written.
func readmeBlock(t *testing.T, root, name string) []string {
	t.Helper()
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	marker := "<!-- quickstart: " + name + " -->\n"
	_, after, ok := strings.Cut(string(readme), marker)
	if !ok {
		t.Fatalf("README.md has no %q line before its %s quickstart block", strings.TrimSpace(marker), name)
	}
	block, ok := strings.CutPrefix(after, "```sh\n")
	if !ok {
		t.Fatalf("README.md: the line after %q does not open a ```sh block", strings.TrimSpace(marker))
	}
	block, _, ok = strings.Cut(block, "```")
	if !ok {
		t.Fatalf("README.md: the %s quickstart block is not closed", name)
	}
	lines := strings.Split(strings.TrimRight(block, "\n"), "\n")
	if len(lines) < 3 {
		t.Fatalf("README.md: the %s quickstart block has %d lines: %q", name, len(lines), lines)
	}
	return lines
}

// cloneVar matches the clone block's first line, which sets the path of
// the clone.
var cloneVar = regexp.MustCompile(`^MCPGEN=\S+\s*(#.*)?$`)

// TestExternalQuickstart runs the README's quickstart for a clone of this
// repository: the block after <!-- quickstart: clone --> is run by bash as
// written, in an empty directory, with the machine's Go environment
// (userEnv: the module proxy fetches mcpgen's dependencies unless the
// module cache holds them already), except that its first line,
// MCPGEN=..., names this checkout. Every line but the last runs as one
// script, which fails at the first failing command; the last line, which
// serves the scaffolded server on stdio, runs in the module the script
// made, and the official Go SDK client calls its tool. The published
// block, which cannot run here, must be the clone block without the lines
// that point at the clone.
func TestExternalQuickstart(t *testing.T) {
	if testing.Short() {
		t.Skip("builds an external module; skipped with -short")
	}
	root := repoRoot(t)
	clone := readmeBlock(t, root, "clone")
	published := readmeBlock(t, root, "published")

	var common, fromClone, fromPublished []string
	for _, l := range clone {
		if cloneVar.MatchString(l) || strings.HasPrefix(l, "go mod edit ") || l == "go mod tidy" {
			fromClone = append(fromClone, l)
			continue
		}
		common = append(common, l)
	}
	var rest []string
	for _, l := range published {
		if strings.HasPrefix(l, "go get -tool ") {
			fromPublished = append(fromPublished, l)
			continue
		}
		rest = append(rest, l)
	}
	if strings.Join(rest, "\n") != strings.Join(common, "\n") || len(fromPublished) != 1 {
		t.Errorf("README.md: the published quickstart must be the clone quickstart with its lines %q replaced by one `go get -tool` line\npublished:\n%s\nclone:\n%s",
			fromClone, strings.Join(published, "\n"), strings.Join(clone, "\n"))
	}

	if !cloneVar.MatchString(clone[0]) {
		t.Fatalf("README.md: the clone quickstart's first line is %q; it must set MCPGEN=/path/to/the/clone, which this test points at the checkout", clone[0])
	}
	script := append([]string{"MCPGEN=" + shellQuote(root)}, clone[1:len(clone)-1]...)
	dir := t.TempDir()
	cmd := exec.Command("bash", "-euo", "pipefail", "-c", strings.Join(script, "\n"))
	cmd.Dir = dir
	cmd.Env = userEnv()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the README's clone quickstart failed (%v); it ran, in an empty directory, with the machine's Go environment (the module proxy must be reachable unless the module cache holds mcpgen's dependencies):\n%s\n\noutput:\n%s",
			err, strings.Join(script, "\n"), out)
	}
	moduleDir := onlyModule(t, dir)
	assertPublicImports(t, moduleDir)

	serve := exec.Command("bash", "-c", clone[len(clone)-1])
	serve.Dir = moduleDir
	serve.Env = userEnv()
	var stderr lockedBuffer
	serve.Stderr = &stderr
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("stderr of %q:\n%s", clone[len(clone)-1], stderr.String())
		}
	})
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

// onlyModule returns the one directory under dir, or dir itself, that
// holds a go.mod: the module the quickstart made.
func onlyModule(t *testing.T, dir string) string {
	t.Helper()
	var found []string
	for _, pattern := range []string{"go.mod", "*/go.mod"} {
		m, err := filepath.Glob(filepath.Join(dir, pattern))
		if err != nil {
			t.Fatal(err)
		}
		found = append(found, m...)
	}
	if len(found) != 1 {
		t.Fatalf("the quickstart made %d modules (%q), want one", len(found), found)
	}
	return filepath.Dir(found[0])
}

// lockedBuffer collects a process's stderr while the test reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// shellQuote quotes s as one bash word.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
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
	sh(t, dir, `go mod edit -replace github.com/mcpgen/mcpgen=`+shellQuote(root)+`
go get -tool github.com/mcpgen/mcpgen/cmd/mcpgen
go generate ./...
go build ./...
go vet ./...
go tool mcpgen -check
go build -o notes-server ./cmd/notes`, offlineEnv())
	assertPublicImports(t, dir)
	bin := filepath.Join(dir, "notes-server")

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	for _, version := range []string{"2025-11-25", "2026-07-28"} {
		t.Run("stdio/"+version, func(t *testing.T) {
			exerciseNotes(ctx, t, connectSDK(ctx, t, &mcp.CommandTransport{Command: exec.Command(bin)}, version))
		})
	}
	endpoint := serverproc.HTTP(ctx, t, bin, "--http", "127.0.0.1:0")
	for _, version := range []string{"2025-11-25", "2026-07-28"} {
		t.Run("http/"+version, func(t *testing.T) {
			tr := &mcp.StreamableClientTransport{Endpoint: endpoint, MaxRetries: -1}
			exerciseNotes(ctx, t, connectSDK(ctx, t, tr, version))
		})
	}
	t.Run("typed-client", func(t *testing.T) { typedCaller(t, root, dir, bin, endpoint) })
}

// typedCaller builds a second module, testdata/caller, that imports only
// the notes module's generated typed client and github.com/mcpgen/mcpgen,
// and runs it against the notes server over stdio and HTTP in both eras;
// it must link nothing else of the notes module. Then it changes the type
// of the component's Saved.Count field, regenerates the notes module, and
// expects the caller to stop compiling with an error naming the field.
func typedCaller(t *testing.T, root, notesDir, bin, endpoint string) {
	caller := t.TempDir()
	if err := os.CopyFS(caller, os.DirFS("testdata/caller")); err != nil {
		t.Fatal(err)
	}
	sh(t, caller, `go mod edit -replace example.com/notes=`+shellQuote(notesDir)+` -replace github.com/mcpgen/mcpgen=`+shellQuote(root)+`
cp `+shellQuote(filepath.Join(notesDir, "go.sum"))+` go.sum
go mod tidy -e 2>/dev/null # the modules of its dependencies' tests are not in the offline cache
go vet ./...
go build -o caller .`, offlineEnv())
	deps := sh(t, caller, `go list -deps .`, offlineEnv())
	for _, p := range strings.Fields(deps) {
		if strings.HasPrefix(p, "example.com/notes/") && p != "example.com/notes/generated/notes/notesclient" {
			t.Errorf("the caller links %s; a program importing the typed client must link nothing else of the server's module", p)
		}
	}
	if !strings.Contains(deps, "example.com/notes/generated/notes/notesclient") {
		t.Fatalf("the caller does not link the typed client:\n%s", deps)
	}

	for _, version := range []string{"2025-11-25", "default"} {
		for _, tr := range []struct{ name, arg string }{{"stdio", bin}, {"http", endpoint}} {
			t.Run(tr.name+"/"+version, func(t *testing.T) {
				cmd := exec.Command(filepath.Join(caller, "caller"), version, tr.name, tr.arg)
				var stderr bytes.Buffer
				cmd.Stderr = &stderr
				out, err := cmd.Output()
				if err != nil {
					t.Fatalf("caller %s %s: %v\n%s\nstderr:\n%s", version, tr.name, err, out, stderr.String())
				}
				protocol := version
				if version == "default" {
					protocol = "2026-07-28"
				}
				want := "protocol " + protocol + "\n" +
					"note \"eggs, flour\"\n" +
					"prompt: 1 message(s), mentions the note: true\n" +
					"bad id refused: true\n"
				got := regexp.MustCompile(`(?m)^saved groceries, [0-9]+ note\(s\)\n`).ReplaceAllString(string(out), "")
				if got != want || !strings.Contains(string(out), "saved groceries, ") {
					t.Errorf("caller %s %s printed:\n%s\nwant (with a saved line):\n%s", version, tr.name, out, want)
				}
			})
		}
	}

	// The compile-time check: Saved.Count becomes an int64, the notes
	// module is regenerated, and the caller, which reads it as an int, no
	// longer compiles.
	src := filepath.Join(notesDir, "components", "notes", "notes.go")
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	changed := strings.Replace(string(b), "Count int `json:\"count\"`", "Count int64 `json:\"count\"`", 1)
	changed = strings.Replace(changed, "Count: len(s.notes)", "Count: int64(len(s.notes))", 1)
	if changed == string(b) {
		t.Fatal("components/notes/notes.go no longer declares Count int `json:\"count\"` in Saved; update the test")
	}
	if err := os.WriteFile(src, []byte(changed), 0o644); err != nil {
		t.Fatal(err)
	}
	sh(t, notesDir, "go generate ./...\ngo build ./...", offlineEnv())
	cmd := exec.Command("go", "build", "-o", os.DevNull, ".")
	cmd.Dir = caller
	cmd.Env = offlineEnv()
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatal("the caller still compiles after Saved.Count changed type and the notes module was regenerated")
	}
	if !regexp.MustCompile(`main\.go:[0-9]+:[0-9]+: .*saved\.Count.*int64`).Match(out) {
		t.Errorf("the caller's compile error does not name the field Count and its new type:\n%s", out)
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

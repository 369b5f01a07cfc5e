package mcpgen_test

import (
	"context"
	"errors"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen"
	"github.com/mcpgen/mcpgen/generated/everything"
)

// clientTransports builds each kind of transport to the everything
// server: in memory, a stdio child process, and Streamable HTTP.
func clientTransports(t *testing.T) map[string]func() mcpgen.ClientTransport {
	t.Helper()
	srv := everything.New(mcpgen.Options{Tasks: true})
	hs := httptest.NewServer(mcpgen.HTTPHandler(srv, mcpgen.HTTPOptions{}))
	t.Cleanup(func() {
		hs.Close()
		srv.Close()
	})
	ts := map[string]func() mcpgen.ClientTransport{
		"memory": func() mcpgen.ClientTransport { return mcpgen.InMemoryTransport(srv) },
		"http":   func() mcpgen.ClientTransport { return mcpgen.HTTPTransport(hs.URL) },
	}
	if !testing.Short() {
		bin := everythingBinary(t)
		ts["stdio"] = func() mcpgen.ClientTransport { return mcpgen.CommandTransport(bin) }
	}
	return ts
}

var (
	buildOnce sync.Once
	buildBin  string
	buildErr  error
)

// everythingBinary builds cmd/mcp-everything once per test run.
func everythingBinary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "mcpgen-client-test")
		if err != nil {
			buildErr = err
			return
		}
		buildBin = filepath.Join(dir, "mcp-everything")
		out, err := exec.Command("go", "build", "-o", buildBin, "./cmd/mcp-everything").CombinedOutput()
		if err != nil {
			buildErr = errors.New(string(out))
		}
	})
	if buildErr != nil {
		t.Fatalf("build mcp-everything: %v", buildErr)
	}
	return buildBin
}

// forEachClient runs f with a client of every transport in both eras.
func forEachClient(t *testing.T, opts mcpgen.ClientOptions, f func(t *testing.T, c *mcpgen.Client)) {
	ts := clientTransports(t)
	for _, name := range []string{"memory", "stdio", "http"} {
		mk, ok := ts[name]
		if !ok {
			continue
		}
		for _, version := range []string{"", "2025-11-25"} {
			era := "2026-07-28"
			if version != "" {
				era = version
			}
			t.Run(name+"/"+era, func(t *testing.T) {
				ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
				defer cancel()
				o := opts
				o.ProtocolVersion = version
				c, err := mcpgen.Connect(ctx, mk(), o)
				if err != nil {
					t.Fatalf("connect: %v", err)
				}
				defer func() {
					if err := c.Close(); err != nil {
						t.Errorf("close: %v", err)
					}
				}()
				if got := c.ProtocolVersion(); got != era {
					t.Errorf("protocol version %q, want %q", got, era)
				}
				f(t, c)
			})
		}
	}
}

func TestClientBasics(t *testing.T) {
	forEachClient(t, mcpgen.ClientOptions{}, func(t *testing.T, c *mcpgen.Client) {
		ctx := context.Background()
		if c.ServerInfo().Name != "everything" {
			t.Errorf("server info %+v", c.ServerInfo())
		}
		if err := c.Ping(ctx); err != nil {
			t.Errorf("ping: %v", err)
		}
		tools, err := c.ListTools(ctx)
		if err != nil {
			t.Fatalf("list tools: %v", err)
		}
		if !slices.ContainsFunc(tools, func(x mcpgen.ToolInfo) bool { return x.Name == "test_simple_text" }) {
			t.Errorf("tools lack test_simple_text: %d tools", len(tools))
		}
		res, err := c.CallTool(ctx, "test_simple_text", nil)
		if err != nil || len(res.Content) == 0 || res.Content[0].Text == "" {
			t.Fatalf("call: %+v, %v", res, err)
		}
		text, err := mcpgen.CallToolAs[string](ctx, c, "test_simple_text", nil)
		if err != nil || text != res.Content[0].Text {
			t.Errorf("CallToolAs[string] = %q, %v", text, err)
		}

		res, err = c.CallTool(ctx, "test_error_handling", nil)
		var te *mcpgen.ToolCallError
		if !errors.As(err, &te) || res == nil || !res.IsError || te.Tool != "test_error_handling" {
			t.Errorf("error tool: %+v, %v", res, err)
		}
		_, err = c.CallTool(ctx, "no_such_tool", nil)
		var pe *mcpgen.ProtocolError
		if !errors.As(err, &pe) || errors.As(err, &te) {
			t.Errorf("unknown tool: %v (%T)", err, err)
		}

		rs, err := c.ListResources(ctx)
		if err != nil || len(rs) == 0 {
			t.Fatalf("list resources: %d, %v", len(rs), err)
		}
		rr, err := c.ReadResource(ctx, "test://static-text")
		if err != nil || len(rr.Contents) != 1 || rr.Contents[0].Text == nil {
			t.Errorf("read: %+v, %v", rr, err)
		}
		tmpl, err := c.ListResourceTemplates(ctx)
		if err != nil || len(tmpl) == 0 {
			t.Errorf("templates: %d, %v", len(tmpl), err)
		}
		ps, err := c.ListPrompts(ctx)
		if err != nil || len(ps) == 0 {
			t.Fatalf("prompts: %d, %v", len(ps), err)
		}
		pr, err := c.GetPrompt(ctx, "test_prompt_with_arguments", map[string]string{"arg1": "a", "arg2": "b"})
		if err != nil || len(pr.Messages) == 0 || !strings.Contains(pr.Messages[0].Content.Text, "a") {
			t.Errorf("prompt: %+v, %v", pr, err)
		}
	})
}

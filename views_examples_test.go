package mcpgen_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen"
	"github.com/mcpgen/mcpgen/components/memory/memstore"
	"github.com/mcpgen/mcpgen/generated/everything"
	"github.com/mcpgen/mcpgen/generated/everything/everythingclient"
	"github.com/mcpgen/mcpgen/generated/memory"
	"github.com/mcpgen/mcpgen/generated/memory/memoryclient"
)

// TestEverythingView drives mcp-everything's view (MCP Apps) through its
// typed client, in both eras: a client that shows views reads the about
// view, sees about linked to it and calls app_greet, the tool only the
// view calls; any other client is told of neither, and both pass
// CheckSurface. ToolUI gives the links the client was generated against.
func TestEverythingView(t *testing.T) {
	html, err := os.ReadFile("components/everything/ui/about.html")
	if err != nil {
		t.Fatal(err)
	}
	if u, ok := everythingclient.ToolUI("app_greet"); !ok || u.ResourceURI != "ui://everything/about.html" || !u.AppOnly() {
		t.Errorf("ToolUI(app_greet) = %+v, %v", u, ok)
	}
	if _, ok := everythingclient.ToolUI("echo"); ok {
		t.Error("ToolUI(echo) has a link")
	}
	for _, version := range []string{"", "2025-11-25"} {
		for _, shows := range []bool{true, false} {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			srv := everything.New(mcpgen.Options{})
			defer srv.Close()
			conn, err := mcpgen.Connect(ctx, mcpgen.InMemoryTransport(srv), mcpgen.ClientOptions{ProtocolVersion: version, Views: shows})
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			c := everythingclient.New(conn)
			if err := c.CheckSurface(ctx); err != nil {
				t.Errorf("%q views=%v: CheckSurface: %v", version, shows, err)
			}
			if !strings.Contains(string(conn.ServerCapabilities()), `"io.modelcontextprotocol/ui":{}`) {
				t.Errorf("%q: the capabilities do not declare the extension: %s", version, conn.ServerCapabilities())
			}
			greeting, err := c.AppGreet(ctx, everythingclient.AppGreet{Name: "Ada"})
			text, readErr := mcpgen.ReadResourceAs[string](ctx, conn, "ui://everything/about.html")
			var pe *mcpgen.ProtocolError
			if shows {
				if err != nil || greeting.Greeting != "Hello, Ada, from the about view!" {
					t.Errorf("%q: AppGreet = %+v, %v", version, greeting, err)
				}
				if readErr != nil || text != string(html) {
					t.Errorf("%q: reading the view: %v (%d bytes, want the %d of ui/about.html)", version, readErr, len(text), len(html))
				}
				continue
			}
			if !errors.As(err, &pe) || !strings.Contains(pe.Message, `unknown tool "app_greet"`) {
				t.Errorf("%q, no views: AppGreet = %+v, %v; want unknown tool", version, greeting, err)
			}
			if !errors.As(readErr, &pe) {
				t.Errorf("%q, no views: reading the view gave %v, want not found", version, readErr)
			}
		}
	}
}

// TestEverythingViewBridge runs the script of mcp-everything's view under
// Node (testdata/viewhost.js stands in for the browser frame) and plays
// the host between it and the real server, as a host that shows views
// does: the ui/initialize handshake, the about tool's result delivered
// to the view, and the view's tools/call of app_greet forwarded to the
// server. It checks the hand-written bridge speaks the protocol; a real
// browser is another test's business.
func TestEverythingViewBridge(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	srv := everything.New(mcpgen.Options{})
	defer srv.Close()
	conn, err := mcpgen.Connect(ctx, mcpgen.InMemoryTransport(srv), mcpgen.ClientOptions{Views: true})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()

	cmd := exec.CommandContext(ctx, node, "testdata/viewhost.js", "components/everything/ui/about.html")
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		stdin.Close()
		if err := cmd.Wait(); err != nil {
			t.Errorf("node: %v\n%s", err, stderr.String())
		}
	}()
	lines := bufio.NewScanner(stdout)
	type message struct {
		ID     json.RawMessage `json:"id,omitempty"`
		Method string          `json:"method,omitempty"`
		Params json.RawMessage `json:"params,omitempty"`
		Result json.RawMessage `json:"result,omitempty"`
	}
	next := func() (m message, text map[string]string) {
		t.Helper()
		if !lines.Scan() {
			t.Fatalf("the view said nothing more (%v)\n%s", lines.Err(), stderr.String())
		}
		var line struct {
			Posted *message          `json:"posted"`
			Text   map[string]string `json:"text"`
		}
		if err := json.Unmarshal(lines.Bytes(), &line); err != nil {
			t.Fatalf("%s: %v", lines.Text(), err)
		}
		if line.Posted != nil {
			return *line.Posted, nil
		}
		return message{}, line.Text
	}
	send := func(v any) {
		t.Helper()
		b, _ := json.Marshal(v)
		if _, err := stdin.Write(append(b, '\n')); err != nil {
			t.Fatal(err)
		}
	}
	dump := func() map[string]string {
		t.Helper()
		send(map[string]any{"dump": true})
		_, text := next()
		return text
	}

	init, _ := next()
	var ip struct {
		ProtocolVersion string         `json:"protocolVersion"`
		AppInfo         map[string]any `json:"appInfo"`
	}
	_ = json.Unmarshal(init.Params, &ip)
	if init.Method != "ui/initialize" || ip.ProtocolVersion != "2026-01-26" || ip.AppInfo["name"] == nil {
		t.Fatalf("first message %+v, want ui/initialize", init)
	}
	send(map[string]any{"deliver": map[string]any{"jsonrpc": "2.0", "id": init.ID, "result": map[string]any{
		"protocolVersion": "2026-01-26", "hostInfo": map[string]any{"name": "test-host", "version": "1"},
		"hostCapabilities": map[string]any{"serverTools": map[string]any{}}, "hostContext": map[string]any{"theme": "light"},
	}}})
	if m, _ := next(); m.Method != "ui/notifications/initialized" {
		t.Fatalf("after the handshake: %+v, want ui/notifications/initialized", m)
	}
	if m, _ := next(); m.Method != "ui/notifications/size-changed" || !strings.Contains(string(m.Params), `"height":140`) {
		t.Errorf("then %+v, want its size", m)
	}

	about, err := conn.CallTool(ctx, "about", map[string]any{})
	if err != nil {
		t.Fatal(err)
	}
	send(map[string]any{"deliver": map[string]any{"jsonrpc": "2.0", "method": "ui/notifications/tool-result", "params": about}})
	if got := dump()["about"]; !strings.HasPrefix(got, "everything: the fixture server") {
		t.Errorf("the view shows %q, want the about tool's text", got)
	}

	send(map[string]any{"submit": "Ada"})
	call, _ := next()
	var cp struct {
		Name      string         `json:"name"`
		Arguments map[string]any `json:"arguments"`
	}
	_ = json.Unmarshal(call.Params, &cp)
	if call.Method != "tools/call" || cp.Name != "app_greet" || cp.Arguments["name"] != "Ada" {
		t.Fatalf("the form sent %+v, want tools/call of app_greet", call)
	}
	res, err := conn.CallTool(ctx, cp.Name, cp.Arguments)
	if err != nil {
		t.Fatal(err)
	}
	send(map[string]any{"deliver": map[string]any{"jsonrpc": "2.0", "id": call.ID, "result": res}})
	if got := dump()["greeting"]; got != "Hello, Ada, from the about view!" {
		t.Errorf("the view shows %q, want app_greet's greeting", got)
	}

	send(map[string]any{"deliver": map[string]any{"jsonrpc": "2.0", "id": 99, "method": "ui/resource-teardown", "params": map[string]any{}}})
	if m, _ := next(); string(m.ID) != "99" || string(m.Result) != "{}" {
		t.Errorf("teardown answered %+v, want an empty result", m)
	}
}

// TestMemoryExplorerView: mcp-memory's read_graph, search_nodes and
// open_nodes show their results in the graph explorer for hosts, which
// read it from ui://memory/explorer.html; other clients list the tools as
// the reference server does, without _meta.
func TestMemoryExplorerView(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	store, err := memstore.Open(filepath.Join(t.TempDir(), "graph.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	html, err := os.ReadFile("components/memory/ui/explorer.html")
	if err != nil {
		t.Fatal(err)
	}
	for _, shows := range []bool{true, false} {
		srv := memory.New(store, mcpgen.Options{})
		defer srv.Close()
		conn, err := mcpgen.Connect(ctx, mcpgen.InMemoryTransport(srv), mcpgen.ClientOptions{Views: shows})
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		tools, err := conn.ListTools(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var linked []string
		for _, tl := range tools {
			if u, ok := tl.UI(); ok && u.ResourceURI == "ui://memory/explorer.html" {
				linked = append(linked, tl.Name)
			} else if ok || len(tl.Meta) > 0 {
				t.Errorf("views=%v: %s has _meta %s", shows, tl.Name, tl.Meta)
			}
		}
		want := ""
		if shows {
			want = "open_nodes,read_graph,search_nodes"
		}
		if got := strings.Join(linked, ","); got != want {
			t.Errorf("views=%v: tools linked to the explorer: %q, want %q", shows, got, want)
		}
		text, err := mcpgen.ReadResourceAs[string](ctx, conn, "ui://memory/explorer.html")
		if shows && (err != nil || text != string(html)) {
			t.Errorf("reading the explorer: %v", err)
		}
		if !shows && err == nil {
			t.Error("a client that shows no views read the explorer")
		}
	}
	for _, name := range []string{"read_graph", "search_nodes", "open_nodes"} {
		if u, ok := memoryclient.ToolUI(name); !ok || u.ResourceURI != "ui://memory/explorer.html" {
			t.Errorf("memoryclient.ToolUI(%s) = %+v, %v", name, u, ok)
		}
	}
}

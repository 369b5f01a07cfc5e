package main

import (
	"context"
	"encoding/json"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func freeAddr(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// TestEndToEnd drives every kind of component through the official Go SDK
// client, over stdio and over HTTP, as a legacy and as a stateless client.
func TestEndToEnd(t *testing.T) {
	bin := sharedBinary(t)
	for _, transport := range []string{"stdio", "http"} {
		for _, version := range []string{"2025-11-25", ""} {
			name := transport + "/" + map[string]string{"": "2026-07-28"}[version] + version
			t.Run(name, func(t *testing.T) {
				ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
				defer cancel()
				db := filepath.Join(t.TempDir(), "memory.db")
				var tr mcp.Transport
				if transport == "stdio" {
					tr = &mcp.CommandTransport{Command: exec.Command(bin, "--db", db)}
				} else {
					addr := freeAddr(t)
					cmd := exec.Command(bin, "--db", db, "--http", addr)
					cmd.Stderr = os.Stderr
					if err := cmd.Start(); err != nil {
						t.Fatal(err)
					}
					defer func() { cmd.Process.Kill(); cmd.Wait() }()
					waitListening(t, addr)
					tr = &mcp.StreamableClientTransport{Endpoint: "http://" + addr + "/mcp"}
				}
				client := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1.0.0"}, nil)
				s, err := client.Connect(ctx, tr, &mcp.ClientSessionOptions{ProtocolVersion: version})
				if err != nil {
					t.Fatalf("connect: %v", err)
				}
				defer s.Close()
				exercise(ctx, t, s)
			})
		}
	}
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

func call(ctx context.Context, t *testing.T, s *mcp.ClientSession, name string, args any) map[string]any {
	t.Helper()
	res, err := s.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if res.IsError {
		t.Fatalf("%s: tool error %v", name, res.Content[0].(*mcp.TextContent).Text)
	}
	var out map[string]any
	b, _ := json.Marshal(res.StructuredContent)
	json.Unmarshal(b, &out)
	return out
}

func exercise(ctx context.Context, t *testing.T, s *mcp.ClientSession) {
	out := call(ctx, t, s, "create_entities", map[string]any{"entities": []map[string]any{
		{"name": "Alice", "entityType": "person", "observations": []string{"likes Go", "owes TODO: refactor auth"}},
		{"name": "Bob", "entityType": "person", "observations": []string{}},
	}})
	if n := len(out["entities"].([]any)); n != 2 {
		t.Fatalf("create_entities created %d, want 2", n)
	}
	out = call(ctx, t, s, "create_entities", map[string]any{"entities": []map[string]any{{"name": "Alice", "entityType": "person", "observations": []string{}}}})
	if n := len(out["entities"].([]any)); n != 0 {
		t.Fatalf("duplicate entity was created again: %v", out)
	}
	call(ctx, t, s, "create_relations", map[string]any{"relations": []map[string]any{{"from": "Alice", "to": "Bob", "relationType": "knows"}}})
	call(ctx, t, s, "add_observations", map[string]any{"observations": []map[string]any{{"entityName": "Bob", "contents": []string{"writes Rust"}}}})
	res, err := s.CallTool(ctx, &mcp.CallToolParams{Name: "add_observations", Arguments: map[string]any{"observations": []map[string]any{{"entityName": "Nobody", "contents": []string{"x"}}}}})
	if err != nil || !res.IsError {
		t.Fatalf("add_observations on a missing entity: want a tool error, got %v %+v", err, res)
	}
	out = call(ctx, t, s, "search_nodes", map[string]any{"query": "RUST"})
	if ents := out["entities"].([]any); len(ents) != 1 || ents[0].(map[string]any)["name"] != "Bob" {
		t.Fatalf("search_nodes RUST: %v", out)
	}
	if rels := out["relations"].([]any); len(rels) != 1 {
		t.Fatalf("search_nodes must return relations touching a match: %v", out)
	}
	out = call(ctx, t, s, "open_nodes", map[string]any{"names": []string{"Alice"}})
	if len(out["entities"].([]any)) != 1 || len(out["relations"].([]any)) != 1 {
		t.Fatalf("open_nodes: %v", out)
	}
	task := call(ctx, t, s, "create_task", map[string]any{"title": "pay down auth debt", "entities": []string{"Alice"}})
	id := task["task"].(map[string]any)["id"]
	call(ctx, t, s, "update_task", map[string]any{"id": id, "status": "in_progress"})

	read := func(uri string) string {
		r, err := s.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
		if err != nil {
			t.Fatalf("read %s: %v", uri, err)
		}
		return r.Contents[0].Text
	}
	if g := read("memory://knowledge-graph"); !strings.Contains(g, "writes Rust") {
		t.Fatalf("knowledge-graph: %s", g)
	}
	if a := read("memory://tasks/active"); !strings.Contains(a, "in_progress") {
		t.Fatalf("tasks/active: %s", a)
	}
	if e := read("memory://entities/Alice"); !strings.Contains(e, "likes Go") {
		t.Fatalf("entities/Alice: %s", e)
	}
	if _, err := s.ReadResource(ctx, &mcp.ReadResourceParams{URI: "memory://entities/Nobody"}); err == nil {
		t.Fatalf("reading a missing entity must fail")
	}
	if d := read("memory://changes/0"); !strings.Contains(d, "entity_created") {
		t.Fatalf("changes/0: %s", d)
	}
	read("memory://session/delta")

	p, err := s.GetPrompt(ctx, &mcp.GetPromptParams{Name: "analyze_tech_debt", Arguments: map[string]string{"entity": "Alice"}})
	if err != nil || !strings.Contains(p.Messages[0].Content.(*mcp.TextContent).Text, "refactor auth") {
		t.Fatalf("analyze_tech_debt: %v %+v", err, p)
	}
	p, err = s.GetPrompt(ctx, &mcp.GetPromptParams{Name: "handoff_routine"})
	if err != nil || !strings.Contains(p.Messages[0].Content.(*mcp.TextContent).Text, "pay down auth debt") {
		t.Fatalf("handoff_routine: %v %+v", err, p)
	}
	c, err := s.Complete(ctx, &mcp.CompleteParams{Ref: &mcp.CompleteReference{Type: "ref/resource", URI: "memory://entities/{name}"}, Argument: mcp.CompleteParamsArgument{Name: "name", Value: "Al"}})
	if err != nil || len(c.Completion.Values) != 1 || c.Completion.Values[0] != "Alice" {
		t.Fatalf("complete entity name: %v %+v", err, c)
	}
	call(ctx, t, s, "delete_entities", map[string]any{"entityNames": []string{"Bob"}})
	out = call(ctx, t, s, "read_graph", map[string]any{})
	if len(out["entities"].([]any)) != 1 || len(out["relations"].([]any)) != 0 {
		t.Fatalf("delete_entities must remove relations too: %v", out)
	}
}

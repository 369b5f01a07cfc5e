package interop_test

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen"
)

// eras are the revisions each server is reached with: none asked for
// (server/discover first; these servers predate it, so the client falls
// back to initialize with the newest legacy revision), and two legacy
// revisions by name, which go straight to initialize.
var eras = []struct{ ask, want string }{
	{"", "2025-11-25"},
	{"2025-11-25", "2025-11-25"},
	{"2025-06-18", "2025-06-18"},
}

func eraName(ask string) string {
	if ask == "" {
		return "discover-fallback"
	}
	return ask
}

// connect connects through tr asking for revision ask and checks that
// the client settled on want; the client is closed when the test ends.
func connect(t *testing.T, tr mcpgen.ClientTransport, opts mcpgen.ClientOptions, ask, want string) *mcpgen.Client {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	opts.ProtocolVersion = ask
	c, err := mcpgen.Connect(ctx, tr, opts)
	if err != nil {
		t.Fatalf("connect asking for %q: %v", ask, err)
	}
	t.Cleanup(func() {
		if err := c.Close(); err != nil {
			t.Errorf("close: %v", err)
		}
	})
	if got := c.ProtocolVersion(); got != want {
		t.Errorf("protocol version %q, want %q", got, want)
	}
	return c
}

func testContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// toolNames lists the names of tools.
func toolNames(tools []mcpgen.ToolInfo) []string {
	var names []string
	for _, x := range tools {
		names = append(names, x.Name)
	}
	slices.Sort(names)
	return names
}

// text joins the text blocks of content.
func text(content []mcpgen.Content) string {
	var b strings.Builder
	for _, c := range content {
		if c.Type == "text" {
			b.WriteString(c.Text)
		}
	}
	return b.String()
}

// The reference memory server's graph, as its tools return it in
// structuredContent.
type (
	entity struct {
		Name         string   `json:"name"`
		EntityType   string   `json:"entityType"`
		Observations []string `json:"observations"`
	}
	relation struct {
		From         string `json:"from"`
		To           string `json:"to"`
		RelationType string `json:"relationType"`
	}
	graph struct {
		Entities  []entity   `json:"entities"`
		Relations []relation `json:"relations"`
	}
)

// TestServerMemory drives @modelcontextprotocol/server-memory over stdio
// (node as the CommandTransport's program): it writes a small graph and
// reads it back through every read tool and the knowledge-graph resource.
func TestServerMemory(t *testing.T) {
	tl := needTools(t)
	ada := entity{"Ada Lovelace", "person", []string{"wrote the first published program"}}
	engine := entity{"Analytical Engine", "machine", []string{"designed by Charles Babbage"}}
	link := relation{"Ada Lovelace", "Analytical Engine", "programmed"}
	for _, era := range eras {
		t.Run(eraName(era.ask), func(t *testing.T) {
			// Each era writes its own graph file.
			t.Setenv("MEMORY_FILE_PATH", filepath.Join(t.TempDir(), "memory.jsonl"))
			c := connect(t, mcpgen.CommandTransport(tl.node, tl.memory), mcpgen.ClientOptions{}, era.ask, era.want)
			ctx := testContext(t)
			if got := c.ServerInfo().Name; got != "memory-server" {
				t.Errorf("server name %q", got)
			}
			if err := c.Ping(ctx); err != nil {
				t.Errorf("ping: %v", err)
			}

			tools, err := c.ListTools(ctx)
			if err != nil {
				t.Fatalf("list tools: %v", err)
			}
			want := []string{"add_observations", "create_entities", "create_relations", "delete_entities", "delete_observations", "delete_relations", "open_nodes", "read_graph", "search_nodes"}
			if got := toolNames(tools); !reflect.DeepEqual(got, want) {
				t.Errorf("tools %v, want %v", got, want)
			}

			created, err := mcpgen.CallToolAs[graph](ctx, c, "create_entities", map[string]any{"entities": []entity{ada, engine}})
			if err != nil {
				t.Fatalf("create_entities: %v", err)
			}
			if !reflect.DeepEqual(created.Entities, []entity{ada, engine}) {
				t.Errorf("create_entities returned %+v", created.Entities)
			}
			// The same names again are not created twice.
			again, err := mcpgen.CallToolAs[graph](ctx, c, "create_entities", map[string]any{"entities": []entity{ada}})
			if err != nil || len(again.Entities) != 0 {
				t.Errorf("create_entities of an existing name: %+v, %v", again, err)
			}
			res, err := c.CallTool(ctx, "create_relations", map[string]any{"relations": []relation{link}})
			if err != nil {
				t.Fatalf("create_relations: %v", err)
			}
			if !strings.Contains(text(res.Content), "programmed") {
				t.Errorf("create_relations text %q", text(res.Content))
			}

			g, err := mcpgen.CallToolAs[graph](ctx, c, "read_graph", nil)
			if err != nil {
				t.Fatalf("read_graph: %v", err)
			}
			if !reflect.DeepEqual(g, graph{[]entity{ada, engine}, []relation{link}}) {
				t.Errorf("read_graph %+v", g)
			}
			// search_nodes matches observations; open_nodes names.
			found, err := mcpgen.CallToolAs[graph](ctx, c, "search_nodes", map[string]string{"query": "published program"})
			if err != nil {
				t.Fatalf("search_nodes: %v", err)
			}
			if len(found.Entities) != 1 || found.Entities[0].Name != ada.Name {
				t.Errorf("search_nodes found %+v", found)
			}
			opened, err := mcpgen.CallToolAs[graph](ctx, c, "open_nodes", map[string][]string{"names": {engine.Name}})
			if err != nil {
				t.Fatalf("open_nodes: %v", err)
			}
			if !reflect.DeepEqual(opened.Entities, []entity{engine}) {
				t.Errorf("open_nodes %+v", opened)
			}
			// The text block holds the same graph as structuredContent.
			asText, err := mcpgen.CallToolAs[string](ctx, c, "read_graph", nil)
			if err != nil {
				t.Fatalf("read_graph as text: %v", err)
			}
			var tg graph
			if err := json.Unmarshal([]byte(asText), &tg); err != nil || !reflect.DeepEqual(tg, g) {
				t.Errorf("read_graph text %q (%v)", asText, err)
			}

			resources, err := c.ListResources(ctx)
			if err != nil {
				t.Fatalf("list resources: %v", err)
			}
			if len(resources) != 1 || resources[0].URI != "memory://knowledge-graph" {
				t.Fatalf("resources %+v", resources)
			}
			rr, err := c.ReadResource(ctx, resources[0].URI)
			if err != nil {
				t.Fatalf("read %s: %v", resources[0].URI, err)
			}
			var rg graph
			if len(rr.Contents) != 1 || rr.Contents[0].Text == nil || json.Unmarshal([]byte(*rr.Contents[0].Text), &rg) != nil || !reflect.DeepEqual(rg, g) {
				t.Errorf("read %s: %+v", resources[0].URI, rr.Contents)
			}

			// Arguments the tool's schema refuses: the SDK answers with
			// an isError result, which the client returns as a
			// *ToolCallError beside the result.
			res, err = c.CallTool(ctx, "create_entities", map[string]any{"entities": "not a list"})
			var te *mcpgen.ToolCallError
			if !errors.As(err, &te) || te.Tool != "create_entities" || res == nil || !res.IsError {
				t.Errorf("create_entities with a bad argument: %+v, %v", res, err)
			}
			// A tool that does not exist: this SDK (1.x) answers with an
			// isError result too, not a JSON-RPC error.
			_, err = c.CallTool(ctx, "no_such_tool", nil)
			if !errors.As(err, &te) || !strings.Contains(err.Error(), "no_such_tool not found") {
				t.Errorf("unknown tool: %v", err)
			}
			// The server has no prompts: method not found.
			_, err = c.ListPrompts(ctx)
			var pe *mcpgen.ProtocolError
			if !errors.As(err, &pe) || pe.Code != -32601 {
				t.Errorf("list prompts of a server without prompts: %v, want a -32601 *ProtocolError", err)
			}
		})
	}
}

package interop_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	neturl "net/url"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
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
	t.Parallel()
	ada := entity{"Ada Lovelace", "person", []string{"wrote the first published program"}}
	engine := entity{"Analytical Engine", "machine", []string{"designed by Charles Babbage"}}
	link := relation{"Ada Lovelace", "Analytical Engine", "programmed"}
	for _, era := range eras {
		t.Run(eraName(era.ask), func(t *testing.T) {
			t.Parallel()
			// Each era writes its own graph file, named in the server's
			// environment (env(1): CommandTransport passes ours on, and
			// t.Setenv would keep the subtests from running in parallel).
			file := "MEMORY_FILE_PATH=" + filepath.Join(t.TempDir(), "memory.jsonl")
			c := connect(t, mcpgen.CommandTransport("env", file, tl.node, tl.memory), mcpgen.ClientOptions{}, era.ask, era.want)
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

// TestTypeScriptProgress drives the TypeScript SDK's progressExample.js
// over stdio: its count tool reports progress per step, and stops when
// the call is cancelled.
func TestTypeScriptProgress(t *testing.T) {
	tl := needTools(t)
	t.Parallel()
	js := filepath.Join(tl.examples, "progressExample.js")
	for _, era := range eras {
		t.Run(eraName(era.ask), func(t *testing.T) {
			t.Parallel()
			c := connect(t, mcpgen.CommandTransport(tl.node, js), mcpgen.ClientOptions{}, era.ask, era.want)
			ctx := testContext(t)
			if got := c.ServerInfo().Name; got != "progress-example" {
				t.Errorf("server name %q", got)
			}
			tools, err := c.ListTools(ctx)
			if err != nil {
				t.Fatalf("list tools: %v", err)
			}
			if got := toolNames(tools); !reflect.DeepEqual(got, []string{"count"}) {
				t.Errorf("tools %v", got)
			}

			var mu sync.Mutex
			var got []mcpgen.Progress
			pctx := mcpgen.WithProgress(ctx, func(p mcpgen.Progress) {
				mu.Lock()
				got = append(got, p)
				mu.Unlock()
			})
			res, err := c.CallTool(pctx, "count", map[string]int{"n": 3})
			if err != nil {
				t.Fatalf("count: %v", err)
			}
			if s := text(res.Content); s != "Counted to 3" {
				t.Errorf("count answered %q", s)
			}
			mu.Lock()
			var want []mcpgen.Progress
			for i := 1; i <= 3; i++ {
				want = append(want, mcpgen.Progress{Progress: float64(i), Total: 3, Message: fmt.Sprintf("Counting: %d/3", i)})
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("progress %+v, want %+v", got, want)
			}
			mu.Unlock()

			// Cancelled after a few of its 100 ms steps: the call returns
			// the context's error, and the connection still serves.
			cctx, cancel := context.WithTimeout(ctx, 250*time.Millisecond)
			defer cancel()
			start := time.Now()
			_, err = c.CallTool(cctx, "count", map[string]int{"n": 100})
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("cancelled count: %v, want context.DeadlineExceeded", err)
			}
			if d := time.Since(start); d > 2*time.Second {
				t.Errorf("cancelled count returned after %s", d)
			}
			res, err = c.CallTool(ctx, "count", map[string]int{"n": 1})
			if err != nil || text(res.Content) != "Counted to 1" {
				t.Errorf("count after a cancelled call: %+v, %v", res, err)
			}

			// Out of the schema's range: an isError result.
			_, err = c.CallTool(ctx, "count", map[string]int{"n": 0})
			var te *mcpgen.ToolCallError
			if !errors.As(err, &te) {
				t.Errorf("count with n=0: %v, want a *ToolCallError", err)
			}
		})
	}
}

// exampleHTTP starts one of the TypeScript SDK's example Streamable HTTP
// servers (an Express app serving /mcp) on a free port and returns its
// URL; the server is killed when the test ends. Those that listen on the
// fixed port 3000 are moved to the free one by testdata/port.mjs.
func exampleHTTP(t *testing.T, tl nodeTools, script string) string {
	t.Helper()
	var lastErr error
	for range 3 { // the free port may be taken before node binds it
		port, err := freePort()
		if err != nil {
			t.Fatal(err)
		}
		url, err := startExampleHTTP(t, tl, script, port)
		if err == nil {
			return url
		}
		lastErr = err
	}
	t.Fatalf("%s: %v", script, lastErr)
	return ""
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func startExampleHTTP(t *testing.T, tl nodeTools, script string, port int) (string, error) {
	preload, err := filepath.Abs(filepath.Join("testdata", "port.mjs"))
	if err != nil {
		return "", err
	}
	cmd := exec.Command(tl.node, "--import", "file://"+preload, filepath.Join(tl.examples, script))
	cmd.Env = append(os.Environ(), "MCP_PORT="+strconv.Itoa(port), "MCP_AUTH_PORT=0")
	out, err := cmd.StdoutPipe()
	if err != nil {
		return "", err
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		return "", err
	}
	ready := make(chan bool, 2)
	go func() {
		// The examples log every request to stdout: read it all, so
		// that node never blocks on a full pipe.
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			if strings.Contains(sc.Text(), "listening on port") {
				ready <- true
			}
		}
		ready <- false
		io.Copy(io.Discard, out)
	}()
	select {
	case ok := <-ready:
		if ok {
			t.Cleanup(func() {
				cmd.Process.Kill()
				cmd.Wait()
			})
			return fmt.Sprintf("http://127.0.0.1:%d/mcp", port), nil
		}
		cmd.Wait()
		return "", fmt.Errorf("exited before listening: %s", stderr.String())
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
		cmd.Wait()
		return "", fmt.Errorf("not listening after 10 s: %s", stderr.String())
	}
}

// TestTypeScriptHTTP drives the TypeScript SDK's simpleStreamableHttp.js
// over Streamable HTTP (legacy sessions, one per client): tools with real
// arguments, resource links, resources, a prompt, log notifications on
// the session's GET stream, an elicitation the server asks for in the
// middle of a call, and a cancelled call; and a stream cut short, which
// the client resumes (testResume).
func TestTypeScriptHTTP(t *testing.T) {
	tl := needTools(t)
	t.Parallel()
	url := exampleHTTP(t, tl, "simpleStreamableHttp.js")
	t.Run("resume", func(t *testing.T) {
		t.Parallel()
		testResume(t, url)
	})
	for _, era := range eras {
		t.Run(eraName(era.ask), func(t *testing.T) {
			t.Parallel()
			var mu sync.Mutex
			var logs []string
			var elicited []*mcpgen.ElicitRequest
			opts := mcpgen.ClientOptions{
				OnNotification: func(method string, params json.RawMessage) {
					if method != "notifications/message" {
						return
					}
					var m struct{ Data string }
					json.Unmarshal(params, &m)
					mu.Lock()
					logs = append(logs, m.Data)
					mu.Unlock()
				},
				Elicit: func(ctx context.Context, req *mcpgen.ElicitRequest) (*mcpgen.ElicitResult, error) {
					mu.Lock()
					elicited = append(elicited, req)
					mu.Unlock()
					return &mcpgen.ElicitResult{Action: "accept", Content: map[string]any{"name": "Ada", "email": "ada@example.com"}}, nil
				},
			}
			c := connect(t, mcpgen.HTTPTransport(url), opts, era.ask, era.want)
			ctx := testContext(t)
			if got := c.ServerInfo().Name; got != "simple-streamable-http-server" {
				t.Errorf("server name %q", got)
			}
			if err := c.Ping(ctx); err != nil {
				t.Errorf("ping: %v", err)
			}

			tools, err := c.ListTools(ctx)
			if err != nil {
				t.Fatalf("list tools: %v", err)
			}
			for _, name := range []string{"greet", "multi-greet", "collect-user-info", "start-notification-stream", "list-files"} {
				if !slices.Contains(toolNames(tools), name) {
					t.Errorf("tools %v lack %s", toolNames(tools), name)
				}
			}

			greeting, err := mcpgen.CallToolAs[string](ctx, c, "greet", map[string]string{"name": "Ada"})
			if err != nil || greeting != "Hello, Ada!" {
				t.Errorf("greet: %q, %v", greeting, err)
			}
			_, err = c.CallTool(ctx, "greet", map[string]int{"name": 7})
			var te *mcpgen.ToolCallError
			if !errors.As(err, &te) || te.Tool != "greet" {
				t.Errorf("greet with a number: %v, want a *ToolCallError", err)
			}

			res, err := c.CallTool(ctx, "list-files", map[string]bool{"includeDescriptions": true})
			if err != nil {
				t.Fatalf("list-files: %v", err)
			}
			var links []string
			for _, b := range res.Content {
				if b.Type == "resource_link" {
					links = append(links, b.URI)
					if b.Name == "" || b.MimeType != "text/plain" || b.Description == "" {
						t.Errorf("resource link %+v", b)
					}
				}
			}
			wantLinks := []string{"https://example.com/greetings/default", "file:///example/file1.txt", "file:///example/file2.txt"}
			if !reflect.DeepEqual(links, wantLinks) {
				t.Errorf("list-files links %v, want %v", links, wantLinks)
			}

			resources, err := c.ListResources(ctx)
			if err != nil {
				t.Fatalf("list resources: %v", err)
			}
			var uris []string
			for _, r := range resources {
				uris = append(uris, r.URI)
			}
			for _, u := range wantLinks {
				if !slices.Contains(uris, u) {
					t.Errorf("resources %v lack %s", uris, u)
				}
			}
			for uri, want := range map[string]string{
				"https://example.com/greetings/default": "Hello, world!",
				"file:///example/file1.txt":             "This is the content of file 1",
			} {
				rr, err := c.ReadResource(ctx, uri)
				if err != nil {
					t.Errorf("read %s: %v", uri, err)
					continue
				}
				if len(rr.Contents) != 1 || rr.Contents[0].Text == nil || *rr.Contents[0].Text != want {
					t.Errorf("read %s: %+v", uri, rr.Contents)
				}
			}

			prompts, err := c.ListPrompts(ctx)
			if err != nil {
				t.Fatalf("list prompts: %v", err)
			}
			if !slices.ContainsFunc(prompts, func(p mcpgen.PromptInfo) bool { return p.Name == "greeting-template" }) {
				t.Errorf("prompts %+v lack greeting-template", prompts)
			}
			pr, err := c.GetPrompt(ctx, "greeting-template", map[string]string{"name": "Ada"})
			if err != nil {
				t.Fatalf("get prompt: %v", err)
			}
			if len(pr.Messages) != 1 || pr.Messages[0].Role != "user" || pr.Messages[0].Content.Text != "Please greet Ada in a friendly manner." {
				t.Errorf("greeting-template: %+v", pr.Messages)
			}

			// Log messages the tool sends while it runs.
			s, err := mcpgen.CallToolAs[string](ctx, c, "start-notification-stream", map[string]int{"interval": 10, "count": 3})
			if err != nil || s != "Started sending periodic notifications every 10ms" {
				t.Fatalf("start-notification-stream: %q, %v", s, err)
			}
			waitFor(t, "3 log notifications", func() bool {
				mu.Lock()
				defer mu.Unlock()
				n := 0
				for _, l := range logs {
					if strings.HasPrefix(l, "Periodic notification #") {
						n++
					}
				}
				return n == 3
			})

			// The server asks this client for input in the middle of
			// the call (elicitation/create) and answers with it.
			res, err = c.CallTool(ctx, "collect-user-info", map[string]string{"infoType": "contact"})
			if err != nil {
				t.Fatalf("collect-user-info: %v", err)
			}
			if s := text(res.Content); !strings.HasPrefix(s, "Thank you! Collected contact information:") || !strings.Contains(s, "ada@example.com") {
				t.Errorf("collect-user-info answered %q", s)
			}
			mu.Lock()
			if len(elicited) != 1 || elicited[0].Message != "Please provide your contact information" || !strings.Contains(string(elicited[0].RequestedSchema), `"email"`) {
				t.Errorf("elicitation requests %+v", elicited)
			}
			mu.Unlock()

			// multi-greet takes 2 s: cancelled well before, the call
			// returns the context's error and the session still serves.
			cctx, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
			defer cancel()
			_, err = c.CallTool(cctx, "multi-greet", map[string]string{"name": "Ada"})
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("cancelled multi-greet: %v, want context.DeadlineExceeded", err)
			}
			greeting, err = mcpgen.CallToolAs[string](ctx, c, "greet", map[string]string{"name": "Grace"})
			if err != nil || greeting != "Hello, Grace!" {
				t.Errorf("greet after a cancelled call: %q, %v", greeting, err)
			}

			// Not supported: the 2025-11-25 revision's own tasks
			// (params.task, tasks/result). delay declares
			// execution.taskSupport "required"; the client calls it
			// plainly, as it calls every tool in a legacy revision
			// (it follows tasks of the 2026-07-28 extension only), so
			// the server refuses. When the client learns those tasks,
			// this should become a call that returns "Completed 10ms
			// delay".
			_, err = c.CallTool(ctx, "delay", map[string]int{"duration": 10})
			if !errors.As(err, &te) || !strings.Contains(err.Error(), "requires task augmentation") {
				t.Errorf("delay (taskSupport required): %v, want the server's refusal as a *ToolCallError", err)
			}
		})
	}
}

// TestTypeScriptStateless drives the TypeScript SDK's
// simpleStatelessStreamableHttp.js: a legacy server without sessions (a
// fresh server per POST, no Mcp-Session-Id), which answers the session's
// GET stream and DELETE with 405. The client must connect, call and
// close without error all the same.
func TestTypeScriptStateless(t *testing.T) {
	tl := needTools(t)
	t.Parallel()
	url := exampleHTTP(t, tl, "simpleStatelessStreamableHttp.js")
	for _, era := range eras {
		t.Run(eraName(era.ask), func(t *testing.T) {
			t.Parallel()
			c := connect(t, mcpgen.HTTPTransport(url), mcpgen.ClientOptions{}, era.ask, era.want)
			ctx := testContext(t)
			if got := c.ServerInfo().Name; got != "stateless-streamable-http-server" {
				t.Errorf("server name %q", got)
			}
			tools, err := c.ListTools(ctx)
			if err != nil {
				t.Fatalf("list tools: %v", err)
			}
			if got := toolNames(tools); !reflect.DeepEqual(got, []string{"start-notification-stream"}) {
				t.Errorf("tools %v", got)
			}
			s, err := mcpgen.CallToolAs[string](ctx, c, "start-notification-stream", map[string]int{"interval": 1, "count": 2})
			if err != nil || s != "Started sending periodic notifications every 1ms" {
				t.Errorf("start-notification-stream: %q, %v", s, err)
			}
			rr, err := c.ReadResource(ctx, "https://example.com/greetings/default")
			if err != nil || len(rr.Contents) != 1 || rr.Contents[0].Text == nil || *rr.Contents[0].Text != "Hello, world!" {
				t.Errorf("read greeting: %+v, %v", rr, err)
			}
			pr, err := c.GetPrompt(ctx, "greeting-template", map[string]string{"name": "Ada"})
			if err != nil || len(pr.Messages) != 1 || pr.Messages[0].Content.Text != "Please greet Ada in a friendly manner." {
				t.Errorf("greeting-template: %+v, %v", pr, err)
			}
		})
	}
}

// TestTypeScriptJSONResponse drives the TypeScript SDK's
// jsonResponseStreamableHttp.js: legacy sessions whose POSTs are answered
// with application/json bodies instead of SSE streams, and whose GET
// stream is refused with 405.
func TestTypeScriptJSONResponse(t *testing.T) {
	tl := needTools(t)
	t.Parallel()
	url := exampleHTTP(t, tl, "jsonResponseStreamableHttp.js")
	for _, era := range eras {
		t.Run(eraName(era.ask), func(t *testing.T) {
			t.Parallel()
			c := connect(t, mcpgen.HTTPTransport(url), mcpgen.ClientOptions{}, era.ask, era.want)
			ctx := testContext(t)
			if got := c.ServerInfo().Name; got != "json-response-streamable-http-server" {
				t.Errorf("server name %q", got)
			}
			if err := c.Ping(ctx); err != nil {
				t.Errorf("ping: %v", err)
			}
			tools, err := c.ListTools(ctx)
			if err != nil {
				t.Fatalf("list tools: %v", err)
			}
			if got := toolNames(tools); !reflect.DeepEqual(got, []string{"greet", "multi-greet"}) {
				t.Errorf("tools %v", got)
			}
			for _, name := range []string{"Ada", "Grace"} {
				s, err := mcpgen.CallToolAs[string](ctx, c, "greet", map[string]string{"name": name})
				if want := "Hello, " + name + "!"; err != nil || s != want {
					t.Errorf("greet: %q, %v; want %q", s, err, want)
				}
			}
		})
	}
}

// waitFor polls cond for up to 5 seconds.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Errorf("no %s after 5 s", what)
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// testResume cuts the SSE answer of a call to simpleStreamableHttp.js at
// url (which keeps every event in an event store) right after its first
// event, through a proxy: the client must resume the stream with a GET
// carrying Last-Event-ID and get the call's result from it. The
// TypeScript server sends that first (priming) event, with an id and no
// data, only from revision 2025-11-25 on, so 2025-06-18 is not tried: it
// has no event id to resume from.
func testResume(t *testing.T, url string) {
	target, err := neturl.Parse(url)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var resumed []string // the Last-Event-ID of each GET
	proxy := &httputil.ReverseProxy{
		Rewrite: func(r *httputil.ProxyRequest) { r.SetURL(target); r.Out.URL.Path = target.Path },
		ModifyResponse: func(resp *http.Response) error {
			if resp.Request.Header.Get("X-Test-Cut") != "" {
				resp.Body = &cutAfterFirstEvent{r: bufio.NewReader(resp.Body), c: resp.Body}
			}
			return nil
		},
		ErrorLog: log.New(io.Discard, "", 0),
	}
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && r.Header.Get("Last-Event-ID") != "" {
			mu.Lock()
			resumed = append(resumed, r.Header.Get("Last-Event-ID"))
			mu.Unlock()
		}
		if r.Method == http.MethodPost {
			body, _ := io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(body))
			if bytes.Contains(body, []byte(`"start-notification-stream"`)) {
				r.Header.Set("X-Test-Cut", "1")
			}
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(front.Close)

	for _, era := range eras[:2] {
		t.Run(eraName(era.ask), func(t *testing.T) {
			c := connect(t, mcpgen.HTTPTransport(front.URL+"/mcp"), mcpgen.ClientOptions{}, era.ask, era.want)
			ctx := testContext(t)
			mu.Lock()
			before := len(resumed)
			mu.Unlock()
			s, err := mcpgen.CallToolAs[string](ctx, c, "start-notification-stream", map[string]int{"interval": 20, "count": 3})
			if err != nil || s != "Started sending periodic notifications every 20ms" {
				t.Errorf("start-notification-stream through a cut stream: %q, %v", s, err)
			}
			mu.Lock()
			if len(resumed) == before {
				t.Errorf("no GET with Last-Event-ID after the cut")
			}
			mu.Unlock()
		})
	}
}

// cutAfterFirstEvent passes on the first SSE event of a body (up to its
// blank line) and then fails, as a dropped connection does.
type cutAfterFirstEvent struct {
	r       *bufio.Reader
	c       io.Closer
	pending []byte // the rest of a line p had no room for
	done    bool   // the blank line ending the first event was read
}

func (b *cutAfterFirstEvent) Read(p []byte) (int, error) {
	if len(b.pending) == 0 {
		if b.done {
			return 0, io.ErrUnexpectedEOF
		}
		line, err := b.r.ReadBytes('\n')
		if err != nil {
			return 0, err
		}
		b.done = len(bytes.TrimSpace(line)) == 0
		b.pending = line
	}
	n := copy(p, b.pending)
	b.pending = b.pending[n:]
	return n, nil
}

func (b *cutAfterFirstEvent) Close() error { return b.c.Close() }

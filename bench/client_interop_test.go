package bench_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen"
	"github.com/mcpgen/mcpgen/bench/internal/tools"
)

// Interop of our client with a server of the official go-sdk (v1.8.0),
// which speaks both eras: its stateless Streamable HTTP handler serves
// 2026-07-28 (server/discover, no sessions) and its stateful one the
// legacy revisions (initialize, sessions), answering 2026-07-28 requests
// with -32022 and the revisions it does speak; over stdio it speaks both.
// The root module's internal/interop covers the TypeScript servers, which
// speak only legacy revisions; the go-sdk lives in this module.

// sumIn and sumOut are the input and output of the go-sdk server's
// structured tool.
type (
	sumIn struct {
		Numbers []float64 `json:"numbers"`
	}
	sumOut struct {
		Sum   float64 `json:"sum"`
		Count int     `json:"count"`
	}
)

// goSDKServer is a go-sdk server with a text tool, a structured tool, a
// tool that reports progress, a failing tool, a resource and a prompt.
func goSDKServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "go-sdk-interop", Version: "0.1.0"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "echo", Description: "Return the message."},
		func(_ context.Context, _ *mcp.CallToolRequest, in struct {
			Message string `json:"message"`
		}) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: in.Message}}}, nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "sum", Description: "Add the numbers."},
		func(_ context.Context, _ *mcp.CallToolRequest, in sumIn) (*mcp.CallToolResult, sumOut, error) {
			out := sumOut{Count: len(in.Numbers)}
			for _, n := range in.Numbers {
				out.Sum += n
			}
			return nil, out, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "steps", Description: "Report three steps of progress."},
		func(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
			if token := req.Params.GetProgressToken(); token != nil {
				for i := 1; i <= 3; i++ {
					_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
						ProgressToken: token, Progress: float64(i), Total: 3, Message: fmt.Sprintf("step %d", i),
					})
				}
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "done"}}}, nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "fail", Description: "Always fails."},
		func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			return nil, nil, errors.New("it failed on purpose")
		})
	s.AddResource(&mcp.Resource{URI: "test://greeting", Name: "greeting", MIMEType: "text/plain"},
		func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: "text/plain", Text: "hello"}}}, nil
		})
	s.AddPrompt(&mcp.Prompt{Name: "greet", Arguments: []*mcp.PromptArgument{{Name: "name", Required: true}}},
		func(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{{
				Role: "user", Content: &mcp.TextContent{Text: "Greet " + req.Params.Arguments["name"] + "."},
			}}}, nil
		})
	return s
}

// TestClientAgainstGoSDK connects our client to the go-sdk server over
// HTTP in each era the handler serves: asking for nothing (the stateless
// handler answers server/discover; the stateful one refuses it with -32022
// and the client falls back to initialize), and asking for a revision.
func TestClientAgainstGoSDK(t *testing.T) {
	srv := goSDKServer()
	handler := func(stateless bool) string {
		h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{Stateless: stateless})
		hs := httptest.NewServer(h)
		t.Cleanup(hs.Close)
		return hs.URL
	}
	stateless, stateful := handler(true), handler(false)
	cases := []struct {
		name, url, ask, want string
	}{
		{"stateless/discover", stateless, "", "2026-07-28"},
		{"stateless/2026-07-28", stateless, "2026-07-28", "2026-07-28"},
		{"stateful/discover-fallback", stateful, "", "2025-11-25"},
		{"stateful/2025-11-25", stateful, "2025-11-25", "2025-11-25"},
		{"stateful/2025-06-18", stateful, "2025-06-18", "2025-06-18"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			c, err := mcpgen.Connect(ctx, mcpgen.HTTPTransport(tc.url), mcpgen.ClientOptions{ProtocolVersion: tc.ask})
			if err != nil {
				t.Fatalf("connect asking for %q: %v", tc.ask, err)
			}
			defer func() {
				if err := c.Close(); err != nil {
					t.Errorf("close: %v", err)
				}
			}()
			if got := c.ProtocolVersion(); got != tc.want {
				t.Errorf("protocol version %q, want %q", got, tc.want)
			}
			if got := c.ServerInfo().Name; got != "go-sdk-interop" {
				t.Errorf("server name %q", got)
			}
			if err := c.Ping(ctx); err != nil {
				t.Errorf("ping: %v", err)
			}

			list, err := c.ListTools(ctx)
			if err != nil {
				t.Fatalf("list tools: %v", err)
			}
			var names []string
			for _, x := range list {
				names = append(names, x.Name)
			}
			if want := []string{"echo", "fail", "steps", "sum"}; !reflect.DeepEqual(names, want) {
				t.Errorf("tools %v, want %v", names, want)
			}
			if s, err := mcpgen.CallToolAs[string](ctx, c, "echo", map[string]string{"message": "hi"}); err != nil || s != "hi" {
				t.Errorf("echo: %q, %v", s, err)
			}
			out, err := mcpgen.CallToolAs[sumOut](ctx, c, "sum", sumIn{Numbers: []float64{1, 2, 3.5}})
			if err != nil || out != (sumOut{Sum: 6.5, Count: 3}) {
				t.Errorf("sum: %+v, %v", out, err)
			}
			_, err = c.CallTool(ctx, "fail", nil)
			var te *mcpgen.ToolCallError
			if !errors.As(err, &te) || te.Tool != "fail" {
				t.Errorf("fail: %v, want a *ToolCallError", err)
			}
			// Arguments of the wrong type: the go-sdk validates them and
			// answers with an isError result.
			_, err = c.CallTool(ctx, "sum", map[string]any{"numbers": "three"})
			if !errors.As(err, &te) || !strings.Contains(err.Error(), "/properties/numbers") {
				t.Errorf("sum with a string: %v, want a *ToolCallError naming numbers", err)
			}

			var mu sync.Mutex
			var steps []mcpgen.Progress
			pctx := mcpgen.WithProgress(ctx, func(p mcpgen.Progress) {
				mu.Lock()
				steps = append(steps, p)
				mu.Unlock()
			})
			if s, err := mcpgen.CallToolAs[string](pctx, c, "steps", nil); err != nil || s != "done" {
				t.Errorf("steps: %q, %v", s, err)
			}
			mu.Lock()
			if len(steps) != 3 || steps[2] != (mcpgen.Progress{Progress: 3, Total: 3, Message: "step 3"}) {
				t.Errorf("progress %+v, want 3 steps", steps)
			}
			mu.Unlock()

			rr, err := c.ReadResource(ctx, "test://greeting")
			if err != nil || len(rr.Contents) != 1 || rr.Contents[0].Text == nil || *rr.Contents[0].Text != "hello" {
				t.Errorf("read test://greeting: %+v, %v", rr, err)
			}
			pr, err := c.GetPrompt(ctx, "greet", map[string]string{"name": "Ada"})
			if err != nil || len(pr.Messages) != 1 || pr.Messages[0].Content.Text != "Greet Ada." {
				t.Errorf("get prompt greet: %+v, %v", pr, err)
			}
		})
	}
}

// TestClientAgainstGoSDKStdio runs the bench's go-sdk peer (cmd/peer-gosdk)
// as a child process and calls its echo and ingest tools over stdio, in
// each revision the client can ask for.
func TestClientAgainstGoSDKStdio(t *testing.T) {
	if testing.Short() {
		t.Skip("builds cmd/peer-gosdk")
	}
	bin := filepath.Join(t.TempDir(), "peer-gosdk")
	if out, err := exec.Command("go", "build", "-o", bin, "./cmd/peer-gosdk").CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/peer-gosdk: %v\n%s", err, out)
	}
	for _, era := range []struct{ ask, want string }{
		{"", "2026-07-28"},
		{"2026-07-28", "2026-07-28"},
		{"2025-11-25", "2025-11-25"},
		{"2025-06-18", "2025-06-18"},
	} {
		name := era.ask
		if name == "" {
			name = "discover"
		}
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			c, err := mcpgen.Connect(ctx, mcpgen.CommandTransport(bin), mcpgen.ClientOptions{ProtocolVersion: era.ask})
			if err != nil {
				t.Fatalf("connect asking for %q: %v", era.ask, err)
			}
			defer func() {
				if err := c.Close(); err != nil {
					t.Errorf("close: %v", err)
				}
			}()
			if got := c.ProtocolVersion(); got != era.want {
				t.Errorf("protocol version %q, want %q", got, era.want)
			}
			list, err := c.ListTools(ctx)
			if err != nil || len(list) != 2+tools.NoopCount {
				t.Fatalf("list tools: %d tools, %v", len(list), err)
			}
			if s, err := mcpgen.CallToolAs[string](ctx, c, "echo", map[string]string{"message": "hi"}); err != nil || s != "hi" {
				t.Errorf("echo: %q, %v", s, err)
			}
			in := tools.IngestIn{Entities: []tools.Entity{
				{Name: "a", EntityType: "t", Observations: []string{"x", "y"}},
				{Name: "b", EntityType: "t", Observations: []string{"z"}},
			}}
			got, err := mcpgen.CallToolAs[tools.Counts](ctx, c, "ingest", in)
			if err != nil || got != tools.Count(in) {
				t.Errorf("ingest: %+v, %v; want %+v", got, err, tools.Count(in))
			}
			// minItems: 1 on entities, which the go-sdk validates.
			var te *mcpgen.ToolCallError
			if _, err := c.CallTool(ctx, "ingest", tools.IngestIn{Entities: []tools.Entity{}}); !errors.As(err, &te) {
				t.Errorf("ingest of no entities: %v, want a *ToolCallError", err)
			}
		})
	}
}

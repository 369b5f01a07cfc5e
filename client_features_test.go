package mcpgen_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen"
)

// askingHandlers answer every question the everything server asks.
func askingHandlers() mcpgen.ClientOptions {
	return mcpgen.ClientOptions{
		Elicit: func(_ context.Context, req *mcpgen.ElicitRequest) (*mcpgen.ElicitResult, error) {
			var s struct {
				Properties map[string]any `json:"properties"`
			}
			_ = json.Unmarshal(req.RequestedSchema, &s)
			content := map[string]any{}
			for k := range s.Properties {
				if k == "name" || k == "username" || k == "color" || k == "email" {
					content[k] = "blue@example.com"
				}
			}
			return &mcpgen.ElicitResult{Action: "accept", Content: content}, nil
		},
		Sample: func(_ context.Context, req *mcpgen.CreateMessageRequest) (*mcpgen.CreateMessageResult, error) {
			return &mcpgen.CreateMessageResult{Role: "assistant", Content: mcpgen.TextContent("forty-two"), Model: "test"}, nil
		},
		Roots: func(context.Context) ([]mcpgen.Root, error) {
			return []mcpgen.Root{{URI: "file:///work", Name: "work"}}, nil
		},
	}
}

// The server's questions are answered by the handlers in both eras:
// server-to-client requests in a legacy session, input_required rounds in
// the stateless era.
func TestClientAnswersQuestions(t *testing.T) {
	forEachClient(t, askingHandlers(), func(t *testing.T, c *mcpgen.Client) {
		ctx := context.Background()
		text, err := mcpgen.CallToolAs[string](ctx, c, "test_sampling", map[string]any{"prompt": "meaning?"})
		if err != nil || !strings.Contains(text, "forty-two") {
			t.Errorf("sampling: %q, %v", text, err)
		}
		text, err = mcpgen.CallToolAs[string](ctx, c, "test_elicitation", map[string]any{"message": "who?"})
		if err != nil || !strings.Contains(text, "blue@example.com") {
			t.Errorf("elicitation: %q, %v", text, err)
		}
		// SEP-1034: the defaults of the form are filled in.
		text, err = mcpgen.CallToolAs[string](ctx, c, "test_elicitation_sep1034_defaults", nil)
		if err != nil || !strings.Contains(text, "age=30") || !strings.Contains(text, "verified=true") {
			t.Errorf("defaults: %q, %v", text, err)
		}
		if c.ProtocolVersion() != mcpgen.LatestVersion {
			return
		}
		for _, tool := range []string{"test_input_required_result_multi_round", "test_input_required_result_list_roots", "test_input_required_result_request_state", "test_input_required_result_multiple_inputs"} {
			if _, err := c.CallTool(ctx, tool, nil); err != nil {
				t.Errorf("%s: %v", tool, err)
			}
		}
	})
}

// Without handlers the client declares no capability, and a server that
// needs one refuses the call with a protocol error, not a hang.
func TestClientWithoutHandlers(t *testing.T) {
	forEachClient(t, mcpgen.ClientOptions{}, func(t *testing.T, c *mcpgen.Client) {
		_, err := c.CallTool(context.Background(), "test_sampling", map[string]any{"prompt": "x"})
		if err == nil {
			t.Fatal("sampling without a handler succeeded")
		}
	})
}

func TestClientProgress(t *testing.T) {
	forEachClient(t, mcpgen.ClientOptions{}, func(t *testing.T, c *mcpgen.Client) {
		var mu sync.Mutex
		var got []float64
		ctx := mcpgen.WithProgress(context.Background(), func(p mcpgen.Progress) {
			mu.Lock()
			got = append(got, p.Progress)
			mu.Unlock()
			if p.Total != 100 {
				t.Errorf("total %v, want 100", p.Total)
			}
		})
		if _, err := c.CallTool(ctx, "test_tool_with_progress", nil); err != nil {
			t.Fatal(err)
		}
		mu.Lock()
		defer mu.Unlock()
		if len(got) != 3 || got[2] != 100 {
			t.Errorf("progress %v, want 0, 50, 100", got)
		}
	})
}

// A call whose context ends returns at once with the context's error, and
// the connection goes on serving.
func TestClientCancellation(t *testing.T) {
	forEachClient(t, mcpgen.ClientOptions{}, func(t *testing.T, c *mcpgen.Client) {
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		defer cancel()
		start := time.Now()
		// Legacy: no tasks, so slow_compute runs in the call.
		_, err := c.CallTool(ctx, "slow_compute", map[string]any{"seconds": 30})
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("err %v, want deadline exceeded", err)
		}
		if d := time.Since(start); d > 10*time.Second {
			t.Errorf("cancelled call took %s", d)
		}
		if err := c.Ping(context.Background()); err != nil {
			t.Errorf("ping after cancel: %v", err)
		}
	})
}

// In the stateless era a task-augmented tool is followed to its result.
func TestClientTasks(t *testing.T) {
	forEachClient(t, askingHandlers(), func(t *testing.T, c *mcpgen.Client) {
		if c.ProtocolVersion() != mcpgen.LatestVersion {
			t.Skip("tasks are a 2026-07-28 extension here")
		}
		ctx := context.Background()
		text, err := mcpgen.CallToolAs[string](ctx, c, "slow_compute", map[string]any{"seconds": 0.1, "label": "sum"})
		if err != nil || !strings.Contains(text, "Finished sum") {
			t.Errorf("task: %q, %v", text, err)
		}
		// A task that asks questions: answered with tasks/update.
		if _, err := c.CallTool(ctx, "multi_input", nil); err != nil {
			t.Errorf("multi_input task: %v", err)
		}
		_, err = c.CallTool(ctx, "failing_job", nil)
		var te *mcpgen.ToolCallError
		if !errors.As(err, &te) {
			t.Errorf("failing task: %v, want a ToolCallError", err)
		}
	})
}

func TestClientCompletion(t *testing.T) {
	forEachClient(t, mcpgen.ClientOptions{}, func(t *testing.T, c *mcpgen.Client) {
		got, err := c.Complete(context.Background(), mcpgen.CompletionRef{Type: "ref/prompt", Name: "test_prompt_with_arguments"}, "arg1", "al", nil)
		if err != nil || len(got.Values) != 1 || got.Values[0] != "alpha" {
			t.Errorf("complete: %+v, %v", got, err)
		}
	})
}

func TestClientSkills(t *testing.T) {
	forEachClient(t, mcpgen.ClientOptions{}, func(t *testing.T, c *mcpgen.Client) {
		ctx := context.Background()
		skills, err := c.ListSkills(ctx)
		if err != nil || len(skills) == 0 {
			t.Fatalf("list skills: %d, %v", len(skills), err)
		}
		read := 0
		for i := range skills {
			sk := &skills[i]
			files, static := sk.Files()
			if !static {
				continue
			}
			got, err := c.GetSkill(ctx, sk.URI)
			if err != nil || got.URI != sk.URI {
				t.Errorf("get %s: %+v, %v", sk.URI, got, err)
			}
			for _, f := range files {
				if _, err := c.ReadSkillFile(ctx, sk, f.URI); err != nil {
					t.Errorf("read %s: %v", f.URI, err)
				}
				read++
			}
			// An entry that promises other bytes is not believed.
			bad := *sk
			bad.Resources = json.RawMessage(strings.Replace(string(sk.Resources), `"sha256:`, `"sha256:00`, 1))
			if _, err := c.ReadSkillFile(ctx, &bad, files[0].URI); !errors.Is(err, mcpgen.ErrSkillVerification) {
				t.Errorf("tampered digest: %v, want ErrSkillVerification", err)
			}
		}
		if read == 0 {
			t.Error("no static skill file read")
		}
	})
}

package mcpgen

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/mcpgen/mcpgen/internal/jsonrpc"
)

// Helpers for the unit tests of this package, which call Server.Handle
// directly with decoded messages (the transcript tests, in package
// server_test, go through the stdio transport instead).

const modernMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{},"extensions":{"io.modelcontextprotocol/tasks":{}}}}`

// unitDefinition is a small registry: echo (text), ask (two elicitation
// questions in turn) and interview (the same, as an optional task).
func unitDefinition() Definition {
	askTwo := func(ctx context.Context, req *Request, _ json.RawMessage) (*CallToolResult, error) {
		var got []string
		for _, key := range []string{"first", "second"} {
			raw, err := req.Ask(ctx, key, "elicitation/create", map[string]any{"message": "Your " + key + " name?"})
			if err != nil {
				return ToolError(err)
			}
			var a struct {
				Content map[string]string `json:"content"`
			}
			_ = json.Unmarshal(raw, &a)
			got = append(got, a.Content["name"])
		}
		return TextResult(strings.Join(got, " "), nil)
	}
	return Definition{
		Name: "unit", Version: "1.0.0",
		Tools: []Tool{
			{Info: ToolInfo{Name: "ask", InputSchema: json.RawMessage(`{"type":"object"}`)}, Call: askTwo},
			{
				Info: ToolInfo{Name: "echo", InputSchema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}`)},
				Call: func(_ context.Context, _ *Request, args json.RawMessage) (*CallToolResult, error) {
					in, err := DecodeArguments[struct {
						Text string `json:"text"`
					}](args)
					if err != nil {
						return nil, err
					}
					return TextResult(in.Text, nil)
				},
			},
			{Info: ToolInfo{Name: "interview", InputSchema: json.RawMessage(`{"type":"object"}`)}, Task: "optional", Call: askTwo},
		},
	}
}

// handle decodes line and serves it.
func handle(t testing.TB, s *Server, in *inbound, line string) *jsonrpc.Message {
	t.Helper()
	m, err := jsonrpc.Decode([]byte(line))
	if err != nil {
		t.Fatalf("decode %s: %v", line, err)
	}
	if in == nil {
		in = &inbound{}
	}
	in.Msg = m
	resp, _ := s.handle(context.Background(), in)
	return resp
}

// handleOutcome is handle with the outcome of the message.
func handleOutcome(t testing.TB, s *Server, in *inbound, line string) (*jsonrpc.Message, outcome) {
	t.Helper()
	m, err := jsonrpc.Decode([]byte(line))
	if err != nil {
		t.Fatalf("decode %s: %v", line, err)
	}
	if in == nil {
		in = &inbound{}
	}
	in.Msg = m
	return s.handle(context.Background(), in)
}

// answerOnly is Server.handle's answer without its outcome.
func answerOnly(m *jsonrpc.Message, _ outcome) *jsonrpc.Message { return m }

// result returns the response's result decoded into a map, failing on an
// error response.
func result(t testing.TB, resp *jsonrpc.Message) map[string]any {
	t.Helper()
	if resp == nil {
		t.Fatal("no response")
	}
	if resp.Error != nil {
		t.Fatalf("error response: %d %s", resp.Error.Code, resp.Error.Message)
	}
	var v map[string]any
	if err := json.Unmarshal(resp.Result, &v); err != nil {
		t.Fatalf("result %s: %v", resp.Result, err)
	}
	return v
}

// wantError fails unless resp is an error with code whose message contains
// text.
func wantError(t testing.TB, resp *jsonrpc.Message, code int64, text string) {
	t.Helper()
	if resp == nil || resp.Error == nil {
		var got string
		if resp != nil {
			got = string(resp.Result)
		}
		t.Fatalf("want error %d (%q), got result %s", code, text, got)
	}
	if resp.Error.Code != code || !strings.Contains(resp.Error.Message, text) {
		t.Fatalf("want error %d containing %q, got %d %q", code, text, resp.Error.Code, resp.Error.Message)
	}
}

// recordingPeer records notifications.
type recordingPeer struct {
	mu    sync.Mutex
	notes []string // "method params"
	acked chan struct{}
}

func (p *recordingPeer) Notify(_ context.Context, method string, params any) error {
	b, _ := json.Marshal(params)
	p.mu.Lock()
	p.notes = append(p.notes, method+" "+string(b))
	p.mu.Unlock()
	if method == "notifications/subscriptions/acknowledged" && p.acked != nil {
		close(p.acked)
	}
	return nil
}

func (p *recordingPeer) Call(context.Context, string, any) (json.RawMessage, error) {
	return nil, fmt.Errorf("recordingPeer: no calls")
}

func (p *recordingPeer) notifications() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.notes...)
}

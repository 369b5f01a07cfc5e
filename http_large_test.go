package mcpgen

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// rendered is a large structured result that renders itself, as
// mcp-memory's read_graph does, and counts its releases.
type rendered struct {
	text, js []byte
	released *atomic.Int32
}

func (r rendered) EncodedText() []byte { return r.text }
func (r rendered) EncodedJSON() []byte { return r.js }
func (r rendered) Release()            { r.released.Add(1) }

// TestLargeResultWrittenFromItsPieces: a large result is answered over
// HTTP from the component's buffers, whole, and released once written.
func TestLargeResultWrittenFromItsPieces(t *testing.T) {
	text := strings.Repeat("a line with \"quotes\"\n", 20_000)
	encText, _ := json.Marshal(text)
	var released atomic.Int32
	def := Definition{Name: "test", Version: "1.0.0", Tools: []Tool{{
		Info: ToolInfo{Name: "graph", InputSchema: json.RawMessage(`{"type":"object"}`)},
		Call: func(context.Context, *Request, json.RawMessage) (*CallToolResult, error) {
			return StructuredResult(rendered{encText, []byte(`{"lines":20000}`), &released}, nil)
		},
	}}}
	srv := New(def, Options{})
	ts := httptest.NewServer(HTTPHandler(srv, HTTPOptions{}))
	t.Cleanup(func() { srv.Close(); ts.Close() })

	resp := post(t, ts.URL+"/mcp", modernHeaders("tools/call", "graph"), modernBody(1, "tools/call", map[string]any{"name": "graph", "arguments": map[string]any{}}))
	m := decodeJSON(t, resp, 200)
	var res struct {
		ResultType        string `json:"resultType"`
		Content           []struct{ Type, Text string }
		StructuredContent json.RawMessage `json:"structuredContent"`
	}
	if err := json.Unmarshal(m.Result, &res); err != nil || res.ResultType != "complete" || len(res.Content) != 1 ||
		res.Content[0].Text != text || string(res.StructuredContent) != `{"lines":20000}` {
		t.Fatalf("result %.300s: %v", m.Result, err)
	}
	if n := released.Load(); n != 1 {
		t.Fatalf("released %d times", n)
	}
}

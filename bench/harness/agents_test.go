package harness

import (
	"strings"
	"testing"
)

// TestAgentAnswerChecks: the load generator's per-call checks refuse
// what a wrong server would answer, read_graph's included, though it
// only looks at the shape of read_graph's text.
func TestAgentAnswerChecks(t *testing.T) {
	search := &agentCall{tool: "search_nodes", own: "a", want: []string{"x"}}
	graph := &agentCall{tool: "read_graph"}
	ok := func(text string) string {
		return `{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":` + text + `}],"structuredContent":{"entities":[]}}}`
	}
	for _, tc := range []struct {
		name, raw string
		call      *agentCall
		bad       string // what the error says; empty: accepted
	}{
		{"search ok", ok(`"{\"entities\":[{\"name\":\"a\",\"entityType\":\"t\",\"observations\":[\"x\"]}],\"relations\":[]}"`), search, ""},
		{"search stale", ok(`"{\"entities\":[{\"name\":\"a\",\"entityType\":\"t\",\"observations\":[]}],\"relations\":[]}"`), search, "observations"},
		{"graph ok", ok(`"{\"entities\":[],\"relations\":[]}"`), graph, ""},
		{"graph text not a string", ok(`{"entities":[]}`), graph, "not a string"},
		{"other id", strings.Replace(ok(`"{}"`), `"id":7`, `"id":8`, 1), graph, "response id"},
		{"error", `{"jsonrpc":"2.0","id":7,"error":{"code":-32603,"message":"boom"}}`, graph, "boom"},
		{"tool error", `{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"no"}],"isError":true}}`, graph, "tool error"},
		{"no text", `{"jsonrpc":"2.0","id":7,"result":{"content":[]}}`, graph, "tool error"},
		{"undecodable", `{"jsonrpc":"2.0","id":7,"result":`, graph, "undecodable"},
	} {
		text, err := toolAnswer([]byte(tc.raw), 7)
		if err == nil {
			err = tc.call.checkText(text)
		}
		switch {
		case tc.bad == "" && err != nil:
			t.Errorf("%s: %v, want accepted", tc.name, err)
		case tc.bad != "" && (err == nil || !strings.Contains(err.Error(), tc.bad)):
			t.Errorf("%s: %v, want an error saying %q", tc.name, err, tc.bad)
		}
	}
}

package mcpgen

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/jsonrpc"
)

// partitionDefinition has a resource test://r, a tool touch that reports
// it updated, a template test://t/{x} needing scope "t:read" with a
// completion, and the unit tools (interview runs as a task).
func partitionDefinition() Definition {
	d := unitDefinition()
	d.Resources = []Resource{{Info: ResourceInfo{URI: "test://r", Name: "r"},
		Read: func(context.Context, *Request) (*ReadResourceResult, error) {
			return ResourceText("test://r", "", "r", nil)
		}}}
	d.Templates = []Template{{Info: TemplateInfo{URITemplate: "test://t/{x}", Name: "t"}, Scope: "t:read",
		Read: func(_ context.Context, _ *Request, uri string, _ map[string]string) (*ReadResourceResult, error) {
			return ResourceText(uri, "", "t", nil)
		},
		Complete: func(context.Context, *Request, CompleteRequest) ([]string, error) { return []string{"secret"}, nil }}}
	d.Tools = append(d.Tools, Tool{Info: ToolInfo{Name: "touch", InputSchema: json.RawMessage(`{"type":"object"}`)},
		Call: func(_ context.Context, req *Request, _ json.RawMessage) (*CallToolResult, error) {
			req.ResourceUpdated("test://r")
			req.ListChanged("resources")
			return TextResult(req.Partition, nil)
		}})
	return d
}

// TestPartitionNotifications: a write in one partition notifies the
// listen streams of that partition only.
func TestPartitionNotifications(t *testing.T) {
	s := New(partitionDefinition(), Options{})
	listen := func(partition string) (*recordingPeer, func()) {
		peer := &recordingPeer{acked: make(chan struct{})}
		ctx, cancel := context.WithCancel(context.Background())
		m, err := jsonrpc.Decode([]byte(`{"jsonrpc":"2.0","id":"l","method":"subscriptions/listen","params":{"notifications":{"resourceSubscriptions":["test://r"],"resourcesListChanged":true},` + modernMeta + `}}`))
		if err != nil {
			t.Fatal(err)
		}
		done := make(chan struct{})
		go func() { answerOnly(s.handle(ctx, &inbound{Msg: m, peer: peer, Partition: partition})); close(done) }()
		<-peer.acked
		return peer, func() { cancel(); <-done }
	}
	a, stopA := listen("a")
	b, stopB := listen("b")
	got := result(t, handle(t, s, &inbound{Partition: "a"}, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"touch","arguments":{},`+modernMeta+`}}`))
	stopA()
	stopB()
	if fmt.Sprint(got["content"]) != "[map[text:a type:text]]" {
		t.Errorf("the handler's Request.Partition: %v", got["content"])
	}
	if n := fmt.Sprint(a.notifications()); !strings.Contains(n, "notifications/resources/updated") || !strings.Contains(n, "notifications/resources/list_changed") {
		t.Errorf("partition a's stream: %s", n)
	}
	if n := b.notifications(); len(n) != 1 {
		t.Errorf("partition b's stream got a's notifications: %v", n)
	}
}

// TestPartitionTasks: a task belongs to the partition it was created in.
func TestPartitionTasks(t *testing.T) {
	s := New(unitDefinition(), Options{Tasks: true})
	alice := Principal{Subject: "alice"}
	created := result(t, handle(t, s, &inbound{Auth: alice, Partition: "a"}, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"interview","arguments":{},`+modernMeta+`}}`))
	get := `{"jsonrpc":"2.0","id":2,"method":"tasks/get","params":{"taskId":"` + created["taskId"].(string) + `",` + modernMeta + `}}`
	result(t, handle(t, s, &inbound{Auth: alice, Partition: "a"}, get))
	if resp := handle(t, s, &inbound{Auth: alice, Partition: "b"}, get); resp.Error == nil {
		t.Errorf("tasks/get from another partition: %s", resp.Result)
	}
}

// TestPartitionSessions: over HTTP, a legacy session is found only in the
// partition of its initialize, and a refused partition answers its error.
func TestPartitionSessions(t *testing.T) {
	s := New(partitionDefinition(), Options{})
	h := HTTPHandler(s, HTTPOptions{Partition: func(r *http.Request, _ Principal) (string, error) {
		p := r.Header.Get("X-Partition")
		switch p {
		case "forbidden":
			return "", fmt.Errorf("no entry")
		case "control":
			return "a\x01b", nil
		}
		return p, nil
	}})
	srv := httptest.NewServer(h)
	defer srv.Close()
	post := func(partition, session, body string) *http.Response {
		t.Helper()
		req, _ := http.NewRequest(http.MethodPost, srv.URL, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("X-Partition", partition)
		if session != "" {
			req.Header.Set("Mcp-Session-Id", session)
			req.Header.Set("MCP-Protocol-Version", "2025-11-25")
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	resp := post("a", "", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	session := resp.Header.Get("Mcp-Session-Id")
	if session == "" {
		t.Fatalf("initialize: %d", resp.StatusCode)
	}
	const ping = `{"jsonrpc":"2.0","id":2,"method":"ping"}`
	if resp := post("a", session, ping); resp.StatusCode != http.StatusOK {
		t.Errorf("ping in the session's partition: %d", resp.StatusCode)
	}
	if resp := post("b", session, ping); resp.StatusCode != http.StatusNotFound {
		t.Errorf("ping in another partition: %d, want 404", resp.StatusCode)
	}
	if resp := post("forbidden", session, ping); resp.StatusCode != http.StatusForbidden {
		t.Errorf("a refused partition: %d, want 403", resp.StatusCode)
	}
	if resp := post("control", "", ping); resp.StatusCode != http.StatusForbidden {
		t.Errorf("a partition with a control character: %d, want 403", resp.StatusCode)
	}
}

// TestScopeOnCompletionAndSubscribe: completing a template's argument and
// subscribing to its resources need the scope reading it needs.
func TestScopeOnCompletionAndSubscribe(t *testing.T) {
	s := New(partitionDefinition(), Options{})
	for _, tc := range []struct {
		who  Principal
		fail bool
	}{{Principal{Subject: "eve"}, true}, {Principal{Subject: "ann", Scopes: []string{"t:read"}}, false}} {
		in := &inbound{Auth: tc.who}
		complete, out := handleOutcome(t, s, in, `{"jsonrpc":"2.0","id":1,"method":"completion/complete","params":{"ref":{"type":"ref/resource","uri":"test://t/{x}"},"argument":{"name":"x","value":""},`+modernMeta+`}}`)
		if tc.fail { // (a stream that opens would run until cancelled)
			listen := handle(t, s, &inbound{Auth: tc.who, peer: &recordingPeer{}}, `{"jsonrpc":"2.0","id":2,"method":"subscriptions/listen","params":{"notifications":{"resourceSubscriptions":["test://t/1"]},`+modernMeta+`}}`)
			wantError(t, complete, jsonrpc.CodeInvalidRequest, "t:read")
			wantError(t, listen, jsonrpc.CodeInvalidRequest, "t:read")
			if out.refusal != refusedScope || out.scope != "t:read" {
				t.Errorf("the refusal names no scope to step up to: %+v", out)
			}
		} else if complete.Error != nil {
			t.Errorf("completion with the scope: %s", complete.Error.Message)
		}
	}
}

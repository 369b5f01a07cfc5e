package mcpgen

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/jsonrpc"
)

// TestTaskInputRoundTrip runs a task that asks two questions in turn while
// another goroutine polls tasks/get as fast as it can. Under -race this
// catches the task's outstanding questions being encoded by tasks/get while
// the task adds and removes them.
func TestTaskInputRoundTrip(t *testing.T) {
	s := New(unitDefinition(), Options{Tasks: true})
	created := result(t, handle(t, s, nil, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"interview","arguments":{},`+modernMeta+`}}`))
	if created["resultType"] != "task" || created["status"] == nil {
		t.Fatalf("tools/call: %v", created)
	}
	id := created["taskId"].(string)
	get := `{"jsonrpc":"2.0","id":2,"method":"tasks/get","params":{"taskId":"` + id + `",` + modernMeta + `}}`

	var stop atomic.Bool
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !stop.Load() {
				if resp := handle(t, s, nil, get); resp.Error != nil {
					t.Errorf("tasks/get: %s", resp.Error.Message)
					return
				}
			}
		}()
	}
	defer func() { stop.Store(true); wg.Wait() }()

	// waitFor polls until the task's view satisfies ok.
	waitFor := func(what string, ok func(v map[string]any) bool) map[string]any {
		t.Helper()
		deadline := time.Now().Add(5 * time.Second)
		for {
			v := result(t, handle(t, s, nil, get))
			if ok(v) {
				return v
			}
			if time.Now().After(deadline) {
				t.Fatalf("waiting for %s: task is %v", what, v)
			}
			time.Sleep(time.Millisecond)
		}
	}
	asking := func(key string) func(map[string]any) bool {
		return func(v map[string]any) bool {
			reqs, _ := v["inputRequests"].(map[string]any)
			return v["status"] == "input_required" && reqs[key] != nil && len(reqs) == 1
		}
	}
	update := func(key, name string) {
		t.Helper()
		got := result(t, handle(t, s, nil, `{"jsonrpc":"2.0","id":3,"method":"tasks/update","params":{"taskId":"`+id+`","inputResponses":{"`+key+`":{"action":"accept","content":{"name":"`+name+`"}}},`+modernMeta+`}}`))
		if len(got) != 1 || got["resultType"] != "complete" {
			t.Fatalf("tasks/update: %v", got)
		}
	}
	waitFor("the first question", asking("first"))
	update("second", "ignored") // not outstanding yet: ignored
	update("first", "Grace")
	waitFor("the second question", asking("second"))
	update("second", "Hopper")
	done := waitFor("completion", func(v map[string]any) bool { return v["status"] == "completed" })
	if fmt.Sprint(done["result"]) != "map[content:[map[text:Grace Hopper type:text]]]" || done["error"] != nil || done["inputRequests"] != nil {
		t.Fatalf("completed task: %v", done)
	}
}

// A cancelled task reads cancelled, with neither the result nor the error
// its goroutine may record after the cancellation.
func TestTaskCancelledHasNoOutcome(t *testing.T) {
	s := New(unitDefinition(), Options{Tasks: true})
	created := result(t, handle(t, s, nil, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"interview","arguments":{},`+modernMeta+`}}`))
	id := created["taskId"].(string)
	result(t, handle(t, s, nil, `{"jsonrpc":"2.0","id":2,"method":"tasks/cancel","params":{"taskId":"`+id+`",`+modernMeta+`}}`))
	tk := s.tasks.tasks[id]
	deadline := time.Now().Add(5 * time.Second)
	for { // until the goroutine has recorded an outcome
		tk.mu.Lock()
		recorded := tk.err != nil || tk.result != nil
		tk.mu.Unlock()
		if recorded {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the cancelled task's goroutine did not finish")
		}
		time.Sleep(time.Millisecond)
	}
	v := result(t, handle(t, s, nil, `{"jsonrpc":"2.0","id":3,"method":"tasks/get","params":{"taskId":"`+id+`",`+modernMeta+`}}`))
	if v["status"] != "cancelled" || v["error"] != nil || v["result"] != nil {
		t.Fatalf("cancelled task: %v", v)
	}
}

// A task belongs to the caller that created it.
func TestTaskOtherCaller(t *testing.T) {
	s := New(unitDefinition(), Options{Tasks: true})
	created := result(t, handle(t, s, &inbound{Auth: Principal{Subject: "alice"}}, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"interview","arguments":{},`+modernMeta+`}}`))
	id := created["taskId"].(string)
	// Neither another subject nor a client of the same name (a token
	// naming only the client "alice") is the caller that created it.
	for _, other := range []Principal{{Subject: "mallory"}, {ClientID: "alice"}, {Subject: "alice", Issuer: "https://other.example"}} {
		for _, method := range []string{"tasks/get", "tasks/update", "tasks/cancel"} {
			resp := handle(t, s, &inbound{Auth: other}, `{"jsonrpc":"2.0","id":2,"method":"`+method+`","params":{"taskId":"`+id+`",`+modernMeta+`}}`)
			wantError(t, resp, jsonrpc.CodeInvalidParams, "Task not found")
		}
	}
	result(t, handle(t, s, &inbound{Auth: Principal{Subject: "alice"}}, `{"jsonrpc":"2.0","id":3,"method":"tasks/cancel","params":{"taskId":"`+id+`",`+modernMeta+`}}`))
}

// A task may only ask for what the tools/call that created it declared: a
// client without elicitation never sees elicitation/create among the
// task's inputRequests; the task fails with -32021 instead.
func TestTaskAskNeedsCapability(t *testing.T) {
	s := New(unitDefinition(), Options{Tasks: true})
	noElicitation := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}`
	created := result(t, handle(t, s, nil, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"interview","arguments":{},`+noElicitation+`}}`))
	id := created["taskId"].(string)
	deadline := time.Now().Add(5 * time.Second)
	for {
		v := result(t, handle(t, s, nil, `{"jsonrpc":"2.0","id":2,"method":"tasks/get","params":{"taskId":"`+id+`",`+noElicitation+`}}`))
		if v["inputRequests"] != nil {
			t.Fatalf("the task asked a client without elicitation: %v", v)
		}
		if v["status"] == "failed" {
			if e, _ := v["error"].(map[string]any); e == nil || e["code"] != float64(-32021) {
				t.Fatalf("failed task: %v", v)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("task is %v", v)
		}
		time.Sleep(time.Millisecond)
	}
}

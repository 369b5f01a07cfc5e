package mcpgen

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/jsonrpc"
)

// recorder is an Observer and ErrorHandler that keeps what it was told.
type recorder struct {
	mu      sync.Mutex
	events  []string
	timings []string
	errs    []string
}

func (r *recorder) Event(name string, tags ...Tag) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, name+tagString(tags))
}

func (r *recorder) Timing(name string, _ time.Duration, tags ...Tag) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.timings = append(r.timings, name+tagString(tags))
}

func (r *recorder) LogError(_ context.Context, msg string, err error, _ ...Tag) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errs = append(r.errs, msg+": "+err.Error())
}

func tagString(tags []Tag) string {
	s := ""
	for _, t := range tags {
		s += " " + t.Key + "=" + t.Value
	}
	return s
}

func (r *recorder) has(list *[]string, want string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, e := range *list {
		if e == want {
			return true
		}
	}
	return false
}

func hooksDefinition() Definition {
	obj := json.RawMessage(`{"type":"object"}`)
	return Definition{
		Name: "hooks", Version: "1",
		Tools: []Tool{
			{Tool: ToolInfo{Name: "ok", InputSchema: obj}, Call: func(context.Context, *Request, json.RawMessage) (*CallToolResult, error) {
				return TextResult("fine", nil)
			}},
			{Tool: ToolInfo{Name: "fails", InputSchema: obj}, Call: func(context.Context, *Request, json.RawMessage) (*CallToolResult, error) {
				return TextResult("", errors.New("disk full"))
			}},
			{Tool: ToolInfo{Name: "panics", InputSchema: obj}, Call: func(context.Context, *Request, json.RawMessage) (*CallToolResult, error) {
				panic("boom")
			}},
			{Tool: ToolInfo{Name: "admin", InputSchema: obj}, Scope: "admin", Call: func(context.Context, *Request, json.RawMessage) (*CallToolResult, error) {
				return TextResult("granted", nil)
			}},
		},
	}
}

// TestObserverAndErrorHandler checks that requests, tool outcomes and
// registrations are reported as events, and that internal errors (a
// panicking tool) reach the error handler while the client gets -32603.
func TestObserverAndErrorHandler(t *testing.T) {
	rec := &recorder{}
	s := New(hooksDefinition(), Options{Observer: rec, Errors: rec})
	if !rec.has(&rec.events, EventComponentRegistered+" kind=tool name=admin") {
		t.Fatalf("registration not reported: %v", rec.events)
	}
	call := func(name string) *jsonrpc.Message {
		return handle(t, s, nil, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"`+name+`"}}`)
	}
	if r := call("ok"); r.Error != nil {
		t.Fatalf("ok: %v", r.Error)
	}
	if r := call("fails"); r.Error != nil || !json.Valid(r.Result) {
		t.Fatalf("fails must be a tool result, got %+v", r)
	}
	r := call("panics")
	if r.Error == nil || r.Error.Code != jsonrpc.CodeInternalError {
		t.Fatalf("panics: want -32603, got %+v", r)
	}
	for _, want := range []string{
		EventRequest + " method=tools/call",
		EventRequestSuccess + " method=tools/call",
		EventRequestError + " method=tools/call",
		EventToolSuccess + " tool=ok",
		EventToolFailed + " tool=fails",
	} {
		if !rec.has(&rec.events, want) {
			t.Errorf("missing event %q in %v", want, rec.events)
		}
	}
	if !rec.has(&rec.timings, EventRequestDuration+" method=tools/call") {
		t.Errorf("no duration timing: %v", rec.timings)
	}
	if len(rec.errs) != 1 {
		t.Errorf("want the panic logged once by the error handler, got %v", rec.errs)
	}
}

// TestPermission checks that a component's scope is enforced before its
// handler runs, with the caller the transport established.
func TestPermission(t *testing.T) {
	s := New(hooksDefinition(), Options{Permission: func(_ context.Context, req *Request, scope string) error {
		if !req.Auth.HasScope(scope) {
			return errors.New("missing scope " + scope)
		}
		return nil
	}})
	line := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"admin"}}`
	r := handle(t, s, &inbound{Auth: Principal{Subject: "eve"}}, line)
	if r.Error == nil || r.Error.Code != jsonrpc.CodeInvalidRequest {
		t.Fatalf("without the scope: want a refusal, got %+v", r)
	}
	r = handle(t, s, &inbound{Auth: Principal{Subject: "root", Scopes: []string{"admin"}}}, line)
	if r.Error != nil {
		t.Fatalf("with the scope: %v", r.Error)
	}
	if r := handle(t, s, &inbound{}, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"ok"}}`); r.Error != nil {
		t.Fatalf("unscoped tools need no permission: %v", r.Error)
	}
}

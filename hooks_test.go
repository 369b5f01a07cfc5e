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
			{Info: ToolInfo{Name: "ok", InputSchema: obj}, Call: func(context.Context, *Request, json.RawMessage) (*CallToolResult, error) {
				return TextResult("fine", nil)
			}},
			{Info: ToolInfo{Name: "fails", InputSchema: obj}, Call: func(context.Context, *Request, json.RawMessage) (*CallToolResult, error) {
				return TextResult("", errors.New("disk full"))
			}},
			{Info: ToolInfo{Name: "panics", InputSchema: obj}, Call: func(context.Context, *Request, json.RawMessage) (*CallToolResult, error) {
				panic("boom")
			}},
			{Info: ToolInfo{Name: "admin", InputSchema: obj}, Scope: "admin", Call: func(context.Context, *Request, json.RawMessage) (*CallToolResult, error) {
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

// TestDeclaredScopeNeverWaived: wherever the transport authenticates
// callers, a component's scope is enforced whatever the server's hooks
// say: an anonymous caller on such a route holds no scope, Grants can
// rename what a call needs (never empty it), and Permission only adds
// refusals. Without authentication (stdio) every caller may call.
func TestDeclaredScopeNeverWaived(t *testing.T) {
	call := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"admin"}}`
	refused := func(r *jsonrpc.Message, out outcome, scope string) bool {
		return r.Error != nil && out.refusal == refusedScope && out.scope == scope
	}
	waive := func(context.Context, *Request, string) error { return nil }
	s := New(hooksDefinition(), Options{Permission: waive, Grants: func(*Request, string) []string { return nil }})
	for _, in := range []*inbound{{Authenticated: true}, {Auth: Principal{Subject: "eve"}}, {Auth: Principal{ClientID: "bot"}, Authenticated: true}} {
		if r, out := handleOutcome(t, s, in, call); !refused(r, out, "admin") {
			t.Errorf("caller %+v: %+v, want a refusal asking for admin", in.Auth, r)
		}
	}
	if r := handle(t, s, &inbound{}, call); r.Error != nil {
		t.Errorf("stdio (no authentication): %v", r.Error)
	}
	if r := handle(t, s, &inbound{Auth: Principal{Subject: "root", Scopes: []string{"admin"}}, Authenticated: true}, call); r.Error != nil {
		t.Errorf("with the scope: %v", r.Error)
	}

	narrow := New(hooksDefinition(), Options{Grants: func(req *Request, scope string) []string { return []string{scope + ":" + req.Partition} }})
	in := &inbound{Auth: Principal{Subject: "root", Scopes: []string{"admin"}}, Authenticated: true, Partition: "east"}
	if r, out := handleOutcome(t, narrow, in, call); !refused(r, out, "admin:east") {
		t.Errorf("the declared scope where Grants names another: %+v, want a refusal asking for admin:east", r)
	}
	if r := handle(t, narrow, &inbound{Auth: Principal{Subject: "ops", Scopes: []string{"admin:east"}}, Partition: "east"}, call); r.Error != nil {
		t.Errorf("with the grant: %v", r.Error)
	}
}

// TestPrincipalID: a subject and a client of the same name, or the same
// subject from two issuers, are different principals; a session is owned
// by the principal that opened it only.
func TestPrincipalID(t *testing.T) {
	for _, c := range []struct {
		p    Principal
		want string
	}{
		{Principal{}, ""},
		{Principal{Subject: "alice", ClientID: "app"}, "sub:alice"},
		{Principal{ClientID: "alice"}, "client:alice"},
		{Principal{Subject: "alice", Issuer: "https://as.example"}, "https://as.example#sub:alice"},
		{Principal{ClientID: "alice", Issuer: "https://as.example"}, "https://as.example#client:alice"},
	} {
		if got := c.p.ID(); got != c.want {
			t.Errorf("%+v.ID() = %q, want %q", c.p, got, c.want)
		}
	}
	s := New(hooksDefinition(), Options{})
	line := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	in := &inbound{Auth: Principal{Subject: "alice"}}
	handle(t, s, in, line)
	if in.Session == nil {
		t.Fatal("initialize opened no session")
	}
	if !in.Session.OwnedBy(Principal{Subject: "alice", Scopes: []string{"x"}}) || in.Session.OwnedBy(Principal{ClientID: "alice"}) || in.Session.OwnedBy(Principal{}) {
		t.Error("the session is owned by someone other than its subject")
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

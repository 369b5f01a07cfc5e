package mcpgen

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"go.uber.org/zap"

	"github.com/mcpgen/mcpgen/internal/jsonrpc"
)

// RequestObserver is an [Observer] that also follows each request from the
// moment its params are decoded to the moment its answer is known: metrics
// by component and outcome, a trace span, an access log line. The runtime
// detects it on [Options.Observer] once, at start-up; with no observer, or
// one that does not implement it, the request path does none of this work.
//
// Both methods run on the request path, on the request's goroutine, and
// must be safe for concurrent use.
type RequestObserver interface {
	Observer
	// StartRequest is called before the handler runs. The context it
	// returns becomes the handler's (a tracer puts its span there).
	StartRequest(ctx context.Context, info *RequestInfo) context.Context
	// EndRequest is called once with the context StartRequest returned,
	// after the answer is known and before it is sent.
	EndRequest(ctx context.Context, info *RequestInfo)
}

// RequestInfo describes one request (or notification) to a
// [RequestObserver]. The runtime fills it in as it learns more: fields
// marked "at end" are set only when EndRequest is called.
type RequestInfo struct {
	// Method is the JSON-RPC method, as the client sent it.
	Method string
	// ID is the request id as sent; nil for a notification.
	ID json.RawMessage
	// Target is the tool or prompt name, or the resource URI, that the
	// params name, as the client sent it: any string, so not for metric
	// labels. Component is the low-cardinality one.
	Target string
	// Meta is the request's params._meta object as sent (trace context:
	// traceparent, tracestate, baggage; SEP-414), or nil.
	Meta json.RawMessage
	// Headers are the HTTP request headers; nil on stdio.
	Headers HeaderGetter
	// Auth is the caller, as the transport authenticated it.
	Auth Principal
	// Start is when the runtime began to serve the request.
	Start time.Time

	// Component is the registered tool, prompt, resource URI or resource
	// template that served the request; empty when none did (at end).
	Component string
	// Version is the request's protocol revision, once classified (at
	// end).
	Version string
	// SessionID is the legacy session the request ran in, if any (at
	// end).
	SessionID string
	// Duration is how long the request took to answer (at end).
	Duration time.Duration
	// Outcome is how the request ended: OutcomeOK, OutcomeToolError,
	// OutcomeError or OutcomeCancelled (at end).
	Outcome string
	// Error is the error answered when Outcome is OutcomeError (at end).
	Error *ProtocolError

	ctx     context.Context // StartRequest's context
	started bool
}

// Request outcomes in [RequestInfo.Outcome].
const (
	OutcomeOK        = "ok"
	OutcomeToolError = "tool_error" // a tools/call answered with isError: true
	OutcomeError     = "error"      // a JSON-RPC error
	// OutcomeCancelled is a request whose context was cancelled before
	// its answer was made: the client cancelled it
	// (notifications/cancelled), closed its HTTP request or stream, or
	// the server was shutting down. Whatever the handler returned then
	// (a tool error, an error made of the context's) is counted as this.
	OutcomeCancelled = "cancelled"
)

// Event names of the runtime's state changes, beside the request events in
// hooks.go.
const (
	// EventTaskState is a task changing state: tags from (empty for a new
	// task) and to (empty when a finished task is forgotten).
	EventTaskState = "mcp.task.state"
	// EventAuthRefused is a request refused by the transport's
	// authorization: tag reason (missing_token, invalid_token, expired,
	// audience, issuer, signature, insufficient_scope, ...).
	EventAuthRefused = "mcp.auth.refused"
)

// telemetry is where the runtime reports what happens: a logger, an
// observer of events and timings, a request observer and an error
// handler, each doing nothing when absent, so that the request path pays
// nothing for what nobody watches.
type telemetry struct {
	log  *zap.Logger
	obs  Observer        // nil: no events
	robs RequestObserver // obs, when it follows requests
	errs ErrorHandler
}

func newTelemetry(opts Options) *telemetry {
	t := &telemetry{log: opts.Logger, obs: opts.Observer, errs: opts.Errors}
	if t.log == nil {
		t.log = zap.NewNop()
	}
	if t.errs == nil {
		t.errs = nopErrors{}
	}
	t.robs, _ = opts.Observer.(RequestObserver)
	return t
}

// event reports one event with one tag, if anyone observes: with no
// observer the request path builds no tags at all.
func (t *telemetry) event(name, key, value string) {
	if t.obs != nil {
		t.obs.Event(name, Tag{key, value})
	}
}

// registered reports a component the server serves.
func (t *telemetry) registered(kind, name string) {
	if t.obs != nil {
		t.obs.Event(EventComponentRegistered, Tag{"kind", kind}, Tag{"name", name})
	}
}

// Scopes returns the permission scopes the server's components require,
// sorted, as the generator listed them in [Definition.Scopes]: what an
// authorization server's tokens may grant for this server.
func (s *Server) Scopes() []string { return s.def.Scopes }

// startObserved tells the request observer that a request starts, once
// its params are decoded; later calls do nothing.
func (t *telemetry) startObserved(ctx context.Context, info *RequestInfo, p *params) context.Context {
	if info.started {
		return info.ctx
	}
	info.started = true
	if p != nil {
		info.Meta = p.Meta.Raw
		info.Target = p.Name
		if info.Target == "" {
			info.Target = p.URI
		}
	}
	info.ctx = t.robs.StartRequest(ctx, info)
	return info.ctx
}

// endObserved completes info from the answer and reports it.
func (t *telemetry) endObserved(ctx context.Context, in *inbound, info *RequestInfo, err error) {
	ctx = t.startObserved(ctx, info, nil) // the params did not decode
	info.Duration = time.Since(info.Start)
	if in.Session != nil {
		info.SessionID = in.Session.ID
	}
	switch {
	case errors.Is(ctx.Err(), context.Canceled):
		// The caller cancelled: the request's context ended before its
		// answer was made.
		info.Outcome, info.Error = OutcomeCancelled, nil
	case err != nil:
		info.Outcome, info.Error = OutcomeError, jsonrpc.Wire(err)
	case info.Outcome == "":
		info.Outcome = OutcomeOK
	}
	t.robs.EndRequest(ctx, info)
}

// served records, for the request observer, which component served req.
func (r *Request) served(component string) {
	if r.incoming != nil && r.incoming.observed != nil {
		r.incoming.observed.Component = component
	}
}

// observeResult notes a tool result with isError as a tool error.
func (r *Request) observeResult(v any) {
	if r.incoming == nil || r.incoming.observed == nil {
		return
	}
	if res, ok := v.(*CallToolResult); ok && res.IsError {
		r.incoming.observed.Outcome = OutcomeToolError
	}
}

// InsufficientScopeError refuses a call whose caller does not hold the
// scope a component requires. A [Permission] function may return it; the
// default check does. Over HTTP with OAuth, it becomes 403 with
// WWW-Authenticate error="insufficient_scope", so that the client can ask
// its authorization server for more (step-up authorization). The
// [Client] hands such a 403 back as one too (within its
// [*HTTPStatusError]).
type InsufficientScopeError struct {
	// Scope is the scope the component requires; in a [Client]'s error,
	// the scope the server's challenge names.
	Scope string
}

// Error says which scope is missing.
func (e *InsufficientScopeError) Error() string {
	return fmt.Sprintf("insufficient scope: this needs scope %q", e.Scope)
}

// RequireScopes refuses p unless it holds one of scopes (a component's
// declared scope, or what [Grants] says stands for it), asking for the
// first; it is the check the server makes, for use where a request is
// refused before it reaches a component ([HTTPOptions].Partition).
func RequireScopes(p Principal, scopes ...string) error {
	for _, s := range scopes {
		if p.HasScope(s) {
			return nil
		}
	}
	if len(scopes) == 0 {
		return nil
	}
	return &InsufficientScopeError{Scope: scopes[0]}
}

package mcpgen

import (
	"context"
	"time"

	"go.uber.org/zap"
)

// Observer receives events and timings as they happen; it stores nothing
// itself. Implementations must be safe for concurrent use and fast: they run
// on the request path. A nil Observer in [Options] means none.
type Observer interface {
	// Event records one occurrence, e.g. "mcp.request.count" with method=tools/call.
	Event(name string, tags ...Tag)
	// Timing records a duration, e.g. "mcp.request.duration".
	Timing(name string, d time.Duration, tags ...Tag)
}

// Tag is a key/value label on an event.
type Tag struct{ Key, Value string }

// Event names emitted by the runtime.
const (
	EventRequest             = "mcp.request.count"
	EventRequestSuccess      = "mcp.request.success"
	EventRequestError        = "mcp.request.error"
	EventRequestDuration     = "mcp.request.duration"
	EventToolSuccess         = "mcp.tool.execution_success"
	EventToolFailed          = "mcp.tool.execution_failed"
	EventComponentRegistered = "mcp.component.registered"
)

// ErrorHandler logs errors that the runtime answered on the wire, for
// monitoring. It is separate from the error factory ([jsonrpc.Wire]) so that
// logging can be swapped without touching what clients see.
type ErrorHandler interface {
	LogError(ctx context.Context, msg string, err error, tags ...Tag)
}

// ZapErrors is an [ErrorHandler] that logs through zap.
type ZapErrors struct{ Logger *zap.Logger }

// LogError implements [ErrorHandler].
func (z ZapErrors) LogError(_ context.Context, msg string, err error, tags ...Tag) {
	fields := make([]zap.Field, 0, len(tags)+1)
	fields = append(fields, zap.Error(err))
	for _, t := range tags {
		fields = append(fields, zap.String(t.Key, t.Value))
	}
	z.Logger.Error(msg, fields...)
}

// Principal is who is calling, as established by the transport (a bearer
// token's subject, scopes and client, say). The zero value is an anonymous
// caller. It never holds the credential itself.
type Principal struct {
	Subject  string
	Scopes   []string
	ClientID string // the OAuth client the token was issued to, if known
}

// Anonymous reports whether p names nobody (no transport authentication).
func (p Principal) Anonymous() bool { return p.Subject == "" && p.ClientID == "" }

// HasScope reports whether p holds scope.
func (p Principal) HasScope(scope string) bool {
	for _, s := range p.Scopes {
		if s == scope {
			return true
		}
	}
	return false
}

// Permission decides whether a request may use a component that requires
// scope (non-empty). It runs before the handler; a non-nil error refuses the
// call with that error. When [Options.Permission] is nil, anonymous callers
// may use every component and authenticated ones need the scope
// ([RequireScopes]).
type Permission func(ctx context.Context, req *Request, scope string) error

type nopObserver struct{}

func (nopObserver) Event(string, ...Tag)                 {}
func (nopObserver) Timing(string, time.Duration, ...Tag) {}

type nopErrors struct{}

func (nopErrors) LogError(context.Context, string, error, ...Tag) {}

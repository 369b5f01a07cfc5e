package mcpgen

import (
	"context"
	"time"

	"go.uber.org/zap"
)

// Observer receives the events and timings the runtime emits as they
// happen ([Options].Observer); it stores nothing itself. Implementations
// must be safe for concurrent use and fast: they run on the request path.
// A nil Observer in [Options] means none, and then the request path does
// no observing work at all. The metrics and tracing packages provide
// Prometheus and OpenTelemetry observers, [NewAccessLog] a zap access
// log, and [CombineObservers] feeds several.
type Observer interface {
	// Event records one occurrence, e.g. "mcp.request.count" with method=tools/call.
	Event(name string, tags ...Tag)
	// Timing records a duration, e.g. "mcp.request.duration".
	Timing(name string, d time.Duration, tags ...Tag)
}

// Tag is a key/value label on an event.
type Tag struct {
	// Key names the label, e.g. "method".
	Key string
	// Value is the label's value, e.g. "tools/call".
	Value string
}

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
	// LogError records err, which the runtime answered with on the wire,
	// with msg saying what failed and tags the request's labels.
	LogError(ctx context.Context, msg string, err error, tags ...Tag)
}

// ZapErrors is an [ErrorHandler] that logs through zap.
type ZapErrors struct {
	// Logger receives each error at error level; it must not be nil.
	Logger *zap.Logger
}

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
//
// A user and a client are different principals even when they share a
// name: a token naming the subject alice and one naming only the client
// alice have different [Principal.ID]s, so they share no session, task,
// limit or private data.
type Principal struct {
	// Subject is whom the token speaks for (OAuth's sub: a user, or the
	// subject the authorization server gave a client acting for itself);
	// empty when the token names only a client.
	Subject string
	// Scopes are the scopes the token grants, which components' declared
	// scopes are checked against.
	Scopes []string
	// ClientID is the OAuth client the token was issued to, if known.
	ClientID string
	// Issuer is the authorization server that vouched for Subject and
	// ClientID (its issuer identifier); empty when the transport's
	// authentication does not say.
	Issuer string
}

// Anonymous reports whether p names nobody (no transport authentication).
func (p Principal) Anonymous() bool { return p.Subject == "" && p.ClientID == "" }

// ID is p's identity as one string, the key under which the runtime keeps
// what p owns: "sub:" and the subject, or "client:" and the client ID for
// a token that names only a client, preceded by the issuer and "#" when
// it is known (an issuer identifier holds no "#"); "" for an anonymous
// caller. Two principals are the same caller exactly when their IDs are
// equal.
func (p Principal) ID() string {
	var id string
	switch {
	case p.Subject != "":
		id = "sub:" + p.Subject
	case p.ClientID != "":
		id = "client:" + p.ClientID
	default:
		return ""
	}
	if p.Issuer != "" {
		return p.Issuer + "#" + id
	}
	return id
}

// HasScope reports whether p holds scope.
func (p Principal) HasScope(scope string) bool {
	for _, s := range p.Scopes {
		if s == scope {
			return true
		}
	}
	return false
}

// Permission adds conditions to a component's declared scope (non-empty):
// it runs before the handler, once the caller has been found to hold the
// scope or one of its [Grants], and a non-nil error refuses the call with
// that error (an [*InsufficientScopeError] for a scope to ask for). It can
// refuse a call the declared scope would allow, never allow one it would
// refuse: the declared scope is enforced whatever it returns.
type Permission func(ctx context.Context, req *Request, scope string) error

// Grants names the scopes that stand for a component's declared scope on
// one request: a caller holding any of them may use the component, as if
// it held scope. A shared graph's own scope standing for memory:write on
// that graph alone is the example: the server grants a narrower right, in
// the request's terms. A nil or empty answer means the declared scope
// itself, so a Grants function can narrow or rename what a call needs,
// never waive it; list the declared scope among the answers to keep it
// sufficient. The first answer is the one a refusal asks for
// ([InsufficientScopeError]).
type Grants func(req *Request, scope string) []string

type nopObserver struct{}

func (nopObserver) Event(string, ...Tag)                 {}
func (nopObserver) Timing(string, time.Duration, ...Tag) {}

type nopErrors struct{}

func (nopErrors) LogError(context.Context, string, error, ...Tag) {}

package mcpgen

import (
	"github.com/mcpgen/mcpgen/internal/server"
)

// Server serves one generated component registry over any number of
// transports at once (see [ServeStdio] and [HTTPHandler]). A generated
// package's New returns one. Close ends its subscription streams and legacy
// sessions; call it when shutting down. It is safe for concurrent use.
type Server = server.Server

// Options tune a [Server]: logger, observer, error handler, permission check,
// page size, signing secret, session idle time and caps, message size,
// per-principal limits, the tasks extension, skills provided by code, and
// the cluster backend shared by replicas. The zero value is ready to use:
// no logs, no events, every scope granted, everything in this process.
type Options = server.Options

// Definition is what a generated package knows about one server: its
// identity and its components. Generated code fills it in and passes it to
// [New]; you do not normally build one by hand.
type Definition = server.Definition

// New returns a server for def. Generated packages call it from their own
// New, which also takes the components' dependencies.
func New(def Definition, opts Options) *Server { return server.New(def, opts) }

// Registry entries: one per component, emitted by mcpgen into the generated
// package and listed in [Definition].
type (
	// Tool is a registered tool: its list entry ([ToolInfo]), the scope a
	// caller needs, its task support and the adapter that calls the
	// component.
	Tool = server.Tool
	// Resource is a registered resource with a fixed URI.
	Resource = server.Resource
	// Template is a registered resource template: URIs matching it are read
	// by binding the template's variables.
	Template = server.Template
	// Prompt is a registered prompt.
	Prompt = server.Prompt
	// Cache carries the 2026-07-28 cache hints (time to live, scope) of a
	// list or read result.
	Cache = server.Cache
	// ToolHandler is the generated adapter of a tool: it decodes arguments
	// that passed the input schema, calls the component and encodes its
	// result.
	ToolHandler = server.ToolHandler
	// CompleteHandler returns candidate values for an argument, best first.
	CompleteHandler = server.CompleteHandler
)

// What a handler sees of its call.
type (
	// Request is what a handler knows about the call it serves, whatever the
	// protocol era: the negotiated revision, the client, the [Principal],
	// the legacy [Session] if any, and one API for progress
	// (Request.Progress), logging to the client (Request.Log), list-changed
	// notices (Request.ListChanged) and asking the client for input
	// (Request.Ask, Request.AskAll: elicitation, sampling, roots). A
	// component method receives it by declaring a *mcpgen.Request parameter.
	Request = server.Request
	// CompleteRequest is what completion/complete asks about one argument: a
	// component's Complete method receives it.
	CompleteRequest = server.CompleteRequest
	// Question is one server-to-client request for Request.AskAll.
	Question = server.Question
	// InputRequest is one server-to-client request carried in an
	// input_required result (2026-07-28).
	InputRequest = server.InputRequest
	// InputRequiredError is what Request.Ask returns in the stateless era
	// while the client has not answered yet; return it unchanged and the
	// runtime turns it into an input_required result.
	InputRequiredError = server.InputRequiredError
	// Principal is who is calling, as established by the transport (a
	// bearer token's subject and scopes, say); the zero value is anonymous.
	Principal = server.Principal
	// Session is the state of a legacy (initialize-handshake) client:
	// negotiated revision, client identity and capabilities, log level and
	// subscriptions. Stateless 2026-07-28 requests have none.
	Session = server.Session
)

// Cross-cutting hooks, all optional: a nil value in [Options] means none.
type (
	// Observer receives events and timings as they happen (request counts,
	// durations, tool outcomes); it stores nothing itself. Implementations
	// must be safe for concurrent use and fast: they run on the request path.
	Observer = server.Observer
	// Tag is a key/value label on an event.
	Tag = server.Tag
	// ErrorHandler logs errors that were answered on the wire, for
	// monitoring; it does not change what clients see.
	ErrorHandler = server.ErrorHandler
	// ZapErrors is an [ErrorHandler] that logs to a zap logger.
	ZapErrors = server.ZapErrors
	// Permission decides whether a request may use a component that
	// requires a scope; a non-nil error refuses the call.
	Permission = server.Permission
)

// Event names an [Observer] receives.
const (
	EventRequest             = server.EventRequest
	EventRequestSuccess      = server.EventRequestSuccess
	EventRequestError        = server.EventRequestError
	EventRequestDuration     = server.EventRequestDuration
	EventToolSuccess         = server.EventToolSuccess
	EventToolFailed          = server.EventToolFailed
	EventComponentRegistered = server.EventComponentRegistered
)

// Limits are per-principal rate and concurrency limits ([Options].Limits);
// the zero value sets none. A refused request gets -31429, and over HTTP
// 429 with Retry-After.
type Limits = server.Limits

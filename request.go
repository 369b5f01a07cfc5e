package mcpgen

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"

	"github.com/mcpgen/mcpgen/internal/jsonrpc"
)

// streamPeer is a transport's channel back to the client for one incoming message.
// Notify sends a notification tied to the request; Call sends a
// server-to-client request and waits for its answer. Both may be called from
// any goroutine while the request is being handled, and must return an error
// (not block forever) once the request has been answered or the client is
// gone.
type streamPeer interface {
	Notify(ctx context.Context, method string, params any) error
	Call(ctx context.Context, method string, params any) (json.RawMessage, error)
}

// Request is what a handler knows about the call it serves, whatever the
// protocol era: the negotiated revision, the client, and one API for
// progress, logging and asking the client for input. Component methods that
// declare a *Request parameter receive it.
type Request struct {
	// Method is the JSON-RPC method being served (tools/call, ...).
	Method string
	// Version is the negotiated protocol revision.
	Version string
	// Client names the client, from initialize (legacy) or from the
	// request's _meta (2026-07-28).
	Client Implementation
	// ClientCaps are the client's capabilities as it sent them, from the
	// same place as Client.
	ClientCaps json.RawMessage
	// Session is the legacy session the request belongs to; nil for
	// stateless (2026-07-28) requests.
	Session *Session
	// Auth is who is calling, as authentication established it; the zero
	// Principal when the server does not authenticate.
	Auth Principal
	// Partition is the part of the server the request belongs to, as the
	// transport decided it ([HTTPOptions].Partition; "" when there are no
	// partitions, and on stdio). Partitions share nothing a client can
	// see: a legacy session, a listen stream and a task belong to the
	// partition of the request that opened them, are not found from
	// another, and the notifications a request sends
	// ([Request.ResourceUpdated], [Request.ListChanged]) reach its own
	// partition only. What a partition means to handlers (a tenant, a
	// named graph) is theirs to decide.
	Partition string

	server         *Server
	incoming       *inbound
	peer           streamPeer
	meta           json.RawMessage // the request's whole _meta
	progressToken  json.RawMessage
	logLevel       string
	inputResponses map[string]json.RawMessage
	requestState   string
	task           *task // set while the request runs as a task
	sessionFresh   bool  // the session's shared state was re-read (cluster)
}

// authenticated reports whether the transport authenticated the caller,
// so that components' declared scopes apply to it: a named principal
// always, an anonymous one where authentication is on.
func (r *Request) authenticated() bool {
	return !r.Auth.Anonymous() || r.incoming != nil && r.incoming.Authenticated
}

// Server is the server serving the request (nil for a Request made
// outside one), for calls that take it: [RecordFeed], [EmitTo].
func (r *Request) Server() *Server { return r.server }

// Modern reports whether the request uses the stateless 2026-07-28 era.
func (r *Request) Modern() bool { return modernVersion(r.Version) }

// Meta returns the raw value of a _meta key of the request, or nil.
func (r *Request) Meta(key string) json.RawMessage {
	var all map[string]json.RawMessage
	_ = json.Unmarshal(r.meta, &all)
	return all[key]
}

// Progress reports progress to the client when it asked for it (sent a
// progress token); otherwise it does nothing.
func (r *Request) Progress(ctx context.Context, progress, total float64, message string) error {
	if len(r.progressToken) == 0 || r.peer == nil {
		return nil
	}
	p := map[string]any{"progressToken": r.progressToken, "progress": progress}
	if total > 0 {
		p["total"] = total
	}
	if message != "" {
		p["message"] = message
	}
	return r.peer.Notify(ctx, "notifications/progress", p)
}

// Log sends a notifications/message to the client if level is at or above
// the level the client chose (per session in the legacy era, per request in
// 2026-07-28). Without a chosen level nothing is sent.
func (r *Request) Log(ctx context.Context, level, logger string, data any) error {
	threshold := r.logLevel
	if r.Session != nil && threshold == "" {
		if r.server.cluster != nil && !r.sessionFresh {
			// logging/setLevel may have reached another replica just
			// before this request: read the shared state once.
			r.sessionFresh = true
			r.server.sessions.stillShared(r.Session)
		}
		threshold = r.Session.LogLevel()
	}
	if threshold == "" || r.peer == nil || logRank(level) < logRank(threshold) {
		return nil
	}
	p := map[string]any{"level": level, "data": data}
	if logger != "" {
		p["logger"] = logger
	}
	return r.peer.Notify(ctx, "notifications/message", p)
}

// ListChanged tells clients that the list of kind ("tools", "prompts" or
// "resources") changed.
func (r *Request) ListChanged(kind string) {
	r.server.notes.broadcast(listChanged(kind).in(r.Partition))
}

// Ask obtains the client's answer to a server-to-client request
// (elicitation/create, sampling/createMessage, roots/list). In a legacy
// session the request is sent and awaited. In the stateless era the answer
// comes from the client's retry; until then Ask returns an
// [*InputRequiredError] that the handler must return unchanged, and the
// runtime turns it into an input_required result. Inside a task the task
// waits in input_required for tasks/update. key names this request among
// the handler's requests and must be stable across retries.
func (r *Request) Ask(ctx context.Context, key, method string, params any) (json.RawMessage, error) {
	answers, err := r.AskAll(ctx, Question{Key: key, Method: method, Params: params})
	if err != nil {
		return nil, err
	}
	return answers[key], nil
}

// Question is one server-to-client request for [Request.AskAll].
type Question struct {
	// Key names the question among the handler's; stable across retries.
	Key string
	// Method is elicitation/create, sampling/createMessage or roots/list.
	Method string
	// Params are the request's parameters, encoded as JSON.
	Params any
}

// AskAll asks several questions at once and returns the answers by key. In
// the stateless era the unanswered ones travel together in one
// input_required result; in a task they are outstanding together and may be
// answered by tasks/update in any grouping; in a legacy session they are
// sent one after the other.
func (r *Request) AskAll(ctx context.Context, qs ...Question) (map[string]json.RawMessage, error) {
	answers := make(map[string]json.RawMessage, len(qs))
	missing := &InputRequiredError{Requests: map[string]InputRequest{}}
	for _, q := range qs {
		if v, ok := r.inputResponses[q.Key]; ok {
			answers[q.Key] = v
		} else {
			missing.Requests[q.Key] = InputRequest{Method: q.Method, Params: q.Params}
		}
	}
	if len(missing.Requests) == 0 {
		return answers, nil
	}
	if r.Modern() && r.task == nil {
		return nil, missing // checkClientCaps runs when it becomes a result
	}
	// Never ask what the client did not declare: on the request that
	// created the task, or in initialize (2025-11-25 elicitation: "MUST
	// NOT send ... modes that are not supported by the client").
	if err := r.checkClientCaps(missing); err != nil {
		return nil, err
	}
	if r.task != nil {
		got, err := r.task.ask(ctx, missing.Requests)
		maps.Copy(answers, got)
		return answers, err
	}
	if r.peer == nil || r.Session == nil {
		return nil, fmt.Errorf("%w: asking the client needs an initialized session or a stateless request", jsonrpc.ErrInvalidRequest)
	}
	for _, q := range qs {
		if _, done := answers[q.Key]; done {
			continue
		}
		v, err := r.peer.Call(ctx, q.Method, q.Params)
		if err != nil {
			return nil, err
		}
		answers[q.Key] = v
	}
	return answers, nil
}

// InputRequest is one server-to-client request carried in an
// input_required result.
type InputRequest struct {
	// Method is the server-to-client method (elicitation/create, ...).
	Method string `json:"method"`
	// Params are its parameters.
	Params any `json:"params,omitempty"`
}

// InputRequiredError is returned by [Request.Ask] in the stateless era when
// the client has not yet answered: the runtime answers with an
// input_required result carrying the requests, and the client retries
// with their answers (inputResponses) and the requestState the server
// issued. The state is signed and bound to the method, the component, a
// digest of the arguments, the caller and an expiry, and it carries the
// answers of earlier rounds, so that a handler asking several questions
// in turn sees them all.
type InputRequiredError struct {
	// Requests are the questions still unanswered, by key.
	Requests map[string]InputRequest
}

// Error says how many questions wait for the client.
func (e *InputRequiredError) Error() string {
	return fmt.Sprintf("input required: %d request(s) for the client", len(e.Requests))
}

var logLevels = map[string]int{
	"debug": 0, "info": 1, "notice": 2, "warning": 3, "error": 4, "critical": 5, "alert": 6, "emergency": 7,
}

func logRank(level string) int {
	if r, ok := logLevels[level]; ok {
		return r
	}
	return 0
}

type requestKey struct{}

// withRequest returns ctx carrying req, for RequestFrom.
func withRequest(ctx context.Context, req *Request) context.Context {
	return context.WithValue(ctx, requestKey{}, req)
}

// RequestFrom returns the request the runtime is serving with ctx, from
// a component's handler down to what it calls, or nil outside one. It is
// for a dependency that sees only the context, such as a store that
// picks the data of the request's [Request.Partition]; handlers declare
// the *Request parameter instead.
func RequestFrom(ctx context.Context) *Request {
	r, _ := ctx.Value(requestKey{}).(*Request)
	return r
}

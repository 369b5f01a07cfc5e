package mcpgen

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"strings"
	"sync"
	"time"
	"unicode"

	"go.uber.org/zap"

	"github.com/mcpgen/mcpgen/internal/jsonrpc"
)

// HTTP header names used by the transport.
const (
	hdrProtocolVersion = "MCP-Protocol-Version"
	hdrSessionID       = "Mcp-Session-Id"
)

// Shared header values (net/http never modifies them).
var (
	ctJSON      = []string{"application/json"}
	ctSSE       = []string{"text/event-stream"}
	noCache     = []string{"no-cache"}
	noBuffering = []string{"no"}
)

// DefaultKeepAlive is the default of [HTTPOptions.KeepAlive].
const DefaultKeepAlive = 15 * time.Second

// EventTransportRefused is a request or connection the HTTP transport
// refused before it reached the runtime, for the [Observer]; tag reason:
// forbidden (Host or Origin, 403), body_timeout (the body did not arrive
// within [Limits].HTTPReadTimeout, 408), unavailable (a session lookup while the
// cluster's shared state is unreachable, 503), max_conns_per_ip and
// max_conns (connections closed at once by [Flags.Run]'s caps). Refused
// authentication is [EventAuthRefused], a body over the message limit and
// requests over a per-principal limit [EventLimitRefused].
const EventTransportRefused = "mcp.transport.refused"

// HTTPOptions configure [HTTPHandler]: the Origin and Host checks that
// guard against DNS rebinding (loopback is always allowed), SSE
// keep-alives, a logger and the authentication of callers. The zero value
// is ready to use.
type HTTPOptions struct {
	// AllowedOrigins lists extra Origin values (scheme://host[:port],
	// compared case-insensitively) that may call the endpoint; "*" allows
	// any origin. See [HTTPHandler] for the rules.
	AllowedOrigins []string
	// AllowedHosts lists extra Host header values ("name" for any port,
	// "name:port" for one); "*" disables the Host check.
	AllowedHosts []string
	// KeepAlive is the interval of SSE keep-alive comments on long
	// responses and GET streams (default 15s; negative disables them).
	KeepAlive time.Duration
	// Logger receives transport diagnostics; nil logs nothing.
	Logger *zap.Logger
	// Auth establishes who sends each request; nil treats every caller
	// as anonymous. A refusal answers 401 (with WWW-Authenticate: Bearer),
	// or the status and headers of the [*AuthError] it returns. When Auth
	// also implements [ScopeChallenger], a call to a component whose scope
	// the caller lacks is answered 403 with its challenge (OAuth step-up);
	// otherwise with a JSON-RPC error. The oauth package provides an OAuth
	// 2.1 resource server to use here.
	Auth Authenticator
	// Partition, when set, puts each request in a partition of the
	// server ([Request.Partition]) once Auth has established its caller:
	// a tenant named by the URL path (mount the handler on a pattern such
	// as "/graphs/{name}/mcp" and read r.PathValue), or the caller's own.
	// A partition must hold no control character. An error refuses the
	// request: an [*AuthError] chooses the status and headers, any other
	// error is 403.
	Partition func(r *http.Request, p Principal) (string, error)
}

type partitionKey struct{}

// partitionOf returns the partition ServeHTTP put r in.
func partitionOf(r *http.Request) string {
	p, _ := r.Context().Value(partitionKey{}).(string)
	return p
}

// Authenticator establishes the [Principal] of an HTTP request
// ([HTTPOptions].Auth). Implementations must be safe for concurrent use.
type Authenticator interface {
	// Authenticate returns who sends r, or an error that refuses the
	// request: an [*AuthError] chooses the status and headers, any other
	// error is a 401.
	Authenticate(r *http.Request) (Principal, error)
}

// AuthFunc adapts a function to an [Authenticator].
type AuthFunc func(*http.Request) (Principal, error)

// Authenticate calls f(r).
func (f AuthFunc) Authenticate(r *http.Request) (Principal, error) { return f(r) }

// ScopeChallenger is implemented by an [Authenticator] that answers a
// call lacking a component's scope with its own refusal, such as OAuth's
// 403 error="insufficient_scope" naming the scopes to ask for.
type ScopeChallenger interface {
	// InsufficientScope returns the refusal of a call by p to a
	// component that requires scope, which p's credentials lack.
	InsufficientScope(p Principal, scope string) *AuthError
}

// AuthError is a refusal an [Authenticator] returns: its Status (401 when
// zero), extra headers such as WWW-Authenticate, a short Reason for
// observers (the reason tag of [EventAuthRefused]; "missing_token",
// "expired", ...) and the underlying error. The client's body is a
// JSON-RPC error naming only the status and Description.
type AuthError struct {
	// Status is the HTTP status of the refusal; zero means 401.
	Status int
	// Header holds headers to add to the refusal, such as
	// WWW-Authenticate.
	Header http.Header
	// Reason is a short word for observers, the reason tag of
	// [EventAuthRefused] ("missing_token", "expired", ...); the client
	// does not see it.
	Reason string
	// Description says what was refused, in the message of the client's
	// JSON-RPC error after the status.
	Description string
	// Err is the underlying error, for logs and errors.Is; the client
	// does not see it.
	Err error
}

// Error returns the underlying error's text, or the status text.
func (e *AuthError) Error() string {
	if e.Err == nil {
		return http.StatusText(e.status())
	}
	return e.Err.Error()
}

// Unwrap returns the underlying error.
func (e *AuthError) Unwrap() error { return e.Err }

func (e *AuthError) status() int {
	if e.Status == 0 {
		return http.StatusUnauthorized
	}
	return e.Status
}

// HTTPHandler returns the Streamable HTTP endpoint of srv as an ordinary
// http.Handler, to mount at any path of your own mux. One endpoint speaks
// the stateless 2026-07-28 revision and the legacy revisions (2025-03-26,
// 2025-06-18, 2025-11-25: initialize handshake, Mcp-Session-Id sessions,
// GET notification stream, DELETE) at the same time.
//
// # Mounting
//
// The handler does not look at the URL path, so mount it wherever you
// like. Several servers can
// share one mux, each with its own Handler (use exactly one Handler per
// [Server], since the Handler owns the session's GET stream):
//
//	mux := http.NewServeMux()
//	mux.Handle("/mcp", HTTPHandler(notes, HTTPOptions{}))
//	mux.Handle("/admin/mcp", HTTPHandler(admin, HTTPOptions{}))
//	hs := &http.Server{Addr: "127.0.0.1:8080", Handler: mux}
//	hs.RegisterOnShutdown(notes.Close) // ends listen and GET streams
//	hs.RegisterOnShutdown(admin.Close)
//
// # Shutdown
//
// [http.Server.Shutdown] waits for open responses, and SSE streams stay open
// until the server ends them, so call [Server.Close] when shutting down
// (RegisterOnShutdown as above, or just before Shutdown): it ends
// subscriptions/listen streams with their final result and ends legacy
// sessions, which closes their GET streams (both with an SSE retry hint,
// so clients reconnect elsewhere a second later) and fails pending
// server-to-client requests. Streams also end when the client disconnects.
// In-flight tool calls are not interrupted; bound them with Shutdown's
// context. Tasks run on after their call was answered: call
// [Server.Drain] after Shutdown so that they finish (what Flags.Run does
// within --shutdown-grace).
//
// # DNS rebinding, Host and Origin
//
// Protection is on by default. When the connection arrived on a loopback
// address (a server bound to 127.0.0.1 or [::1], or reached through it), the
// Host header must name localhost, 127.0.0.1 or [::1] (any port) or be
// listed in [HTTPOptions.AllowedHosts]. On other addresses the Host header is
// checked only when AllowedHosts is set. An Origin header, when present,
// must name a loopback host, a host in AllowedHosts, the request's own
// Host, or be listed exactly in [HTTPOptions.AllowedOrigins]. Refusals are 403
// with a JSON-RPC error body without id.
//
// To serve other names, list them: AllowedHosts: []string{"mcp.example.com"}
// (any port) or "mcp.example.com:8443" (that port only), which is needed
// behind a reverse proxy on loopback. To let a browser app on another
// origin call the endpoint, add AllowedOrigins:
// []string{"https://app.example.com"}. "*" in either list turns that check
// off. CORS preflight (OPTIONS) is not answered here; wrap the Handler with
// CORS middleware if browsers need it.
//
// # Authorization
//
// [HTTPOptions].Auth establishes the caller of every request. The oauth
// package makes the endpoint an OAuth 2.1 resource server with it:
// requests without a valid bearer token get 401 with a WWW-Authenticate
// challenge naming the Protected Resource Metadata, and a call to a
// component whose scope the token lacks gets 403
// error="insufficient_scope" naming the scopes to ask for. The token's
// subject, scopes and client reach handlers as [Request].Auth.
//
// # Eras
//
// A POST whose MCP-Protocol-Version header names 2026-07-28 or later, or
// whose body carries the 2026-07-28 _meta (a protocol version), is served
// statelessly: Mcp-Session-Id is ignored, the headers are checked against
// the body by the core (-32020, or -32022 for a revision it does not speak),
// and a client disconnect cancels the handler. Any other POST is legacy:
// initialize opens a session whose id is returned in Mcp-Session-Id; every
// later message must carry that header (400 without it) and runs in the
// session (404 once it ended, or when another principal opened it), and a
// disconnect does not cancel it; the client sends notifications/cancelled
// instead. A legacy MCP-Protocol-Version the server does not speak is 400.
// JSON-RPC batches are accepted only in 2025-03-26 sessions.
//
// # Refusals and limits
//
// A POST must accept both application/json and text/event-stream, a GET
// text/event-stream (406 otherwise), as both revisions require. A body
// over the server's MaxMessageBytes is 413; requests over a per-principal
// rate or concurrency limit, or an initialize past the session caps when
// every session is busy, are 429 with Retry-After (see [Options]). A
// POST body that has not arrived within [Limits].HTTPReadTimeout is 408,
// and a response the client does not read within HTTPWriteTimeout is
// abandoned; the body buffer grows with the bytes that arrive, whatever
// Content-Length announces.
// docs/operations.md shows each refusal on the wire.
//
// Responses start as application/json. As soon as the handler sends a
// notification (progress, logs, listen notifications) or, in a legacy
// session, a server-to-client request (sampling, elicitation, roots), the
// response becomes an SSE stream: one "event: message" per JSON-RPC message,
// each on a single data line, the response last. A long response with
// nothing to say receives an SSE keep-alive comment every
// [HTTPOptions.KeepAlive], which also turns a slow JSON response into SSE when
// the client accepts it.
//
// # Sessions: GET and DELETE
//
// A legacy client may open one GET stream per session for session-wide
// notifications (list changes, resources/updated, logs outside a request).
// A second GET for the same session replaces the first, which is closed: a
// client reconnecting after a network failure is never locked out by a
// stream the server has not yet noticed is dead. Streams are not resumable
// (Last-Event-ID is ignored). DELETE ends the session (204), cancels its
// running requests and closes its GET stream. GET and DELETE answer 400
// without Mcp-Session-Id, 404 for an unknown session, and 405 (Allow: POST)
// to a 2026-07-28 client.
func HTTPHandler(srv *Server, opts HTTPOptions) http.Handler {
	lim := srv.opts.Limits
	h := &handler{srv: srv, opts: opts, log: opts.Logger, readTimeout: lim.HTTPReadTimeout, writeTimeout: lim.HTTPWriteTimeout}
	if h.opts.KeepAlive == 0 {
		h.opts.KeepAlive = DefaultKeepAlive
	}
	if h.log == nil {
		h.log = zap.NewNop()
	}
	h.guard = newGuard(opts.AllowedHosts, opts.AllowedOrigins)
	h.gets.m = map[string]*getStream{}
	h.inflight.m = map[string]map[string]*inflightEntry{}
	// In a cluster: cancellations and DELETEs that reached another replica.
	srv.cluster.onRemoteCancel(func(sessionID string, requestID json.RawMessage) {
		if requestID == nil {
			h.inflight.cancelAll(sessionID)
			return
		}
		h.inflight.cancel(sessionID, requestID)
	})
	return h
}

type handler struct {
	srv   *Server
	opts  HTTPOptions
	log   *zap.Logger
	guard guard
	// readTimeout and writeTimeout are the server's Limits.HTTPReadTimeout
	// and HTTPWriteTimeout (negative: none).
	readTimeout, writeTimeout time.Duration

	gets struct {
		mu sync.Mutex
		m  map[string]*getStream // session id -> its GET stream
	}
	inflight inflight
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if h.writeTimeout > 0 {
		// Every write is bounded. This deadline covers what goes out
		// early (100 Continue), the deferred one the answer net/http
		// flushes after ServeHTTP returns; JSON answers and SSE events
		// set their own as they write (http_stream.go).
		rc := http.NewResponseController(w)
		h.writeDeadline(rc)
		defer h.writeDeadline(rc)
	}
	if err := h.guard.check(r); err != nil {
		h.log.Debug("request refused", zap.String("host", r.Host), zap.String("origin", r.Header.Get("Origin")), zap.Error(err))
		h.event(EventTransportRefused, "reason", "forbidden")
		writeError(w, http.StatusForbidden, nil, jsonrpc.Errorf(jsonrpc.CodeInvalidRequest, "Forbidden: %v", err))
		return
	}
	switch r.Method {
	case http.MethodPost, http.MethodGet, http.MethodDelete:
	default:
		w.Header().Set("Allow", "GET, POST, DELETE")
		writeError(w, http.StatusMethodNotAllowed, nil, jsonrpc.Errorf(jsonrpc.CodeInvalidRequest, "Method not allowed: %s", r.Method))
		return
	}
	var who Principal
	if h.opts.Auth != nil {
		p, err := h.opts.Auth.Authenticate(r)
		if err != nil {
			h.refuse(w, err)
			return
		}
		who = p
	}
	if h.opts.Partition != nil {
		p, err := h.opts.Partition(r, who)
		if err == nil && strings.IndexFunc(p, unicode.IsControl) >= 0 {
			err = fmt.Errorf("partition %q holds a control character", p)
		}
		if err != nil {
			h.refuse(w, h.partitionRefusal(who, err))
			return
		}
		r = r.WithContext(context.WithValue(r.Context(), partitionKey{}, p))
	}
	switch r.Method {
	case http.MethodPost:
		h.post(w, r, who)
	case http.MethodGet:
		h.get(w, r, who)
	default:
		h.delete(w, r, who)
	}
}

// partitionRefusal is the answer to a request whose partition
// HTTPOptions.Partition refused with err: an [*AuthError] as it is, a
// missing scope ([*InsufficientScopeError]) as Auth's step-up challenge
// when it has one, anything else 403.
func (h *handler) partitionRefusal(who Principal, err error) error {
	var ae *AuthError
	if errors.As(err, &ae) {
		return ae
	}
	var ise *InsufficientScopeError
	if sc, ok := h.opts.Auth.(ScopeChallenger); ok && errors.As(err, &ise) {
		if refusal := sc.InsufficientScope(who, ise.Scope); refusal != nil {
			return refusal
		}
	}
	return &AuthError{Status: http.StatusForbidden, Reason: "partition", Description: "Forbidden: " + err.Error(), Err: err}
}

// refuse answers a refused authentication: its status and headers (a
// WWW-Authenticate challenge on every 401), and a JSON-RPC error body
// naming the status and the description (never the credentials). The
// body's code follows the status: a 4xx is the client's request
// (-32600, invalid request), a 5xx is ours, e.g. an authorization server
// that cannot be reached (-32603, internal error).
func (h *handler) refuse(w http.ResponseWriter, err error) {
	ae, ok := err.(*AuthError)
	if !ok && !errors.As(err, &ae) {
		ae = &AuthError{Err: err}
	}
	reason := ae.Reason
	if reason == "" {
		reason = "unspecified" // an Authenticator that gave none
	}
	h.event(EventAuthRefused, "reason", reason)
	for k, vs := range ae.Header {
		for _, v := range vs {
			w.Header().Add(k, v)
		}
	}
	status := ae.status()
	if status == http.StatusUnauthorized && w.Header().Get("WWW-Authenticate") == "" {
		w.Header().Set("WWW-Authenticate", "Bearer")
	}
	msg := http.StatusText(status)
	if ae.Description != "" {
		msg += ": " + ae.Description
	}
	code := int64(jsonrpc.CodeInvalidRequest)
	if status >= 500 {
		code = jsonrpc.CodeInternalError
	}
	writeError(w, status, nil, jsonrpc.Errorf(code, "%s", msg))
}

// event reports a transport event with one tag to the server's observer.
func (h *handler) event(name, key, value string) {
	if obs := h.srv.tel.obs; obs != nil {
		obs.Event(name, Tag{Key: key, Value: value})
	}
}

// writeDeadline bounds the writes that follow by the write timeout from
// now (a handler without one calls it only when it is > 0). Writers
// that cannot take a deadline (httptest.ResponseRecorder) are left as
// they are.
func (h *handler) writeDeadline(rc *http.ResponseController) {
	_ = rc.SetWriteDeadline(time.Now().Add(h.writeTimeout))
}

// writeError answers with a JSON-RPC error object; id is omitted when nil.
func writeError(w http.ResponseWriter, status int, id json.RawMessage, err error) {
	b, _ := json.Marshal(&jsonrpc.Message{JSONRPC: jsonrpc.Version, ID: id, Error: jsonrpc.Wire(err)})
	if status == http.StatusServiceUnavailable && w.Header().Get("Retry-After") == "" {
		w.Header().Set("Retry-After", "2") // the cluster's shared state is unreachable: retry
	}
	w.Header()["Content-Type"] = ctJSON
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

// isJSON reports whether a Content-Type names JSON.
func isJSON(ct string) bool {
	if ct == "application/json" || strings.HasPrefix(ct, "application/json;") {
		return true
	}
	mt, _, err := mime.ParseMediaType(ct)
	return err == nil && (mt == "application/json" || strings.HasSuffix(mt, "+json"))
}

// accepts reports whether an Accept header admits the media type
// typ/sub: named exactly or through typ/* or */*, and not with q=0. An
// absent header admits nothing: both revisions require POST and GET to
// list what they accept.
func accepts(accept, typ, sub string) bool {
	for part := range strings.SplitSeq(accept, ",") {
		mt, params, _ := strings.Cut(part, ";")
		t, s, ok := strings.Cut(strings.TrimSpace(mt), "/")
		if !ok {
			continue
		}
		t, s = strings.TrimSpace(t), strings.TrimSpace(s)
		match := t == "*" && s == "*" ||
			strings.EqualFold(t, typ) && (s == "*" || strings.EqualFold(s, sub))
		if match && !zeroQ(params) {
			return true
		}
	}
	return false
}

// acceptsSSE reports whether an Accept header admits text/event-stream.
func acceptsSSE(accept string) bool { return accepts(accept, "text", "event-stream") }

// acceptsPOST reports whether an Accept header lists what a POST must
// accept in every revision: application/json and text/event-stream.
func acceptsPOST(accept string) bool {
	return accepts(accept, "application", "json") && acceptsSSE(accept)
}

// zeroQ reports whether media-range parameters carry q=0.
func zeroQ(params string) bool {
	for p := range strings.SplitSeq(params, ";") {
		k, v, ok := strings.Cut(p, "=")
		if ok && strings.EqualFold(strings.TrimSpace(k), "q") {
			v = strings.TrimRight(strings.TrimSpace(v), "0")
			return v == "0" || v == "0." || v == ""
		}
	}
	return false
}

// idOf returns the id of a message that failed to decode, when it is a
// valid JSON-RPC id worth echoing.
func idOf(m *jsonrpc.Message) json.RawMessage {
	if m == nil || len(m.ID) == 0 {
		return nil
	}
	switch m.ID[0] {
	case '"', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return m.ID
	}
	return nil
}

// httpStatus is the HTTP status of an outcome of the core: 200 for an
// answer (a JSON-RPC error included), and the status the transport rules
// of 2026-07-28 (400, 404) and the runtime's refusals (403, 429, 503)
// prescribe. A missing scope is 403 only where an Authenticator
// challenges it (see [ScopeChallenger]); else the JSON-RPC error is 200.
func httpStatus(o outcome) int {
	switch o.refusal {
	case refusedBadRequest:
		return http.StatusBadRequest
	case refusedUnknownMethod:
		return http.StatusNotFound
	case refusedLimit:
		return http.StatusTooManyRequests
	case refusedUnavailable:
		return http.StatusServiceUnavailable
	}
	return http.StatusOK
}

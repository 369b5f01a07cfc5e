package mcpgen

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/internal/jsonrpc"
)

func (h *handler) post(w http.ResponseWriter, r *http.Request, who Principal) {
	if !acceptsPOST(r.Header.Get("Accept")) {
		writeError(w, http.StatusNotAcceptable, nil, jsonrpc.Errorf(jsonrpc.CodeInvalidRequest, "Not Acceptable: the Accept header must list both application/json and text/event-stream"))
		return
	}
	if !isJSON(r.Header.Get("Content-Type")) {
		writeError(w, http.StatusUnsupportedMediaType, nil, jsonrpc.Errorf(jsonrpc.CodeInvalidRequest, "Unsupported Media Type: Content-Type must be application/json"))
		return
	}
	limit := h.srv.maxMessageBytes()
	if r.ContentLength > limit {
		w.Header().Set("Connection", "close") // the body is not read
		writeError(w, http.StatusRequestEntityTooLarge, nil, h.srv.messageTooLarge())
		return
	}
	body, err := h.readBody(w, r, limit)
	if err != nil {
		var tooBig *http.MaxBytesError
		switch {
		case errors.As(err, &tooBig):
			writeError(w, http.StatusRequestEntityTooLarge, nil, h.srv.messageTooLarge())
		case errors.Is(err, os.ErrDeadlineExceeded):
			h.event(EventTransportRefused, "reason", "body_timeout")
			w.Header().Set("Connection", "close")
			writeError(w, http.StatusRequestTimeout, nil, jsonrpc.Errorf(jsonrpc.CodeInvalidRequest, "Request Timeout: the body did not arrive within %s", h.readTimeout))
		default:
			writeError(w, http.StatusBadRequest, nil, fmt.Errorf("%w: reading body: %v", jsonrpc.ErrParse, err))
		}
		return
	}
	version := r.Header.Get(hdrProtocolVersion)
	if jsonrpc.IsBatch(body) {
		h.batch(w, r, who, body, version)
		return
	}
	m, err := jsonrpc.Decode(body)
	if err != nil {
		writeError(w, http.StatusBadRequest, idOf(m), err)
		return
	}
	// A body carrying the 2026-07-28 _meta is stateless whatever the
	// header says: the core then answers a header that disagrees (-32020)
	// or a revision it does not speak (-32022).
	modern := modernVersion(version) || modernMessage(m)
	// HTTPHeaders is set on every message: the core reads it only on the
	// stateless path, where it also catches a modern body sent without the
	// MCP-Protocol-Version header.
	in := &inbound{Msg: m, Auth: who, Authenticated: h.opts.Auth != nil, Partition: partitionOf(r), HTTPHeaders: r.Header, RemoteAddr: r.RemoteAddr}
	if !modern && m.Method != "initialize" {
		sess, status, err := h.legacySession(r, version, who)
		if err != nil {
			var id json.RawMessage
			if m.IsRequest() { // a refused notification or response is answered without an id
				id = m.ID
			}
			writeError(w, status, id, err)
			return
		}
		in.Session = sess
	}
	if !m.IsRequest() {
		h.notification(w, r, in)
		return
	}
	legacy := in.Session != nil && !modern
	st := h.newStream(w, r, in.Session)
	in.peer = st
	ctx := r.Context()
	if legacy {
		// A legacy disconnect is not a cancellation; notifications/cancelled
		// or the end of the session (DELETE) is.
		var cancel context.CancelFunc
		ctx, cancel = context.WithCancel(context.WithoutCancel(ctx))
		defer h.inflight.add(in.Session.ID, m.ID, cancel)()
		defer cancel()
	}
	resp, out := h.srv.handle(ctx, in)
	if legacy && ctx.Err() != nil {
		resp.Done()
		st.abandon() // cancelled requests are not answered
		return
	}
	if resp == nil { // the core answers every request; be safe anyway
		resp = jsonrpc.NewErrorResponse(m.ID, fmt.Errorf("%w: no response", jsonrpc.ErrInternal))
	}
	var sid string
	if m.Method == "initialize" && in.Session != nil {
		sid = in.Session.ID
	}
	status := httpStatus(out)
	if sc, ok := h.opts.Auth.(ScopeChallenger); ok && out.refusal == refusedScope {
		// Step-up: tell the client which scopes to ask for (403,
		// error="insufficient_scope"); the body keeps the JSON-RPC error.
		if refusal := sc.InsufficientScope(who, out.scope); refusal != nil {
			if obs := h.srv.tel.obs; obs != nil && refusal.Reason != "" {
				obs.Event(EventAuthRefused, Tag{Key: "reason", Value: refusal.Reason})
			}
			for k, vs := range refusal.Header {
				for _, v := range vs {
					st.setHeader(k, v)
				}
			}
			status = refusal.status()
		}
	}
	if out.retryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(int(out.retryAfter/time.Second)))
	}
	if h.srv.shuttingDown() {
		st.retryHint(shutdownRetry) // an SSE answer only: a listen stream ended by the shutdown
	}
	st.finish(status, sid, resp)
}

// bodyChunk is the most readBody allocates before bytes arrive: a client
// that announces 8 MiB and sends one byte costs 64 KiB, not 8 MiB.
const bodyChunk = 64 << 10

// readBody reads the whole body under ReadTimeout. net/http lifts the
// deadline when the body ends (it starts the background read that notices
// a disconnect then), so it never cuts a long request short.
func (h *handler) readBody(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, error) {
	if h.readTimeout > 0 && r.ContentLength != 0 { // no body: net/http reads on already
		_ = http.NewResponseController(w).SetReadDeadline(time.Now().Add(h.readTimeout))
	}
	return readBody(http.MaxBytesReader(w, r.Body, limit), r.ContentLength, limit)
}

// readBody reads rd to its end, at most limit bytes (rd enforces it). The
// buffer grows with the bytes that arrive: it starts at bodyChunk at most
// and never outgrows the announced length (contentLength, negative when
// unknown) while the body keeps to it.
func readBody(rd io.Reader, contentLength, limit int64) ([]byte, error) {
	want := limit + 1 // +1: see EOF without growing
	if contentLength >= 0 {
		want = min(contentLength+1, want)
	}
	buf := make([]byte, 0, min(want, bodyChunk))
	for {
		if len(buf) == cap(buf) {
			c := min(2*int64(cap(buf)), want)
			if c <= int64(len(buf)) { // longer than announced
				c = 2 * int64(cap(buf))
			}
			buf = append(make([]byte, 0, c), buf...)
		}
		n, err := rd.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
}

// errNoSession answers a session id that is unknown, ended, expired or
// another principal's: the same 404 for all, so that ids cannot be probed.
var errNoSession = jsonrpc.Errorf(jsonrpc.CodeInvalidRequest, "Session not found: it ended or expired; initialize a new one")

// legacySession finds the session of a legacy message other than
// initialize. This server issues sessions, so a message without
// Mcp-Session-Id is refused (400), as is an MCP-Protocol-Version it does
// not speak (400).
func (h *handler) legacySession(r *http.Request, version string, who Principal) (*Session, int, error) {
	id := r.Header.Get(hdrSessionID)
	if id == "" {
		if version != "" && !supportedVersion(version) {
			return nil, http.StatusBadRequest, unsupportedHeader(version)
		}
		return nil, http.StatusBadRequest, jsonrpc.Errorf(jsonrpc.CodeInvalidRequest, "Bad Request: Mcp-Session-Id header required: send initialize first and repeat the session id it returns on every later request")
	}
	return h.session(r, id, version, who)
}

// session checks the MCP-Protocol-Version of a legacy request and finds
// its session: 400 for a revision this server does not speak, 404 for an
// unknown session or one another principal, or another partition, opened.
func (h *handler) session(r *http.Request, id, version string, who Principal) (*Session, int, error) {
	ctx := r.Context()
	if version != "" && !supportedVersion(version) {
		return nil, http.StatusBadRequest, unsupportedHeader(version)
	}
	sess, err := h.srv.sessions.lookup(ctx, id)
	if err != nil { // the cluster's shared state cannot be reached
		h.event(EventTransportRefused, "reason", "unavailable")
		return nil, http.StatusServiceUnavailable, errUnavailable
	}
	if sess == nil || !sess.OwnedBy(who) || sess.partition != partitionOf(r) {
		return nil, http.StatusNotFound, errNoSession
	}
	return sess, 0, nil
}

// errUnavailable answers a request that needs the cluster's shared state
// while it cannot be reached; writeError adds Retry-After to the 503.
var errUnavailable = jsonrpc.Errorf(jsonrpc.CodeInternalError, "Service temporarily unavailable: shared state cannot be reached; retry later")

func unsupportedHeader(version string) error {
	return jsonrpc.Errorf(jsonrpc.CodeInvalidRequest, "Bad Request: unsupported MCP-Protocol-Version %q; this server speaks %s", version, strings.Join(versions, ", "))
}

// notification serves a notification or a client's response to one of our
// requests: 202 with no body, or the status of the core's refusal (a
// rejected stateless notification, a response that could not be routed to
// the replica waiting for it).
func (h *handler) notification(w http.ResponseWriter, r *http.Request, in *inbound) {
	m := in.Msg
	if m.Method == "notifications/cancelled" && in.Session != nil {
		var p struct {
			RequestID json.RawMessage `json:"requestId"`
		}
		if json.Unmarshal(m.Params, &p) == nil && len(p.RequestID) > 0 {
			h.inflight.cancel(in.Session.ID, p.RequestID)
		}
	}
	if _, out := h.srv.handle(r.Context(), in); out.refusal != answered {
		if out.retryAfter > 0 {
			w.Header().Set("Retry-After", strconv.Itoa(int(out.retryAfter/time.Second)))
		}
		writeError(w, httpStatus(out), nil, jsonrpc.Errorf(jsonrpc.CodeInvalidRequest, "notification %s rejected", m.Method))
		return
	}
	w.WriteHeader(http.StatusAccepted)
}

// batch serves a JSON-RPC batch, which only 2025-03-26 allowed, and only
// inside a session (initialize may not be part of a batch).
func (h *handler) batch(w http.ResponseWriter, r *http.Request, who Principal, body []byte, version string) {
	var items []json.RawMessage
	if err := json.Unmarshal(body, &items); err != nil {
		writeError(w, http.StatusBadRequest, nil, fmt.Errorf("%w: %v", jsonrpc.ErrParse, err))
		return
	}
	if modernVersion(version) {
		writeError(w, http.StatusBadRequest, nil, jsonrpc.Errorf(jsonrpc.CodeInvalidRequest, "JSON-RPC batches are not allowed in protocol revision %s", version))
		return
	}
	sess, status, err := h.legacySession(r, version, who)
	if err != nil {
		writeError(w, status, nil, err)
		return
	}
	if sess.Version != version20250326 {
		writeError(w, http.StatusBadRequest, nil, jsonrpc.Errorf(jsonrpc.CodeInvalidRequest, "JSON-RPC batches are not allowed in protocol revision %s", sess.Version))
		return
	}
	if len(items) == 0 {
		writeError(w, http.StatusBadRequest, nil, jsonrpc.Errorf(jsonrpc.CodeInvalidRequest, "empty batch"))
		return
	}
	st := h.newStream(w, r, sess)
	// As for single messages in a session, a disconnect is no cancellation.
	ctx, cancel := context.WithCancel(context.WithoutCancel(r.Context()))
	defer cancel()
	var out []*jsonrpc.Message
	for _, item := range items {
		m, err := jsonrpc.Decode(item)
		if err != nil {
			out = append(out, &jsonrpc.Message{JSONRPC: jsonrpc.Version, ID: idOf(m), Error: jsonrpc.Wire(err)})
			continue
		}
		if m.Method == "initialize" {
			out = append(out, jsonrpc.NewErrorResponse(m.ID, jsonrpc.Errorf(jsonrpc.CodeInvalidRequest, "initialize must not be part of a batch")))
			continue
		}
		in := &inbound{Msg: m, Session: sess, peer: st, Auth: who, Authenticated: h.opts.Auth != nil, Partition: partitionOf(r), HTTPHeaders: r.Header, RemoteAddr: r.RemoteAddr}
		if m.Method == "notifications/cancelled" {
			var p struct {
				RequestID json.RawMessage `json:"requestId"`
			}
			if json.Unmarshal(m.Params, &p) == nil && len(p.RequestID) > 0 {
				h.inflight.cancel(sess.ID, p.RequestID)
			}
		}
		var resp *jsonrpc.Message
		if m.IsRequest() {
			rctx, cancel := context.WithCancel(ctx)
			remove := h.inflight.add(sess.ID, m.ID, cancel)
			resp, _ = h.srv.handle(rctx, in)
			remove()
			if rctx.Err() != nil {
				resp.Done()
				resp = nil // cancelled: not answered
			}
			cancel()
		} else {
			resp, _ = h.srv.handle(ctx, in)
		}
		if resp != nil {
			out = append(out, resp)
		}
	}
	if len(out) == 0 {
		st.abandon() // only notifications and responses: 202
		return
	}
	st.finishBatch(out)
}

// inflight is the per-session registry of running legacy requests, so that
// notifications/cancelled (and DELETE) can cancel them.
type inflight struct {
	mu sync.Mutex
	m  map[string]map[string]*inflightEntry // session id -> raw request id -> entry
}

type inflightEntry struct{ cancel context.CancelFunc }

// add registers a running request and returns its removal.
func (f *inflight) add(sessionID string, id json.RawMessage, cancel context.CancelFunc) func() {
	e := &inflightEntry{cancel: cancel}
	key := string(id)
	f.mu.Lock()
	reqs := f.m[sessionID]
	if reqs == nil {
		reqs = map[string]*inflightEntry{}
		f.m[sessionID] = reqs
	}
	reqs[key] = e
	f.mu.Unlock()
	return func() {
		f.mu.Lock()
		if reqs := f.m[sessionID]; reqs != nil && reqs[key] == e {
			delete(reqs, key)
			if len(reqs) == 0 {
				delete(f.m, sessionID)
			}
		}
		f.mu.Unlock()
	}
}

// cancel cancels the session's request with this id, if it is running.
func (f *inflight) cancel(sessionID string, id json.RawMessage) {
	f.mu.Lock()
	e := f.m[sessionID][string(id)]
	f.mu.Unlock()
	if e != nil {
		e.cancel()
	}
}

// cancelAll cancels every running request of a session.
func (f *inflight) cancelAll(sessionID string) {
	f.mu.Lock()
	reqs := f.m[sessionID]
	delete(f.m, sessionID)
	f.mu.Unlock()
	for _, e := range reqs {
		e.cancel()
	}
}

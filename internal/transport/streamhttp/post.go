package streamhttp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"

	"github.com/mcpgen/mcpgen/internal/jsonrpc"
	"github.com/mcpgen/mcpgen/internal/protocol"
	"github.com/mcpgen/mcpgen/internal/server"
)

func (h *handler) post(w http.ResponseWriter, r *http.Request, who server.Principal) {
	if !isJSON(r.Header.Get("Content-Type")) {
		writeError(w, http.StatusUnsupportedMediaType, nil, jsonrpc.Errorf(jsonrpc.CodeInvalidRequest, "Unsupported Media Type: Content-Type must be application/json"))
		return
	}
	limit := h.opts.MaxBodyBytes
	if r.ContentLength > limit {
		writeError(w, http.StatusRequestEntityTooLarge, nil, jsonrpc.Errorf(jsonrpc.CodeInvalidRequest, "request body larger than %d bytes", limit))
		return
	}
	body, err := readBody(w, r, limit)
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			writeError(w, http.StatusRequestEntityTooLarge, nil, jsonrpc.Errorf(jsonrpc.CodeInvalidRequest, "request body larger than %d bytes", limit))
			return
		}
		writeError(w, http.StatusBadRequest, nil, fmt.Errorf("%w: reading body: %v", jsonrpc.ErrParse, err))
		return
	}
	version := r.Header.Get(hdrProtocolVersion)
	modern := protocol.IsModern(version)
	if jsonrpc.IsBatch(body) {
		h.batch(w, r, who, body, version, modern)
		return
	}
	m, err := jsonrpc.Decode(body)
	if err != nil {
		writeError(w, http.StatusBadRequest, idOf(m), err)
		return
	}
	// HTTPHeaders is set on every message: the core reads it only on the
	// stateless path, where it also catches a modern body sent without the
	// MCP-Protocol-Version header.
	in := &server.Incoming{Msg: m, Auth: who, HTTPHeaders: r.Header}
	if !modern && m.Method != "initialize" {
		sess, status, err := h.legacySession(r, version)
		if err != nil {
			retryLater(w, status)
			writeError(w, status, m.ID, err)
			return
		}
		in.Session = sess
		if sess == nil {
			in.LegacyVersion = version
		}
	}
	if !m.IsRequest() {
		h.notification(w, r, in)
		return
	}
	legacy := in.Session != nil && !modern
	st := h.newStream(w, r, acceptsSSE(r.Header.Get("Accept"), true), in.Session)
	in.Peer = st
	ctx := r.Context()
	if legacy {
		// A legacy disconnect is not a cancellation; notifications/cancelled
		// or the end of the session (DELETE) is.
		var cancel context.CancelFunc
		ctx, cancel = context.WithCancel(context.WithoutCancel(ctx))
		defer h.inflight.add(in.Session.ID, m.ID, cancel)()
		defer cancel()
	}
	resp := h.srv.Handle(ctx, in)
	if legacy && ctx.Err() != nil {
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
	status := in.Status
	if status == 0 {
		status = http.StatusOK
	}
	if in.RetryAfter != "" {
		w.Header().Set("Retry-After", in.RetryAfter)
	}
	st.finish(status, sid, resp)
}

// readBody reads the whole body, at most limit bytes, into one buffer
// sized from Content-Length when the client sent it.
func readBody(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, error) {
	rd := http.MaxBytesReader(w, r.Body, limit)
	if r.ContentLength <= 0 {
		return io.ReadAll(rd)
	}
	buf := make([]byte, 0, r.ContentLength+1) // +1: see EOF without growing
	for {
		n, err := rd.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
	}
}

// legacySession finds the session named by Mcp-Session-Id. No header means
// no session; an unknown or ended one is 404.
func (h *handler) legacySession(r *http.Request, version string) (*server.Session, int, error) {
	if id := r.Header.Get(hdrSessionID); id != "" {
		sess, err := h.srv.LookupSession(r.Context(), id)
		if err != nil {
			return nil, http.StatusServiceUnavailable, jsonrpc.Errorf(jsonrpc.CodeInternalError, "Service temporarily unavailable: %v", err)
		}
		if sess == nil {
			return nil, http.StatusNotFound, jsonrpc.Errorf(jsonrpc.CodeInvalidRequest, "Session not found: it ended or expired; initialize a new one")
		}
		return sess, 0, nil
	}
	if version != "" && !protocol.Supported(version) {
		return nil, http.StatusBadRequest, jsonrpc.Errorf(jsonrpc.CodeInvalidRequest, "unsupported MCP-Protocol-Version %q", version)
	}
	return nil, 0, nil
}

// notification serves a notification or a client's response to one of our
// requests: 202 with no body, or the status the core chose for a rejected
// stateless notification.
func (h *handler) notification(w http.ResponseWriter, r *http.Request, in *server.Incoming) {
	m := in.Msg
	if m.Method == "notifications/cancelled" && in.Session != nil {
		var p struct {
			RequestID json.RawMessage `json:"requestId"`
		}
		if json.Unmarshal(m.Params, &p) == nil && len(p.RequestID) > 0 {
			h.inflight.cancel(in.Session.ID, p.RequestID)
		}
	}
	h.srv.Handle(r.Context(), in)
	if in.RetryAfter != "" {
		w.Header().Set("Retry-After", in.RetryAfter)
	}
	if in.Status >= 400 {
		writeError(w, in.Status, nil, jsonrpc.Errorf(jsonrpc.CodeInvalidRequest, "notification %s rejected", m.Method))
		return
	}
	w.WriteHeader(http.StatusAccepted)
}

// batch serves a JSON-RPC batch, which only 2025-03-26 allowed.
func (h *handler) batch(w http.ResponseWriter, r *http.Request, who server.Principal, body []byte, version string, modern bool) {
	var items []json.RawMessage
	if err := json.Unmarshal(body, &items); err != nil {
		writeError(w, http.StatusBadRequest, nil, fmt.Errorf("%w: %v", jsonrpc.ErrParse, err))
		return
	}
	var sess *server.Session
	if !modern {
		var (
			status int
			err    error
		)
		if sess, status, err = h.legacySession(r, version); err != nil {
			retryLater(w, status)
			writeError(w, status, nil, err)
			return
		}
	}
	effective := version
	if sess != nil {
		effective = sess.Version
	} else if effective == "" {
		effective = protocol.Version20250326
	}
	if modern || effective != protocol.Version20250326 {
		writeError(w, http.StatusBadRequest, nil, jsonrpc.Errorf(jsonrpc.CodeInvalidRequest, "JSON-RPC batches are not allowed in protocol revision %s", effective))
		return
	}
	if len(items) == 0 {
		writeError(w, http.StatusBadRequest, nil, jsonrpc.Errorf(jsonrpc.CodeInvalidRequest, "empty batch"))
		return
	}
	st := h.newStream(w, r, acceptsSSE(r.Header.Get("Accept"), true), sess)
	ctx := r.Context()
	if sess != nil {
		var cancel context.CancelFunc
		ctx, cancel = context.WithCancel(context.WithoutCancel(ctx))
		defer cancel()
	}
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
		in := &server.Incoming{Msg: m, Session: sess, Peer: st, Auth: who, HTTPHeaders: r.Header, LegacyVersion: version}
		if sess != nil {
			in.LegacyVersion = ""
		}
		if m.Method == "notifications/cancelled" && sess != nil {
			var p struct {
				RequestID json.RawMessage `json:"requestId"`
			}
			if json.Unmarshal(m.Params, &p) == nil && len(p.RequestID) > 0 {
				h.inflight.cancel(sess.ID, p.RequestID)
			}
		}
		var resp *jsonrpc.Message
		if sess != nil && m.IsRequest() {
			rctx, cancel := context.WithCancel(ctx)
			remove := h.inflight.add(sess.ID, m.ID, cancel)
			resp = h.srv.Handle(rctx, in)
			remove()
			if rctx.Err() != nil {
				resp = nil // cancelled: not answered
			}
			cancel()
		} else {
			resp = h.srv.Handle(ctx, in)
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

// retryLater adds Retry-After to a 503 (shared state unreachable): the
// client may retry the same request shortly.
func retryLater(w http.ResponseWriter, status int) {
	if status == http.StatusServiceUnavailable {
		w.Header().Set("Retry-After", "2")
	}
}

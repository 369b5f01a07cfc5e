package mcpgen

import (
	"encoding/json"
	"net/http"

	"go.uber.org/zap"

	"github.com/mcpgen/mcpgen/internal/jsonrpc"
)

// getStream is the standalone SSE stream of one legacy session.
type getStream struct {
	st       *stream
	replaced chan struct{} // closed when a newer GET takes over
}

// get serves the legacy standalone SSE stream of a session. A newer GET for
// the same session replaces (closes) the older one.
func (h *handler) get(w http.ResponseWriter, r *http.Request, who Principal) {
	if modernVersion(r.Header.Get(hdrProtocolVersion)) {
		w.Header().Set("Allow", "POST")
		writeError(w, http.StatusMethodNotAllowed, nil, jsonrpc.Errorf(jsonrpc.CodeInvalidRequest, "Method not allowed: GET is not part of protocol revision %s", r.Header.Get(hdrProtocolVersion)))
		return
	}
	id := r.Header.Get(hdrSessionID)
	if id == "" {
		writeError(w, http.StatusBadRequest, nil, jsonrpc.Errorf(jsonrpc.CodeInvalidRequest, "Bad Request: GET needs an Mcp-Session-Id header"))
		return
	}
	sess, status, err := h.session(r, id, r.Header.Get(hdrProtocolVersion), who)
	if err != nil {
		writeError(w, status, nil, err)
		return
	}
	if !acceptsSSE(r.Header.Get("Accept")) {
		writeError(w, http.StatusNotAcceptable, nil, jsonrpc.Errorf(jsonrpc.CodeInvalidRequest, "Not Acceptable: Accept must include text/event-stream"))
		return
	}
	st := h.newStream(w, r, sess)
	me := &getStream{st: st, replaced: make(chan struct{})}
	h.gets.mu.Lock()
	if old := h.gets.m[id]; old != nil {
		close(old.replaced)
		h.log.Debug("GET stream replaced", zap.String("session", id))
	}
	h.gets.m[id] = me
	notify := func(method string, params any) {
		raw, err := json.Marshal(params)
		if err != nil {
			h.log.Warn("session notification dropped", zap.String("method", method), zap.Error(err))
			return
		}
		if err := st.send(&jsonrpc.Message{JSONRPC: jsonrpc.Version, Method: method, Params: raw}); err != nil {
			h.log.Debug("session notification dropped", zap.String("method", method), zap.Error(err))
		}
	}
	held := sess.setNotifier(notify)
	h.gets.mu.Unlock()
	st.open()
	for _, n := range held {
		notify(n.method, n.params)
	}

	select {
	case <-r.Context().Done():
	case <-sess.doneChan():
	case <-me.replaced:
	}
	if h.srv.shuttingDown() {
		st.retryHint(shutdownRetry)
	}

	h.gets.mu.Lock()
	if h.gets.m[id] == me {
		delete(h.gets.m, id)
		sess.setNotifier(nil)
	}
	h.gets.mu.Unlock()
	st.close()
}

// delete ends a legacy session and cancels its running requests.
func (h *handler) delete(w http.ResponseWriter, r *http.Request, who Principal) {
	id := r.Header.Get(hdrSessionID)
	if modernVersion(r.Header.Get(hdrProtocolVersion)) {
		w.Header().Set("Allow", "POST")
		writeError(w, http.StatusMethodNotAllowed, nil, jsonrpc.Errorf(jsonrpc.CodeInvalidRequest, "Method not allowed: DELETE is not part of protocol revision %s", r.Header.Get(hdrProtocolVersion)))
		return
	}
	if id == "" {
		writeError(w, http.StatusBadRequest, nil, jsonrpc.Errorf(jsonrpc.CodeInvalidRequest, "Bad Request: DELETE needs an Mcp-Session-Id header"))
		return
	}
	sess, status, err := h.session(r, id, "", who)
	if err != nil {
		writeError(w, status, nil, err)
		return
	}
	ended, err := h.srv.sessions.delete(r.Context(), sess.ID)
	if err != nil {
		h.event(EventTransportRefused, "reason", "unavailable")
		writeError(w, http.StatusServiceUnavailable, nil, errUnavailable)
		return
	}
	if !ended {
		writeError(w, http.StatusNotFound, nil, errNoSession)
		return
	}
	h.inflight.cancelAll(id)
	w.WriteHeader(http.StatusNoContent)
}

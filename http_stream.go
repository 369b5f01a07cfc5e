package mcpgen

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"
	"time"

	"go.uber.org/zap"

	"github.com/mcpgen/mcpgen/internal/jsonrpc"
)

var (
	errAnswered = errors.New("streamhttp: the request was already answered")
	errGone     = errors.New("streamhttp: the client disconnected")
)

// stream is one HTTP response: plain JSON until the first message that
// must go out before the answer, then an SSE stream. Every write happens
// under mu and only until the response is finished, so that handler
// goroutines, broadcasters and the keep-alive timer never write after
// ServeHTTP returned.
type stream struct {
	w            http.ResponseWriter
	rc           *http.ResponseController
	ctx          context.Context // the HTTP request's: done when the client is gone
	log          *zap.Logger
	keepAlive    time.Duration
	writeTimeout time.Duration // per write; 0: none
	sess         *Session      // legacy session, for server-to-client requests

	mu     sync.Mutex
	sse    bool // SSE headers written
	closed bool // answered or abandoned: nothing more is written
	timer  *time.Timer
	buf    []byte
}

// newStream starts the answer to a POST or a GET, whose Accept header
// admits SSE (the handler refused it with 406 otherwise).
func (h *handler) newStream(w http.ResponseWriter, r *http.Request, sess *Session) *stream {
	s := &stream{w: w, rc: http.NewResponseController(w), ctx: r.Context(), log: h.log, keepAlive: h.opts.KeepAlive, sess: sess}
	if h.writeTimeout > 0 {
		s.writeTimeout = h.writeTimeout
	}
	if s.keepAlive > 0 {
		s.mu.Lock()
		s.timer = time.AfterFunc(s.keepAlive, s.tick)
		s.mu.Unlock()
	}
	return s
}

// tick sends a keep-alive comment, switching a slow JSON answer to SSE.
func (s *stream) tick() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed || s.ctx.Err() != nil {
		return
	}
	if !s.sse {
		s.startLocked()
	}
	if s.writeLocked([]byte(": keep-alive\n\n")) == nil {
		if s.sess != nil {
			s.sess.touchNow() // an open stream is a session in use
		}
		s.timer.Reset(s.keepAlive)
	}
}

// setHeader sets a response header while the answer is still plain JSON
// (once SSE started, headers are gone).
func (s *stream) setHeader(key, value string) {
	s.mu.Lock()
	if !s.sse && !s.closed {
		s.w.Header().Set(key, value)
	}
	s.mu.Unlock()
}

// open starts the SSE stream now (GET streams announce themselves at once).
func (s *stream) open() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.sse && !s.closed {
		s.startLocked()
		_ = s.flushLocked()
	}
}

// startLocked sends the SSE response headers.
func (s *stream) startLocked() {
	h := s.w.Header()
	h["Content-Type"] = ctSSE
	h["Cache-Control"] = noCache
	h["X-Accel-Buffering"] = noBuffering
	s.w.WriteHeader(http.StatusOK)
	s.sse = true
}

// send writes one message as an SSE event, switching to SSE if needed.
func (s *stream) send(m *jsonrpc.Message) error {
	b, err := json.Marshal(m)
	if err != nil {
		return fmt.Errorf("streamhttp: encode %s: %w", m.Method, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.closed:
		return errAnswered
	case s.ctx.Err() != nil:
		return errGone
	case !s.sse:
		s.startLocked()
	}
	return s.eventLocked(b)
}

func (s *stream) eventLocked(data []byte) error {
	s.buf = append(s.buf[:0], "event: message\ndata: "...)
	s.buf = append(s.buf, data...)
	s.buf = append(s.buf, '\n', '\n')
	return s.writeLocked(s.buf)
}

// deadlineLocked bounds the write that follows by WriteTimeout, so that a
// client that stops reading cannot block a broadcaster, or hold its
// answer, for long.
func (s *stream) deadlineLocked() {
	if s.writeTimeout > 0 {
		_ = s.rc.SetWriteDeadline(time.Now().Add(s.writeTimeout))
	}
}

func (s *stream) writeLocked(b []byte) error {
	s.deadlineLocked()
	if _, err := s.w.Write(b); err != nil {
		s.log.Debug("sse write failed", zap.Error(err))
		return err
	}
	return s.flushLocked()
}

func (s *stream) flushLocked() error {
	if err := s.rc.Flush(); err != nil {
		s.log.Debug("sse flush failed", zap.Error(err))
		return err
	}
	return nil
}

// closeLocked marks the response finished. The write deadline stays: the
// handler renews it once more for what net/http flushes after ServeHTTP.
func (s *stream) closeLocked() {
	s.closed = true
	if s.timer != nil {
		s.timer.Stop()
	}
}

// finish writes the answer to a request: the last SSE event, or a JSON
// body with status. sessionID, when set, goes out as Mcp-Session-Id (JSON
// answers only: an SSE stream has sent its headers already).
func (s *stream) finish(status int, sessionID string, resp *jsonrpc.Message) {
	defer resp.Done() // written or dropped, it is done with
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return
	}
	defer s.closeLocked()
	if s.ctx.Err() != nil {
		return // the client is gone: nothing more goes out (a disconnect is a cancel)
	}
	if s.sse {
		s.finalEventLocked(resp)
		return
	}
	if resp.ResultParts != nil || resp.ResultStream != nil {
		// A large result in pieces, or streamed: written from where they
		// lie. Content-Length lets the client tell a cut answer.
		if n := jsonrpc.WrittenLen(resp); n >= 0 {
			s.w.Header().Set("Content-Length", strconv.FormatInt(n, 10))
		}
		s.setJSONHeaders(status, sessionID)
		if err := jsonrpc.Write(s.w, resp); err != nil {
			s.writeFailed(err)
		}
		return
	}
	b, err := jsonrpc.Encode(resp)
	if err != nil {
		s.log.Error("encode response", zap.Error(err))
		b, _ = json.Marshal(jsonrpc.NewErrorResponse(resp.ID, fmt.Errorf("%w: encode response", jsonrpc.ErrInternal)))
	}
	s.writeJSONLocked(status, sessionID, b)
}

// finishBatch answers a batch: one SSE event per response, or a JSON array.
func (s *stream) finishBatch(resps []*jsonrpc.Message) {
	defer func() {
		for _, m := range resps {
			m.Done()
		}
	}()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return
	}
	defer s.closeLocked()
	if s.ctx.Err() != nil {
		return
	}
	if s.sse {
		for _, m := range resps {
			if !s.finalEventLocked(m) {
				return
			}
		}
		return
	}
	b, err := json.Marshal(resps)
	if err != nil {
		s.log.Error("encode batch response", zap.Error(err))
		b, _ = json.Marshal(jsonrpc.NewErrorResponse(nil, fmt.Errorf("%w: encode response", jsonrpc.ErrInternal)))
	}
	s.writeJSONLocked(http.StatusOK, "", b)
}

func (s *stream) finalEventLocked(m *jsonrpc.Message) bool {
	if m.ResultStream != nil {
		return s.streamEventLocked(m)
	}
	b, err := jsonrpc.Encode(m)
	if err != nil {
		s.log.Error("encode response", zap.Error(err))
		b, _ = json.Marshal(jsonrpc.NewErrorResponse(m.ID, fmt.Errorf("%w: encode response", jsonrpc.ErrInternal)))
	}
	return s.eventLocked(b) == nil
}

// streamEventLocked writes a streamed answer as one SSE event, from where
// its result lies, under one write deadline as a JSON answer is.
func (s *stream) streamEventLocked(m *jsonrpc.Message) bool {
	s.deadlineLocked()
	if _, err := io.WriteString(s.w, "event: message\ndata: "); err != nil {
		return false
	}
	if err := jsonrpc.Write(s.w, m); err != nil {
		s.writeFailed(err)
		return false
	}
	if _, err := io.WriteString(s.w, "\n\n"); err != nil {
		return false
	}
	return s.flushLocked() == nil
}

// writeFailed handles an answer written in part: one whose streamed
// result failed part-way is cut off by aborting the response (net/http
// closes the connection, or resets the HTTP/2 stream), so that the client
// sees it fail instead of reading more after it or waiting for its end.
func (s *stream) writeFailed(err error) {
	s.log.Debug("write response", zap.Error(err))
	if errors.Is(err, jsonrpc.ErrIncomplete) {
		panic(http.ErrAbortHandler)
	}
}

func (s *stream) writeJSONLocked(status int, sessionID string, b []byte) {
	s.setJSONHeaders(status, sessionID)
	_, _ = s.w.Write(b)
}

// setJSONHeaders starts a JSON answer.
func (s *stream) setJSONHeaders(status int, sessionID string) {
	s.deadlineLocked() // a large answer is written to the connection at once
	h := s.w.Header()
	h["Content-Type"] = ctJSON
	if sessionID != "" {
		h.Set(hdrSessionID, sessionID)
	}
	s.w.WriteHeader(status)
}

// abandon ends the response without an answer (a legacy request cancelled
// by notifications/cancelled, which must not be answered): an SSE stream
// just ends; a response that has not started is 202 with no body.
func (s *stream) abandon() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return
	}
	if !s.sse && s.ctx.Err() == nil {
		s.w.WriteHeader(http.StatusAccepted)
	}
	s.closeLocked()
}

// shutdownRetry is the reconnection delay a stream ended by a shutdown
// announces: long enough for a load balancer to notice the replica is
// gone, short enough that the client's next stream opens elsewhere soon.
const shutdownRetry = time.Second

// retryHint tells an SSE client, before the stream ends because the
// server shuts down, when to reconnect (the SSE retry field).
func (s *stream) retryHint(d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.sse && !s.closed && s.ctx.Err() == nil {
		_ = s.writeLocked(fmt.Appendf(nil, "retry: %d\n\n", d.Milliseconds()))
	}
}

// close ends a stream without a final message (GET streams).
func (s *stream) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.closed {
		s.closeLocked()
	}
}

// Notify implements [streamPeer] for the request this stream answers.
func (s *stream) Notify(_ context.Context, method string, params any) error {
	raw, err := json.Marshal(params)
	if err != nil {
		return fmt.Errorf("streamhttp: encode %s params: %w", method, err)
	}
	return s.send(&jsonrpc.Message{JSONRPC: jsonrpc.Version, Method: method, Params: raw})
}

// Call implements [streamPeer]: the request goes out on this response's
// SSE stream and the answer comes back in a later POST of the session.
func (s *stream) Call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	if s.sess == nil {
		return nil, fmt.Errorf("%w: %s needs a legacy session (Mcp-Session-Id)", jsonrpc.ErrInvalidRequest, method)
	}
	return s.sess.call(ctx, method, params, s.send)
}

package mcpgen

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"go.uber.org/zap"

	"github.com/mcpgen/mcpgen/internal/jsonrpc"
)

// ServeStdio serves srv over newline-delimited JSON-RPC, reading messages
// from r (a process's stdin) until EOF or ctx ends and answering on w (its
// stdout). Nothing but protocol messages is written to w; logs belong on
// stderr. It waits for handlers in flight before returning. A clean EOF
// returns nil.
//
// A line longer than the server's MaxMessageBytes (the limit HTTP applies
// to a body) is answered with -32600 naming the limit and a null id, and
// the connection goes on with the next line; the reader never holds more
// than the limit of one line.
//
// Requests run concurrently, so that a slow tool does not hold up the
// others and notifications/cancelled can reach a running handler; the
// initialize request and all notifications and responses are handled in
// arrival order. An answer that fails part-way (a streamed result whose
// [Body] failed) ends the connection: w is closed if it is an io.Closer.
func ServeStdio(ctx context.Context, srv *Server, r io.Reader, w io.Writer) error {
	growPipe(w)
	c := &conn{srv: srv, w: w, out: bufio.NewWriter(w), inflight: map[string]context.CancelCauseFunc{}, wake: make(chan struct{}, 1)}
	ctx, cancel := context.WithCancel(ctx)
	c.stop = cancel
	defer func() {
		// The client is gone: cancel what still runs (listen streams and
		// questions to the client would otherwise wait forever), then wait.
		cancel()
		c.wg.Wait()
		if s := c.session(); s != nil {
			srv.sessions.end(s.ID)
		}
	}()
	r, doneReading := pollable(r, w)
	defer doneReading()
	br := bufio.NewReaderSize(r, 64<<10)
	limit := srv.maxMessageBytes()
	for {
		line, err := readLine(br, limit)
		if len(bytes.TrimSpace(line)) > 0 {
			c.handleLine(ctx, line)
		}
		if errors.Is(err, errTooLong) {
			// The id is in the part not kept: answer with a null id, and
			// read on.
			c.write(jsonrpc.NewErrorResponse(nil, srv.messageTooLarge()))
			continue
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("read: %w", err)
		}
		if ctx.Err() != nil {
			return nil
		}
	}
}

var errTooLong = errors.New("line too long")

// readLine returns the next line without its newline. A line longer than
// limit is read through to its end in the reader's buffer, never kept
// whole, and reported as errTooLong.
func readLine(br *bufio.Reader, limit int64) ([]byte, error) {
	var buf []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if int64(len(buf)+len(bytes.TrimRight(chunk, "\r\n"))) > limit {
			for errors.Is(err, bufio.ErrBufferFull) {
				_, err = br.ReadSlice('\n')
			}
			if err == io.EOF {
				return nil, err
			}
			return nil, errTooLong
		}
		buf = append(buf, chunk...)
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return bytes.TrimRight(buf, "\r\n"), err
	}
}

type conn struct {
	srv *Server

	wmu     sync.Mutex
	w       io.Writer // under out
	out     *bufio.Writer
	waiting atomic.Int32       // writers waiting for wmu
	stop    context.CancelFunc // ends the connection (see cut)

	mu       sync.Mutex
	sess     *Session
	inflight map[string]context.CancelCauseFunc
	wg       sync.WaitGroup

	qmu     sync.Mutex
	queue   []job         // requests waiting for a worker
	workers int           // workers running
	idle    int           // workers waiting for work
	wake    chan struct{} // wakes an idle worker
}

func (c *conn) session() *Session {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.sess
}

// write sends one message as one line, streamed through the buffered
// writer (a large result is not copied into one line first). It flushes
// unless another message is already waiting to be written: that writer
// flushes both, so concurrent answers share one write system call.
func (c *conn) write(m *jsonrpc.Message) error {
	c.waiting.Add(1)
	c.wmu.Lock()
	defer c.wmu.Unlock()
	c.waiting.Add(-1)
	err := jsonrpc.WriteLine(c.out, m) // copies what it does not write
	m.Done()
	if errors.Is(err, jsonrpc.ErrIncomplete) {
		c.cut(err)
		return err
	}
	if c.waiting.Load() == 0 {
		if ferr := c.out.Flush(); err == nil {
			err = ferr
		}
	}
	return err
}

// cut ends a connection on which a message was written in part (a
// streamed result whose body failed, see Body): nothing
// more may follow a broken line, so the output is closed, when it can be,
// and nothing is written to it again; the client sees the stream end.
// c.wmu is held.
func (c *conn) cut(err error) {
	c.srv.tel.log.Warn("stdio: an answer failed part-way; closing the connection", zap.Error(err))
	c.out = bufio.NewWriterSize(failWriter{err}, 16)
	if cl, ok := c.w.(io.Closer); ok {
		_ = cl.Close()
	}
	c.stop()
}

// failWriter fails every write with err.
type failWriter struct{ err error }

func (f failWriter) Write([]byte) (int, error) { return 0, f.err }

func (c *conn) handleLine(ctx context.Context, line []byte) {
	if jsonrpc.IsBatch(line) {
		c.handleBatch(ctx, line)
		return
	}
	m, err := jsonrpc.Decode(line)
	if err != nil {
		if m == nil || !m.IsNotification() {
			c.write(jsonrpc.NewErrorResponse(validIDOf(m), err))
		}
		return
	}
	switch {
	case m.Method == "notifications/cancelled":
		c.cancel(m.Params)
		c.serve(ctx, m) // let the core see it too (observability)
	case m.Method == "initialize" || !m.IsRequest():
		if resp := c.serve(ctx, m); resp != nil {
			c.write(resp)
		}
	default:
		c.wg.Add(1)
		c.enqueue(job{ctx: ctx, m: m})
	}
}

type job struct {
	ctx context.Context
	m   *jsonrpc.Message
}

// maxStdioWorkers bounds the requests of one connection that run at once; more
// wait in a queue. The reader never waits for a worker: it must stay free
// to read the client's answers to questions the running handlers asked.
const maxStdioWorkers = 64

// enqueue queues a request and makes sure a worker will take it: an idle
// one is woken, or a new one started while fewer than maxStdioWorkers run.
func (c *conn) enqueue(j job) {
	c.qmu.Lock()
	c.queue = append(c.queue, j)
	start := c.idle == 0 && c.workers < maxStdioWorkers
	if start {
		c.workers++
	}
	c.qmu.Unlock()
	if start {
		go c.worker(j.ctx)
		return
	}
	select {
	case c.wake <- struct{}{}:
	default: // a wake-up is already pending
	}
}

// worker runs queued requests, then waits a while for more, so that its
// stack, grown by the first request, serves the next ones.
func (c *conn) worker(ctx context.Context) {
	idle := time.NewTimer(time.Second)
	defer idle.Stop()
	for {
		c.qmu.Lock()
		if len(c.queue) > 0 {
			j := c.queue[0]
			c.queue[0] = job{}
			c.queue = c.queue[1:]
			c.qmu.Unlock()
			c.run(j.ctx, j.m)
			continue
		}
		c.idle++
		c.qmu.Unlock()
		idle.Reset(time.Second)
		var stop bool
		select {
		case <-c.wake:
		case <-idle.C:
			stop = true
		case <-ctx.Done(): // the connection ended
			stop = true
		}
		c.qmu.Lock()
		c.idle--
		if stop && len(c.queue) == 0 {
			c.workers--
			c.qmu.Unlock()
			return
		}
		c.qmu.Unlock()
	}
}

func (c *conn) run(ctx context.Context, m *jsonrpc.Message) {
	defer c.wg.Done()
	rctx, cancel := context.WithCancelCause(ctx)
	key := string(m.ID)
	c.mu.Lock()
	c.inflight[key] = cancel
	c.mu.Unlock()
	resp := c.serve(rctx, m)
	c.mu.Lock()
	delete(c.inflight, key)
	c.mu.Unlock()
	// The client cancelled it: no answer, even if the connection has
	// ended since (then the other calls still running are answered).
	cancelled := errors.Is(context.Cause(rctx), errCancelledByClient)
	cancel(nil)
	switch {
	case resp == nil:
	case cancelled:
		resp.Done()
	default:
		c.write(resp)
	}
}

// handleBatch serves a JSON-RPC batch and answers with the array of
// responses. Only 2025-03-26 has batches: a session that negotiated
// another revision is refused; before initialize the client may be one.
func (c *conn) handleBatch(ctx context.Context, line []byte) {
	var items []json.RawMessage
	if err := json.Unmarshal(line, &items); err != nil {
		c.write(jsonrpc.NewErrorResponse(nil, fmt.Errorf("%w: %v", jsonrpc.ErrParse, err)))
		return
	}
	if len(items) == 0 {
		c.write(jsonrpc.NewErrorResponse(nil, fmt.Errorf("%w: empty batch", jsonrpc.ErrInvalidRequest)))
		return
	}
	if s := c.session(); s != nil && s.Version != version20250326 {
		c.write(jsonrpc.NewErrorResponse(nil, fmt.Errorf("%w: batches exist only in protocol revision %s; this session uses %s", jsonrpc.ErrInvalidRequest, version20250326, s.Version)))
		return
	}
	// Members run concurrently, off the reading goroutine: one may wait for
	// the client's answer to a server-to-client request, which arrives on a
	// later line.
	out := make([]*jsonrpc.Message, len(items))
	var wg sync.WaitGroup
	for i, item := range items {
		m, err := jsonrpc.Decode(item)
		if err != nil {
			out[i] = jsonrpc.NewErrorResponse(validIDOf(m), err)
			continue
		}
		if !m.IsRequest() {
			c.serve(ctx, m)
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i] = c.serve(ctx, m)
		}()
	}
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		wg.Wait()
		var answers []*jsonrpc.Message
		for _, m := range out {
			if m != nil {
				answers = append(answers, m)
			}
		}
		if len(answers) == 0 {
			return
		}
		b, _ := json.Marshal(answers)
		for _, m := range answers {
			m.Done()
		}
		c.wmu.Lock()
		defer c.wmu.Unlock()
		c.out.Write(b)
		c.out.WriteByte('\n')
		c.out.Flush()
	}()
}

// validIDOf returns m's id when it is a valid one, for error responses.
func validIDOf(m *jsonrpc.Message) json.RawMessage {
	if m == nil || !jsonrpc.ValidID(m.ID) {
		return nil
	}
	return m.ID
}

func (c *conn) cancel(params json.RawMessage) {
	var p struct {
		RequestID json.RawMessage `json:"requestId"`
	}
	if json.Unmarshal(params, &p) != nil {
		return
	}
	c.mu.Lock()
	cancel := c.inflight[string(p.RequestID)]
	c.mu.Unlock()
	if cancel != nil {
		cancel(errCancelledByClient)
	}
}

// errCancelledByClient is the cause of a call's context when the client
// cancelled the call (notifications/cancelled).
var errCancelledByClient = errors.New("cancelled by the client")

func (c *conn) serve(ctx context.Context, m *jsonrpc.Message) *jsonrpc.Message {
	in := &inbound{Msg: m, Session: c.session(), peer: peer{c}}
	resp, _ := c.srv.handle(ctx, in) // stdio has no status: the answer says it all
	if m.Method == "initialize" && in.Session != nil {
		c.mu.Lock()
		if c.sess != nil && c.sess != in.Session {
			c.srv.sessions.end(c.sess.ID)
		}
		c.sess = in.Session
		c.mu.Unlock()
		in.Session.setNotifier(func(method string, params any) { _ = peer{c}.Notify(context.Background(), method, params) })
	}
	return resp
}

// peer is the connection seen from a handler.
type peer struct{ c *conn }

func (p peer) Notify(_ context.Context, method string, params any) error {
	raw, err := json.Marshal(params)
	if err != nil {
		return err
	}
	return p.c.write(&jsonrpc.Message{JSONRPC: jsonrpc.Version, Method: method, Params: raw})
}

func (p peer) Call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	s := p.c.session()
	if s == nil {
		return nil, fmt.Errorf("%w: %s needs an initialized session", jsonrpc.ErrInvalidRequest, method)
	}
	return s.call(ctx, method, params, p.c.write)
}

package mcpgen

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"time"
)

// This file holds the transports that carry newline-delimited JSON-RPC:
// a child process's stdin and stdout ([CommandTransport]) and a pipe into
// a server in the same process ([InMemoryTransport]).

// CommandTransport starts the server program name with args when the
// client connects, speaks to it over its stdin and stdout, and passes its
// stderr through to this process's stderr. Close closes its stdin, waits
// for it to exit, and kills it after a grace period of a few seconds.
func CommandTransport(name string, args ...string) ClientTransport {
	return &commandTransport{name: name, args: args}
}

type commandTransport struct {
	name string
	args []string
}

// commandGrace is how long Close waits for a server process to exit after
// its stdin is closed before killing it.
const commandGrace = 5 * time.Second

func (t *commandTransport) dial(_ context.Context, c *Client) (clientConn, error) {
	cmd := exec.Command(t.name, t.args...)
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("start %s: %w", t.name, err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("start %s: %w", t.name, err)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", t.name, err)
	}
	exited := make(chan error, 1)
	lc := newLineConn(c, out, in)
	lc.end = func() error {
		go func() { exited <- cmd.Wait() }()
		select {
		case err := <-exited:
			return exitError(t.name, err)
		case <-time.After(commandGrace):
			_ = cmd.Process.Kill()
			<-exited
			return fmt.Errorf("%s did not exit within %s of its stdin closing and was killed", t.name, commandGrace)
		}
	}
	return lc, nil
}

// exitError describes how a server process ended; nil for a clean exit.
func exitError(name string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%s: %w", name, err)
}

// InMemoryTransport connects a client to srv in the same process, through
// the same code that serves stdio but over an in-memory pipe: no process,
// no socket. It is meant for tests of components: a generated server, its
// typed client, and go test.
func InMemoryTransport(srv *Server) ClientTransport { return &memTransport{srv: srv} }

type memTransport struct{ srv *Server }

func (t *memTransport) dial(ctx context.Context, c *Client) (clientConn, error) {
	if t.srv == nil {
		return nil, errors.New("in-memory transport: no server")
	}
	toServer, fromClient := io.Pipe()
	fromServer, toClient := io.Pipe()
	sctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	served := make(chan error, 1)
	go func() {
		err := ServeStdio(sctx, t.srv, toServer, toClient)
		toClient.Close()
		served <- err
	}()
	lc := newLineConn(c, fromServer, fromClient)
	lc.end = func() error {
		// The client's end is closed: the server sees EOF, finishes
		// what runs, and returns.
		select {
		case err := <-served:
			cancel()
			return err
		case <-time.After(commandGrace):
			cancel()
			toServer.Close()
			return <-served
		}
	}
	return lc, nil
}

// lineConn is a JSON-RPC connection over newline-delimited messages. One
// goroutine reads: it hands responses to the calls waiting for them,
// notifications to the client, and the server's requests to
// [Client.serverRequest], which answers at most maxServerRequests at once
// on goroutines of their own and refuses the rest.
type lineConn struct {
	c   *Client
	r   io.Reader
	w   io.WriteCloser
	end func() error // run by close after w is closed

	// ctx is the server's requests' context: it ends when reading stops
	// (the server's output ended, or close).
	ctx  context.Context
	stop context.CancelFunc

	// out holds the lines waiting for the writer goroutine, which alone
	// writes w: a server that stops reading blocks the writer, not the
	// calls, which give up with their contexts.
	out   chan []byte
	wdone chan struct{} // closed when the writer stops
	werr  error         // why it stopped; read after wdone

	mu      sync.Mutex
	pending map[string]chan *wireMessage
	err     error // set when reading stopped
	done    chan struct{}
}

// wireMessage is any JSON-RPC message as the client reads it.
type wireMessage struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Method string          `json:"method,omitempty"`
	Params json.RawMessage `json:"params,omitempty"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  *ProtocolError  `json:"error,omitempty"`
}

func newLineConn(c *Client, r io.Reader, w io.WriteCloser) *lineConn {
	lc := &lineConn{c: c, r: r, w: w, pending: map[string]chan *wireMessage{}, done: make(chan struct{}),
		out: make(chan []byte, writeQueue), wdone: make(chan struct{})}
	lc.ctx, lc.stop = context.WithCancel(context.Background())
	go lc.read()
	go lc.writeLines()
	return lc
}

// writeQueue is how many lines may wait for the writer.
const writeQueue = 64

// writeLines writes the queued lines, flushing when none is left, until
// the connection ends or a write fails.
func (lc *lineConn) writeLines() {
	defer close(lc.wdone)
	bw := bufio.NewWriter(lc.w)
	for {
		select {
		case b := <-lc.out:
			bw.Write(b)
			bw.WriteByte('\n')
		case <-lc.ctx.Done():
			lc.werr = errors.New("the connection is closed")
			return
		}
		if len(lc.out) > 0 {
			continue // more to write: one flush for all
		}
		if err := bw.Flush(); err != nil {
			lc.werr = fmt.Errorf("write to the server: %w", err)
			return
		}
	}
}

// read reads messages until the stream ends, then fails the calls still
// waiting.
func (lc *lineConn) read() {
	br := bufio.NewReaderSize(lc.r, 64<<10)
	limit := lc.c.opts.MaxMessageBytes
	var err error
	for {
		var line []byte
		line, err = readMessage(br, limit)
		if errors.Is(err, errTooLong) {
			err = fmt.Errorf("%w: the server sent a message larger than %d bytes (ClientOptions.MaxMessageBytes)", ErrMessageTooLarge, limit)
			break
		}
		if len(line) > 0 {
			lc.dispatch(line)
		}
		if err != nil {
			break
		}
	}
	if err == io.EOF {
		err = errors.New("the server closed the connection")
	}
	lc.stop()
	lc.mu.Lock()
	lc.err = err
	close(lc.done)
	lc.mu.Unlock()
}

// readMessage reads one line of at most limit bytes (without its line
// ending) into a buffer of its own. A longer line fails with errTooLong as
// soon as the limit is passed, the rest unread: the client gives up on a
// stream that sent one, where the server's readLine skips it to go on,
// which a line that never ends would make last for ever.
func readMessage(br *bufio.Reader, limit int64) ([]byte, error) {
	var buf []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if int64(len(buf)+len(bytes.TrimRight(chunk, "\r\n"))) > limit {
			return nil, errTooLong
		}
		if len(buf)+len(chunk) > cap(buf) {
			buf = grow(buf, len(buf)+len(chunk), limit)
		}
		buf = append(buf, chunk...)
		if !errors.Is(err, bufio.ErrBufferFull) {
			return bytes.TrimRight(buf, "\r\n"), err
		}
	}
}

// grow returns buf with room for need bytes, for a message of at most
// limit bytes: the capacity doubles, but its last step goes to limit+1
// (a byte past the limit tells it was passed) rather than past it, so that
// reading a message that never ends holds no more than about 1.5 times
// the limit (the half-size buffer and the full one, while copying).
func grow(buf []byte, need int, limit int64) []byte {
	next := max(2*int64(cap(buf)), int64(need))
	if next >= limit {
		next = max(limit+1, int64(need))
	}
	grown := make([]byte, len(buf), next)
	copy(grown, buf)
	return grown
}

func (lc *lineConn) dispatch(line []byte) {
	var m wireMessage
	if err := decodeMessage(line, &m); err != nil {
		return // not JSON-RPC: nothing to answer it with
	}
	switch {
	case m.Method != "" && len(m.ID) > 0:
		lc.c.serverRequest(lc.ctx, &m, lc.reply)
	case m.Method != "":
		lc.c.notification(m.Method, m.Params)
	case len(m.ID) > 0:
		key := idKey(m.ID)
		lc.mu.Lock()
		ch := lc.pending[key]
		delete(lc.pending, key)
		lc.mu.Unlock()
		if ch != nil {
			ch <- &m
		}
	}
}

// reply writes the response to a request of the server.
func (lc *lineConn) reply(ctx context.Context, msg map[string]any) { _ = lc.write(ctx, msg) }

// responseTo is the JSON-RPC response to a server's request id.
func responseTo(id json.RawMessage, v any, err error) map[string]any {
	if err != nil {
		pe := &ProtocolError{Code: CodeInternalError, Message: err.Error()}
		errors.As(err, &pe)
		return map[string]any{"jsonrpc": "2.0", "id": id, "error": pe}
	}
	return map[string]any{"jsonrpc": "2.0", "id": id, "result": v}
}

// idKey normalises an id for the pending table.
func idKey(id json.RawMessage) string {
	if len(id) > 0 && len(id) <= 20 && digits(id) {
		// What the decoding below gives for it too, whether it is a
		// valid number or not (a leading zero): the client's own ids
		// come back this way.
		return string(id)
	}
	var n json.Number
	if json.Unmarshal(id, &n) == nil {
		return n.String()
	}
	var s string
	if json.Unmarshal(id, &s) == nil {
		return s
	}
	return string(id)
}

// digits reports whether b is ASCII digits only.
func digits(b []byte) bool {
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func (lc *lineConn) write(ctx context.Context, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode message: %w", err)
	}
	return lc.writeLine(ctx, b)
}

// writeLine queues one encoded message for the writer, waiting for room
// while ctx lasts.
func (lc *lineConn) writeLine(ctx context.Context, b []byte) error {
	select {
	case lc.out <- b:
		return nil
	case <-lc.wdone:
		return lc.werr
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (lc *lineConn) call(ctx context.Context, o *outgoing) (json.RawMessage, error) {
	key := strconv.FormatInt(o.id, 10)
	ch := make(chan *wireMessage, 1)
	lc.mu.Lock()
	if lc.err != nil {
		err := lc.err
		lc.mu.Unlock()
		return nil, err
	}
	lc.pending[key] = ch
	lc.mu.Unlock()
	if err := lc.writeLine(ctx, requestBytes(o)); err != nil {
		lc.forget(key)
		return nil, err
	}
	select {
	case <-lc.wdone:
		lc.forget(key)
		return nil, lc.werr
	case m := <-ch:
		if m.Error != nil {
			return nil, m.Error
		}
		return m.Result, nil
	case <-lc.done:
		lc.forget(key)
		select {
		case m := <-ch: // answered just before the end
			if m.Error != nil {
				return nil, m.Error
			}
			return m.Result, nil
		default:
		}
		return nil, lc.err
	case <-ctx.Done():
		lc.forget(key)
		// Told if there is room: a server that does not read cannot
		// hold the call that gave up.
		params, _ := json.Marshal(map[string]any{"requestId": o.id, "reason": context.Cause(ctx).Error()})
		if b, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": "notifications/cancelled", "params": json.RawMessage(params)}); err == nil {
			select {
			case lc.out <- b:
			default:
			}
		}
		return nil, ctx.Err()
	}
}

func (lc *lineConn) forget(key string) {
	lc.mu.Lock()
	delete(lc.pending, key)
	lc.mu.Unlock()
}

func (lc *lineConn) notify(ctx context.Context, method string, params json.RawMessage) error {
	msg := map[string]any{"jsonrpc": "2.0", "method": method}
	if params != nil {
		msg["params"] = params
	}
	return lc.write(ctx, msg)
}

func (lc *lineConn) started(string, bool) {}

func (lc *lineConn) close() error {
	lc.stop()
	// The writer blocked on a server that stopped reading fails when w
	// closes.
	err := lc.w.Close()
	if lc.end != nil {
		if eerr := lc.end(); eerr != nil {
			err = eerr
		}
	}
	return err
}

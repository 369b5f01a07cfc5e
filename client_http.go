package mcpgen

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
)

// HTTPTransport reaches the Streamable HTTP endpoint at url, in both
// eras: stateless 2026-07-28 POSTs with the request headers the revision
// defines, or a legacy session (Mcp-Session-Id, ended with DELETE on
// Close). Every message is a POST, answered with JSON or with an SSE
// stream that carries the call's notifications before its response. In a
// legacy session the client also opens the GET stream for the server's
// own messages, answers the server's requests with POSTs, and resumes a
// broken stream with Last-Event-ID.
func HTTPTransport(url string) ClientTransport { return &httpTransport{url: url} }

type httpTransport struct{ url string }

// HTTP client bounds.
const (
	// maxAuthRetries is how often one request is sent again after
	// ClientAuth.Refused renewed the credentials.
	maxAuthRetries = 3
	// maxSSEReconnects bounds the reconnections of one SSE stream that
	// broke before its end.
	maxSSEReconnects = 5
	// defaultSSERetry is the wait before reconnecting when the server
	// named none; maxSSERetry caps what it may name.
	defaultSSERetry = time.Second
	maxSSERetry     = 30 * time.Second
	// maxErrorBody bounds the body of an HTTP error read for its message.
	maxErrorBody = 64 << 10
)

func (t *httpTransport) dial(_ context.Context, c *Client) (clientConn, error) {
	if !strings.HasPrefix(t.url, "http://") && !strings.HasPrefix(t.url, "https://") {
		return nil, fmt.Errorf("HTTP transport: %q is not an http or https URL", t.url)
	}
	u, err := url.Parse(t.url)
	if err != nil {
		return nil, fmt.Errorf("HTTP transport: %w", err)
	}
	// As http.NewRequest does: "host:" is "host".
	u.Host = strings.TrimSuffix(u.Host, ":")
	hc := c.opts.HTTPClient
	own := hc == nil
	if own {
		hc = defaultHTTPClient(c.opts.HeaderTimeout)
	}
	// A copy, so that the caller's client keeps its own redirect policy.
	safe := *hc
	safe.CheckRedirect = sameOrigin(hc.CheckRedirect)
	template := &http.Request{Method: http.MethodPost, URL: u, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1, Host: u.Host}
	return &httpConn{c: c, template: template, hc: &safe, own: own, getReady: make(chan struct{})}, nil
}

type httpConn struct {
	c *Client
	// template is a request to the server's URL, parsed once, from which
	// each request is copied (request).
	template *http.Request
	hc       *http.Client
	own      bool // hc is the default client, made for this connection alone

	mu        sync.Mutex
	version   string // MCP-Protocol-Version; empty before initialize ends
	legacy    bool
	session   string // Mcp-Session-Id of a legacy session
	stopGET   context.CancelFunc
	listening sync.WaitGroup
	// getReady is closed once the first answer to the GET stream's
	// request came (or it failed): from then on the server sends the
	// session's notifications there.
	getReady chan struct{}
	getOnce  sync.Once
	// waiting holds the calls whose response may arrive on another
	// stream (a legacy server may send it on the GET stream), by id.
	waiting map[string]chan *wireMessage
	// initBody is the initialize request, sent again to renew a legacy
	// session the server ended; renewMu lets one call renew it.
	initBody []byte
	initID   int64
	renewMu  sync.Mutex
}

// authError is a refusal the ClientAuth could not overcome: what it said,
// and the answer that refused the request, so that errors.As finds both
// (and the [*InsufficientScopeError] of a 403 that names a scope).
type authError struct {
	err    error
	status *HTTPStatusError
}

func (e *authError) Error() string   { return "authorization: " + e.err.Error() }
func (e *authError) Unwrap() []error { return []error{e.err, e.status} }

// refused reports whether err is an authorization failure: the ClientAuth
// gave up, or the server still answered 401 or 403. Connect does not fall
// back to another era on it, which would only be refused again.
func refused(err error) bool {
	var ae *authError
	var se *HTTPStatusError
	return errors.As(err, &ae) || errors.As(err, &se) && (se.StatusCode == http.StatusUnauthorized || se.StatusCode == http.StatusForbidden)
}

// HTTPStatusError is an HTTP answer that carried no JSON-RPC message: the
// status and the start of the body. A JSON-RPC error in the body comes
// back as a [*ProtocolError] instead, wrapped with the status. A 401 or
// 403 comes back as one too, also when the [ClientAuth] gave up on it;
// for a 403 whose WWW-Authenticate says error="insufficient_scope",
// errors.As finds an [*InsufficientScopeError] with the scope the server
// asked for.
type HTTPStatusError struct {
	// StatusCode is the HTTP status of the answer.
	StatusCode int
	// Body is the start of the answer's body, for the error's text.
	Body string
	// Err is the JSON-RPC error of the body, if it held one.
	Err *ProtocolError

	scope   *InsufficientScopeError // a 403's insufficient_scope
	session string                  // the legacy session the request was sent in
}

// Error names the status and what the body said.
func (e *HTTPStatusError) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("HTTP %d: %s", e.StatusCode, e.Err.Message)
	}
	if e.Body == "" {
		return fmt.Sprintf("HTTP %d %s", e.StatusCode, http.StatusText(e.StatusCode))
	}
	return fmt.Sprintf("HTTP %d: %s", e.StatusCode, e.Body)
}

// Unwrap returns the JSON-RPC error of the body, so that errors.As finds
// a *ProtocolError.
func (e *HTTPStatusError) Unwrap() error {
	if e.Err == nil {
		return nil
	}
	return e.Err
}

// As finds the [*InsufficientScopeError] of a 403 insufficient_scope.
func (e *HTTPStatusError) As(target any) bool {
	if p, ok := target.(**InsufficientScopeError); ok && e.scope != nil {
		*p = e.scope
		return true
	}
	return false
}

func (hc *httpConn) started(version string, legacy bool) {
	hc.mu.Lock()
	hc.version, hc.legacy = version, legacy
	open := legacy && version != "" && hc.session != "" && hc.stopGET == nil
	var ctx context.Context
	if open {
		ctx, hc.stopGET = context.WithCancel(context.Background())
	}
	hc.mu.Unlock()
	if open {
		hc.listening.Add(1)
		go hc.listen(ctx)
	}
}

// header sets the headers every request of the connection carries.
func (hc *httpConn) header(h http.Header) {
	var vals headerValues
	hc.setHeader(h, &vals)
}

// setHeader is header, taking the values' slices from vals.
func (hc *httpConn) setHeader(h http.Header, vals *headerValues) {
	for k, vs := range hc.c.opts.Header {
		for _, v := range vs {
			h.Add(k, v)
		}
	}
	hc.mu.Lock()
	defer hc.mu.Unlock()
	if hc.version != "" {
		vals.set(h, "Mcp-Protocol-Version", hc.version)
	}
	if hc.session != "" {
		vals.set(h, "Mcp-Session-Id", hc.session)
	}
}

// headerValues hands out the one-value slices of a request's headers
// from one allocation: set is http.Header's Set for a key already in
// canonical form, without canonicalizing it again or allocating a slice
// per header. Each slice has a capacity of one, so that appending to a
// header's values (Header.Add) copies them instead of overwriting the
// next header's.
type headerValues struct {
	buf [6]string
	n   int
}

func (v *headerValues) set(h http.Header, key, value string) {
	if v.n == len(v.buf) {
		h[key] = []string{value}
		return
	}
	v.buf[v.n] = value
	h[key] = v.buf[v.n : v.n+1 : v.n+1]
	v.n++
}

// request is the request http.NewRequestWithContext makes for method,
// the server's URL and body (none when empty), without parsing the URL
// again: a copy of the connection's template, with a copy of its URL
// (so that a ClientAuth that changes a request's URL changes that
// request's alone) and headers of its own. The body stays a
// NopCloser'd *bytes.Reader: net/http knows that type to be in memory
// and writes the headers and the body in one write (any other reader
// gets its headers flushed first, and a copy buffer per request).
func (hc *httpConn) request(ctx context.Context, method string, body []byte) *http.Request {
	req := hc.template.WithContext(ctx)
	u := *req.URL
	req.Method, req.URL, req.Header = method, &u, make(http.Header, 8)
	if len(body) > 0 {
		req.ContentLength = int64(len(body))
		req.Body = io.NopCloser(bytes.NewReader(body))
		req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
	}
	return req
}

// do sends one HTTP request built by build, with credentials, sending it
// again when the ClientAuth renews them after a refusal.
func (hc *httpConn) do(ctx context.Context, build func() (*http.Request, error)) (*http.Response, error) {
	for attempt := 0; ; attempt++ {
		req, err := build()
		if err != nil {
			return nil, err
		}
		if a := hc.c.opts.Auth; a != nil {
			if err := a.Authorize(ctx, req); err != nil {
				return nil, fmt.Errorf("authorize: %w", err)
			}
		}
		resp, err := hc.hc.Do(req)
		if err != nil {
			if ctx.Err() == nil && hc.own {
				var ne net.Error
				if errors.As(err, &ne) && ne.Timeout() {
					return nil, fmt.Errorf("no answer within the default HTTP client's timeouts (connect %s, TLS %s, headers %s: ClientOptions.HeaderTimeout): %w", dialTimeout, tlsTimeout, hc.c.opts.HeaderTimeout, err)
				}
			}
			return nil, err
		}
		a := hc.c.opts.Auth
		if a == nil || (resp.StatusCode != http.StatusUnauthorized && resp.StatusCode != http.StatusForbidden) {
			return resp, nil
		}
		if attempt == maxAuthRetries {
			return resp, nil // the caller reports the refusal
		}
		// The body is read first so that the refusal reaches the caller
		// whole; Refused reads the same bytes.
		body, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
		resp.Body.Close()
		resp.Body = io.NopCloser(bytes.NewReader(body))
		if rerr := a.Refused(ctx, req, resp); rerr != nil {
			return nil, &authError{err: rerr, status: statusErrorOf(resp, body)}
		}
	}
}

// post sends one JSON-RPC message; o, when set, is the request it
// carries, whose stateless-era headers it sets.
func (hc *httpConn) post(ctx context.Context, body []byte, o *outgoing) (*http.Response, error) {
	return hc.do(ctx, func() (*http.Request, error) {
		req := hc.request(ctx, http.MethodPost, body)
		vals := new(headerValues)
		vals.set(req.Header, "Content-Type", "application/json")
		vals.set(req.Header, "Accept", "application/json, text/event-stream")
		hc.setHeader(req.Header, vals)
		if o != nil {
			hc.mu.Lock()
			modern := !hc.legacy && hc.version != ""
			hc.mu.Unlock()
			if modern {
				vals.set(req.Header, "Mcp-Method", o.method)
				if o.name != "" {
					vals.set(req.Header, "Mcp-Name", headerValue(o.name))
				}
				for k, vs := range o.header {
					req.Header[k] = vs
				}
			}
		}
		return req, nil
	})
}

func (hc *httpConn) call(ctx context.Context, o *outgoing) (json.RawMessage, error) {
	body := requestBytes(o)
	if o.method == "initialize" {
		hc.mu.Lock()
		hc.initBody, hc.initID = body, o.id
		hc.mu.Unlock()
	}
	res, err := hc.callOnce(ctx, o, body)
	var se *HTTPStatusError
	if errors.As(err, &se) && se.StatusCode == http.StatusNotFound && o.method != "initialize" {
		// The legacy session ended on the server's side: a new one is
		// due (2025-11-25), and the request is sent once more in it.
		if rerr := hc.renew(ctx, se.session); rerr != nil {
			return nil, fmt.Errorf("%w; starting a new session: %v", err, rerr)
		}
		if se.session != "" {
			res, err = hc.callOnce(ctx, o, body)
		}
	}
	return res, err
}

// renew starts a new legacy session after the server answered a request
// of session old with 404: initialize again (the first initialize's
// message), then notifications/initialized. Concurrent calls that saw
// the same session end renew it once.
func (hc *httpConn) renew(ctx context.Context, old string) error {
	hc.renewMu.Lock()
	defer hc.renewMu.Unlock()
	hc.mu.Lock()
	body, id, current := hc.initBody, hc.initID, hc.session
	if old == "" || current != old || body == nil {
		hc.mu.Unlock()
		return nil // no session to renew, or renewed already
	}
	hc.session = ""
	hc.mu.Unlock()
	resp, err := hc.post(ctx, body, nil)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	sid := resp.Header.Get("Mcp-Session-Id")
	if _, err := hc.answer(ctx, resp, id); err != nil {
		return err
	}
	hc.mu.Lock()
	hc.session = sid
	hc.mu.Unlock()
	return hc.notify(ctx, "notifications/initialized", nil)
}

// callOnce sends one request and reads its answer.
func (hc *httpConn) callOnce(ctx context.Context, o *outgoing, body []byte) (json.RawMessage, error) {
	hc.mu.Lock()
	session := hc.session
	hc.mu.Unlock()
	resp, err := hc.post(ctx, body, o)
	if err != nil {
		if ctx.Err() != nil {
			hc.cancelled(o.id, ctx)
			return nil, ctx.Err()
		}
		return nil, err
	}
	defer resp.Body.Close()
	if o.method == "initialize" {
		if sid := resp.Header.Get("Mcp-Session-Id"); sid != "" {
			hc.mu.Lock()
			hc.session = sid
			hc.mu.Unlock()
		}
	}
	res, err := hc.answer(ctx, resp, o.id)
	if err != nil && ctx.Err() != nil {
		hc.cancelled(o.id, ctx)
		return nil, ctx.Err()
	}
	var se *HTTPStatusError
	if errors.As(err, &se) {
		se.session = session
	}
	return res, err
}

// cancelled tells a legacy server that the caller gave up on request id;
// a stateless server learns it from the closed stream.
func (hc *httpConn) cancelled(id int64, ctx context.Context) {
	hc.mu.Lock()
	legacy := hc.legacy
	hc.mu.Unlock()
	if !legacy {
		return
	}
	params, _ := json.Marshal(map[string]any{"requestId": id, "reason": context.Cause(ctx).Error()})
	nctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	_ = hc.notify(nctx, "notifications/cancelled", params)
}

// answer reads the response to request id from resp: one JSON object or
// an SSE stream.
func (hc *httpConn) answer(ctx context.Context, resp *http.Response, id int64) (json.RawMessage, error) {
	limit := hc.c.opts.MaxMessageBytes
	ct := resp.Header.Get("Content-Type")
	if ct != "application/json" && ct != "text/event-stream" {
		ct, _, _ = mime.ParseMediaType(ct)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil, statusError(resp)
	}
	switch ct {
	case "application/json":
		b, err := readAnswer(resp.Body, resp.ContentLength, limit)
		if err != nil {
			return nil, err
		}
		var m wireMessage
		if err := decodeMessage(b, &m); err != nil {
			return nil, fmt.Errorf("decode response: %w: %w", ErrUnexpectedResult, err)
		}
		if m.Error != nil {
			return nil, m.Error
		}
		if len(m.ID) == 0 {
			return nil, fmt.Errorf("the response has no id")
		}
		return m.Result, nil
	case "text/event-stream":
		return hc.stream(ctx, resp.Body, id)
	}
	return nil, fmt.Errorf("HTTP %d with Content-Type %q, neither JSON nor an event stream", resp.StatusCode, resp.Header.Get("Content-Type"))
}

// readAnswer reads a JSON answer of at most limit bytes, size long if
// that is known (else -1): the buffer is allocated once when the size is
// known, else grown as [grow] does; an answer that says it is larger is
// not read at all.
func readAnswer(r io.Reader, size, limit int64) ([]byte, error) {
	n := int64(512)
	switch {
	case size > limit:
		return nil, answerTooLarge(limit)
	case size >= 0:
		n = size + 1 // + 1: room to see the end, or a byte too many
	}
	buf := make([]byte, 0, n)
	for {
		if int64(len(buf)) > limit {
			return nil, answerTooLarge(limit)
		}
		if len(buf) == cap(buf) {
			buf = grow(buf, len(buf)+1, limit)
		}
		m, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+m]
		switch {
		case err == io.EOF && int64(len(buf)) <= limit:
			return buf, nil
		case err != nil && err != io.EOF:
			return nil, fmt.Errorf("read response: %w", err)
		}
	}
}

// answerTooLarge is the error of a JSON answer over limit bytes.
func answerTooLarge(limit int64) error {
	return fmt.Errorf("%w: the response is larger than %d bytes (ClientOptions.MaxMessageBytes)", ErrMessageTooLarge, limit)
}

// statusError reads an HTTP error answer.
func statusError(resp *http.Response) error {
	b, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
	return statusErrorOf(resp, b)
}

// statusErrorOf is the error of resp, whose body (or its start) is b.
func statusErrorOf(resp *http.Response, b []byte) *HTTPStatusError {
	e := &HTTPStatusError{StatusCode: resp.StatusCode, Body: strings.TrimSpace(string(b))}
	var m wireMessage
	if json.Unmarshal(b, &m) == nil && m.Error != nil {
		e.Err = m.Error
	}
	if resp.StatusCode == http.StatusForbidden {
		e.scope = insufficientScope(resp.Header.Values("WWW-Authenticate"))
	}
	return e
}

// stream reads the SSE answer to request id until its response, handing
// the messages before it to the client; a stream that breaks after events
// with ids is resumed with GET and Last-Event-ID after the server's retry
// delay, at most maxSSEReconnects times. The server's requests it carries
// are answered under a context that ends when stream returns: nothing
// started for them outlives the call.
func (hc *httpConn) stream(ctx context.Context, body io.ReadCloser, id int64) (json.RawMessage, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	want := strconv.FormatInt(id, 10)
	var (
		result json.RawMessage
		rerr   error
		found  bool
		bad    error // why the last event that was not JSON-RPC did not decode
	)
	got := func(m *wireMessage) {
		found, result = true, m.Result
		if m.Error != nil {
			rerr = m.Error
		}
	}
	elsewhere := make(chan *wireMessage, 1)
	hc.mu.Lock()
	if hc.waiting == nil {
		hc.waiting = map[string]chan *wireMessage{}
	}
	hc.waiting[want] = elsewhere
	hc.mu.Unlock()
	defer func() {
		hc.mu.Lock()
		delete(hc.waiting, want)
		hc.mu.Unlock()
	}()
	st := &sseState{retry: defaultSSERetry}
	handle := func(data []byte) bool {
		var m wireMessage
		if err := decodeMessage(data, &m); err != nil {
			bad = err
			return false
		}
		if m.Method == "" && idKey(m.ID) == want {
			got(&m)
			return true
		}
		hc.dispatch(ctx, &m)
		return false
	}
	err := hc.readSSE(body, st, handle)
	for attempt := 0; !found; attempt++ {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		select {
		case m := <-elsewhere:
			got(m)
			return result, rerr
		default:
		}
		if st.lastID == "" || attempt == maxSSEReconnects {
			switch {
			case err == nil && bad != nil:
				err = fmt.Errorf("the stream ended before the response; an event did not decode: %w: %w", ErrUnexpectedResult, bad)
			case err == nil:
				err = errors.New("the stream ended before the response")
			}
			return nil, fmt.Errorf("SSE stream: %w", err)
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case m := <-elsewhere:
			got(m)
			return result, rerr
		case <-time.After(st.retry):
		}
		resp, gerr := hc.get(ctx, st.lastID)
		if gerr != nil {
			err = gerr
			continue
		}
		if resp.StatusCode != http.StatusOK {
			err = statusError(resp)
			resp.Body.Close()
			continue
		}
		err = hc.readSSE(resp.Body, st, handle)
		resp.Body.Close()
	}
	return result, rerr
}

// sseState is what an SSE stream carries over a reconnection.
type sseState struct {
	lastID string
	retry  time.Duration
}

// readSSE reads events from body until it ends or handle returns true,
// giving handle each event's data. No event may be larger than the
// client's MaxMessageBytes. A clean end returns nil.
func (hc *httpConn) readSSE(body io.Reader, st *sseState, handle func([]byte) bool) error {
	limit := hc.c.opts.MaxMessageBytes
	br := bufio.NewReaderSize(body, 64<<10)
	var data []byte
	hasData := false
	for {
		line, err := readMessage(br, limit)
		if errors.Is(err, errTooLong) {
			return fmt.Errorf("%w: an event is larger than %d bytes (ClientOptions.MaxMessageBytes)", ErrMessageTooLarge, limit)
		}
		if err != nil && err != io.EOF {
			return err
		}
		if len(line) == 0 && err == nil {
			if hasData && handle(data) {
				return nil
			}
			data, hasData = nil, false
			continue
		}
		field, value, _ := bytes.Cut(line, []byte(":"))
		value = bytes.TrimPrefix(value, []byte(" "))
		switch string(field) {
		case "data":
			if !hasData {
				data, hasData = value, true // line is this reader's own: no copy
				break
			}
			if int64(len(data)+1+len(value)) > limit {
				return fmt.Errorf("%w: an event is larger than %d bytes (ClientOptions.MaxMessageBytes)", ErrMessageTooLarge, limit)
			}
			data = append(append(data, '\n'), value...)
		case "id":
			st.lastID = string(value)
		case "retry":
			if ms, perr := strconv.Atoi(string(value)); perr == nil && ms >= 0 {
				st.retry = min(time.Duration(ms)*time.Millisecond, maxSSERetry)
			}
		}
		if err == io.EOF {
			if hasData && handle(data) {
				return nil
			}
			return nil
		}
	}
}

// get opens the session's GET stream, resuming after lastID when set.
func (hc *httpConn) get(ctx context.Context, lastID string) (*http.Response, error) {
	return hc.do(ctx, func() (*http.Request, error) {
		req := hc.request(ctx, http.MethodGet, nil)
		req.Header.Set("Accept", "text/event-stream")
		hc.header(req.Header)
		if lastID != "" {
			req.Header.Set("Last-Event-ID", lastID)
		}
		return req, nil
	})
}

// listen holds the legacy session's GET stream open for the server's own
// notifications and requests, reconnecting at most maxSSEReconnects times
// in a row; a server without one (405) is left alone.
func (hc *httpConn) listen(ctx context.Context) {
	defer hc.listening.Done()
	ready := func() { hc.getOnce.Do(func() { close(hc.getReady) }) }
	defer ready()
	st := &sseState{retry: defaultSSERetry}
	for fails := 0; fails <= maxSSEReconnects && ctx.Err() == nil; {
		resp, err := hc.get(ctx, st.lastID)
		ready()
		if err != nil {
			fails++
		} else {
			ok := resp.StatusCode == http.StatusOK
			if ok {
				// A stream that carried no message counts as a failure:
				// a server that ends every stream at once is not
				// reconnected to forever.
				fails++
				hc.readSSE(resp.Body, st, func(data []byte) bool {
					var m wireMessage
					if json.Unmarshal(data, &m) == nil && (m.Method != "" || len(m.ID) > 0) {
						fails = 0
						hc.dispatch(ctx, &m)
					}
					return false
				})
			}
			resp.Body.Close()
			if !ok {
				return // 405 and the like: no stream offered
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(st.retry):
		}
	}
}

// sessionStream waits until the legacy session's GET stream was answered
// (or refused), so that the session's notifications sent from then on
// reach the client; at once when the connection holds no such stream.
func (hc *httpConn) sessionStream(ctx context.Context) error {
	hc.mu.Lock()
	listening := hc.stopGET != nil
	hc.mu.Unlock()
	if !listening {
		return nil
	}
	select {
	case <-hc.getReady:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// dispatch handles a message the server sent on a stream: a notification
// goes to the client; a request is answered with a POST of the response,
// under ctx (the call's, or the GET stream's).
func (hc *httpConn) dispatch(ctx context.Context, m *wireMessage) {
	switch {
	case m.Method != "" && len(m.ID) > 0:
		hc.c.serverRequest(ctx, m, hc.reply)
	case m.Method != "":
		hc.c.notification(m.Method, m.Params)
	case len(m.ID) > 0:
		hc.mu.Lock()
		ch := hc.waiting[idKey(m.ID)]
		hc.mu.Unlock()
		if ch != nil {
			select {
			case ch <- m:
			default:
			}
		}
	}
}

// reply POSTs the response to a request of the server.
func (hc *httpConn) reply(ctx context.Context, msg map[string]any) {
	body, err := json.Marshal(msg)
	if err != nil {
		return
	}
	resp, err := hc.post(ctx, body, nil)
	if err == nil {
		io.Copy(io.Discard, io.LimitReader(resp.Body, maxErrorBody))
		resp.Body.Close()
	}
}

func (hc *httpConn) notify(ctx context.Context, method string, params json.RawMessage) error {
	msg := map[string]any{"jsonrpc": "2.0", "method": method}
	if params != nil {
		msg["params"] = params
	}
	body, err := json.Marshal(msg)
	if err != nil {
		return fmt.Errorf("encode notification: %w", err)
	}
	resp, err := hc.post(ctx, body, nil)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return statusError(resp)
	}
	io.Copy(io.Discard, io.LimitReader(resp.Body, maxErrorBody))
	return nil
}

func (hc *httpConn) close() error {
	hc.mu.Lock()
	stop, session := hc.stopGET, hc.session
	hc.stopGET = nil
	hc.mu.Unlock()
	if stop != nil {
		stop()
		hc.listening.Wait()
	}
	if hc.own {
		defer hc.hc.CloseIdleConnections()
	}
	if session == "" {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	resp, err := hc.do(ctx, func() (*http.Request, error) {
		req := hc.request(ctx, http.MethodDelete, nil)
		hc.header(req.Header)
		return req, nil
	})
	if err != nil {
		return fmt.Errorf("end session: %w", err)
	}
	resp.Body.Close()
	return nil
}

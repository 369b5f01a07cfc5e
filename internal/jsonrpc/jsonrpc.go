// Package jsonrpc holds the JSON-RPC 2.0 wire types and the coded errors that
// every MCP transport and handler shares.
//
// One function, [Wire], maps any Go error to its wire form: a coded [*Error]
// found anywhere in the chain is sent as is; anything else becomes -32603
// with a safe message, never code 0 and never the internal text.
package jsonrpc

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// Version is the only JSON-RPC version MCP speaks.
const Version = "2.0"

// Standard JSON-RPC 2.0 error codes, and the MCP-defined ones.
const (
	CodeParseError     = -32700
	CodeInvalidRequest = -32600
	CodeMethodNotFound = -32601
	CodeInvalidParams  = -32602
	CodeInternalError  = -32603

	// CodeHeaderMismatch reports HTTP headers that disagree with the body (2026-07-28).
	CodeHeaderMismatch = -32020
	// CodeUnsupportedProtocolVersion names a protocol revision the server does not speak (2026-07-28).
	CodeUnsupportedProtocolVersion = -32022
	// CodeResourceNotFound is the legacy (pre-2026) code for an unknown resource URI.
	CodeResourceNotFound = -32002
)

// Message is one JSON-RPC message: a request (ID and Method), a notification
// (Method, no ID), or a response (ID and Result or Error). Params and Result
// stay raw so that each handler decodes them straight into its own type.
type Message struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *Error          `json:"error,omitempty"`

	// ResultParts, when set, holds a success response's result as pieces
	// to be written one after another, instead of Result: a large result
	// a component rendered is sent from its buffers without being copied
	// into one. Encode, Write, WriteLine and MarshalJSON handle it.
	ResultParts [][]byte `json:"-"`
	// ResultStream, when set, writes a success response's result itself,
	// instead of Result and ResultParts: a result too large to hold in
	// memory, rendered outside it (see Stream). Write and WriteLine
	// stream it; Encode and MarshalJSON read it into memory.
	ResultStream Stream `json:"-"`
	// Release, when set, gives back the buffers the message refers to;
	// whoever sends the message calls Done once it is written or dropped.
	// A message never released just leaves them to the garbage collector.
	Release func() `json:"-"`
}

// Stream is a result held outside memory (in a file, say) and written by
// the transport from there. WriteTo writes exactly Len bytes: one compact
// JSON value with no line break, each time it is called (from the start);
// calls are not concurrent. Its bytes are not checked on the way out.
type Stream interface {
	Len() int64
	WriteTo(w io.Writer) (int64, error)
}

// ErrIncomplete is returned by Write and WriteLine when a streamed result
// failed part-way (its source or the destination): the bytes written are
// not a whole message, and the transport must not write anything after
// them on the same stream of messages. The stdio transport closes its
// output then; HTTP aborts the response.
var ErrIncomplete = errors.New("jsonrpc: the message was written in part")

// IsRequest reports whether m expects a response.
func (m *Message) IsRequest() bool { return m.Method != "" && len(m.ID) > 0 }

// IsNotification reports whether m is a method call without an id.
func (m *Message) IsNotification() bool { return m.Method != "" && len(m.ID) == 0 }

// IsResponse reports whether m answers an earlier request.
func (m *Message) IsResponse() bool { return m.Method == "" && len(m.ID) > 0 }

// Error is a JSON-RPC error object. It is also a Go error, so handlers return
// it (wrapped or not) and [Wire] finds it.
type Error struct {
	Code    int64           `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

// Error returns the message.
func (e *Error) Error() string { return e.Message }

// Errorf builds a coded error with a formatted message.
func Errorf(code int64, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// WithData returns a copy of e carrying data, marshalled to JSON.
func (e *Error) WithData(data any) *Error {
	c := *e
	b, err := json.Marshal(data)
	if err == nil {
		c.Data = b
	}
	return &c
}

// Sentinel errors for the standard codes; wrap them with %w to add context.
var (
	ErrParse          = &Error{Code: CodeParseError, Message: "parse error"}
	ErrInvalidRequest = &Error{Code: CodeInvalidRequest, Message: "invalid request"}
	ErrMethodNotFound = &Error{Code: CodeMethodNotFound, Message: "method not found"}
	ErrInvalidParams  = &Error{Code: CodeInvalidParams, Message: "invalid params"}
	ErrInternal       = &Error{Code: CodeInternalError, Message: "internal error"}
)

// Wire maps any error to the object sent to the client. A coded error keeps
// its code; when it was wrapped with context (fmt.Errorf("...: %w", ErrX)),
// the full text becomes the message, since the context is the useful part.
// An uncoded error becomes a generic internal error so that no internal
// detail leaks.
func Wire(err error) *Error {
	var e *Error
	if !errors.As(err, &e) {
		return &Error{Code: CodeInternalError, Message: "internal error"}
	}
	if err == error(e) {
		return e
	}
	c := *e
	c.Message = err.Error()
	return &c
}

// NewResponse builds a success response for id.
func NewResponse(id json.RawMessage, result json.RawMessage) *Message {
	return &Message{JSONRPC: Version, ID: id, Result: result}
}

// NewErrorResponse builds an error response for id (null when the id is unknown).
func NewErrorResponse(id json.RawMessage, err error) *Message {
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	return &Message{JSONRPC: Version, ID: id, Error: Wire(err)}
}

// Decode parses one message and checks its envelope. Errors are coded:
// bad JSON is a parse error, a well-formed but invalid envelope an invalid
// request.
func Decode(data []byte) (*Message, error) {
	if fm, ok := decodeFast(data); ok {
		return checkEnvelope(fm)
	}
	var m Message
	if err := json.Unmarshal(data, &m); err != nil {
		var syn *json.SyntaxError
		if errors.As(err, &syn) || !json.Valid(data) {
			return nil, fmt.Errorf("%w: %s", ErrParse, Describe(data, "", err))
		}
		return nil, DecodeError(ErrInvalidRequest, data, "", err)
	}
	return checkEnvelope(&m)
}

// checkEnvelope checks what the JSON-RPC envelope requires.
func checkEnvelope(m *Message) (*Message, error) {
	if m.JSONRPC != Version {
		return m, fmt.Errorf("%w: jsonrpc must be %q", ErrInvalidRequest, Version)
	}
	if len(m.ID) > 0 && !ValidID(m.ID) {
		return m, fmt.Errorf("%w: id must be a string or a number", ErrInvalidRequest)
	}
	if m.Method == "" && len(m.ID) == 0 {
		return m, fmt.Errorf("%w: neither a method call nor a response", ErrInvalidRequest)
	}
	if m.Method == "" && len(m.Result) == 0 && m.Error == nil {
		return m, fmt.Errorf("%w: a response needs a result or an error", ErrInvalidRequest)
	}
	return m, nil
}

// ValidID reports whether id is a JSON-RPC id: a string or a number.
func ValidID(id json.RawMessage) bool {
	if len(id) == 0 {
		return false
	}
	switch id[0] {
	case '"', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return true
	}
	return false
}

// IsBatch reports whether data is a JSON array (a JSON-RPC batch).
func IsBatch(data []byte) bool {
	t := bytes.TrimLeft(data, " \t\r\n")
	return len(t) > 0 && t[0] == '['
}

// Encode renders m as one line of JSON. A success response is assembled
// around its result without re-scanning it (the runtime produces results as
// compact JSON, and json.Marshal would validate and compact them again);
// anything else, or a result holding a line break, goes through
// json.Marshal, which compacts.
func Encode(m *Message) ([]byte, error) {
	if m.ResultStream != nil {
		flat, err := m.withStreamRead()
		if err != nil {
			return nil, err
		}
		m = flat
	}
	if plainResponse(m) {
		n := len(m.ID) + len(`{"jsonrpc":"2.0","id":,"result":}`)
		for _, part := range m.resultParts() {
			n += len(part)
		}
		b := make([]byte, 0, n)
		b = append(b, `{"jsonrpc":"2.0","id":`...)
		b = append(b, m.ID...)
		b = append(b, `,"result":`...)
		for _, part := range m.resultParts() {
			b = append(b, part...)
		}
		return append(b, '}'), nil
	}
	return json.Marshal(m)
}

// resultParts is the result as the pieces to write one after another.
func (m *Message) resultParts() [][]byte {
	if m.ResultParts != nil {
		return m.ResultParts
	}
	return [][]byte{m.Result}
}

// MarshalJSON is encoding/json's encoding of the message, with a result
// held in ResultParts joined into one.
func (m *Message) MarshalJSON() ([]byte, error) {
	type plain Message
	if m.ResultStream != nil {
		flat, err := m.withStreamRead()
		if err != nil {
			return nil, err
		}
		m = flat
	}
	if m.ResultParts == nil {
		return json.Marshal((*plain)(m))
	}
	c := *m
	c.Result, c.ResultParts = bytes.Join(m.ResultParts, nil), nil
	return json.Marshal((*plain)(&c))
}

// withStreamRead is a copy of m whose streamed result is read into
// Result: for encodings that need the message in one buffer (a batch's
// array of answers).
func (m *Message) withStreamRead() (*Message, error) {
	var b bytes.Buffer
	b.Grow(int(m.ResultStream.Len()))
	if n, err := m.ResultStream.WriteTo(&b); err != nil || n != m.ResultStream.Len() {
		return nil, fmt.Errorf("read streamed result: %d of %d bytes: %v", n, m.ResultStream.Len(), err)
	}
	c := *m
	c.Result, c.ResultParts, c.ResultStream = b.Bytes(), nil, nil
	return &c, nil
}

// WrittenLen is the number of bytes Write writes for m, when m is a
// success response written as it is (plain, see Encode), else -1: an
// HTTP answer sends it as Content-Length, so that a client can tell a
// cut answer from a whole one.
func WrittenLen(m *Message) int64 {
	if !plainResponse(m) {
		return -1
	}
	n := int64(len(m.ID) + len(`{"jsonrpc":"2.0","id":,"result":}`))
	if m.ResultStream != nil {
		return n + m.ResultStream.Len()
	}
	for _, part := range m.resultParts() {
		n += int64(len(part))
	}
	return n
}

// Done tells that m has been written (or dropped) and its bytes are not
// read any more: it runs m.Release, once. A nil m is allowed.
func (m *Message) Done() {
	if m == nil {
		return
	}
	if f := m.Release; f != nil {
		m.Release = nil
		f()
	}
}

// plainResponse reports whether m is a success response whose result can be
// sent as it is: no line break in it (two IndexByte scans, which are
// vectorized, unlike IndexAny).
func plainResponse(m *Message) bool {
	if m.Error != nil || m.Method != "" || len(m.ID) == 0 || len(m.Result) == 0 && m.ResultParts == nil && m.ResultStream == nil {
		return false
	}
	if m.ResultStream != nil {
		return true // no line break, by Stream's contract
	}
	for _, part := range m.resultParts() {
		if bytes.IndexByte(part, '\n') >= 0 || bytes.IndexByte(part, '\r') >= 0 {
			return false
		}
	}
	return true
}

// Write writes m to w as Encode renders it. A success response's result is
// written from where it lies (in its pieces, when it has ResultParts),
// between the envelope's head and tail, rather than first copied into one
// buffer with them: for a large answer (read_graph of a big graph) that is
// one copy fewer.
func Write(w io.Writer, m *Message) error { return write(w, m, "}") }

// WriteLine is Write followed by a newline.
func WriteLine(w io.Writer, m *Message) error { return write(w, m, "}\n") }

func write(w io.Writer, m *Message, tail string) error {
	if !plainResponse(m) {
		b, err := json.Marshal(m)
		if err != nil {
			return err
		}
		_, err = w.Write(append(b, tail[1:]...))
		return err
	}
	head := make([]byte, 0, 64)
	head = append(head, `{"jsonrpc":"2.0","id":`...)
	head = append(head, m.ID...)
	head = append(head, `,"result":`...)
	if _, err := w.Write(head); err != nil {
		return err
	}
	if m.ResultStream != nil {
		return writeStream(w, m.ResultStream, tail)
	}
	for _, part := range m.resultParts() {
		if _, err := w.Write(part); err != nil {
			return err
		}
	}
	_, err := io.WriteString(w, tail)
	return err
}

// writeStream writes a streamed result and the envelope's tail; any
// failure is ErrIncomplete, since the envelope's head is out already.
func writeStream(w io.Writer, s Stream, tail string) error {
	n, err := s.WriteTo(w)
	if err == nil && n != s.Len() {
		err = fmt.Errorf("the stream wrote %d bytes of %d", n, s.Len())
	}
	if err == nil {
		_, err = io.WriteString(w, tail)
	}
	if err != nil {
		return fmt.Errorf("%w: %v", ErrIncomplete, err)
	}
	return nil
}

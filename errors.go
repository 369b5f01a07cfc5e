package mcpgen

import (
	"encoding/json"
	"fmt"

	"github.com/mcpgen/mcpgen/internal/jsonrpc"
)

// Tool errors and protocol errors.
//
// A component that returns an ordinary error (errors.New, fmt.Errorf) has
// failed at its task: a tool answers with a result whose isError is set and
// whose text is the message, so the model can read it and try again. A
// component that returns a [*ProtocolError], or wraps one of the sentinels
// below with %w, says the request itself was wrong: the client gets a
// JSON-RPC error with that code. Anything else that goes wrong in the
// runtime becomes -32603 with a safe message, never with internal details.

// ProtocolError is a JSON-RPC error: a code, a message and optional data.
// Return it (wrapped or not) from a handler to answer with that error.
type ProtocolError struct {
	Code    int64           `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

// Error returns the message.
func (e *ProtocolError) Error() string { return e.Message }

// As lets the runtime find e in a chain of wrapped errors: it is what the
// runtime answers with.
func (e *ProtocolError) As(target any) bool {
	if t, ok := target.(**jsonrpc.Error); ok {
		*t = (*jsonrpc.Error)(e)
		return true
	}
	return false
}

// Is reports whether e is target, also when the runtime holds it under
// its own type.
func (e *ProtocolError) Is(target error) bool {
	t, ok := target.(*jsonrpc.Error)
	return ok && t == (*jsonrpc.Error)(e)
}

// JSON-RPC error codes.
const (
	CodeParseError     = jsonrpc.CodeParseError
	CodeInvalidRequest = jsonrpc.CodeInvalidRequest
	CodeMethodNotFound = jsonrpc.CodeMethodNotFound
	CodeInvalidParams  = jsonrpc.CodeInvalidParams
	CodeInternalError  = jsonrpc.CodeInternalError
)

// Sentinel protocol errors; wrap them with fmt.Errorf("...: %w", Err...) to
// add detail while keeping the code.
var (
	ErrInvalidRequest = (*ProtocolError)(jsonrpc.ErrInvalidRequest)
	ErrMethodNotFound = (*ProtocolError)(jsonrpc.ErrMethodNotFound)
	ErrInvalidParams  = (*ProtocolError)(jsonrpc.ErrInvalidParams)
	ErrInternal       = (*ProtocolError)(jsonrpc.ErrInternal)
)

// Errorf returns a protocol error with the given code and message.
func Errorf(code int64, format string, args ...any) *ProtocolError {
	return &ProtocolError{Code: code, Message: fmt.Sprintf(format, args...)}
}

package mcpgen

import (
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

// ProtocolError is a JSON-RPC error: a Code, a Message and optional Data
// (raw JSON). Return it (wrapped or not) from a handler to answer with
// that error; the runtime's own errors are of this type too, so
// errors.As and errors.Is find them. WithData returns a copy carrying
// data. A [Client] returns the errors a server answers with as one.
type ProtocolError = jsonrpc.Error

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
	ErrInvalidRequest = jsonrpc.ErrInvalidRequest
	ErrMethodNotFound = jsonrpc.ErrMethodNotFound
	ErrInvalidParams  = jsonrpc.ErrInvalidParams
	ErrInternal       = jsonrpc.ErrInternal
)

// Errorf returns a protocol error with the given code and message.
func Errorf(code int64, format string, args ...any) *ProtocolError {
	return &ProtocolError{Code: code, Message: fmt.Sprintf(format, args...)}
}

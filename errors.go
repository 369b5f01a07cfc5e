package mcpgen

import (
	"fmt"

	"github.com/mcpgen/mcpgen/internal/jsonrpc"
)

// ProtocolError is a JSON-RPC error: a Code, a Message and optional Data
// (raw JSON). It is how a component says the request itself was wrong.
//
// A component that returns an ordinary error (errors.New, fmt.Errorf) has
// failed at its task: a tool answers with a result whose isError is set
// and whose text is the message, so that the model can read it and try
// again. A component that returns a ProtocolError (wrapped or not, see
// [Errorf]), or wraps one of the sentinel errors ([ErrInvalidParams], ...)
// with %w, gets a JSON-RPC error with that code instead. Anything else
// that goes wrong in the runtime becomes -32603 with a safe message,
// never with internal details.
//
// The runtime's own errors are of this type too, so errors.As and
// errors.Is find them. WithData returns a copy carrying data. A [Client]
// returns the errors a server answers with as one.
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

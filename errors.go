package mcpgen

import (
	"github.com/mcpgen/mcpgen/internal/cluster"
	"github.com/mcpgen/mcpgen/internal/jsonrpc"
	"github.com/mcpgen/mcpgen/internal/server"
)

// Tool errors and protocol errors.
//
// A component that returns an ordinary error (errors.New, fmt.Errorf) has
// failed at its task: a tool answers with a result whose isError is set and
// whose text is the message, so the model can read it and try again. A
// component that returns a [ProtocolError], or wraps one of the sentinels
// below with %w, says the request itself was wrong: the client gets a
// JSON-RPC error with that code. Anything else that goes wrong in the
// runtime becomes -32603 with a safe message, never with internal details.

// ProtocolError is a JSON-RPC error: a code, a message and optional data.
// Return it (wrapped or not) from a handler to answer with that error.
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
	// ErrResourceNotFound, returned by a resource template's Read when its
	// variables name nothing, answers with the era's not-found error.
	ErrResourceNotFound = server.ErrResourceNotFound
	// ErrUnavailable, wrapped by a handler's error when a service it needs
	// (its database, say) cannot be reached, answers with a retryable
	// error: HTTP 503 with Retry-After, -32603 naming the outage on stdio.
	// The model never sees it as a failed tool call.
	ErrUnavailable = cluster.ErrUnavailable
)

// Errorf returns a protocol error with the given code and message.
func Errorf(code int64, format string, args ...any) *ProtocolError {
	return jsonrpc.Errorf(code, format, args...)
}

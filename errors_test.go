package mcpgen

import (
	"errors"
	"fmt"
	"testing"

	"github.com/mcpgen/mcpgen/internal/jsonrpc"
)

// A ProtocolError a component returns, wrapped or not, is what the client
// gets: its code, and the wrapping context as the message.
func TestProtocolErrorOnTheWire(t *testing.T) {
	for _, c := range []struct {
		err  error
		code int64
		msg  string
	}{
		{ErrInvalidParams, CodeInvalidParams, "invalid params"},
		{fmt.Errorf("note 7: %w", ErrInvalidParams), CodeInvalidParams, "note 7: invalid params"},
		{Errorf(-32001, "quota of %d exceeded", 3), -32001, "quota of 3 exceeded"},
		{fmt.Errorf("wrapped: %w", &ProtocolError{Code: -32002, Message: "gone"}), -32002, "wrapped: gone"},
		{errors.New("disk full"), CodeInternalError, "internal error"},
	} {
		w := jsonrpc.Wire(c.err)
		if w.Code != c.code || w.Message != c.msg {
			t.Errorf("Wire(%v) = %d %q, want %d %q", c.err, w.Code, w.Message, c.code, c.msg)
		}
	}
	wrapped := fmt.Errorf("x: %w", ErrInvalidParams)
	if !errors.Is(wrapped, ErrInvalidParams) || !errors.Is(wrapped, jsonrpc.ErrInvalidParams) || errors.Is(wrapped, ErrInvalidRequest) {
		t.Error("errors.Is does not tell the sentinels apart")
	}
	var pe *ProtocolError
	if !errors.As(fmt.Errorf("x: %w", Errorf(-32001, "y")), &pe) || pe.Code != -32001 {
		t.Error("errors.As does not find a wrapped *ProtocolError")
	}
}

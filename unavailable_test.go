package mcpgen

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"
)

// outageError says it is an outage the way a package that does not import
// the runtime does (memstore.ErrUnavailable): with an Unavailable method.
type outageError struct{ down bool }

func (e outageError) Error() string     { return "database down" }
func (e outageError) Unavailable() bool { return e.down }

// TestUnavailableFromOtherPackages: a tool whose error wraps
// ErrUnavailable, or any error whose Unavailable method reports true, is
// answered as an outage (retryable, a 503 over HTTP), never as a failed
// tool call the model would read; Unavailable() false is an ordinary
// failure.
func TestUnavailableFromOtherPackages(t *testing.T) {
	for _, c := range []struct {
		name   string
		err    error
		outage bool
	}{
		{"wraps ErrUnavailable", fmt.Errorf("load: %w", ErrUnavailable), true},
		{"Unavailable method", fmt.Errorf("load: %w", outageError{down: true}), true},
		{"Unavailable false", fmt.Errorf("load: %w", outageError{}), false},
		{"plain", errors.New("load: no such row"), false},
	} {
		def := Definition{Name: "u", Version: "1.0.0", Tools: []Tool{{
			Info: ToolInfo{Name: "load", InputSchema: json.RawMessage(`{"type":"object"}`)},
			Call: func(context.Context, *Request, json.RawMessage) (*CallToolResult, error) { return ToolError(c.err) },
		}}}
		s := New(def, Options{})
		resp, out := handleOutcome(t, s, nil, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"load","arguments":{},`+modernMeta+`}}`)
		if got := out.refusal == refusedUnavailable; got != c.outage {
			t.Errorf("%s: outage %v, want %v (outcome %+v)", c.name, got, c.outage, out)
		}
		if c.outage && resp.Error == nil {
			t.Errorf("%s: answered with a result, want an error the client retries", c.name)
		}
		if !c.outage && (resp.Error != nil || !result(t, resp)["isError"].(bool)) {
			t.Errorf("%s: want a tool result with isError, got %+v", c.name, resp)
		}
	}
}

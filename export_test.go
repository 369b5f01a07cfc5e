package mcpgen

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/mcpgen/mcpgen/internal/jsonrpc"
	"time"
)

// WaitTasksTerminal waits until every task of the server serving req has
// reached a terminal status, so that a transcript can poll tasks/get
// without racing the task's goroutine.
func WaitTasksTerminal(ctx context.Context, req *Request) error {
	s := req.server
	if s.tasks == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	for {
		done := true
		s.tasks.mu.Lock()
		for _, tk := range s.tasks.tasks {
			tk.mu.Lock()
			done = done && terminal(tk.status)
			tk.mu.Unlock()
		}
		s.tasks.mu.Unlock()
		if done {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("tasks still running: %w", ctx.Err())
		case <-time.After(time.Millisecond):
		}
	}
}

// HandleForTest serves one decoded message as a transport would, for the
// tests of package mcpgen_test: p is the caller, legacy the revision a
// legacy transport negotiated ("" for none).
// Like a transport, it is done with the answer once it has it encoded
// (which gives back what the answer held against its caller's limits).
func HandleForTest(ctx context.Context, s *Server, m *jsonrpc.Message, p Principal, legacy string) *jsonrpc.Message {
	resp := answerOnly(s.handle(ctx, &inbound{Msg: m, Auth: p, LegacyVersion: legacy}))
	if resp == nil {
		return nil
	}
	defer resp.Done()
	b, err := jsonrpc.Encode(resp)
	if err != nil {
		panic(err)
	}
	var out jsonrpc.Message
	if err := json.Unmarshal(b, &out); err != nil {
		panic(err)
	}
	return &out
}

// PendingBytesForTest is what the answers of principal key (as
// principalKey names it: "sub:alice") hold against its budget.
func PendingBytesForTest(s *Server, key string) int64 {
	s.pending.mu.Lock()
	defer s.pending.mu.Unlock()
	return s.pending.m[key]
}

// NewHTTPServerForTest and LimitConnsForTest are the http.Server and the
// connection caps of [Flags.Run], for the hostile-load tests of package
// mcpgen_test (which import generated/everything, so cannot live in
// package mcpgen).
var (
	NewHTTPServerForTest = newHTTPServer
	LimitConnsForTest    = limitConns
)

// CardWithVersion is cardWithVersion, for the Server Card tests.
var CardWithVersion = cardWithVersion

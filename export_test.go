package mcpgen

import (
	"context"
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
func HandleForTest(ctx context.Context, s *Server, m *jsonrpc.Message, p Principal, legacy string) *jsonrpc.Message {
	return s.handle(ctx, &inbound{Msg: m, Auth: p, LegacyVersion: legacy})
}

// NewHTTPServerForTest and LimitConnsForTest are the http.Server and the
// connection caps of [Flags.Run], for the hostile-load tests of package
// mcpgen_test (which import generated/everything, so cannot live in
// package mcpgen).
var (
	NewHTTPServerForTest = newHTTPServer
	LimitConnsForTest    = limitConns
)

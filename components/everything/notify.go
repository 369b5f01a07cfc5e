package everything

import (
	"context"
	"time"

	"github.com/mcpgen/mcpgen"
)

// This file holds the tools that notify the client while they run.

// notifyPause is the pause between two notifications of one call.
const notifyPause = 50 * time.Millisecond

// pause waits d unless ctx ends first.
func pause(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Send three log messages at level info while running; a client receives them if it chose a log level of info or lower.
//
//mcp:tool name=test_tool_with_logging readonly
type ToolWithLogging struct{}

// Call logs the start, the work and the end of the call.
func (ToolWithLogging) Call(ctx context.Context, req *mcpgen.Request) (string, error) {
	for i, msg := range []string{"Tool execution started", "Tool processing data", "Tool execution completed"} {
		if i > 0 {
			if err := pause(ctx, notifyPause); err != nil {
				return "", err
			}
		}
		if err := req.Log(ctx, "info", "test_tool_with_logging", msg); err != nil {
			return "", err
		}
	}
	return "Sent three log messages at level info.", nil
}

// Report progress 0, 50 and 100 out of 100 while running, if the request carries a progress token.
//
//mcp:tool name=test_tool_with_progress readonly
type ToolWithProgress struct{}

// Call reports the three steps.
func (ToolWithProgress) Call(ctx context.Context, req *mcpgen.Request) (string, error) {
	for i, p := range []float64{0, 50, 100} {
		if i > 0 {
			if err := pause(ctx, notifyPause); err != nil {
				return "", err
			}
		}
		if err := req.Progress(ctx, p, 100, ""); err != nil {
			return "", err
		}
	}
	return "Reported progress 0, 50 and 100 out of 100.", nil
}

// Answer after half a second, so that a client can resume its response stream while the call runs.
//
//mcp:tool name=test_reconnection readonly
type Reconnection struct{}

// Call answers after a short wait.
func (Reconnection) Call(ctx context.Context) (string, error) {
	if err := pause(ctx, 500*time.Millisecond); err != nil {
		return "", err
	}
	return "Reconnection test finished.", nil
}

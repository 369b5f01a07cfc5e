package everything

import (
	"context"

	"github.com/mcpgen/mcpgen"
)

// This file holds the diagnostic hooks of the server-stateless scenario
// (2026-07-28): each makes one rule of the stateless wire observable.

// Ask the client's model for a word; needs the sampling capability, and a client without it gets a missing-capability error (-32021).
//
//mcp:tool name=test_missing_capability readonly openworld
type MissingCapability struct{}

// Call samples the client's model.
func (MissingCapability) Call(ctx context.Context, req *mcpgen.Request) (string, error) {
	text, err := sample(ctx, req, "probe", "Reply with one word.", 10)
	if err != nil {
		return "", err
	}
	return "The model answered: " + text, nil
}

// Ask the user's name right away; a stateless client gets the question as an input_required result, never as a request on the response stream.
//
//mcp:tool name=test_streaming_elicitation readonly
type StreamingElicitation struct{}

// Call asks for the name.
func (StreamingElicitation) Call(ctx context.Context, req *mcpgen.Request) (string, error) {
	a, err := askUserName(ctx, req)
	if err != nil {
		return "", err
	}
	return describeAnswer(a), nil
}

// Log one message at level info and return at once; a stateless client receives it only if its request set a log level.
//
//mcp:tool name=test_logging_tool readonly
type LoggingTool struct{}

// Call logs and returns.
func (LoggingTool) Call(ctx context.Context, req *mcpgen.Request) (string, error) {
	if err := req.Log(ctx, "info", "test_logging_tool", "test_logging_tool was called"); err != nil {
		return "", err
	}
	return "Logged one message at level info (delivered only to clients that chose a log level).", nil
}

// Announce that the tool list changed (notifications/tools/list_changed) to the clients listening for it.
//
//mcp:tool name=test_trigger_tool_change idempotent destructive=false
type TriggerToolChange struct{}

// Call sends the notification.
func (TriggerToolChange) Call(_ context.Context, req *mcpgen.Request) (string, error) {
	req.ListChanged("tools")
	return "Sent notifications/tools/list_changed.", nil
}

// Announce that the prompt list changed (notifications/prompts/list_changed) to the clients listening for it.
//
//mcp:tool name=test_trigger_prompt_change idempotent destructive=false
type TriggerPromptChange struct{}

// Call sends the notification.
func (TriggerPromptChange) Call(_ context.Context, req *mcpgen.Request) (string, error) {
	req.ListChanged("prompts")
	return "Sent notifications/prompts/list_changed.", nil
}

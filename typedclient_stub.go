package mcpgen

// TEMPORARY: the signatures of the client runtime (issue 22, the contract in
// notes/client-api.md) that generated typed clients call, so that they
// compile until the real client (branch wip-client) is merged. Every body
// fails. Delete this file when merging wip-client.

import (
	"context"
	"errors"
)

var errNoClientYet = errors.New("mcpgen: the client runtime is not merged yet")

// Client is a connection to an MCP server.
type Client struct{}

// ListTools lists the server's tools.
func (c *Client) ListTools(ctx context.Context) ([]ToolInfo, error) { return nil, errNoClientYet }

// CallTool calls a tool.
func (c *Client) CallTool(ctx context.Context, name string, args any) (*CallToolResult, error) {
	return nil, errNoClientYet
}

// ReadResource reads a resource.
func (c *Client) ReadResource(ctx context.Context, uri string) (*ReadResourceResult, error) {
	return nil, errNoClientYet
}

// GetPrompt gets a prompt.
func (c *Client) GetPrompt(ctx context.Context, name string, args map[string]string) (*GetPromptResult, error) {
	return nil, errNoClientYet
}

// ToolCallError is a tool's own failure.
type ToolCallError struct {
	Tool   string
	Result *CallToolResult
}

func (e *ToolCallError) Error() string { return "tool " + e.Tool }

// CallToolAs calls a tool and decodes its result.
func CallToolAs[Out any](ctx context.Context, c *Client, name string, in any) (Out, error) {
	var zero Out
	return zero, errNoClientYet
}

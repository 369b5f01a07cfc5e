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

// ClientTransport is how a Client reaches a server.
type ClientTransport interface{ stub() }

type stubTransport struct{}

func (stubTransport) stub() {}

// CommandTransport starts a stdio server process.
func CommandTransport(name string, args ...string) ClientTransport { return stubTransport{} }

// HTTPTransport reaches a server over Streamable HTTP.
func HTTPTransport(url string) ClientTransport { return stubTransport{} }

// InMemoryTransport reaches srv in this process.
func InMemoryTransport(srv *Server) ClientTransport { return stubTransport{} }

// ClientOptions configure a Client.
type ClientOptions struct {
	ClientInfo      Implementation
	ProtocolVersion string
}

// Connect connects to a server.
func Connect(ctx context.Context, t ClientTransport, opts ClientOptions) (*Client, error) {
	return nil, errNoClientYet
}

// Close ends the connection.
func (c *Client) Close() error { return nil }

// ProtocolVersion is the protocol revision in use.
func (c *Client) ProtocolVersion() string { return "" }

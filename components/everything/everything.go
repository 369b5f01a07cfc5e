// Package everything is the fixture server for the official MCP
// conformance suite: every tool, resource and prompt the suite exercises,
// written as annotated components like any other server.
//
//mcp:server name=everything title="Conformance fixture" version=0.1.0
package everything

import "context"

// SimpleText returns a fixed text block.
//
//mcp:tool name=test_simple_text readonly
type SimpleText struct{}

// Call returns the fixed text.
func (SimpleText) Call(context.Context) (string, error) {
	return "This is a simple text response for testing.", nil
}

// Echo returns the message it is given.
//
//mcp:tool readonly
type Echo struct {
	// The message to echo back.
	Message string `json:"message" jsonschema:"minLength=1"`
}

// Call returns the message.
func (in Echo) Call(context.Context) (string, error) { return in.Message, nil }

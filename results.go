package mcpgen

import (
	"encoding/json"

	"github.com/mcpgen/mcpgen/internal/server"
)

// The result helpers turn a component's Go result into its wire form.
// Generated adapters call them; a component rarely needs to. Each takes the
// component's error too: an ordinary error becomes a tool result with
// isError set (the model sees the message), while a protocol error
// ([ProtocolError], [ErrInvalidParams], ...) travels as a JSON-RPC error.

// DecodeArguments decodes tool arguments that already passed the input
// schema into the component's input struct.
func DecodeArguments[T any](args json.RawMessage) (T, error) { return server.DecodeArguments[T](args) }

// ToolError turns a component's error into a tool result with isError set.
// Protocol errors pass through unchanged.
func ToolError(err error) (*CallToolResult, error) { return server.ToolError(err) }

// TextResult wraps a string result as one text block.
func TextResult(out string, err error) (*CallToolResult, error) { return server.TextResult(out, err) }

// ContentResult wraps content blocks returned by a component.
func ContentResult(out []Content, err error) (*CallToolResult, error) {
	return server.ContentResult(out, err)
}

// RawResult passes through a whole tool result built by the component.
func RawResult(out *CallToolResult, err error) (*CallToolResult, error) {
	return server.RawResult(out, err)
}

// StructuredResult encodes a structured result as structuredContent, with
// its JSON as the text block.
func StructuredResult[T any](out T, err error) (*CallToolResult, error) {
	return server.StructuredResult(out, err)
}

// EncodedJSON is implemented by a structured result type that holds its
// own compact JSON already (rendered in one pass with its text, say):
// StructuredResult sends it as structuredContent without encoding the
// value again. Unless the generator proved the type (it cannot prove a
// type with this method), the runtime still checks it against the output
// schema.
type EncodedJSON = server.EncodedJSON

// EncodedText is implemented by a structured result type that holds its
// text block already encoded as one JSON string: StructuredResult sends it
// as the text block as it is. mcp-memory's graph results render both
// forms this way, in one pass over the store's rows.
type EncodedText = server.EncodedText

// Releaser is implemented by a structured result type whose encoded bytes
// (EncodedJSON, EncodedText) live in buffers it reuses: the runtime calls
// Release once it reads them no more, after the answer has been written
// (see CallToolResult.OnRelease).
type Releaser = server.Releaser

// StructuredResultText is StructuredResult with a text block of the
// component's choosing (its ContentText method).
func StructuredResultText[T any](out T, text string) (*CallToolResult, error) {
	return server.StructuredResultText(out, text)
}

// ResourceText answers resources/read with a text body.
func ResourceText(uri, mimeType string, out string, err error) (*ReadResourceResult, error) {
	return server.ResourceText(uri, mimeType, out, err)
}

// ResourceBlob answers resources/read with a binary body (sent base64).
func ResourceBlob(uri, mimeType string, out []byte, err error) (*ReadResourceResult, error) {
	return server.ResourceBlob(uri, mimeType, out, err)
}

// ResourceJSON answers resources/read with out encoded as JSON text.
func ResourceJSON[T any](uri, mimeType string, out T, err error) (*ReadResourceResult, error) {
	return server.ResourceJSON(uri, mimeType, out, err)
}

// ResourceRaw passes through a whole read result built by the component.
func ResourceRaw(out *ReadResourceResult, err error) (*ReadResourceResult, error) {
	return server.ResourceRaw(out, err)
}

// PromptText answers prompts/get with one user message of text.
func PromptText(description string, out string, err error) (*GetPromptResult, error) {
	return server.PromptText(description, out, err)
}

// PromptMessages answers prompts/get with the component's messages.
func PromptMessages(description string, out []PromptMessage, err error) (*GetPromptResult, error) {
	return server.PromptMessages(description, out, err)
}

// PromptRaw passes through a whole prompt result built by the component.
func PromptRaw(out *GetPromptResult, err error) (*GetPromptResult, error) {
	return server.PromptRaw(out, err)
}

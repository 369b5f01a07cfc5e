package mcpgen

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mcpgen/mcpgen/internal/jsonrpc"
)

// This file holds the small typed helpers that generated adapters call to
// turn a component's Go result into its wire form. They are generic so that
// no adapter dispatches on `any`.

// DecodeArguments decodes tool arguments, already checked against the input
// schema, into the component's input struct.
func DecodeArguments[T any](args json.RawMessage) (T, error) {
	var in T
	if len(args) == 0 || string(args) == "null" {
		return in, nil
	}
	if err := json.Unmarshal(args, &in); err != nil {
		return in, jsonrpc.DecodeError(jsonrpc.ErrInvalidParams, args, "/params/arguments", err)
	}
	return in, nil
}

// protocolError reports whether err must travel as a JSON-RPC error rather
// than as a tool result with isError: a coded error, the signal that the
// handler needs input from the client, or an unreachable service (the
// client should retry, not the model).
func protocolError(err error) bool {
	var coded *jsonrpc.Error
	var input *InputRequiredError
	return errors.As(err, &coded) || errors.As(err, &input) || unavailable(err)
}

// ToolError turns a component's error into a tool result with isError set,
// so the model sees what went wrong. Protocol-level errors pass through.
func ToolError(err error) (*CallToolResult, error) {
	if protocolError(err) {
		return nil, err
	}
	return &CallToolResult{
		Content: []Content{TextContent(err.Error())},
		IsError: true,
	}, nil
}

// TextResult wraps a string result as one text block.
func TextResult(out string, err error) (*CallToolResult, error) {
	if err != nil {
		return ToolError(err)
	}
	return &CallToolResult{Content: []Content{TextContent(out)}}, nil
}

// ContentResult wraps content blocks returned by a component.
func ContentResult(out []Content, err error) (*CallToolResult, error) {
	if err != nil {
		return ToolError(err)
	}
	if out == nil {
		out = []Content{}
	}
	return &CallToolResult{Content: out}, nil
}

// RawResult passes through a result the component built itself.
func RawResult(out *CallToolResult, err error) (*CallToolResult, error) {
	if err != nil {
		return ToolError(err)
	}
	if out == nil {
		return &CallToolResult{Content: []Content{}}, nil
	}
	if out.Content == nil {
		out.Content = []Content{}
	}
	return out, nil
}

// EncodedJSON is implemented by result types that hold their own compact
// JSON encoding already, rendered in one pass with their text block (as
// mcp-memory's graph results are). StructuredResult and
// StructuredResultText send those bytes as structuredContent as they are,
// instead of json.Marshal, which would re-scan and copy a Marshaler's
// output. The bytes must be compact JSON (no newline): unless the tool is
// OutputTrusted they are still checked against the output schema.
type EncodedJSON interface {
	// EncodedJSON returns the value's compact JSON encoding.
	EncodedJSON() []byte
}

// EncodedText is implemented by result types that hold their text block
// already encoded as a JSON string (quoted and escaped), rendered in one
// pass with their structuredContent (mcp-memory's graph results):
// StructuredResult sends those bytes as the text block as they are,
// instead of the result's JSON escaped again. The bytes must be one valid
// JSON string.
type EncodedText interface {
	// EncodedText returns the text block as one quoted JSON string.
	EncodedText() []byte
}

// Releaser is implemented by result types whose encoded bytes
// (EncodedJSON, EncodedText) live in buffers they reuse: StructuredResult
// registers Release with the result's OnRelease, so the runtime calls it
// once it reads the bytes no more: after copying them into the answer, or,
// for a large result, after the transport has written the answer from
// them.
type Releaser interface {
	// Release returns the buffers of the encoded bytes for reuse; the
	// runtime calls it once.
	Release()
}

// structuredResult is the tool result of a structured value out whose
// JSON is b, with text as its text block.
func structuredResult[T any](out T, b []byte, text Content) *CallToolResult {
	res := &CallToolResult{
		Content:           []Content{text},
		StructuredContent: b,
	}
	if r, ok := any(out).(Releaser); ok {
		res.OnRelease(r.Release)
	}
	return res
}

// structuredText is the text block of a structured result whose JSON is
// b: the result's own EncodedText, or b.
func structuredText[T any](out T, b []byte) Content {
	if e, ok := any(out).(EncodedText); ok {
		if t := e.EncodedText(); len(t) > 0 {
			return EncodedTextContent(t)
		}
	}
	return TextContent(string(b))
}

// marshalResult is json.Marshal, or the bytes an EncodedJSON result holds.
func marshalResult[T any](out T) ([]byte, error) {
	if e, ok := any(out).(EncodedJSON); ok {
		if b := e.EncodedJSON(); len(b) > 0 {
			return b, nil
		}
	}
	return json.Marshal(out)
}

// StructuredResult encodes a typed result as structuredContent, with the same
// JSON as a text block for clients that predate structured output (or the
// result's EncodedText). A result that gives its text and structuredContent
// as bodies (StreamedText and StreamedJSON) is streamed to the client from
// them (see [Body]).
func StructuredResult[T any](out T, err error) (*CallToolResult, error) {
	if err != nil {
		return ToolError(err)
	}
	if text, structured := streamedBodies(out); text != nil {
		return streamedResult(out, text, structured), nil
	}
	b, err := marshalResult(out)
	if err != nil {
		return nil, fmt.Errorf("encode result: %w", err)
	}
	if string(b) == "null" {
		return noResult(), nil
	}
	return structuredResult(out, b, structuredText(out, b)), nil
}

// noResult answers for a component that returned a nil pointer or map and
// no error: structuredContent must be an object, so the call fails, and
// says why, instead of breaking the output schema.
func noResult() *CallToolResult {
	return &CallToolResult{
		Content: []Content{TextContent("the tool returned no result (nil) and no error")},
		IsError: true,
	}
}

// StructuredResultText is StructuredResult with the text block chosen by
// the component (its result type's ContentText method) instead of the JSON.
func StructuredResultText[T any](out T, text string) (*CallToolResult, error) {
	b, err := marshalResult(out)
	if err != nil {
		return nil, fmt.Errorf("encode result: %w", err)
	}
	if string(b) == "null" {
		return noResult(), nil
	}
	return structuredResult(out, b, TextContent(text)), nil
}

// ResourceText wraps text read from a resource.
func ResourceText(uri, mimeType string, out string, err error) (*ReadResourceResult, error) {
	if err != nil {
		return nil, err
	}
	return &ReadResourceResult{Contents: []ResourceContents{{URI: uri, MimeType: mimeType, Text: &out}}}, nil
}

// ResourceBlob wraps binary data read from a resource, base64-encoded.
func ResourceBlob(uri, mimeType string, out []byte, err error) (*ReadResourceResult, error) {
	if err != nil {
		return nil, err
	}
	return &ReadResourceResult{Contents: []ResourceContents{{URI: uri, MimeType: mimeType, Blob: base64.StdEncoding.EncodeToString(out)}}}, nil
}

// ResourceJSON encodes a typed value read from a resource as JSON text; a
// value that gives its text as a body (StreamedText) is streamed to the
// client from it instead (see [Body]).
func ResourceJSON[T any](uri, mimeType string, out T, err error) (*ReadResourceResult, error) {
	if err != nil {
		return nil, err
	}
	if s, ok := any(out).(StreamedText); ok {
		if body := s.StreamedText(); body != nil {
			return &ReadResourceResult{Contents: []ResourceContents{{URI: uri, MimeType: mimeType, body: body}}}, nil
		}
	}
	b, err := json.Marshal(out)
	if err != nil {
		return nil, fmt.Errorf("encode resource %s: %w", uri, err)
	}
	text := string(b)
	return &ReadResourceResult{Contents: []ResourceContents{{URI: uri, MimeType: mimeType, Text: &text}}}, nil
}

// ResourceRaw passes through contents the component built itself.
func ResourceRaw(out *ReadResourceResult, err error) (*ReadResourceResult, error) {
	if err != nil {
		return nil, err
	}
	if out == nil || out.Contents == nil {
		return &ReadResourceResult{Contents: []ResourceContents{}}, nil
	}
	return out, nil
}

// PromptText wraps a string as a single user message.
func PromptText(description string, out string, err error) (*GetPromptResult, error) {
	if err != nil {
		return nil, err
	}
	return &GetPromptResult{
		Description: description,
		Messages:    []PromptMessage{{Role: "user", Content: TextContent(out)}},
	}, nil
}

// PromptMessages wraps messages built by the component.
func PromptMessages(description string, out []PromptMessage, err error) (*GetPromptResult, error) {
	if err != nil {
		return nil, err
	}
	if out == nil {
		out = []PromptMessage{}
	}
	return &GetPromptResult{Description: description, Messages: out}, nil
}

// PromptRaw passes through a result the component built itself.
func PromptRaw(out *GetPromptResult, err error) (*GetPromptResult, error) {
	if err != nil {
		return nil, err
	}
	if out == nil {
		return &GetPromptResult{Messages: []PromptMessage{}}, nil
	}
	if out.Messages == nil {
		out.Messages = []PromptMessage{}
	}
	return out, nil
}

package everything

import (
	"context"
	"errors"
	"strings"

	"github.com/mcpgen/mcpgen"
)

// This file holds the tools that return each kind of content block, plus
// two plain tools (about, echo).

// Describe this server: what it is for and which conformance scenarios it serves.
//
//mcp:tool readonly title="About this server" view=ui://everything/about.html
type About struct{} // no arguments, and first in tools/list: header probes call the first tool with {}

// Call lists what the server is for.
func (About) Call(context.Context) (string, error) {
	return strings.Join([]string{
		"everything: the fixture server of the MCP conformance suite.",
		"Its tools, resources and prompts cover the 2025-11-25 and 2026-07-28 requirement sets",
		"and the io.modelcontextprotocol/tasks extension scenarios.",
	}, "\n"), nil
}

// Return the message it is given.
//
//mcp:tool readonly
type Echo struct {
	// The message to echo back.
	Message string `json:"message" jsonschema:"minLength=1"`
}

// Call returns the message.
func (in Echo) Call(context.Context) (string, error) { return in.Message, nil }

// Return one fixed text block.
//
//mcp:tool name=test_simple_text readonly
type SimpleText struct{}

// Call returns the fixed text.
func (SimpleText) Call(context.Context) (string, error) {
	return "This is a simple text response for testing.", nil
}

// Return an image block: a one-pixel PNG.
//
//mcp:tool name=test_image_content readonly
type ImageContent struct{}

// Call returns the image.
func (ImageContent) Call(context.Context) ([]mcpgen.Content, error) {
	return []mcpgen.Content{{Type: "image", Data: pixelPNG64, MimeType: "image/png"}}, nil
}

// Return an audio block: a very short silent WAV clip.
//
//mcp:tool name=test_audio_content readonly
type AudioContent struct{}

// Call returns the clip.
func (AudioContent) Call(context.Context) ([]mcpgen.Content, error) {
	return []mcpgen.Content{{Type: "audio", Data: silenceWAV64, MimeType: "audio/wav"}}, nil
}

// Return a text resource embedded in the result.
//
//mcp:tool name=test_embedded_resource readonly
type EmbeddedResource struct{}

// Call returns the embedded resource.
func (EmbeddedResource) Call(context.Context) ([]mcpgen.Content, error) {
	return []mcpgen.Content{embedded("test://embedded-resource", "text/plain", "Text of a resource embedded in a tool result.")}, nil
}

// Return three kinds of content in one result: a text, an image and an embedded JSON resource.
//
//mcp:tool name=test_multiple_content_types readonly
type MultipleContentTypes struct{}

// Call returns the three blocks.
func (MultipleContentTypes) Call(context.Context) ([]mcpgen.Content, error) {
	return []mcpgen.Content{
		mcpgen.TextContent("Three kinds of content follow: this text, an image and a JSON resource."),
		{Type: "image", Data: pixelPNG64, MimeType: "image/png"},
		embedded("test://mixed-content-resource", "application/json", `{"kind":"mixed","blocks":3}`),
	}, nil
}

// Always fail: the result is a tool error (isError), not a protocol error.
//
//mcp:tool name=test_error_handling readonly
type ErrorHandling struct{}

// Call fails on purpose.
func (ErrorHandling) Call(context.Context) (string, error) {
	return "", errors.New("this tool fails on purpose, to test tool error results")
}

// embedded returns a content block embedding a text resource.
func embedded(uri, mimeType, text string) mcpgen.Content {
	return mcpgen.Content{Type: "resource", Resource: &mcpgen.ResourceContents{URI: uri, MimeType: mimeType, Text: &text}}
}

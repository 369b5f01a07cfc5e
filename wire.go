package mcpgen

import "github.com/mcpgen/mcpgen/internal/protocol"

// MCP wire types: what tools, resources and prompts return, and what lists
// show. Components return these when a plain Go value is not enough (an
// image, several content blocks, a message list).
type (
	// Content is one block of a tool result or prompt message; Type
	// ("text", "image", "audio", "resource_link", "resource") selects which
	// other fields are meaningful.
	Content = protocol.Content
	// Annotations are the audience and priority hints on contents and
	// resources.
	Annotations = protocol.Annotations
	// ResourceContents is the body of a resource: Text or Blob (base64).
	ResourceContents = protocol.ResourceContents
	// CallToolResult is the result of tools/call.
	CallToolResult = protocol.CallToolResult
	// ReadResourceResult is the result of resources/read.
	ReadResourceResult = protocol.ReadResourceResult
	// GetPromptResult is the result of prompts/get.
	GetPromptResult = protocol.GetPromptResult
	// PromptMessage is one message of a prompt.
	PromptMessage = protocol.PromptMessage
	// Implementation names a client or server and its version.
	Implementation = protocol.Implementation
	// Icon is an icon of a server or component.
	Icon = protocol.Icon
	// ToolAnnotations are a tool's behaviour hints (read-only, destructive,
	// idempotent, open-world); mcpgen always states all four.
	ToolAnnotations = protocol.ToolAnnotations
	// ToolInfo is a tool as tools/list shows it.
	ToolInfo = protocol.Tool
	// ResourceInfo is a resource as resources/list shows it.
	ResourceInfo = protocol.Resource
	// TemplateInfo is a resource template as resources/templates/list
	// shows it.
	TemplateInfo = protocol.ResourceTemplate
	// PromptInfo is a prompt as prompts/list shows it.
	PromptInfo = protocol.Prompt
	// PromptArgument is one argument of a prompt.
	PromptArgument = protocol.PromptArgument
)

// TextContent returns a text content block.
func TextContent(text string) Content { return protocol.TextContent(text) }

// EncodedTextContent returns a text block whose text is given already
// encoded as one JSON string (quoted and escaped) and is sent as it is: for
// a large text rendered straight into its wire form. Its Text field stays
// empty; its EncodedText method returns the bytes.
func EncodedTextContent(quoted []byte) Content { return protocol.EncodedTextContent(quoted) }

// Bool returns a pointer to b, for the optional hints of [ToolAnnotations].
func Bool(b bool) *bool { return protocol.Bool(b) }

// Protocol revisions this runtime speaks.
const (
	// LatestVersion is the current MCP revision (stateless: server/discover,
	// per-request _meta).
	LatestVersion = protocol.Latest
)

// Versions lists every protocol revision served, newest first; all but the
// first are legacy revisions with the initialize handshake.
func Versions() []string { return append([]string(nil), protocol.Versions...) }

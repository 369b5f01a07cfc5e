package mcpgen

import (
	"encoding/json"
	"slices"
)

// Protocol revisions this runtime speaks, newest first.
const (
	version20260728 = "2026-07-28"
	version20251125 = "2025-11-25"
	version20250618 = "2025-06-18"
	version20250326 = "2025-03-26"
	version20241105 = "2024-11-05"
)

// LatestVersion is the current MCP revision (stateless: server/discover,
// per-request _meta); latestLegacy the newest one that uses the
// initialize handshake.
const (
	LatestVersion = version20260728
	latestLegacy  = version20251125
)

// Versions lists every protocol revision served, newest first; all but
// the first are legacy revisions with the initialize handshake.
func Versions() []string { return slices.Clone(versions) }

// versions lists every revision served, newest first.
var versions = []string{version20260728, version20251125, version20250618, version20250326, version20241105}

// legacyVersions lists the revisions negotiated through initialize.
var legacyVersions = versions[1:]

// modernVersion reports whether v names a stateless revision: a date
// (YYYY-MM-DD, as every revision is named) of 2026-07-28 or later. Other
// strings ("latest", "v2") name no revision of either era.
func modernVersion(v string) bool { return isDate(v) && v >= version20260728 }

func isDate(v string) bool {
	if len(v) != len("2006-01-02") || v[4] != '-' || v[7] != '-' {
		return false
	}
	for i := 0; i < len(v); i++ {
		if i != 4 && i != 7 && (v[i] < '0' || v[i] > '9') {
			return false
		}
	}
	return true
}

// supportedVersion reports whether v is one of [Versions].
func supportedVersion(v string) bool {
	for _, s := range versions {
		if s == v {
			return true
		}
	}
	return false
}

// Implementation names a client or server.
type Implementation struct {
	// Name identifies the program to programs (logs, registries).
	Name string `json:"name"`
	// Title is the name shown to people; Name when empty.
	Title string `json:"title,omitempty"`
	// Version is the program's version, semantic where it can be.
	Version string `json:"version"`
	// Description says in a sentence what the program is for.
	Description string `json:"description,omitempty"`
	// WebsiteURL is where people learn more about the program.
	WebsiteURL string `json:"websiteUrl,omitempty"`
	// Icons are pictures a peer may show beside the name.
	Icons []Icon `json:"icons,omitempty"`
}

// Icon is a picture a client may show beside a server or component.
type Icon struct {
	// Src is the picture's URL: https or a data: URI.
	Src string `json:"src"`
	// MimeType is the picture's media type, when Src does not say it.
	MimeType string `json:"mimeType,omitempty"`
	// Sizes lists the sizes the picture has ("48x48", "any").
	Sizes []string `json:"sizes,omitempty"`
	// Theme is "light" or "dark" when the picture suits only one.
	Theme string `json:"theme,omitempty"`
}

// ToolAnnotations are the behaviour hints of a tool. Every hint is a pointer
// so that the generator can always emit an explicit value.
type ToolAnnotations struct {
	// Title is the tool's name shown to people (older clients read it here).
	Title string `json:"title,omitempty"`
	// ReadOnlyHint says the tool changes nothing.
	ReadOnlyHint *bool `json:"readOnlyHint,omitempty"`
	// DestructiveHint says a change may delete or overwrite what exists.
	DestructiveHint *bool `json:"destructiveHint,omitempty"`
	// IdempotentHint says calling twice with the same arguments does no more
	// than calling once, so clients may retry.
	IdempotentHint *bool `json:"idempotentHint,omitempty"`
	// OpenWorldHint says the tool reaches beyond the server (the web, other
	// systems), not only its own data.
	OpenWorldHint *bool `json:"openWorldHint,omitempty"`
}

// Annotations are the audience/priority hints on contents and resources.
type Annotations struct {
	// Audience names who the content is for: "user", "assistant" or both.
	Audience []string `json:"audience,omitempty"`
	// Priority ranks the content from 0 (optional) to 1 (required).
	Priority *float64 `json:"priority,omitempty"`
	// LastModified is an RFC 3339 time of the content's last change.
	LastModified string `json:"lastModified,omitempty"`
}

// Content is one block of a tool result or prompt message. Type selects
// which of the other fields are meaningful: text; image and audio (Data,
// MimeType); resource_link (URI, Name...); resource (Resource).
type Content struct {
	// Type is "text", "image", "audio", "resource_link" or "resource".
	Type string `json:"type"`
	// Text is the text of a text block.
	Text string `json:"text,omitempty"`
	// Data is the base64 bytes of an image or audio block.
	Data string `json:"data,omitempty"`
	// MimeType is the media type of Data or of the linked resource.
	MimeType string `json:"mimeType,omitempty"`
	// URI is the address of a linked resource.
	URI string `json:"uri,omitempty"`
	// Name is the linked resource's name.
	Name string `json:"name,omitempty"`
	// Title is the linked resource's name shown to people.
	Title string `json:"title,omitempty"`
	// Description says what the linked resource holds.
	Description string `json:"description,omitempty"`
	// Resource is the embedded resource of a resource block.
	Resource *ResourceContents `json:"resource,omitempty"`
	// Annotations are the block's audience and priority hints.
	Annotations *Annotations `json:"annotations,omitempty"`
	// Meta is the block's _meta object, sent as it is.
	Meta json.RawMessage `json:"_meta,omitempty"`

	encodedText []byte // see EncodedTextContent
}

// TextContent returns a text block.
func TextContent(text string) Content {
	return Content{Type: "text", Text: text}
}

// EncodedTextContent returns a text block whose text is given already
// encoded as a JSON string (quoted and escaped), to be sent as it is: a
// component that renders a large text straight into its wire form spares
// the runtime escaping it again. Its Text field stays empty; EncodedText
// returns the encoded text. The bytes must be one valid JSON string.
func EncodedTextContent(quoted []byte) Content {
	return Content{Type: "text", encodedText: quoted}
}

// EncodedText is the text of a block made by EncodedTextContent, as the
// JSON string it was given; nil for any other block.
func (c *Content) EncodedText() []byte { return c.encodedText }

// MarshalJSON keeps "text" present on text blocks even when empty, as the
// schema requires it, and writes an encoded text as it is.
func (c Content) MarshalJSON() ([]byte, error) {
	type plain Content
	switch {
	case c.encodedText != nil:
		return json.Marshal(struct {
			plain
			Text json.RawMessage `json:"text"`
		}{plain(c), c.encodedText})
	case c.Type == "text" && c.Text == "":
		return json.Marshal(struct {
			plain
			Text string `json:"text"`
		}{plain(c), ""})
	}
	return json.Marshal(plain(c))
}

// ResourceContents is the body of a resource: Text or Blob (base64).
type ResourceContents struct {
	// URI is the address of what was read.
	URI string `json:"uri"`
	// MimeType is the media type of the body.
	MimeType string `json:"mimeType,omitempty"`
	// Text is a textual body; nil for a binary one.
	Text *string `json:"text,omitempty"`
	// Blob is a binary body, base64.
	Blob string `json:"blob,omitempty"`
	// Meta is the contents' _meta object, sent as it is.
	Meta json.RawMessage `json:"_meta,omitempty"`

	body Body // a streamed text (ResourceJSON): Text is nil until written
}

// CallToolResult answers tools/call.
type CallToolResult struct {
	// ResultType is "complete" in 2026-07-28 answers (or "input_required"
	// in a multi round-trip call); empty for legacy clients.
	ResultType string `json:"resultType,omitempty"`
	// Content is what the model reads: text, images, links.
	Content []Content `json:"content"`
	// StructuredContent is the JSON result a tool with an output schema
	// returns, valid against that schema.
	StructuredContent json.RawMessage `json:"structuredContent,omitempty"`
	// IsError marks a failure the model should see (bad arguments, a
	// refused action), as opposed to a protocol error.
	IsError bool `json:"isError,omitempty"`
	// Meta is the result's _meta object, sent as it is.
	Meta json.RawMessage `json:"_meta,omitempty"`

	release  []func()    // see OnRelease
	streamed *toolBodies // see StructuredResult: text and structuredContent as bodies
}

// OnRelease registers f to run once the runtime has encoded the result
// and reads none of its bytes any more: a component that renders a large
// result into buffers it reuses gets them back there. A result that is
// dropped instead (a failed output check, say) is not released; its
// buffers are then left to the garbage collector.
func (r *CallToolResult) OnRelease(f func()) { r.release = append(r.release, f) }

// Release runs the functions registered with OnRelease, once.
func (r *CallToolResult) Release() {
	fs := r.release
	r.release = nil
	for _, f := range fs {
		f()
	}
}

// ReadResourceResult answers resources/read.
type ReadResourceResult struct {
	// ResultType is "complete" in 2026-07-28 answers; empty for legacy clients.
	ResultType string `json:"resultType,omitempty"`
	// Contents are the bodies read: usually one.
	Contents []ResourceContents `json:"contents"`
	// Meta is the result's _meta object, sent as it is.
	Meta json.RawMessage `json:"_meta,omitempty"`
}

// PromptMessage is one message of a prompt.
type PromptMessage struct {
	// Role is "user" or "assistant".
	Role string `json:"role"`
	// Content is the message's one block.
	Content Content `json:"content"`
}

// GetPromptResult answers prompts/get.
type GetPromptResult struct {
	// ResultType is "complete" in 2026-07-28 answers; empty for legacy clients.
	ResultType string `json:"resultType,omitempty"`
	// Description says what the rendered prompt is for.
	Description string `json:"description,omitempty"`
	// Messages are the prompt's messages, in order.
	Messages []PromptMessage `json:"messages"`
	// Meta is the result's _meta object, sent as it is.
	Meta json.RawMessage `json:"_meta,omitempty"`
}

// ToolInfo is a tools/list entry: what a client learns of a tool.
type ToolInfo struct {
	// Name is the tool's name in tools/call.
	Name string `json:"name"`
	// Title is the tool's name shown to people.
	Title string `json:"title,omitempty"`
	// Description tells the model what the tool does and when to use it.
	Description string `json:"description,omitempty"`
	// InputSchema is the JSON Schema of the arguments.
	InputSchema json.RawMessage `json:"inputSchema"`
	// OutputSchema is the JSON Schema of structuredContent, when the tool
	// returns structured results.
	OutputSchema json.RawMessage `json:"outputSchema,omitempty"`
	// Annotations are the tool's behaviour hints.
	Annotations *ToolAnnotations `json:"annotations,omitempty"`
	// Icons are pictures a client may show beside the tool.
	Icons []Icon `json:"icons,omitempty"`
	// Execution says how the tool runs (task support), as JSON.
	Execution json.RawMessage `json:"execution,omitempty"`
	// Meta is the entry's _meta object (a linked view, say), sent as it is.
	Meta json.RawMessage `json:"_meta,omitempty"`
}

// ResourceInfo is a resources/list entry: what a client learns of a
// resource before reading it.
type ResourceInfo struct {
	// URI is the address to read.
	URI string `json:"uri"`
	// Name identifies the resource to programs.
	Name string `json:"name"`
	// Title is the resource's name shown to people.
	Title string `json:"title,omitempty"`
	// Description says what the resource holds.
	Description string `json:"description,omitempty"`
	// MimeType is the media type of its body.
	MimeType string `json:"mimeType,omitempty"`
	// Size is the body's size in bytes, when known.
	Size *int64 `json:"size,omitempty"`
	// Annotations are its audience and priority hints.
	Annotations *Annotations `json:"annotations,omitempty"`
	// Icons are pictures a client may show beside it.
	Icons []Icon `json:"icons,omitempty"`
	// Meta is the entry's _meta object, sent as it is.
	Meta json.RawMessage `json:"_meta,omitempty"`
}

// TemplateInfo is a resources/templates/list entry: a family of
// resources addressed by an RFC 6570 URI template.
type TemplateInfo struct {
	// URITemplate is the template the addresses follow.
	URITemplate string `json:"uriTemplate"`
	// Name identifies the template to programs.
	Name string `json:"name"`
	// Title is the template's name shown to people.
	Title string `json:"title,omitempty"`
	// Description says what its resources hold.
	Description string `json:"description,omitempty"`
	// MimeType is the media type of its resources' bodies.
	MimeType string `json:"mimeType,omitempty"`
	// Annotations are its audience and priority hints.
	Annotations *Annotations `json:"annotations,omitempty"`
	// Icons are pictures a client may show beside it.
	Icons []Icon `json:"icons,omitempty"`
	// Meta is the entry's _meta object, sent as it is.
	Meta json.RawMessage `json:"_meta,omitempty"`
}

// PromptArgument is one named string argument of a prompt.
type PromptArgument struct {
	// Name is the argument's key in prompts/get.
	Name string `json:"name"`
	// Title is the argument's name shown to people.
	Title string `json:"title,omitempty"`
	// Description says what to give.
	Description string `json:"description,omitempty"`
	// Required says prompts/get fails without it.
	Required bool `json:"required,omitempty"`
}

// PromptInfo is a prompts/list entry.
type PromptInfo struct {
	// Name is the prompt's name in prompts/get.
	Name string `json:"name"`
	// Title is the prompt's name shown to people.
	Title string `json:"title,omitempty"`
	// Description says what the prompt is for.
	Description string `json:"description,omitempty"`
	// Arguments are the values the prompt takes.
	Arguments []PromptArgument `json:"arguments,omitempty"`
	// Icons are pictures a client may show beside it.
	Icons []Icon `json:"icons,omitempty"`
	// Meta is the entry's _meta object, sent as it is.
	Meta json.RawMessage `json:"_meta,omitempty"`
}

// Bool returns a pointer to b, for the explicit hints of [ToolAnnotations].
func Bool(b bool) *bool { return &b }

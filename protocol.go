// The MCP message types that the runtime and the components share: list entries, contents, results and the protocol
// revisions. Field names follow the published schema of each revision; the
// newer fields are optional so that one type serves both eras.

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
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Version     string `json:"version"`
	Description string `json:"description,omitempty"`
	WebsiteURL  string `json:"websiteUrl,omitempty"`
	Icons       []Icon `json:"icons,omitempty"`
}

// Icon is a picture a client may show beside a server or component.
type Icon struct {
	Src      string   `json:"src"`
	MimeType string   `json:"mimeType,omitempty"`
	Sizes    []string `json:"sizes,omitempty"`
	Theme    string   `json:"theme,omitempty"`
}

// ToolAnnotations are the behaviour hints of a tool. Every hint is a pointer
// so that the generator can always emit an explicit value.
type ToolAnnotations struct {
	Title           string `json:"title,omitempty"`
	ReadOnlyHint    *bool  `json:"readOnlyHint,omitempty"`
	DestructiveHint *bool  `json:"destructiveHint,omitempty"`
	IdempotentHint  *bool  `json:"idempotentHint,omitempty"`
	OpenWorldHint   *bool  `json:"openWorldHint,omitempty"`
}

// Annotations are the audience/priority hints on contents and resources.
type Annotations struct {
	Audience     []string `json:"audience,omitempty"`
	Priority     *float64 `json:"priority,omitempty"`
	LastModified string   `json:"lastModified,omitempty"`
}

// Content is one block of a tool result or prompt message. Type selects
// which of the other fields are meaningful: text; image and audio (Data,
// MimeType); resource_link (URI, Name...); resource (Resource).
type Content struct {
	Type        string            `json:"type"`
	Text        string            `json:"text,omitempty"`
	Data        string            `json:"data,omitempty"`
	MimeType    string            `json:"mimeType,omitempty"`
	URI         string            `json:"uri,omitempty"`
	Name        string            `json:"name,omitempty"`
	Title       string            `json:"title,omitempty"`
	Description string            `json:"description,omitempty"`
	Resource    *ResourceContents `json:"resource,omitempty"`
	Annotations *Annotations      `json:"annotations,omitempty"`
	Meta        json.RawMessage   `json:"_meta,omitempty"`

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
	URI      string          `json:"uri"`
	MimeType string          `json:"mimeType,omitempty"`
	Text     *string         `json:"text,omitempty"`
	Blob     string          `json:"blob,omitempty"`
	Meta     json.RawMessage `json:"_meta,omitempty"`

	body Body // a streamed text (ResourceJSON): Text is nil until written
}

// CallToolResult answers tools/call.
type CallToolResult struct {
	ResultType        string          `json:"resultType,omitempty"`
	Content           []Content       `json:"content"`
	StructuredContent json.RawMessage `json:"structuredContent,omitempty"`
	IsError           bool            `json:"isError,omitempty"`
	Meta              json.RawMessage `json:"_meta,omitempty"`

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
	ResultType string             `json:"resultType,omitempty"`
	Contents   []ResourceContents `json:"contents"`
	Meta       json.RawMessage    `json:"_meta,omitempty"`
}

// PromptMessage is one message of a prompt.
type PromptMessage struct {
	Role    string  `json:"role"`
	Content Content `json:"content"`
}

// GetPromptResult answers prompts/get.
type GetPromptResult struct {
	ResultType  string          `json:"resultType,omitempty"`
	Description string          `json:"description,omitempty"`
	Messages    []PromptMessage `json:"messages"`
	Meta        json.RawMessage `json:"_meta,omitempty"`
}

// Tool is a tools/list entry.
type ToolInfo struct {
	Name         string           `json:"name"`
	Title        string           `json:"title,omitempty"`
	Description  string           `json:"description,omitempty"`
	InputSchema  json.RawMessage  `json:"inputSchema"`
	OutputSchema json.RawMessage  `json:"outputSchema,omitempty"`
	Annotations  *ToolAnnotations `json:"annotations,omitempty"`
	Icons        []Icon           `json:"icons,omitempty"`
	Execution    json.RawMessage  `json:"execution,omitempty"`
	Meta         json.RawMessage  `json:"_meta,omitempty"`
}

// Resource is a resources/list entry.
type ResourceInfo struct {
	URI         string          `json:"uri"`
	Name        string          `json:"name"`
	Title       string          `json:"title,omitempty"`
	Description string          `json:"description,omitempty"`
	MimeType    string          `json:"mimeType,omitempty"`
	Size        *int64          `json:"size,omitempty"`
	Annotations *Annotations    `json:"annotations,omitempty"`
	Icons       []Icon          `json:"icons,omitempty"`
	Meta        json.RawMessage `json:"_meta,omitempty"`
}

// ResourceTemplate is a resources/templates/list entry.
type TemplateInfo struct {
	URITemplate string          `json:"uriTemplate"`
	Name        string          `json:"name"`
	Title       string          `json:"title,omitempty"`
	Description string          `json:"description,omitempty"`
	MimeType    string          `json:"mimeType,omitempty"`
	Annotations *Annotations    `json:"annotations,omitempty"`
	Icons       []Icon          `json:"icons,omitempty"`
	Meta        json.RawMessage `json:"_meta,omitempty"`
}

// PromptArgument is one named string argument of a prompt.
type PromptArgument struct {
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	Required    bool   `json:"required,omitempty"`
}

// Prompt is a prompts/list entry.
type PromptInfo struct {
	Name        string           `json:"name"`
	Title       string           `json:"title,omitempty"`
	Description string           `json:"description,omitempty"`
	Arguments   []PromptArgument `json:"arguments,omitempty"`
	Icons       []Icon           `json:"icons,omitempty"`
	Meta        json.RawMessage  `json:"_meta,omitempty"`
}

// Bool returns a pointer to b, for the explicit hints of [ToolAnnotations].
func Bool(b bool) *bool { return &b }

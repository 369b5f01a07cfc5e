package mcpgen

import (
	"context"
	"encoding/json"
)

// Definition is everything a generated package knows about one server: its
// identity and its components. The generated constructor fills it in once and
// hands it to [New]; nothing in it changes afterwards.
type Definition struct {
	Name  string
	Title string
	// Version is what the server reports (//mcp:server version=); when
	// empty, the version of the binary's main module from its build
	// information (set by go install module@version), else "0.0.0".
	Version      string
	Instructions string

	Tools     []Tool
	Resources []Resource
	Templates []Template
	Prompts   []Prompt
	// Skills are the Agent Skills the server publishes (//mcp:skill), each
	// file embedded and digested by mcpgen.
	Skills []Skill
	// Views are the views of the MCP Apps extension (//mcp:view): HTML
	// documents at ui:// URIs that tools link to (Tool.UI), each embedded
	// and digested by mcpgen.
	Views []View
	// Events are the events of the io.modelcontextprotocol/events
	// extension (//mcp:event), which components emit with [Emit].
	Events []EventType

	// Scopes lists, sorted and once each, the permission scopes the
	// components require; the generator fills it in. OAuth publishes it
	// as scopes_supported.
	Scopes []string
}

// Cache carries the 2026-07-28 cache hints of a list or read result.
type Cache struct {
	TTLMs int64  // how long a client may reuse the result, in milliseconds; 0 means no hint
	Scope string // "public" or "private"; empty means no hint
}

// Tool is one registered tool: its list entry, compiled schemas and the
// generated adapter that calls the component.
type Tool struct {
	Tool  ToolInfo
	Scope string // permission scope the caller must hold; empty means none
	// Task is "optional" or "required" for tools that run as tasks
	// (io.modelcontextprotocol/tasks) when the client declares the
	// extension; "required" refuses clients that do not.
	Task string
	Call ToolHandler
	// OutputTrusted skips the run-time check of structuredContent against
	// Tool.OutputSchema. The generator sets it only where it proved that
	// every value of the Go result type encodes to JSON the schema
	// accepts (see gen's outputProvable); everything else is validated.
	OutputTrusted bool
	// Prepare, when set, runs before a task is created, synchronously:
	// input it asks for is obtained with input_required round trips, and
	// the answers stay available to the task.
	Prepare func(ctx context.Context, req *Request, args json.RawMessage) error
	// UI links the tool to the MCP Apps extension: the view its results
	// are shown in and who may call it (its _meta.ui, shown to clients
	// that declared the extension). Nil for a tool without one.
	UI *ToolUI
}

// ToolHandler decodes arguments that already passed the input schema, calls
// the component and encodes its result. A component failure comes back as a
// result with IsError set; a returned error is a protocol fault.
type ToolHandler func(ctx context.Context, req *Request, args json.RawMessage) (*CallToolResult, error)

// Resource is one resource with a fixed URI.
type Resource struct {
	Resource ResourceInfo
	Scope    string
	Cache    Cache
	Read     func(ctx context.Context, req *Request) (*ReadResourceResult, error)
}

// Template is a resource template: URIs matching Template.URITemplate are
// read by binding the template variables.
type Template struct {
	Template TemplateInfo
	Scope    string
	Cache    Cache
	Read     func(ctx context.Context, req *Request, uri string, vars map[string]string) (*ReadResourceResult, error)
	Complete CompleteHandler // nil when the component offers no completion
}

// Prompt is one registered prompt.
type Prompt struct {
	Prompt   PromptInfo
	Scope    string
	Get      func(ctx context.Context, req *Request, args map[string]string) (*GetPromptResult, error)
	Complete CompleteHandler
}

// CompleteRequest is what completion/complete asks about one argument.
type CompleteRequest struct {
	Argument string            // the argument (or template variable) being completed
	Value    string            // what the user typed so far
	Context  map[string]string // arguments already resolved, if the client sent them
}

// CompleteHandler returns candidate values for an argument, best first.
type CompleteHandler func(ctx context.Context, req *Request, c CompleteRequest) ([]string, error)

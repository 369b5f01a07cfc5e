package mcpgen

import (
	"context"
	"encoding/json"
)

// Definition is everything a generated package knows about one server: its
// identity and its components. The generated constructor fills it in once and
// hands it to [New]; nothing in it changes afterwards.
type Definition struct {
	// Name is the server's name as clients see it (serverInfo.name).
	Name string
	// Title is the server's name shown to people.
	Title string
	// Version is what the server reports (//mcp:server version=); when
	// empty, the version of the binary's main module from its build
	// information (set by go install module@version), else "0.0.0".
	Version string
	// Instructions tell the model how to use the server as a whole.
	Instructions string

	// Tools are the server's tools, in the order tools/list shows them.
	Tools []Tool
	// Resources are its resources with a fixed URI.
	Resources []Resource
	// Templates are its resource templates.
	Templates []Template
	// Prompts are its prompts.
	Prompts []Prompt
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

	// ServerCard is the server's MCP Server Card (SEP-2127), the JSON
	// document mcpgen writes as generated/<server>/server-card.json from
	// the //mcp:server options; [ServerCardHandler] serves it. Empty: the
	// server has none.
	ServerCard []byte
}

// Cache carries the 2026-07-28 cache hints of a list or read result.
type Cache struct {
	// TTLMs is how long a client may reuse the result, in milliseconds;
	// 0 means no hint.
	TTLMs int64
	// Scope is "public" or "private"; empty means no hint.
	Scope string
}

// Tool is one registered tool: its list entry, compiled schemas and the
// generated adapter that calls the component.
type Tool struct {
	// Info is the tool's tools/list entry.
	Info ToolInfo
	// Scope is the permission scope a caller must hold when the server
	// authenticates callers; empty means none.
	Scope string
	// Task is "optional" or "required" for tools that run as tasks
	// (io.modelcontextprotocol/tasks) when the client declares the
	// extension; "required" refuses clients that do not.
	Task string
	// Call runs the tool: the generated adapter around the component.
	Call ToolHandler
	// OutputTrusted skips the run-time check of structuredContent against
	// Info.OutputSchema. The generator sets it only where it proved that
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
	// Info is the resource's resources/list entry.
	Info ResourceInfo
	// Scope is the permission scope a reader must hold; empty means none.
	Scope string
	// Cache holds the cache hints of its reads.
	Cache Cache
	// Read returns the resource's contents.
	Read func(ctx context.Context, req *Request) (*ReadResourceResult, error)
}

// Template is a resource template: URIs matching Info.URITemplate are
// read by binding the template variables.
type Template struct {
	// Info is the template's resources/templates/list entry.
	Info TemplateInfo
	// Scope is the permission scope a reader must hold; empty means none.
	Scope string
	// Cache holds the cache hints of its reads.
	Cache Cache
	// Read returns the contents at uri, whose template variables are vars.
	Read func(ctx context.Context, req *Request, uri string, vars map[string]string) (*ReadResourceResult, error)
	// Complete suggests values of a variable; nil when the component
	// offers no completion.
	Complete CompleteHandler
}

// Prompt is one registered prompt.
type Prompt struct {
	// Info is the prompt's prompts/list entry.
	Info PromptInfo
	// Scope is the permission scope a caller must hold; empty means none.
	Scope string
	// Get renders the prompt with its arguments.
	Get func(ctx context.Context, req *Request, args map[string]string) (*GetPromptResult, error)
	// Complete suggests values of an argument; nil when the component
	// offers no completion.
	Complete CompleteHandler
}

// CompleteRequest is what completion/complete asks about one argument.
type CompleteRequest struct {
	// Argument is the argument (or template variable) being completed.
	Argument string
	// Value is what the user typed so far.
	Value string
	// Context holds the arguments already resolved, if the client sent them.
	Context map[string]string
}

// CompleteHandler returns candidate values for an argument, best first.
type CompleteHandler func(ctx context.Context, req *Request, c CompleteRequest) ([]string, error)

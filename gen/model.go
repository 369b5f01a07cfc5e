package gen

import (
	"go/token"
	"go/types"
)

// Server is one //mcp:server package and everything it registers.
type Server struct {
	Name         string // MCP server name; also the generated package name
	Title        string
	Version      string
	Instructions string
	// What the MCP registry's server.json says (registry.go): the name in
	// reverse-DNS form, a one-line description, the source repository,
	// and where to get the server (packages "TYPE:IDENTIFIER", remote
	// Streamable HTTP URLs). Empty ones are derived.
	Registry    string
	Description string
	Repository  string
	Packages    []string
	Remotes     []string
	Doc         string // the package doc comment, without directives
	PkgPath     string // import path of the component package
	PkgName     string
	Module      string // path of the module of the component package
	Dir         string // directory of the component package
	Pos         token.Position

	Tools     []*Tool
	Resources []*Resource // fixed URIs and templates, sorted by name
	Prompts   []*Prompt
	Deps      []*Dep   // constructor parameters, sorted by type
	Skills    []*Skill // //mcp:skill directives, sorted by skill path

	fset *token.FileSet // positions of the loaded packages, for doc comments
}

// Component is what tools, resources and prompts share: a named struct type
// with a handler method.
type Component struct {
	TypeName    string
	Type        *types.Named
	Name        string
	Title       string
	Description string
	Icons       []Icon
	Scope       string
	Pos         token.Position
	Handler     *Method // Call, Read or Get
	Complete    *Method // optional completion method
}

// Icon is an icon option of a component.
type Icon struct {
	Src      string
	MimeType string
	Sizes    []string
}

// Method is a component method the generated adapter calls directly.
type Method struct {
	Name    string
	PtrRecv bool
	Params  []Param    // after the receiver, in order
	Result  types.Type // first result (the second is error)
	Kind    ResultKind // how the result becomes a wire value
	Sig     *types.Signature
	Pos     token.Position // the method's name in its declaration: where mistakes in its signature are reported
	// ContentText is set when a structured result type has a
	// ContentText() string method: its text becomes the content block
	// instead of the JSON.
	ContentText bool
	// OutputTrusted is set when the structured result type provably always
	// matches its output schema (outputProvable): the runtime skips
	// validating it.
	OutputTrusted bool
}

// Param is one handler parameter; Dep is nil for the runtime-supplied ones.
type Param struct {
	Kind ParamKind
	Dep  *Dep
}

// ParamKind says where a handler argument comes from.
type ParamKind int

const (
	ParamContext  ParamKind = iota // context.Context
	ParamRequest                   // *server.Request
	ParamComplete                  // server.CompleteRequest (completion methods)
	ParamDep                       // a dependency injected by New
)

// Dep is a dependency the generated constructor takes and hands to every
// handler that declares it.
type Dep struct {
	Type    types.Type
	VarName string
}

// ResultKind is the shape of a handler's result.
type ResultKind int

const (
	ResultText       ResultKind = iota // string
	ResultStructured                   // any JSON value with an output schema
	ResultContent                      // []protocol.Content
	ResultRaw                          // *protocol.CallToolResult / ReadResourceResult / GetPromptResult
	ResultBlob                         // []byte (resources)
	ResultJSON                         // any JSON value (resources)
	ResultMessages                     // []protocol.PromptMessage
	ResultStrings                      // []string (completion)
)

// Tool is a //mcp:tool component.
type Tool struct {
	Component
	ReadOnly, Destructive, Idempotent, OpenWorld bool
	Task                                         string // "", "optional" or "required": runs as a task for clients that declare the extension
	InputSchema                                  []byte
	OutputSchema                                 []byte
	// OutputExact is set when every value of the result type encodes to
	// JSON its output schema accepts (nothing in the schema came from a
	// JSONSchema method, a format or a constraint tag), so checking a
	// result against it could never fail.
	OutputExact bool
	Prepare     *Method // optional Prepare(ctx, ...) error, run before a task is created
}

// Resource is a //mcp:resource component: a fixed URI or a URI template.
type Resource struct {
	Component
	URI        string
	Template   bool
	Vars       []TemplateVar
	MimeType   string
	CacheTTLMs int64
	CacheScope string
}

// TemplateVar binds a URI template variable to a string field.
type TemplateVar struct {
	Name  string
	Field string
}

// Prompt is a //mcp:prompt component; its fields are its arguments.
type Prompt struct {
	Component
	Args []PromptArg
}

// PromptArg is one string argument of a prompt.
type PromptArg struct {
	Name        string
	Field       string
	Description string
	Required    bool
	Pointer     bool // *string field: absent stays nil
}

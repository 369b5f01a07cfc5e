package gen

import (
	"go/token"
	"go/types"
)

// server is one //mcp:server package and everything it registers.
type server struct {
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

	Tools     []*tool
	Resources []*resource // fixed URIs and templates, sorted by name
	Prompts   []*prompt
	Deps      []*dep   // constructor parameters, sorted by type
	Skills    []*skill // //mcp:skill directives, sorted by skill path
	Views     []*view  // //mcp:view directives, sorted by URI
	Events    []*event // //mcp:event types, in declaration order
	// Warnings are what is worth saying about the server but does not
	// stop generation (a view no tool links to).
	Warnings Diagnostics

	fset *token.FileSet // positions of the loaded packages, for doc comments
}

// component is what tools, resources and prompts share: a named struct type
// with a handler method.
type component struct {
	TypeName    string
	Type        *types.Named
	Name        string
	Title       string
	Description string
	Icons       []icon
	Scope       string
	Pos         token.Position
	Handler     *method // Call, Read or Get
	Complete    *method // optional completion method
}

// icon is an icon option of a component.
type icon struct {
	Src      string
	MimeType string
	Sizes    []string
}

// method is a component method the generated adapter calls directly.
type method struct {
	Name    string
	PtrRecv bool
	Params  []param    // after the receiver, in order
	Result  types.Type // first result (the second is error)
	Kind    resultKind // how the result becomes a wire value
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

// param is one handler parameter; dep is nil for the runtime-supplied ones.
type param struct {
	Kind paramKind
	Dep  *dep
}

// paramKind says where a handler argument comes from.
type paramKind int

const (
	paramContext  paramKind = iota // context.Context
	paramRequest                   // *server.Request
	paramComplete                  // server.CompleteRequest (completion methods)
	paramDep                       // a dependency injected by New
)

// dep is a dependency the generated constructor takes and hands to every
// handler that declares it.
type dep struct {
	Type    types.Type
	VarName string
}

// resultKind is the shape of a handler's result.
type resultKind int

const (
	resultText       resultKind = iota // string
	resultStructured                   // any JSON value with an output schema
	resultContent                      // []protocol.Content
	resultRaw                          // *protocol.CallToolResult / ReadResourceResult / GetPromptResult
	resultBlob                         // []byte (resources)
	resultJSON                         // any JSON value (resources)
	resultMessages                     // []protocol.PromptMessage
	resultStrings                      // []string (completion)
)

// tool is a //mcp:tool component.
type tool struct {
	component
	ReadOnly, Destructive, Idempotent, OpenWorld bool
	Task                                         string // "", "optional" or "required": runs as a task for clients that declare the extension
	InputSchema                                  []byte
	OutputSchema                                 []byte
	// OutputExact is set when every value of the result type encodes to
	// JSON its output schema accepts (nothing in the schema came from a
	// JSONSchema method, a format or a constraint tag), so checking a
	// result against it could never fail.
	OutputExact bool
	Prepare     *method // optional Prepare(ctx, ...) error, run before a task is created
	// View is the URI of the view the tool's results are shown in
	// (view=, the MCP Apps extension), ViewPos where the key's value is;
	// Visibility who may call the tool (visibility=: model, app), nil
	// for the default (both).
	View       string
	ViewPos    token.Position
	Visibility []string
}

// resource is a //mcp:resource component: a fixed URI or a URI template.
type resource struct {
	component
	URI        string
	Template   bool
	Vars       []templateVar
	MimeType   string
	CacheTTLMs int64
	CacheScope string
}

// templateVar binds a URI template variable to a string field.
type templateVar struct {
	Name  string
	Field string
}

// prompt is a //mcp:prompt component; its fields are its arguments.
type prompt struct {
	component
	Args []promptArg
}

// promptArg is one string argument of a prompt.
type promptArg struct {
	Name        string
	Field       string
	Description string
	Required    bool
	Pointer     bool // *string field: absent stays nil
}

// event is an //mcp:event struct: its fields are the payload of every
// occurrence; filter= names the struct of the subscription arguments.
type event struct {
	component
	Filter *types.Named // nil: the event takes no arguments
	// FilterName is the filter type's name; MatchPtr says its Match
	// method has a pointer receiver; HasMatch that it has one.
	FilterName         string
	HasMatch, MatchPtr bool
	InputSchema        []byte
	PayloadSchema      []byte
}

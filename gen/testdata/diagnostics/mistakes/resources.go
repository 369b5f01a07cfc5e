package mistakes

import "context"

// NoURI forgets its uri.
//
//mcp:resource
type NoURI struct{} // want `resource no_uri: missing uri`

func (NoURI) Read(context.Context) (string, error) { return "", nil }

// NoScheme has a uri without a scheme.
//
/* want `uri "just/a/path" has no scheme` */ //mcp:resource uri=just/a/path
type NoScheme struct{}

func (NoScheme) Read(context.Context) (string, error) { return "", nil }

// BadEscapeURI has a uri that does not parse.
//
/* want `invalid uri` */ //mcp:resource uri=x://host/%zz
type BadEscapeURI struct{}

func (BadEscapeURI) Read(context.Context) (string, error) { return "", nil }

// Unbalanced has a template with an unclosed brace.
//
/* want `malformed URI template "items://\{id"` */ //mcp:resource uri=items://{id
type Unbalanced struct {
	ID string `json:"id"`
}

func (Unbalanced) Read(context.Context) (string, error) { return "", nil }

// Query uses a template operator that is not supported.
//
/* want `malformed URI template "search://all\{\?q\}": unsupported expression \{\?q\}` */ //mcp:resource uri=search://all{?q}
type Query struct {
	Q string `json:"q"`
}

func (Query) Read(context.Context) (string, error) { return "", nil }

// Unbound has a template variable with no field.
//
/* want `template variable \{missing\} matches no field` */ //mcp:resource uri=things://{missing}
type Unbound struct{}

func (Unbound) Read(context.Context) (string, error) { return "", nil }

// Counted binds a template variable to an int.
//
//mcp:resource uri=counts://{count}
type Counted struct {
	Count int `json:"count"` // want `Counted.Count: field bound to \{count\} is int, not string`
}

func (Counted) Read(context.Context) (string, error) { return "", nil }

// Later is read later.
//
/* want `malformed ttl "soon"` */ //mcp:resource uri=later://x ttl=soon
type Later struct{}

func (Later) Read(context.Context) (string, error) { return "", nil }

// Negative has a negative ttl.
//
/* want `malformed ttl "-1"` */ //mcp:resource uri=negative://x ttl=-1
type Negative struct{}

func (Negative) Read(context.Context) (string, error) { return "", nil }

// Shared names an unknown cache scope.
//
/* want `unknown cache scope "shared"` */ //mcp:resource uri=shared://x cache=shared
type Shared struct{}

func (Shared) Read(context.Context) (string, error) { return "", nil }

// ResKey has a key resources do not have.
//
/* want `unknown key "task"` */ //mcp:resource uri=reskey://x task=optional
type ResKey struct{}

func (ResKey) Read(context.Context) (string, error) { return "", nil }

// SameURI1 serves a URI.
//
//mcp:resource uri=same://x
type SameURI1 struct{}

func (SameURI1) Read(context.Context) (string, error) { return "", nil }

// SameURI2 serves the same URI.
//
//mcp:resource uri=same://x
type SameURI2 struct{} // want `resource uri same://x: duplicate resource uri name`

func (SameURI2) Read(context.Context) (string, error) { return "", nil }

// NameA is one resource.
//
//mcp:resource name=twin uri=a://x
type NameA struct{}

func (NameA) Read(context.Context) (string, error) { return "", nil }

// NameB is another resource with the same name.
//
//mcp:resource name=twin uri=b://x
type NameB struct{} // want `resource twin: duplicate resource name`

func (NameB) Read(context.Context) (string, error) { return "", nil }

// OddBraces has a stray closing brace.
//
/* want `malformed URI template "odd://\{id\}/\}\{": unmatched \} at offset 11` */ //mcp:resource uri=odd://{id}/}{
type OddBraces struct {
	ID string `json:"id"`
}

func (OddBraces) Read(context.Context) (string, error) { return "", nil }

// TwiceBound binds one variable twice.
//
/* want `malformed URI template "twice://\{id\}/copy/\{id\}": variable \{id\} appears twice` */ //mcp:resource uri=twice://{id}/copy/{id}
type TwiceBound struct {
	ID string `json:"id"`
}

func (TwiceBound) Read(context.Context) (string, error) { return "", nil }

// Adjacent has two variables with nothing between them.
//
/* want `malformed URI template "adj://\{a\}\{b\}": \{b\} follows another expression directly` */ //mcp:resource uri=adj://{a}{b}
type Adjacent struct {
	A string `json:"a"`
	B string `json:"b"`
}

func (Adjacent) Read(context.Context) (string, error) { return "", nil }

package mistakes

import (
	"context"
	"go/token"

	"github.com/mcpgen/mcpgen"
)

// NoHandler has no Call method.
//
//mcp:tool
type NoHandler struct{} // want `NoHandler: missing method Call`

// NoReader has no Read method.
//
//mcp:resource uri=noreader://x
type NoReader struct{} // want `NoReader: missing method Read`

// NoGetter has no Get method.
//
//mcp:prompt
type NoGetter struct{} // want `NoGetter: missing method Get`

// NoCtx forgets the context.
//
//mcp:tool
type NoCtx struct{}

func (NoCtx) Call() (string, error) { return "", nil } // want `NoCtx.Call: tool handler must take a context.Context first`

// NoErr forgets the error.
//
//mcp:tool
type NoErr struct{}

func (NoErr) Call(context.Context) string { return "" } // want `NoErr.Call: tool handler must return a result and an error`

// ReadNoErr is a resource whose Read forgets the error.
//
//mcp:resource uri=readnoerr://x
type ReadNoErr struct{}

func (ReadNoErr) Read(context.Context) (string, bool) { return "", false } // want `ReadNoErr.Read: resource handler must return a result and an error`

// Unnamed asks for a dependency of an unnamed type.
//
//mcp:tool
type Unnamed struct{}

func (Unnamed) Call(ctx context.Context, m map[string]int) (string, error) { return "", nil } // want `the server cannot supply a parameter of type map\[string\]int`

// Builtin asks for a dependency of a predeclared type.
//
//mcp:tool
type Builtin struct{}

func (Builtin) Call(ctx context.Context, e error) (string, error) { return "", nil } // want `the server cannot supply a parameter of type error`

// CtxTwice takes two contexts.
//
//mcp:tool
type CtxTwice struct{}

func (CtxTwice) Call(ctx context.Context, again context.Context) (string, error) { return "", nil } // want `context.Context parameter after the first`

// Variadic takes variadic dependencies.
//
//mcp:tool
type Variadic struct{}

func (Variadic) Call(ctx context.Context, more ...string) (string, error) { return "", nil } // want `Variadic.Call: unsupported method signature`

// EarlyPrepare has a Prepare method but is no task.
//
//mcp:tool
type EarlyPrepare struct{}

func (EarlyPrepare) Call(context.Context) (string, error) { return "", nil }
func (EarlyPrepare) Prepare(context.Context) error        { return nil } // want `EarlyPrepare.Prepare: Prepare only runs for task tools`

// BadPrepare is a task whose Prepare returns a value.
//
//mcp:tool task=optional
type BadPrepare struct{}

func (BadPrepare) Call(context.Context) (string, error)  { return "", nil }
func (BadPrepare) Prepare(context.Context) (bool, error) { return true, nil } // want `BadPrepare.Prepare: wrong Prepare signature`

// BadComplete completes with the wrong signature.
//
//mcp:prompt
type BadComplete struct{}

func (BadComplete) Get(context.Context) (string, error)            { return "", nil }
func (BadComplete) Complete(ctx context.Context) ([]string, error) { return nil, nil } // want `BadComplete.Complete: wrong completion method signature`

// BadTemplateComplete completes a template with the wrong result.
//
//mcp:resource uri=tc://{id}
type BadTemplateComplete struct {
	ID string `json:"id"`
}

func (BadTemplateComplete) Read(context.Context) (string, error) { return "", nil }
func (BadTemplateComplete) Complete(ctx context.Context, c mcpgen.CompleteRequest) (string, error) { // want `BadTemplateComplete.Complete: wrong completion method signature`
	return "", nil
}

// IntPrompt returns a number.
//
//mcp:prompt
type IntPrompt struct{}

func (IntPrompt) Get(context.Context) (int, error) { return 0, nil } // want `IntPrompt.Get: unsupported prompt result type int`

// NumberArg has a prompt argument that is not a string.
//
//mcp:prompt
type NumberArg struct {
	Count int `json:"count"` // want `prompt argument "count" has type int`
}

func (NumberArg) Get(context.Context) (string, error) { return "", nil }

// hidden is a component the generated package could not refer to.
//
//mcp:tool
type hidden struct{} // want `hidden: component type is not exported`

func (hidden) Call(context.Context) (string, error) { return "", nil }

// Generic has type parameters.
//
//mcp:tool
type Generic[T any] struct{ V T } // want `Generic: generic component types are not supported`

// PrivateDep asks for a dependency of an unexported type.
//
//mcp:tool
type PrivateDep struct{}

type secret struct{}

func (PrivateDep) Call(ctx context.Context, s *secret) (string, error) { return "", nil } // want `PrivateDep.Call: the generated package cannot name the type mistakes.secret`

// PrivateResult returns an unexported type.
//
//mcp:tool
type PrivateResult struct{}

type page struct {
	N int `json:"n"`
}

func (PrivateResult) Call(context.Context) (page, error) { return page{}, nil } // want `PrivateResult.Call: the generated package cannot name the type mistakes.page`

// Box is a generic result type.
type Box[T any] struct {
	V T `json:"v"`
}

// GenericResult returns an instantiated generic type: accepted, the
// generated code spells it Box[int].
//
//mcp:tool
type GenericResult struct{}

func (GenericResult) Call(context.Context) (Box[int], error) { return Box[int]{}, nil }

// AnonPrivate returns an anonymous struct with an unexported field, which
// generated code cannot spell.
//
//mcp:tool
type AnonPrivate struct{}

func (AnonPrivate) Call(context.Context) (struct{ n int }, error) { return struct{ n int }{}, nil } // want `AnonPrivate.Call: the generated package cannot name the type struct\{n int\}`

// FileSets takes a dependency of an unnamed type, printed with package
// names rather than import paths.
//
//mcp:tool
type FileSets struct{}

func (FileSets) Call(ctx context.Context, fs []*token.FileSet) (string, error) { return "", nil } // want `the server cannot supply a parameter of type \[\]\*token\.FileSet`

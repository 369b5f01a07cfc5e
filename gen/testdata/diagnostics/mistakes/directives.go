package mistakes

import "context"

// Misspelt is declared with a directive kind that does not exist.
//
/* want `unknown directive "tol"` */ //mcp:tol
type Misspelt struct{}

// Colour has a key the tool directive does not know.
//
/* want `unknown key "colour"` */ //mcp:tool colour=red
type Colour struct{}

func (Colour) Call(context.Context) (string, error) { return "", nil }

// BareTitle gives a string option without a value.
//
/* want `title: missing value` */ //mcp:tool title
type BareTitle struct{}

func (BareTitle) Call(context.Context) (string, error) { return "", nil }

// BadBool has a malformed boolean.
//
/* want `readonly: malformed boolean "yes"` */ //mcp:tool readonly=yes
type BadBool struct{}

func (BadBool) Call(context.Context) (string, error) { return "", nil }

// Unterminated has a quoted value that never ends.
//
/* want `unterminated quoted value\n\tclose the quotes` */ //mcp:tool title="Oops
type Unterminated struct{}

func (Unterminated) Call(context.Context) (string, error) { return "", nil }

// BadEscape has a quoted value that is not a Go string literal.
//
/* want `malformed quoted value "bad \\q escape": bad escape\n\ta quoted value is a Go string literal` */ //mcp:tool title="bad \q escape"
type BadEscape struct{}

func (BadEscape) Call(context.Context) (string, error) { return "", nil }

// EmptyValue has key= with nothing after it.
//
/* want `missing value after title=` */ //mcp:tool title=
type EmptyValue struct{}

func (EmptyValue) Call(context.Context) (string, error) { return "", nil }

// NoKey has =value without a key.
//
/* want `expected key before '='` */ //mcp:tool =x
type NoKey struct{}

func (NoKey) Call(context.Context) (string, error) { return "", nil }

// TaskMode names a task mode that does not exist.
//
/* want `unknown task mode "sometimes"` */ //mcp:tool task=sometimes
type TaskMode struct{}

func (TaskMode) Call(context.Context) (string, error) { return "", nil }

// FTPIcon has an icon that is neither http(s) nor data.
//
/* want `icon "ftp://example.com/i.png" is not an http\(s\) or data URI` */ //mcp:tool icon=ftp://example.com/i.png
type FTPIcon struct{}

func (FTPIcon) Call(context.Context) (string, error) { return "", nil }

// Twice carries two component directives.
//
//mcp:tool
/* want `more than one //mcp: directive` */ //mcp:prompt
type Twice struct{}

func (Twice) Call(context.Context) (string, error) { return "", nil }

// PromptKey has a key prompts do not have.
//
/* want `unknown key "readonly"` */ //mcp:prompt readonly
type PromptKey struct{}

func (PromptKey) Get(context.Context) (string, error) { return "", nil }

// NotAStruct is a string type.
//
//mcp:tool
type NotAStruct string // want `//mcp:tool on a non-struct type`

// ServerOnType puts the server directive on a type.
//
/* want `//mcp:server belongs in the package doc comment` */ //mcp:server
type ServerOnType struct{}

// Both says it is read-only and destructive.
//
//mcp:tool readonly destructive
type Both struct{} // want `a read-only tool cannot be destructive`

func (Both) Call(context.Context) (string, error) { return "", nil }

//mcp:tool
type Undocumented struct{} // want `tool undocumented: missing description`

func (Undocumented) Call(context.Context) (string, error) { return "", nil }

// SpacedOut has a space after the slashes, so Go reads an ordinary comment.
//
/* want `mcp:tool: did you mean //mcp:tool\?` */ // mcp:tool readonly
type SpacedOut struct{}

// Voila has a bare non-ASCII value, which is one value, not cut at the
// byte 0xA0 inside "à": its title is fine, and the next key is unknown.
//
/* want `unknown key "colour"` */ //mcp:tool title=Voilà colour=red
type Voila struct{}

func (Voila) Call(context.Context) (string, error) { return "", nil }

// ColonSpace has a space after the colon.
//
/* want `missing directive kind after //mcp:\n\twrite //mcp:tool` */ //mcp: tool
type ColonSpace struct{}

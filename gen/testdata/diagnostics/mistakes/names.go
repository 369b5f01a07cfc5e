package mistakes

import "context"

// First takes the name dup.
//
//mcp:tool name=dup
type First struct{}

func (First) Call(context.Context) (string, error) { return "", nil }

// Second takes it again.
//
//mcp:tool name=dup
type Second struct{} // want `tool dup: duplicate tool name`

func (Second) Call(context.Context) (string, error) { return "", nil }

// Spaced has a name with a space.
//
//mcp:tool name="has space"
type Spaced struct{} // want `tool has space: invalid tool name: it contains ' '\n\tuse 1 to 128 characters of A-Z a-z 0-9 _ - .`

func (Spaced) Call(context.Context) (string, error) { return "", nil }

// Slashed has a prompt name with a slash.
//
//mcp:prompt name=a/b
type Slashed struct{} // want `prompt a/b: invalid prompt name: it contains '/'`

func (Slashed) Get(context.Context) (string, error) { return "", nil }

// PromptOne takes the prompt name again.
//
//mcp:prompt name=again
type PromptOne struct{}

func (PromptOne) Get(context.Context) (string, error) { return "", nil }

// PromptTwo takes it a second time.
//
//mcp:prompt name=again
type PromptTwo struct{} // want `prompt again: duplicate prompt name`

func (PromptTwo) Get(context.Context) (string, error) { return "", nil }

// HTTPGet and HttpGet would both become httpGet in the generated code.
//
//mcp:tool name=http_get_upper
type HTTPGet struct{}

func (HTTPGet) Call(context.Context) (string, error) { return "", nil }

// HttpGet collides with HTTPGet.
//
//mcp:tool name=http_get_lower
type HttpGet struct{} // want `HttpGet: type name collides with HTTPGet`

func (HttpGet) Call(context.Context) (string, error) { return "", nil }

// Casey and casey differ only in case.
//
//mcp:tool name=Casey
type CaseUpper struct{}

func (CaseUpper) Call(context.Context) (string, error) { return "", nil }

// casey differs from Casey only in case.
//
//mcp:tool name=casey
type CaseLower struct{} // want `tool casey: tool name differs from Casey only in case`

func (CaseLower) Call(context.Context) (string, error) { return "", nil }

// TooLong has a tool name of 129 characters.
//
//mcp:tool name=a12345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678
type TooLong struct{} // want `invalid tool name: it is 129 characters long; the limit is 128`

func (TooLong) Call(context.Context) (string, error) { return "", nil }

// Dotted has the longest name allowed, of every kind of character the
// rule allows: accepted.
//
//mcp:tool name=Admin.tools-list_v2xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
type Dotted struct{}

func (Dotted) Call(context.Context) (string, error) { return "", nil }

// Placeholder has a prompt argument whose name would close the
// ${arguments.NAME} placeholder of a bundle's prompt text and open another.
//
//mcp:prompt
type Placeholder struct {
	Topic string `json:"w}${user_config.token}"` // want `Placeholder.Topic: prompt argument name "w}\$\{user_config.token}" holds \$, \{ or }\n\trename it with its json tag`
}

func (Placeholder) Get(context.Context) (string, error) { return "", nil }

package mistakes

import "context"

// Quiet has unexported fields with json or jsonschema tags, which
// encoding/json ignores: each is a mistake at the field.
//
//mcp:tool
type Quiet struct {
	Title    string       `json:"title"`
	priority int          `json:"priority"`        // want `Quiet\.priority: field is not exported, so encoding/json ignores it and its tag\n\texport it \(Priority int .json:"priority".\), or drop the tag \(json:"-" to leave it out on purpose\)`
	rank     int          `jsonschema:"minimum=1"` // want `Quiet\.rank: field is not exported, so encoding/json ignores it and its tag`
	skipped  int          `json:"-"`               // said on purpose: not a mistake
	plain    int          // no tag: not a mistake
	Opts     QuietOptions `json:"opts"`
}

// QuietOptions is nested in Quiet's input.
type QuietOptions struct {
	level int `json:"level,omitempty"` // want `Quiet\.Opts\.level: field is not exported`
}

// QuietResult is Quiet's structured result.
type QuietResult struct {
	OK    bool `json:"ok"`
	count int  `json:"count"` // want `Quiet\.Call result\.count: field is not exported`
}

func (q Quiet) Call(context.Context) (QuietResult, error) {
	_, _, _, _, _ = q.priority, q.rank, q.skipped, q.plain, q.Opts.level
	return QuietResult{count: 1}, nil
}

// Hushed is a prompt whose unexported field cannot be an argument.
//
//mcp:prompt
type Hushed struct {
	Topic string `json:"topic"`
	tone  string `json:"tone"` // want `Hushed\.tone: field is not exported`
}

func (h Hushed) Get(context.Context) (string, error) { return h.tone, nil }

// Muted is a resource template whose unexported field cannot be bound.
//
//mcp:resource uri=muted://{id}
type Muted struct {
	ID   string `json:"id"`
	kind string `json:"kind"` // want `Muted\.kind: field is not exported`
}

func (m Muted) Read(context.Context) (string, error) { return m.kind, nil }

package mistakes

import "context"

/* want `directive is not attached to a type declaration` */ //mcp:tool
func Helper() {
	_ = Global
}

/* want `directive is not attached to a type declaration` */ //mcp:resource uri=var://x
var Global = 1

func body(ctx context.Context) {
	/* want `directive is not attached to a type declaration` */ //mcp:prompt
	_ = ctx
}

// Grouped declares two types in one group; a directive on the group names
// neither.
//
/* want `directive is not attached to a type declaration` */ //mcp:tool
type (
	GroupA struct{}
	GroupB struct{}
)

/* want `directive is not attached to a type declaration` */ //mcp:tool

// Detached is separated from its directive by a blank line.
type Detached struct{}

// Package twin claims the server name of package mistakes.
//
/* want `server mistakes: name already used by package github.com/mcpgen/mcpgen/gen/testdata/diagnostics/mistakes` */ //mcp:server name=mistakes
package twin

import "context"

// Ping answers.
//
//mcp:tool readonly
type Ping struct{}

// Call answers.
func (Ping) Call(context.Context) (string, error) { return "pong", nil }

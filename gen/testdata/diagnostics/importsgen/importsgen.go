// Package importsgen is a component package that imports generated code.
package importsgen

import (
	"context"

	"github.com/mcpgen/mcpgen/generated/everything" // want `import github.com/mcpgen/mcpgen/generated/everything: component package imports generated code`
)

// Wrap serves another server's name.
//
//mcp:tool readonly
type Wrap struct{}

// Call answers.
func (Wrap) Call(context.Context) (string, error) { return "wrapped", nil }

// The import is used, so the package compiles and the checker sees it.
var _ = everything.New

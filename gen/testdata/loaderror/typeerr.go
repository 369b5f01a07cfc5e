// Package loaderror does not compile: its type error is reported with its
// position, and its directives are not looked at (the misspelt one below
// would otherwise be reported too).
//
//mcp:server
package loaderror

import "context"

// Broken returns the wrong type.
//
//mcp:tol
type Broken struct{}

// Call does not compile.
func (Broken) Call(context.Context) (string, error) {
	return 42, nil // want `cannot use 42 \(untyped int constant\) as string value in return statement`
}

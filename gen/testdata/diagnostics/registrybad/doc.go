// Package registrybad declares its registry entry wrongly.
//
/* want `registry: malformed registry name "not a name/x y"` */ //mcp:server name=registrybad registry="not a name/x y"
package registrybad

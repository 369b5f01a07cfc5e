// Package serverblank names its server _, a directory the go tool ignores.
//
/* want `server _: name "_" cannot name the generated package: the go tool ignores directories whose names begin with _` */ //mcp:server name=_
package serverblank

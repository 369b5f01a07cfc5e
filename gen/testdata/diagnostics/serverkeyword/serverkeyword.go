// Package serverkeyword names its server with a Go keyword.
//
/* want `server func: name "func" cannot name the generated package: it is a Go keyword` */ //mcp:server name=func
package serverkeyword

// Package badname names its server with something that cannot name a Go
// package.
//
/* want `server Bad-Name: name "Bad-Name" cannot name the generated package` */ //mcp:server name=Bad-Name
package badname

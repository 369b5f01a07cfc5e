// Package servermain names its server main: the generated package would
// be a command, which nothing can import.
//
/* want `server main: name "main" cannot name the generated package: package main is a command` */ //mcp:server name=main
package servermain

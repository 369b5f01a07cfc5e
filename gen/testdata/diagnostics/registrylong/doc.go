// Package registrylong describes itself at more length than the registry takes.
//
/* want `description: description is 101 characters long` */ //mcp:server name=registrylong description="aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
package registrylong

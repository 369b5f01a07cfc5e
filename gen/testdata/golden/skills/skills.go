// Package skills shows the //mcp:skill directive: one skill named by its
// directory, a folder of skills served under a prefix, a skill from code
// (status.go) among them, and a server that publishes nothing but skills.
//
//mcp:server name=skilled version=1.0.0
//mcp:skill dir=docs/review
//mcp:skill root=library prefix=acme/billing
package skills

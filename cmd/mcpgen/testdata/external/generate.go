// Package notes holds the //go:generate line of this module, as a user's
// module would.
package notes

//go:generate go tool mcpgen

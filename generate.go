// Package mcpgen is the root of the repository: the //go:generate line that
// rebuilds generated/ from components/ lives here, in a hand-written file.
package mcpgen

//go:generate go run ./cmd/mcpgen -out generated ./components/...

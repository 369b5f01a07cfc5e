// Package names stands for a generated server: its directory holds the
// surface.json that mcpgen bundle reads, written by hand with names no
// mcpgen writes (it refuses them), as an older or edited one could hold.
package names

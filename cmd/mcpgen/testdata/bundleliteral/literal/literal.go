// Package literal stands for a generated server: its directory holds the
// surface.json and server.json that mcpgen bundle reads.
package literal

// Command notes serves the notes server over stdio, or Streamable HTTP
// with --http ADDR.
package main

import (
	"github.com/mcpgen/mcpgen"

	"example.com/notes/components/notes"
	gen "example.com/notes/generated/notes"
)

func main() {
	store := notes.NewStore()
	mcpgen.Main("notes", "Serves the notes server.", func(opts mcpgen.Options) *mcpgen.Server {
		return gen.New(store, opts)
	})
}

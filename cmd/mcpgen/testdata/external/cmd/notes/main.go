// Command notes serves the notes server over stdio, or Streamable HTTP
// with --http ADDR.
package main

import (
	"context"

	"github.com/mcpgen/mcpgen"

	"example.com/notes/components/notes"
	gen "example.com/notes/generated/notes"
)

func main() {
	mcpgen.Main("notes", "Serves the notes server.", gen.New,
		mcpgen.Provide(func(context.Context) (*notes.Store, error) { return notes.NewStore(), nil }))
}

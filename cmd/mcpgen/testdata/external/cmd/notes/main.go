// Command notes serves the notes server over stdio, or Streamable HTTP
// with --http ADDR.
package main

import (
	"context"

	"example.com/notes/components/notes"
	gen "example.com/notes/generated/notes"
)

func main() {
	gen.Main("Serves the notes server.", func(context.Context) (*notes.Store, error) { return notes.NewStore(), nil })
}

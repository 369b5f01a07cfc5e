// Command lightmain is the smallest program a user of mcpgen writes: the
// generated notes server, served over stdio, importing nothing but the
// root package and the generated and component packages.
//
// It is not built by ./... (testdata is ignored); two tests name it:
// deps_test.go in the root module lists its dependencies and fails on any
// heavy integration it links, and bench/footprint_test.go compares its
// package count and stripped size with a go-sdk server's.
package main

import (
	"context"
	"log"
	"os"
	"os/signal"

	"github.com/mcpgen/mcpgen"
	component "github.com/mcpgen/mcpgen/components/notes"
	"github.com/mcpgen/mcpgen/generated/notes"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	srv := notes.New(component.NewStore(), mcpgen.Options{})
	defer srv.Close()
	if err := mcpgen.ServeStdio(ctx, srv, os.Stdin, os.Stdout); err != nil && ctx.Err() == nil {
		log.Fatal(err)
	}
}

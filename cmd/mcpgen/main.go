// Command mcpgen generates MCP servers from annotated Go structs.
//
// Usage:
//
//	mcpgen [-out DIR] [-check] [packages...]
//
// It scans the packages (default ./components/...) for //mcp: directives
// and writes one package per server under DIR (default generated): a
// constructor, the registry of tools, resources, templates and prompts,
// their JSON Schemas (also as .json files beside the code) and typed
// adapters that call the component methods directly.
//
// Every mistake is reported at once as file:line:col: subject: problem,
// with a hint on the next line; nothing is written when there is any.
// Files whose content did not change are not rewritten.
//
// With -check nothing is written: mcpgen exits 1 and names each file of
// DIR that is missing, out of date or left over.
//
// Typical use is a hand-written generate.go beside the components:
//
//	//go:generate go run github.com/mcpgen/mcpgen/cmd/mcpgen
//
// The directives are documented in docs/annotations.md.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"

	"github.com/mcpgen/mcpgen/gen"
)

func main() {
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	fs := flag.NewFlagSet("mcpgen", flag.ContinueOnError)
	out := fs.String("out", "generated", "output `directory`, one package per server")
	checkOnly := fs.Bool("check", false, "write nothing; exit 1 if the output directory is stale")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: mcpgen [-out DIR] [-check] [packages...]\n\n"+
			"Generates MCP servers from //mcp: annotated structs (default packages ./components/...).\n"+
			"See docs/annotations.md for the directives.\n\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	patterns := fs.Args()
	if len(patterns) == 0 {
		patterns = []string{"./components/..."}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()

	res, err := gen.Generate(ctx, gen.Config{Patterns: patterns})
	if err != nil {
		var diags gen.Diagnostics
		if errors.As(err, &diags) {
			fmt.Fprintln(os.Stderr, diags.Error())
			fmt.Fprintf(os.Stderr, "mcpgen: %d error(s); nothing written\n", len(diags))
			return 1
		}
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if *checkOnly {
		stale, err := gen.Stale(*out, res)
		if err != nil {
			fmt.Fprintln(os.Stderr, "mcpgen:", err)
			return 1
		}
		for _, f := range stale {
			fmt.Fprintf(os.Stderr, "mcpgen: %s/%s is stale\n", *out, f)
		}
		if len(stale) > 0 {
			fmt.Fprintln(os.Stderr, "mcpgen: generated code is out of date: run `make generate` (or go generate ./...) and commit the result")
			return 1
		}
		return 0
	}
	if _, err := gen.Write(*out, res); err != nil {
		fmt.Fprintln(os.Stderr, "mcpgen:", err)
		return 1
	}
	return 0
}

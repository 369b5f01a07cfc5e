// Command mcpgen generates MCP servers from annotated Go structs.
//
// Usage:
//
//	mcpgen [-out DIR] [-check] [packages...]
//	mcpgen new server NAME [DIR]
//	mcpgen new tool|resource|prompt NAME [DIR]
//	mcpgen breaking -against REF [-v] [-check-version] [-allow RULE] [packages...]
//	mcpgen bundle [-o FILE] [-platforms LIST] [-author NAME] ./cmd/SERVER
//	mcpgen dev-token [-url URL] [-scope SCOPES] [-subject NAME]
//	mcpgen -version
//
// It scans the packages (default ./components/...) for //mcp: directives
// and writes one package per server under DIR (default generated): a
// constructor, a Main that is a whole main function taking each of the
// server's dependencies with its type (a main that leaves one out does not
// compile), the registry of tools, resources, templates and prompts,
// their JSON Schemas (also as .json files beside the code) and typed
// adapters that call the component methods directly; and beside it the
// server's typed client, DIR/<server>/<server>client: one method per tool,
// resource, template and prompt, with copies of the components' types, for
// Go programs that call the server (docs/clients.md).
//
// Every mistake is reported at once as file:line:col: subject: problem,
// with a hint on the next line; nothing is written when there is any.
// Files whose content did not change are not rewritten.
//
// With -check nothing is written: mcpgen exits 1, names each file of DIR
// that is missing, out of date or left over, and the command that fits the
// module to regenerate them: make generate when its Makefile has a generate
// target, else go generate ./... when a Go file at its root holds the
// //go:generate line, else mcpgen itself.
//
// mcpgen breaking compares each server's surface (generated/<server>/
// surface.json, written with the rest) with the one at a git revision or
// in a file, and lists every change that breaks existing callers at its
// place in today's source; it exits 1 when there is any. Changes that
// break nothing print nothing unless -v, which also names the version
// bump the changes call for; -check-version fails when version= falls
// short of it. See `mcpgen breaking -h` for the rules.
//
// mcpgen bundle builds an MCP Bundle (.mcpb) of a server's main package
// for desktop clients: its manifest from the server's surface and the
// main's flags, its binaries cross-compiled; it prints the bundle's
// SHA-256 and writes the server.json to publish with it (fileSha256 on
// its MCPB package). See `mcpgen bundle -h`.
//
// mcpgen dev-token prints an access token from the development OAuth
// issuer of a server running with --dev-auth on loopback (never in
// production), for trying scopes locally; see docs/oauth-local.md.
//
// mcpgen new scaffolds a server package (with a main and a generate.go) or
// one more component in an existing package; see `mcpgen new -h`.
//
// In your own module, add mcpgen as a tool and put the //go:generate line
// in a hand-written file at the module root:
//
//	go get -tool github.com/mcpgen/mcpgen/cmd/mcpgen
//
//	//go:generate go tool mcpgen
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
	"path/filepath"
	"regexp"
	"strings"

	// The runtime that generated code imports. Linking it here means that
	// `go get -tool .../cmd/mcpgen` records its checksums too, so the
	// generated packages build without another go get.
	"github.com/mcpgen/mcpgen"
	"github.com/mcpgen/mcpgen/gen"
)

func main() {
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	if len(args) > 0 && args[0] == "new" {
		return runNew(args[1:])
	}
	if len(args) > 0 && args[0] == "breaking" {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
		defer stop()
		return runBreaking(ctx, args[1:], os.Stdout, os.Stderr)
	}
	if len(args) > 0 && args[0] == "dev-token" {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
		defer stop()
		return runDevToken(ctx, args[1:], os.Stdout, os.Stderr)
	}
	if len(args) > 0 && args[0] == "bundle" {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
		defer stop()
		return runBundle(ctx, args[1:], os.Stdout, os.Stderr)
	}
	fs := flag.NewFlagSet("mcpgen", flag.ContinueOnError)
	out := fs.String("out", "generated", "output `directory`, one package per server")
	checkOnly := fs.Bool("check", false, "write nothing; exit 1 if the output directory is stale")
	version := fs.Bool("version", false, "print mcpgen's module version and exit")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: mcpgen [-out DIR] [-check] [packages...]\n"+
			"       mcpgen new server|tool|resource|prompt NAME [DIR]\n"+
			"       mcpgen breaking -against REF [-v] [-check-version] [-allow RULE] [packages...]\n"+
			"       mcpgen bundle [-o FILE] [-platforms LIST] ./cmd/SERVER\n"+
			"       mcpgen dev-token [-url URL] [-scope SCOPES]   (a token from a --dev-auth server)\n\n"+
			"Generates MCP servers from //mcp: annotated structs (default packages ./components/...).\n"+
			"The directives are documented in docs/annotations.md of the mcpgen module.\n\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if *version {
		fmt.Printf("mcpgen %s (MCP %s)\n", gen.Version(), mcpgen.LatestVersion)
		return 0
	}
	patterns := fs.Args()
	if len(patterns) == 0 {
		if st, err := os.Stat("components"); err != nil || !st.IsDir() {
			wd, _ := os.Getwd()
			fmt.Fprintf(os.Stderr, "mcpgen: no packages given, and the default ./components/... does not exist in %s\n"+
				"\tname the annotated packages: mcpgen ./mcp/... (or mcpgen ./... for the whole module),\n"+
				"\tor start one with: mcpgen new server NAME\n", wd)
			return 2
		}
		patterns = []string{"./components/..."}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()

	res, err := gen.Generate(ctx, gen.Config{Patterns: patterns})
	if err != nil {
		var diags gen.Diagnostics
		if errors.As(err, &diags) {
			fmt.Fprintln(os.Stderr, diags.Relative(workDir()).Error())
			fmt.Fprintf(os.Stderr, "mcpgen: %d error(s); nothing written\n", len(diags))
			return 1
		}
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	for _, w := range res.Warnings.Relative(workDir()) {
		fmt.Fprintln(os.Stderr, w)
	}
	if *checkOnly {
		stale, err := res.Stale(*out)
		if err != nil {
			fmt.Fprintln(os.Stderr, "mcpgen:", err)
			return 1
		}
		for _, f := range stale {
			fmt.Fprintf(os.Stderr, "mcpgen: %s/%s is stale\n", *out, f)
		}
		if len(stale) > 0 {
			fmt.Fprintf(os.Stderr, "mcpgen: generated code is out of date: run `%s` and commit the result\n", regenerateCommand(res.ModuleDir, args))
			return 1
		}
		return 0
	}
	if _, err := res.Write(*out); err != nil {
		fmt.Fprintln(os.Stderr, "mcpgen:", err)
		return 1
	}
	return 0
}

// workDir is the working directory, which messages print paths relative
// to; empty when it cannot be had (then they stay absolute).
func workDir() string {
	wd, _ := os.Getwd()
	return wd
}

// regenerateCommand is the command that brings the output up to date in
// the module at moduleDir: `make generate` when its Makefile has a generate
// target, `go generate ./...` when a Go file at its root runs mcpgen from a
// //go:generate line, and otherwise mcpgen itself with the arguments of
// this run but -check (as `go tool mcpgen` when the module declares it as
// a tool).
func regenerateCommand(moduleDir string, args []string) string {
	if moduleDir == "" {
		moduleDir = findModuleDir()
	}
	for _, name := range []string{"GNUmakefile", "makefile", "Makefile"} {
		b, err := os.ReadFile(filepath.Join(moduleDir, name))
		if err == nil && makeTargetRe.Match(b) {
			return "make generate"
		}
		if err == nil {
			break // make reads the first of these that exists
		}
	}
	files, _ := filepath.Glob(filepath.Join(moduleDir, "*.go"))
	for _, f := range files {
		if b, err := os.ReadFile(f); err == nil && goGenerateRe.Match(b) {
			return "go generate ./..."
		}
	}
	cmd := []string{"mcpgen"}
	if b, err := os.ReadFile(filepath.Join(moduleDir, "go.mod")); err == nil && toolRe.Match(b) {
		cmd = []string{"go", "tool", "mcpgen"}
	}
	for _, a := range args {
		if a != "-check" && a != "--check" && a != "-check=true" && a != "--check=true" {
			cmd = append(cmd, a)
		}
	}
	return strings.Join(cmd, " ")
}

var (
	makeTargetRe = regexp.MustCompile(`(?m)^generate\s*::?([^=]|$)`)
	goGenerateRe = regexp.MustCompile(`(?m)^//go:generate .*\bmcpgen\b`)
	// toolRe matches mcpgen's line in a tool directive of go.mod: the path
	// alone, where a require line would carry a version.
	toolRe = regexp.MustCompile(`(?m)^\s*(tool\s+)?github\.com/mcpgen/mcpgen/cmd/mcpgen\s*$`)
)

// findModuleDir returns the directory of the go.mod above the working
// directory, or "".
func findModuleDir() string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

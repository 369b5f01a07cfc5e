package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/mcpgen/mcpgen/oauth/devissuer"
)

// runDevToken is `mcpgen dev-token`: it asks the development issuer of a
// server started with --dev-auth for an access token and prints it.
func runDevToken(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("mcpgen dev-token", flag.ContinueOnError)
	fs.SetOutput(stderr)
	endpoint := fs.String("url", "http://127.0.0.1:8080/mcp", "the MCP endpoint `URL` of a server running with --dev-auth")
	scope := fs.String("scope", "", "the `scopes` the token grants, space- or comma-separated (e.g. memory:read)")
	subject := fs.String("subject", "", "the token's subject (sub); default dev-mcpgen-dev-token")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), "usage: mcpgen dev-token [-url URL] [-scope SCOPES] [-subject NAME]\n\n"+
			"Prints an access token from the DEVELOPMENT issuer of a server started with\n"+
			"--dev-auth (loopback only), for trying its scopes: docs/oauth-local.md.\n\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "mcpgen dev-token: unexpected argument %q (see -h)\n", fs.Arg(0))
		return 2
	}
	scopes := strings.FieldsFunc(*scope, func(r rune) bool { return r == ' ' || r == ',' })
	tok, err := devissuer.Token(ctx, *endpoint, *subject, scopes...)
	if err != nil {
		fmt.Fprintln(stderr, "mcpgen dev-token:", err)
		return 1
	}
	fmt.Fprintln(stdout, tok)
	return 0
}

package mcpgen

import (
	"context"
	"io"
	"net/http"

	"github.com/mcpgen/mcpgen/internal/transport/stdio"
	"github.com/mcpgen/mcpgen/internal/transport/streamhttp"
)

// ServeStdio serves srv over newline-delimited JSON-RPC on r and w (a
// process's stdin and stdout) until r ends or ctx is done. Nothing but
// protocol messages is written to w: keep logs on stderr. Requests run
// concurrently, so a slow tool does not hold up the others.
func ServeStdio(ctx context.Context, srv *Server, r io.Reader, w io.Writer) error {
	return stdio.Serve(ctx, srv, r, w)
}

// HTTPOptions configure [HTTPHandler]: the Origin and Host checks that
// guard against DNS rebinding (AllowedOrigins, AllowedHosts; loopback is
// always allowed), the body limit, SSE keep-alives, a logger and an
// authentication hook that establishes the [Principal]. The zero value is
// ready to use.
type HTTPOptions = streamhttp.Options

// HTTPHandler returns the Streamable HTTP endpoint of srv as an ordinary
// http.Handler, to mount at any path of your own mux. One endpoint serves
// stateless 2026-07-28 clients and legacy clients (initialize,
// Mcp-Session-Id, GET stream, DELETE) alike. Use one handler per server;
// several servers may share a mux at different paths. Call srv.Close when
// shutting the HTTP server down (http.Server.RegisterOnShutdown), so that
// open streams end.
func HTTPHandler(srv *Server, opts HTTPOptions) http.Handler { return streamhttp.Handler(srv, opts) }

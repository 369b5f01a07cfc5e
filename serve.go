package mcpgen

// Serving a binary: the common flags (--http, --log-level, --allow-origin,
// the limits, and the flags of every linked integration), a zap logger on
// stderr, and running a server over stdio or Streamable HTTP until EOF or
// a signal, letting in-flight calls finish.

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	"github.com/mcpgen/mcpgen/internal/cluster"
)

// Flags are the options every server binary accepts. [Main] registers and
// uses them; a main with commands of its own (mcp-memory's import and
// export, say) calls Register, Logger, ServerOptions and Run itself.
type Flags struct {
	// HTTP (--http) is the address to serve Streamable HTTP on; empty
	// serves stdio.
	HTTP string
	// Path (--path) is the HTTP path of the MCP endpoint.
	Path string
	// LogLevel (--log-level) is debug, info, warn or error.
	LogLevel string
	// AllowOrigins (--allow-origin) are extra Origins, comma-separated.
	AllowOrigins string
	// AllowHosts (--allow-host) are extra Host values, comma-separated.
	AllowHosts string
	// ShutdownGrace (--shutdown-grace) is how long in-flight HTTP calls
	// may run after a signal.
	ShutdownGrace time.Duration
	// AllowUnauthenticated (--allow-unauthenticated) lets --http serve
	// callers without authentication on an address other hosts can reach;
	// without it Run refuses to, since every declared scope is then void.
	AllowUnauthenticated bool

	// Limits are every limit, each with its flag (--max-message-bytes,
	// --http-read-timeout, ...; see [Limits]).
	Limits Limits

	// Paths are more HTTP path patterns the endpoint is served at beside
	// --path (e.g. "/graphs/{name}/mcp"); a main sets them before Run.
	Paths []string
	// Partition is the endpoint's [HTTPOptions].Partition; a main sets it
	// before Run.
	Partition func(r *http.Request, p Principal) (string, error)

	integrations []Integration // one instance of each registered integration
	setup        *Setup        // made by ServerOptions, used by Run
	stdin        io.Reader     // stdio: nil is os.Stdin
	stdout       io.Writer     // stdio: nil is os.Stdout
}

// Register adds the common flags, and those of every integration the
// binary links (see [RegisterIntegration]), to fs.
func (f *Flags) Register(fs *flag.FlagSet) {
	fs.StringVar(&f.HTTP, "http", "", "serve Streamable HTTP on `ADDR` (e.g. 127.0.0.1:8080) instead of stdio")
	fs.StringVar(&f.Path, "path", "/mcp", "HTTP `path` of the MCP endpoint")
	fs.StringVar(&f.LogLevel, "log-level", "info", "log `level` on stderr: debug, info, warn, error")
	fs.StringVar(&f.AllowOrigins, "allow-origin", "", "comma-separated extra `origins` allowed to call the HTTP endpoint (localhost is always allowed)")
	fs.StringVar(&f.AllowHosts, "allow-host", "", "comma-separated extra `hosts` accepted in the Host header (localhost is always accepted)")
	fs.DurationVar(&f.ShutdownGrace, "shutdown-grace", 10*time.Second, "how long in-flight HTTP calls may run after a shutdown signal")
	fs.BoolVar(&f.AllowUnauthenticated, "allow-unauthenticated", false, "serve --http without authentication on an address other hosts can reach (not loopback): anyone who reaches it may call every tool, whatever scope it declares")
	f.Limits.RegisterFlags(fs)
	f.integrations = newIntegrations()
	for _, in := range f.integrations {
		in.Flags(fs)
	}
}

// ServerOptions returns the server options the flags ask for: log through
// log; the message size, rate, concurrency and session limits; a debug
// access log when log is at debug level; and what each linked integration
// adds (observers, the cluster backend). What the integrations open is
// released by Run, or by Close when the server is never run.
func (f *Flags) ServerOptions(name string, log *zap.Logger) (Options, error) {
	opts := Options{Logger: log, Errors: ZapErrors{Logger: log}, Limits: f.Limits}
	opts.Observer = NewAccessLog(log)
	f.setup = &Setup{Name: name, Logger: log, Options: &opts}
	for _, in := range f.integrations {
		if err := in.Configure(context.Background(), f.setup); err != nil {
			f.Close()
			return Options{}, err
		}
	}
	return opts, nil
}

// Close releases what the integrations opened for ServerOptions (the
// cluster's connections, the trace exporter); Run calls it once the
// server has stopped. It is safe to call more than once.
func (f *Flags) Close() {
	if f.setup != nil {
		f.setup.close()
	}
}

// ExitCode is the exit status for an error of [Flags.ServerOptions] or
// [Flags.Run]: 1 when something the server needs cannot be had (its
// database, its listen address), 2 for a usage error (a bad flag value).
func ExitCode(err error) int {
	var ue *usageError
	if errors.As(err, &ue) {
		return 2
	}
	return 1
}

// UsageError marks err as a usage error (exit status 2 in [ExitCode]):
// integrations return it for flag values that cannot work.
func UsageError(err error) error { return &usageError{err} }

type usageError struct{ err error }

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

// Logger builds the zap logger the flags ask for; it always writes to
// stderr, so that stdout stays protocol-only on stdio.
func (f *Flags) Logger() (*zap.Logger, error) {
	lvl, err := zapcore.ParseLevel(f.LogLevel)
	if err != nil {
		return nil, UsageError(fmt.Errorf("--log-level: %w", err))
	}
	cfg := zap.NewProductionConfig()
	cfg.Level = zap.NewAtomicLevelAt(lvl)
	cfg.OutputPaths = []string{"stderr"}
	cfg.ErrorOutputPaths = []string{"stderr"}
	cfg.Encoding = "console"
	cfg.DisableStacktrace = true // an operator reads one line per error
	cfg.EncoderConfig.EncodeTime = zapcore.ISO8601TimeEncoder
	return cfg.Build()
}

// Run serves srv over the transport the flags choose until stdin closes
// (stdio), or SIGINT/SIGTERM arrives (both). It closes srv, then what the
// integrations opened, before it returns.
func (f *Flags) Run(srv *Server, log *zap.Logger) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	defer f.Close() // after srv.Close: the server stops using the integrations first
	defer srv.Close()
	if f.setup == nil {
		f.setup = &Setup{Name: srv.Name(), Logger: log}
	}
	s := f.setup
	s.Server = srv
	var ln net.Listener
	if f.HTTP != "" {
		// Bound before the integrations are served, so that they know the
		// address (its port when --http asked for port 0).
		var err error
		if ln, err = net.Listen("tcp", f.HTTP); err != nil {
			return fmt.Errorf("--http: %w", err)
		}
		s.Mux = http.NewServeMux()
		s.HTTP = &HTTPOptions{AllowedOrigins: split(f.AllowOrigins), AllowedHosts: split(f.AllowHosts), Logger: log, Partition: f.Partition}
		s.Addr, s.Path = ln.Addr(), f.Path
	}
	for _, in := range f.integrations {
		if err := in.Serve(ctx, s); err != nil {
			if ln != nil {
				_ = ln.Close()
			}
			return err
		}
	}
	if f.HTTP == "" {
		log.Info("serving on stdio", zap.String("server", srv.Name()))
		var in io.Reader = os.Stdin
		var out io.Writer = os.Stdout
		if f.stdin != nil {
			in, out = f.stdin, f.stdout
		}
		return ServeStdio(ctx, srv, in, out)
	}
	endpoint := HTTPHandler(srv, *s.HTTP)
	var card http.Handler
	if len(srv.ServerCard()) > 0 {
		card = ServerCardHandler(srv)
	}
	for _, p := range append([]string{f.Path}, f.Paths...) {
		s.Mux.Handle(p, endpoint)
		if card != nil {
			s.Mux.Handle(strings.TrimSuffix(p, "/")+ServerCardSuffix, card) // next to the endpoint (SEP-2127)
		}
	}
	if s.HTTP.Auth == nil {
		if err := f.checkUnauthenticated(ln.Addr(), srv, log); err != nil {
			_ = ln.Close()
			return err
		}
	}
	lim := srv.opts.Limits // with its defaults
	ln = limitConns(ln, lim.MaxConnsPerIP, lim.MaxConns, srv.tel.obs)
	var draining atomic.Bool
	hs := newHTTPServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if draining.Load() {
			w.Header().Set("Connection", "close") // the client's next request opens a connection elsewhere
		}
		s.Mux.ServeHTTP(w, r)
	}), lim.HTTPIdleTimeout)
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	log.Info("serving Streamable HTTP", zap.String("server", srv.Name()), zap.String("url", "http://"+ln.Addr().String()+f.Path))
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	log.Info("shutting down; letting in-flight calls finish", zap.Duration("grace", f.ShutdownGrace))
	// Drain: no new connections (a balancer passes them to another
	// replica); the kept-alive ones are served a moment longer, each answer
	// closing its connection, so that the balancer stops using them before
	// Shutdown closes the idle rest: a connection closed while a request
	// is being sent on it is a 502 a balancer cannot retry.
	draining.Store(true)
	_ = ln.Close()
	srv.Close() // ends subscription streams (with a retry hint) so that Shutdown can complete
	sctx, cancel := context.WithTimeout(context.Background(), f.ShutdownGrace)
	defer cancel()
	select {
	case <-time.After(drainDelay):
	case <-sctx.Done():
	}
	if err := hs.Shutdown(sctx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("shutdown: %w", err)
	}
	if err := srv.Drain(sctx); err != nil {
		log.Warn("shutdown grace over with tasks running; they fail", zap.Error(err))
	}
	return nil
}

// checkUnauthenticated decides whether an HTTP endpoint without
// authentication may serve on addr: on loopback it may; on an address
// other hosts can reach only with --allow-unauthenticated, since then
// anyone may call every component. Either way, when the server's
// components declare scopes, one line says they are not enforced.
func (f *Flags) checkUnauthenticated(addr net.Addr, srv *Server, log *zap.Logger) error {
	tcp, _ := addr.(*net.TCPAddr)
	public := tcp == nil || !tcp.IP.IsLoopback()
	if public && !f.AllowUnauthenticated {
		return UsageError(fmt.Errorf("--http %s: serving without authentication on an address other hosts can reach lets anyone call every tool: "+
			"configure authentication (--auth-issuer), listen on loopback (127.0.0.1), or pass --allow-unauthenticated to serve anyone", f.HTTP))
	}
	if scopes := srv.Scopes(); len(scopes) > 0 {
		say := log.Info // on loopback: this machine's own callers
		if public {
			say = log.Warn
		}
		say("authentication is off: declared scopes are not enforced; every caller may use every component",
			zap.String("url", "http://"+addr.String()+f.Path), zap.Strings("scopes", scopes))
	}
	return nil
}

// drainDelay is how long a shutting-down server keeps serving the
// connections a balancer holds open, closing each after its answer.
const drainDelay = time.Second

// newHTTPServer is the http.Server of [Flags.Run]: header and idle
// deadlines (the handler bounds bodies and answers itself), and the write
// deadline of a connection's last answer cleared once it is idle, so that
// the next request starts afresh (see [HTTPOptions].WriteTimeout).
func newHTTPServer(h http.Handler, idle time.Duration) *http.Server {
	switch {
	case idle == 0:
		idle = DefaultIdleTimeout
	case idle < 0:
		idle = -1 // net/http: no idle timeout (0 would fall back to ReadTimeout)
	}
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       idle,
		ConnState: func(c net.Conn, st http.ConnState) {
			if st == http.StateIdle {
				_ = c.SetWriteDeadline(time.Time{})
			}
		},
	}
}

func split(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// ErrUnavailable, wrapped by a handler's error when a service it needs
// (its database, say) cannot be reached, answers with a retryable error:
// HTTP 503 with Retry-After, -32603 naming the outage on stdio. The model
// never sees it as a failed tool call. A package that does not import the
// runtime (a store, say) says the same with an error in the chain that
// has a method Unavailable() bool returning true.
var ErrUnavailable = cluster.ErrUnavailable

// unavailable reports whether err says a service the server needs cannot
// be reached: it wraps [ErrUnavailable], or an error in its chain has an
// Unavailable method that returns true.
func unavailable(err error) bool {
	var u interface{ Unavailable() bool }
	return errors.Is(err, ErrUnavailable) || errors.As(err, &u) && u.Unavailable()
}

package mcpgen

// Serving: the common flags of a server binary (--http, --log-level,
// --allow-origin, --cluster, ...), a zap logger on stderr, and running a server over
// stdio or Streamable HTTP until EOF or a signal, letting in-flight calls
// finish.

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	"github.com/mcpgen/mcpgen/internal/auth"
	"github.com/mcpgen/mcpgen/internal/cluster"
	"github.com/mcpgen/mcpgen/internal/cluster/pgcluster"
	"github.com/mcpgen/mcpgen/internal/server"
	"github.com/mcpgen/mcpgen/internal/telemetry"
)

// Flags are the options every server binary accepts.
type Flags struct {
	HTTP          string
	Path          string
	LogLevel      string
	AllowOrigins  string
	AllowHosts    string
	ShutdownGrace time.Duration

	// OAuth resource server and telemetry (docs/operations.md).
	AuthIssuer   string
	AuthAudience string
	AuthClientID string // introspection client; its secret is env MCP_AUTH_CLIENT_SECRET
	Metrics      string

	// Limits (see Options and docs/operations.md).
	MaxMessageBytes         int64
	RateLimit               float64
	RateBurst               int
	MaxConcurrent           int
	MaxSessions             int
	MaxSessionsPerPrincipal int

	// Cluster is the PostgreSQL URL of the state shared by the replicas of
	// a deployment (docs/deployment.md); empty: this process only.
	Cluster string

	cluster cluster.Backend          // opened by ServerOptions, closed by Run
	metrics *telemetry.Metrics       // set by ServerOptions when --metrics is given
	tracing *sdktrace.TracerProvider // set by ServerOptions when OTEL_* asks for traces
}

// Register adds the common flags to fs.
func (f *Flags) Register(fs *flag.FlagSet) {
	fs.StringVar(&f.HTTP, "http", "", "serve Streamable HTTP on `ADDR` (e.g. 127.0.0.1:8080) instead of stdio")
	fs.StringVar(&f.Path, "path", "/mcp", "HTTP `path` of the MCP endpoint")
	fs.StringVar(&f.LogLevel, "log-level", "info", "log `level` on stderr: debug, info, warn, error")
	fs.StringVar(&f.AllowOrigins, "allow-origin", "", "comma-separated extra `origins` allowed to call the HTTP endpoint (localhost is always allowed)")
	fs.StringVar(&f.AllowHosts, "allow-host", "", "comma-separated extra `hosts` accepted in the Host header (localhost is always accepted)")
	fs.DurationVar(&f.ShutdownGrace, "shutdown-grace", 10*time.Second, "how long in-flight HTTP calls may run after a shutdown signal")
	fs.StringVar(&f.AuthIssuer, "auth-issuer", os.Getenv("MCP_AUTH_ISSUER"), "require OAuth access tokens from the authorization server with this issuer `URL` (env MCP_AUTH_ISSUER; HTTP only)")
	fs.StringVar(&f.AuthAudience, "auth-audience", os.Getenv("MCP_AUTH_AUDIENCE"), "canonical `URI` of the HTTP endpoint, the audience tokens must carry (env MCP_AUTH_AUDIENCE)")
	fs.StringVar(&f.AuthClientID, "auth-client-id", os.Getenv("MCP_AUTH_CLIENT_ID"), "client `id` for token introspection of opaque tokens (env MCP_AUTH_CLIENT_ID; secret in env MCP_AUTH_CLIENT_SECRET)")
	fs.Int64Var(&f.MaxMessageBytes, "max-message-bytes", server.DefaultMaxMessageBytes, "largest JSON-RPC message accepted, on stdio and HTTP alike, in `bytes`")
	fs.Float64Var(&f.RateLimit, "rate-limit", 0, "requests per second one principal may send on average (0: no limit)")
	fs.IntVar(&f.RateBurst, "rate-burst", 0, "requests one principal may send at once above --rate-limit (0: the rate rounded up)")
	fs.IntVar(&f.MaxConcurrent, "max-concurrent", 0, "requests one principal may have in progress at once (0: no limit)")
	fs.IntVar(&f.MaxSessions, "max-sessions", server.DefaultMaxSessions, "legacy sessions open at once; past it the least recently used idle one ends (-1: no cap)")
	fs.IntVar(&f.MaxSessionsPerPrincipal, "max-sessions-per-principal", server.DefaultMaxSessionsPerPrincipal, "legacy sessions one principal may hold (-1: no cap)")
	fs.StringVar(&f.Metrics, "metrics", os.Getenv("MCP_METRICS"), "serve Prometheus metrics at http://`ADDR`/metrics (env MCP_METRICS)")
	fs.StringVar(&f.Cluster, "cluster", os.Getenv("MCP_CLUSTER_URL"), "run as one replica of many: share sessions, tasks, notifications and signing keys through the PostgreSQL database at `URL` (postgres://user@host/db?schema=name; env MCP_CLUSTER_URL)")
}

// ServerOptions returns the server options the flags ask for: log through
// log, the message size, rate, concurrency and session limits, and observe with Prometheus metrics (--metrics), OpenTelemetry
// traces (OTEL_* environment) and a debug access log, each only when on.
func (f *Flags) ServerOptions(name string, log *zap.Logger) (Options, error) {
	if f.Metrics != "" {
		f.metrics = telemetry.NewMetrics()
	}
	tp, err := telemetry.TracingFromEnv(context.Background(), name)
	if err != nil {
		return Options{}, fmt.Errorf("tracing: %w", err)
	}
	var tracer Observer
	if tp != nil {
		f.tracing, tracer = tp, telemetry.NewTracer(tp)
	}
	var metrics Observer
	if f.metrics != nil {
		metrics = f.metrics
	}
	var access Observer
	if a := telemetry.NewAccessLog(log); a != nil {
		access = a
	}
	if f.Cluster != "" && f.cluster == nil {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		b, err := pgcluster.Open(ctx, f.Cluster, log)
		if err != nil {
			return Options{}, fmt.Errorf("--cluster: %w", err)
		}
		f.cluster = b
		log.Info("cluster backend ready", zap.String("url", pgcluster.Redact(f.Cluster)), zap.String("replica", b.ID()))
	}
	return Options{
		Logger: log, Errors: ZapErrors{Logger: log},
		Observer:                telemetry.Combine(metrics, tracer, access),
		MaxMessageBytes:         f.MaxMessageBytes,
		Limits:                  Limits{Rate: f.RateLimit, Burst: f.RateBurst, Concurrent: f.MaxConcurrent},
		MaxSessions:             f.MaxSessions,
		MaxSessionsPerPrincipal: f.MaxSessionsPerPrincipal,
		Cluster:                 f.cluster,
	}, nil
}

// ExitCode is the exit status for an error of [Flags.ServerOptions]: 1
// when a service it needs cannot be reached (the cluster database), 2 for
// a usage error.
func ExitCode(err error) int {
	if errors.Is(err, cluster.ErrUnavailable) {
		return 1
	}
	return 2
}

// oauth builds the resource server --auth-issuer asks for, or nil.
func (f *Flags) oauth(srv *Server, log *zap.Logger) (*auth.ResourceServer, error) {
	if f.AuthIssuer == "" {
		return nil, nil
	}
	if f.AuthAudience == "" {
		return nil, errors.New("--auth-issuer needs --auth-audience, the endpoint's public URL (e.g. https://mcp.example.com/mcp)")
	}
	cfg := auth.Config{Issuer: f.AuthIssuer, Audience: f.AuthAudience, ScopesSupported: srv.Scopes(), Logger: log}
	if f.AuthClientID != "" {
		cfg.Introspection = &auth.Introspection{ClientID: f.AuthClientID, ClientSecret: os.Getenv("MCP_AUTH_CLIENT_SECRET")}
	}
	return auth.New(cfg)
}

// serveMetrics serves /metrics on its own listener until ctx ends.
func (f *Flags) serveMetrics(ctx context.Context, srv *Server, log *zap.Logger) error {
	if f.metrics == nil {
		return nil
	}
	f.metrics.Watch(srv)
	ln, err := net.Listen("tcp", f.Metrics)
	if err != nil {
		return fmt.Errorf("--metrics: listen %s: %w", f.Metrics, err)
	}
	mux := http.NewServeMux()
	mux.Handle("/metrics", f.metrics.Handler())
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = hs.Serve(ln) }()
	go func() { <-ctx.Done(); _ = hs.Close() }()
	log.Info("serving Prometheus metrics", zap.String("url", "http://"+ln.Addr().String()+"/metrics"))
	return nil
}

// Logger builds the zap logger the flags ask for; it always writes to
// stderr, so that stdout stays protocol-only on stdio.
func (f *Flags) Logger() (*zap.Logger, error) {
	lvl, err := zapcore.ParseLevel(f.LogLevel)
	if err != nil {
		return nil, fmt.Errorf("--log-level: %w", err)
	}
	cfg := zap.NewProductionConfig()
	cfg.Level = zap.NewAtomicLevelAt(lvl)
	cfg.OutputPaths = []string{"stderr"}
	cfg.ErrorOutputPaths = []string{"stderr"}
	cfg.Encoding = "console"
	cfg.EncoderConfig.EncodeTime = zapcore.ISO8601TimeEncoder
	return cfg.Build()
}

// Run serves srv over the transport the flags choose until stdin closes
// (stdio), or SIGINT/SIGTERM arrives (both).
func (f *Flags) Run(srv *Server, log *zap.Logger) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if f.cluster != nil {
		defer f.cluster.Close() // after srv.Close: the server stops using it first
	}
	defer srv.Close()
	if f.tracing != nil {
		defer func() {
			sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			_ = f.tracing.Shutdown(sctx) // flushes the spans still queued
		}()
	}
	if err := f.serveMetrics(ctx, srv, log); err != nil {
		return err
	}
	if f.HTTP == "" {
		if f.AuthIssuer != "" {
			return errors.New("--auth-issuer applies to --http only (stdio takes its credentials from the environment)")
		}
		log.Info("serving on stdio", zap.String("server", srv.Name()))
		return ServeStdio(ctx, srv, os.Stdin, os.Stdout)
	}
	oauth, err := f.oauth(srv, log)
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.Handle(f.Path, HTTPHandler(srv, HTTPOptions{
		AllowedOrigins: split(f.AllowOrigins),
		AllowedHosts:   split(f.AllowHosts),
		Logger:         log,
		OAuth:          oauth,
	}))
	if oauth != nil {
		for _, p := range oauth.MetadataPaths() {
			mux.Handle(p, oauth.MetadataHandler())
		}
		log.Info("OAuth resource server", zap.String("issuer", f.AuthIssuer), zap.String("resource", oauth.Resource()), zap.String("metadata", oauth.MetadataURL()))
	}
	ln, err := net.Listen("tcp", f.HTTP)
	if err != nil {
		return fmt.Errorf("listen %s: %w", f.HTTP, err)
	}
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	log.Info("serving Streamable HTTP", zap.String("server", srv.Name()), zap.String("url", "http://"+ln.Addr().String()+f.Path))
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	log.Info("shutting down; letting in-flight calls finish", zap.Duration("grace", f.ShutdownGrace))
	srv.Close() // ends subscription streams so that Shutdown can complete
	sctx, cancel := context.WithTimeout(context.Background(), f.ShutdownGrace)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("shutdown: %w", err)
	}
	return nil
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

// Main is the whole main function of a server binary without commands of
// its own: it parses the common flags (with about as the usage text),
// builds the server with newServer and runs it, exiting 2 on a usage error
// and 1 when serving fails.
func Main(name, about string, newServer func(Options) *Server) {
	fs := flag.NewFlagSet(name, flag.ExitOnError)
	var f Flags
	f.Register(fs)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: %s [flags]\n\n%s\n\n", name, about)
		fs.PrintDefaults()
	}
	_ = fs.Parse(os.Args[1:]) // ExitOnError: exits on a bad flag
	log, err := f.Logger()
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
		os.Exit(2)
	}
	opts, err := f.ServerOptions(name, log)
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: cannot start: %v\n", name, err)
		os.Exit(ExitCode(err))
	}
	srv := newServer(opts)
	if err := f.Run(srv, log); err != nil {
		log.Error(name+" stopped", zap.Error(err))
		os.Exit(1)
	}
}

// Package serve is what the server binaries share: the common flags
// (--http, --log-level, --allow-origin), a zap logger on stderr, and
// running a server over stdio or Streamable HTTP until EOF or a signal,
// letting in-flight calls finish.
package serve

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

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	"github.com/mcpgen/mcpgen/internal/cluster"
	"github.com/mcpgen/mcpgen/internal/cluster/pgcluster"
	"github.com/mcpgen/mcpgen/internal/server"
	"github.com/mcpgen/mcpgen/internal/transport/stdio"
	"github.com/mcpgen/mcpgen/internal/transport/streamhttp"
)

// Flags are the options every server binary accepts.
type Flags struct {
	HTTP          string
	Path          string
	LogLevel      string
	AllowOrigins  string
	AllowHosts    string
	ShutdownGrace time.Duration
	Cluster       string
}

// Register adds the common flags to fs.
func (f *Flags) Register(fs *flag.FlagSet) {
	fs.StringVar(&f.HTTP, "http", "", "serve Streamable HTTP on `ADDR` (e.g. 127.0.0.1:8080) instead of stdio")
	fs.StringVar(&f.Path, "path", "/mcp", "HTTP `path` of the MCP endpoint")
	fs.StringVar(&f.LogLevel, "log-level", "info", "log `level` on stderr: debug, info, warn, error")
	fs.StringVar(&f.AllowOrigins, "allow-origin", "", "comma-separated extra `origins` allowed to call the HTTP endpoint (localhost is always allowed)")
	fs.StringVar(&f.AllowHosts, "allow-host", "", "comma-separated extra `hosts` accepted in the Host header (localhost is always accepted)")
	fs.DurationVar(&f.ShutdownGrace, "shutdown-grace", 10*time.Second, "how long in-flight HTTP calls may run after a shutdown signal")
	fs.StringVar(&f.Cluster, "cluster", os.Getenv("MCP_CLUSTER_URL"), "run as one replica of many: share sessions, tasks, notifications and signing keys through the PostgreSQL database at `URL` (postgres://user@host/db?schema=name; env MCP_CLUSTER_URL)")
}

// OpenCluster opens the cluster backend --cluster names, or returns nil
// when there is none. It fails when the database cannot be reached; the
// message names the URL without its password.
func (f *Flags) OpenCluster(log *zap.Logger) (cluster.Backend, error) {
	if f.Cluster == "" {
		return nil, nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	b, err := pgcluster.Open(ctx, f.Cluster, log)
	if err != nil {
		return nil, fmt.Errorf("--cluster: %w", err)
	}
	log.Info("cluster backend ready", zap.String("url", pgcluster.Redact(f.Cluster)), zap.String("replica", b.ID()))
	return b, nil
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
func (f *Flags) Run(srv *server.Server, log *zap.Logger) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	defer srv.Close()
	if f.HTTP == "" {
		log.Info("serving on stdio", zap.String("server", srv.Name()))
		return stdio.Serve(ctx, srv, os.Stdin, os.Stdout)
	}
	mux := http.NewServeMux()
	mux.Handle(f.Path, streamhttp.Handler(srv, streamhttp.Options{
		AllowedOrigins: split(f.AllowOrigins),
		AllowedHosts:   split(f.AllowHosts),
		Logger:         log,
	}))
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
func Main(name, about string, newServer func(server.Options) *server.Server) {
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
	backend, err := f.OpenCluster(log)
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: cannot start: %v\n", name, err)
		os.Exit(1)
	}
	srv := newServer(server.Options{Logger: log, Errors: server.ZapErrors{Logger: log}, Cluster: backend})
	err = f.Run(srv, log)
	if backend != nil {
		_ = backend.Close()
	}
	if err != nil {
		log.Error(name+" stopped", zap.Error(err))
		os.Exit(1)
	}
}

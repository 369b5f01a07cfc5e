package metrics

import (
	"context"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"time"

	"go.uber.org/zap"

	"github.com/mcpgen/mcpgen"
)

func init() {
	mcpgen.RegisterIntegration("metrics", func() mcpgen.Integration { return new(integration) })
}

// integration is --metrics in mcpgen.Main: the metrics of the server on
// a listener of their own.
type integration struct {
	addr string
	m    *Metrics
}

func (in *integration) Flags(fs *flag.FlagSet) {
	fs.StringVar(&in.addr, "metrics", os.Getenv("MCP_METRICS"), "serve Prometheus metrics at http://`ADDR`/metrics (env MCP_METRICS)")
}

func (in *integration) Configure(_ context.Context, s *mcpgen.Setup) error {
	if in.addr != "" {
		in.m = New()
		s.AddObserver(in.m)
	}
	return nil
}

func (in *integration) Serve(ctx context.Context, s *mcpgen.Setup) error {
	if in.m == nil {
		return nil
	}
	in.m.Watch(s.Server)
	ln, err := net.Listen("tcp", in.addr)
	if err != nil {
		return fmt.Errorf("--metrics: %w", err)
	}
	mux := http.NewServeMux()
	mux.Handle("/metrics", in.m.Handler())
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = hs.Serve(ln) }()
	go func() { <-ctx.Done(); _ = hs.Close() }()
	s.Logger.Info("serving Prometheus metrics", zap.String("url", "http://"+ln.Addr().String()+"/metrics"))
	return nil
}

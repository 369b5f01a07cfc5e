package tracing

import (
	"context"
	"flag"
	"time"

	"github.com/mcpgen/mcpgen"
)

func init() {
	mcpgen.RegisterIntegration("tracing", func() mcpgen.Integration { return integration{} })
}

// integration turns tracing on in mcpgen.Main when the OTEL_* environment
// asks for it (see FromEnv); it has no flags.
type integration struct{}

func (integration) Flags(*flag.FlagSet) {}

func (integration) Configure(ctx context.Context, s *mcpgen.Setup) error {
	tp, err := FromEnv(ctx, s.Name)
	if err != nil {
		return mcpgen.UsageError(err)
	}
	if tp == nil {
		return nil
	}
	s.AddObserver(New(tp))
	s.OnClose(func() error {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		return tp.Shutdown(ctx) // flushes the spans still queued
	})
	return nil
}

func (integration) Serve(context.Context, *mcpgen.Setup) error { return nil }

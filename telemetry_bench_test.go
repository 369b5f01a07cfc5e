package mcpgen_test

import (
	"context"
	"testing"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/mcpgen/mcpgen"
	"github.com/mcpgen/mcpgen/internal/jsonrpc"
	"github.com/mcpgen/mcpgen/metrics"
	"github.com/mcpgen/mcpgen/tracing"
)

// BenchmarkTelemetry measures a tools/call through Server.Handle with
// telemetry off (the default), with Prometheus metrics, with tracing
// (every span sampled, handed through the batcher, as in production,
// to an exporter that discards them) and with both. Compare "off"
// with the others for the cost of turning them on.
func BenchmarkTelemetry(b *testing.B) {
	line := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","_meta":{"traceparent":"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"}}}`
	tracer := func() mcpgen.Observer {
		tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(tracetest.NewNoopExporter()))
		b.Cleanup(func() { _ = tp.Shutdown(context.Background()) })
		return tracing.New(tp)
	}
	for _, c := range []struct {
		name string
		obs  func() mcpgen.Observer
	}{
		{"off", func() mcpgen.Observer { return nil }},
		{"metrics", func() mcpgen.Observer { return metrics.New() }},
		{"tracing", tracer},
		{"both", func() mcpgen.Observer { return mcpgen.CombineObservers(metrics.New(), tracer()) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			s := mcpgen.New(definition(), mcpgen.Options{Observer: c.obs()})
			defer s.Close()
			m, err := jsonrpc.Decode([]byte(line))
			if err != nil {
				b.Fatal(err)
			}
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				if resp := mcpgen.HandleForTest(ctx, s, m, mcpgen.Principal{}, ""); resp.Error != nil {
					b.Fatal(resp.Error.Message)
				}
			}
		})
	}
}

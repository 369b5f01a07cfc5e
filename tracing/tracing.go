// Package tracing makes one OpenTelemetry span per MCP request. [New]
// returns an [mcpgen.Observer] on any TracerProvider; [FromEnv] builds a
// provider with an OTLP exporter from the standard OTEL_* environment. A
// main that imports this package traces whenever that environment asks
// for it, through [mcpgen.Main].
package tracing

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.40.0"
	"go.opentelemetry.io/otel/trace"

	"github.com/mcpgen/mcpgen"
)

// Tracer is an [mcpgen.RequestObserver] that makes one OpenTelemetry span per
// request, following the semantic conventions for MCP (span kind server,
// named "{mcp.method.name} {target}", attributes mcp.method.name,
// jsonrpc.request.id, mcp.protocol.version, mcp.session.id,
// gen_ai.tool.name, gen_ai.prompt.name, mcp.resource.uri,
// gen_ai.operation.name, network.transport, error.type and
// rpc.response.status_code). The parent is the W3C trace context in the
// request's params._meta (traceparent, tracestate, baggage; SEP-414), or
// else in the HTTP headers. The span is in the handler's context, so that
// spans a component starts are its children.
type Tracer struct {
	tracer trace.Tracer
	prop   propagation.TextMapPropagator
}

// New returns a tracer on tp.
func New(tp trace.TracerProvider) *Tracer {
	return &Tracer{
		tracer: tp.Tracer("github.com/mcpgen/mcpgen"),
		prop:   propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{}),
	}
}

// Event implements [mcpgen.Observer]; spans come from requests only.
func (*Tracer) Event(string, ...mcpgen.Tag) {}

// Timing implements [mcpgen.Observer].
func (*Tracer) Timing(string, time.Duration, ...mcpgen.Tag) {}

// StartRequest starts the request's span.
func (t *Tracer) StartRequest(ctx context.Context, info *mcpgen.RequestInfo) context.Context {
	if carrier := metaCarrier(info.Meta); carrier != nil {
		ctx = t.prop.Extract(ctx, carrier)
	} else if info.Headers != nil && info.Headers.Get("traceparent") != "" {
		ctx = t.prop.Extract(ctx, headerCarrier{info.Headers})
	}
	transport := semconv.NetworkTransportPipe
	if info.Headers != nil {
		transport = semconv.NetworkTransportTCP
	}
	attrs := []attribute.KeyValue{semconv.McpMethodNameKey.String(info.Method), transport}
	if info.Headers != nil {
		attrs = append(attrs, semconv.NetworkProtocolNameKey.String("http"))
	}
	if len(info.ID) > 0 {
		attrs = append(attrs, semconv.JSONRPCRequestIDKey.String(requestID(info.ID)))
	}
	ctx, _ = t.tracer.Start(ctx, info.Method, trace.WithSpanKind(trace.SpanKindServer),
		trace.WithTimestamp(info.Start), trace.WithAttributes(attrs...))
	return ctx
}

// EndRequest names the span after its target, adds what the request
// turned out to be and ends it.
func (t *Tracer) EndRequest(ctx context.Context, info *mcpgen.RequestInfo) {
	span := trace.SpanFromContext(ctx)
	if !span.IsRecording() {
		span.End()
		return
	}
	attrs := make([]attribute.KeyValue, 0, 8)
	name := info.Method
	switch info.Method {
	case "tools/call":
		attrs = append(attrs, semconv.GenAIOperationNameExecuteTool)
		if info.Target != "" {
			attrs = append(attrs, semconv.GenAIToolNameKey.String(info.Target))
		}
		if info.Component != "" {
			name += " " + info.Component
		}
	case "prompts/get":
		if info.Target != "" {
			attrs = append(attrs, semconv.GenAIPromptNameKey.String(info.Target))
		}
		if info.Component != "" {
			name += " " + info.Component
		}
	case "resources/read", "resources/subscribe", "resources/unsubscribe":
		if info.Target != "" {
			attrs = append(attrs, semconv.McpResourceURIKey.String(info.Target))
		}
	}
	span.SetName(name)
	if info.Version != "" {
		attrs = append(attrs, semconv.McpProtocolVersionKey.String(info.Version))
	}
	if info.SessionID != "" {
		attrs = append(attrs, semconv.McpSessionIDKey.String(info.SessionID))
	}
	switch info.Outcome {
	case mcpgen.OutcomeError:
		code := strconv.FormatInt(info.Error.Code, 10)
		attrs = append(attrs, semconv.ErrorTypeKey.String(code), semconv.RPCResponseStatusCodeKey.String(code))
		span.SetStatus(codes.Error, info.Error.Message)
	case mcpgen.OutcomeToolError:
		attrs = append(attrs, semconv.ErrorTypeKey.String("tool_error"))
		span.SetStatus(codes.Error, "tool returned isError")
	case mcpgen.OutcomeCancelled:
		attrs = append(attrs, semconv.ErrorTypeKey.String("cancelled")) // the client's doing: no error status
	}
	span.SetAttributes(attrs...)
	span.End(trace.WithTimestamp(info.Start.Add(info.Duration)))
}

// requestID renders a JSON-RPC id: a string's value, a number as written.
func requestID(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(raw)
}

// metaCarrier reads trace context from a request's _meta; nil when it has
// no traceparent.
func metaCarrier(meta json.RawMessage) propagation.TextMapCarrier {
	if len(meta) == 0 || !strings.Contains(string(meta), `"traceparent"`) {
		return nil
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(meta, &m) != nil {
		return nil
	}
	c := propagation.MapCarrier{}
	for _, k := range []string{"traceparent", "tracestate", "baggage"} {
		var v string
		if json.Unmarshal(m[k], &v) == nil && v != "" {
			c[k] = v
		}
	}
	if c["traceparent"] == "" {
		return nil
	}
	return c
}

// headerCarrier reads trace context from HTTP headers.
type headerCarrier struct{ h mcpgen.HeaderGetter }

func (c headerCarrier) Get(key string) string { return c.h.Get(key) }
func (c headerCarrier) Set(string, string)    {}
func (c headerCarrier) Keys() []string        { return []string{"traceparent", "tracestate", "baggage"} }

// FromEnv builds a tracer provider with an OTLP exporter when the
// standard environment asks for traces: OTEL_TRACES_EXPORTER=otlp, or an
// OTEL_EXPORTER_OTLP_ENDPOINT / OTEL_EXPORTER_OTLP_TRACES_ENDPOINT; never
// with OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none. It returns nil
// when tracing is off. The exporter speaks OTLP over HTTP (http/protobuf,
// the default protocol) and reads the rest of OTEL_EXPORTER_OTLP_*; the
// provider reads OTEL_TRACES_SAMPLER*, OTEL_SERVICE_NAME and
// OTEL_RESOURCE_ATTRIBUTES (service defaults to serviceName).
func FromEnv(ctx context.Context, serviceName string) (*sdktrace.TracerProvider, error) {
	if strings.EqualFold(os.Getenv("OTEL_SDK_DISABLED"), "true") {
		return nil, nil
	}
	switch exp := strings.TrimSpace(os.Getenv("OTEL_TRACES_EXPORTER")); exp {
	case "none":
		return nil, nil
	case "otlp":
	case "":
		if os.Getenv("OTEL_EXPORTER_OTLP_ENDPOINT") == "" && os.Getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") == "" {
			return nil, nil
		}
	default:
		return nil, fmt.Errorf("OTEL_TRACES_EXPORTER=%s: only otlp (or none) is supported", exp)
	}
	proto := os.Getenv("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL")
	if proto == "" {
		proto = os.Getenv("OTEL_EXPORTER_OTLP_PROTOCOL")
	}
	if proto != "" && proto != "http/protobuf" {
		return nil, fmt.Errorf("OTEL_EXPORTER_OTLP_PROTOCOL=%s: only http/protobuf is supported", proto)
	}
	exp, err := otlptracehttp.New(ctx)
	if err != nil {
		return nil, fmt.Errorf("OTLP trace exporter: %w", err)
	}
	res, err := resource.New(ctx, resource.WithAttributes(semconv.ServiceName(serviceName)),
		resource.WithFromEnv(), resource.WithTelemetrySDK())
	if err != nil && !errors.Is(err, resource.ErrPartialResource) {
		return nil, fmt.Errorf("trace resource: %w", err)
	}
	return sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp), sdktrace.WithResource(res)), nil
}

package mcpgen_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"

	"github.com/mcpgen/mcpgen"
	"github.com/mcpgen/mcpgen/internal/jsonrpc"
	"github.com/mcpgen/mcpgen/metrics"
	"github.com/mcpgen/mcpgen/tracing"
)

const telemetryMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}`

// definition has echo (answers the trace id its context carries), fails
// (a tool error), slow (a task) and a resource.
func definition() mcpgen.Definition {
	obj := json.RawMessage(`{"type":"object"}`)
	return mcpgen.Definition{
		Name: "telemetry", Version: "1",
		Tools: []mcpgen.Tool{
			{Info: mcpgen.ToolInfo{Name: "echo", InputSchema: obj}, Call: func(ctx context.Context, _ *mcpgen.Request, _ json.RawMessage) (*mcpgen.CallToolResult, error) {
				return mcpgen.TextResult("trace="+trace.SpanContextFromContext(ctx).TraceID().String(), nil)
			}},
			{Info: mcpgen.ToolInfo{Name: "fails", InputSchema: obj}, Call: func(context.Context, *mcpgen.Request, json.RawMessage) (*mcpgen.CallToolResult, error) {
				return mcpgen.TextResult("", errors.New("disk full"))
			}},
			{Info: mcpgen.ToolInfo{Name: "slow", InputSchema: obj}, Task: "optional", Call: func(context.Context, *mcpgen.Request, json.RawMessage) (*mcpgen.CallToolResult, error) {
				return mcpgen.TextResult("done", nil)
			}},
		},
		Resources: []mcpgen.Resource{{
			Info: mcpgen.ResourceInfo{URI: "mem://readme", Name: "readme"},
			Read: func(context.Context, *mcpgen.Request) (*mcpgen.ReadResourceResult, error) {
				text := "hi"
				return &mcpgen.ReadResourceResult{Contents: []mcpgen.ResourceContents{{URI: "mem://readme", Text: &text}}}, nil
			},
		}},
	}
}

func call(t *testing.T, s *mcpgen.Server, line string) *jsonrpc.Message {
	t.Helper()
	m, err := jsonrpc.Decode([]byte(line))
	if err != nil {
		t.Fatal(err)
	}
	return mcpgen.HandleForTest(context.Background(), s, m, mcpgen.Principal{}, "")
}

// TestMetricsEndpoint serves calls over HTTP and scrapes the metrics.
func TestMetricsEndpoint(t *testing.T) {
	m := metrics.New()
	srv := mcpgen.New(definition(), mcpgen.Options{Observer: m, Tasks: true})
	defer srv.Close()
	m.Watch(srv)
	mcpSrv := httptest.NewServer(mcpgen.HTTPHandler(srv, mcpgen.HTTPOptions{}))
	defer mcpSrv.Close()
	session := "" // legacy requests after initialize run in its session
	post := func(body string, hdr ...string) {
		req, _ := http.NewRequest(http.MethodPost, mcpSrv.URL, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if session != "" {
			req.Header.Set("Mcp-Session-Id", session)
			req.Header.Set("MCP-Protocol-Version", "2025-11-25")
		}
		for i := 0; i+1 < len(hdr); i += 2 {
			req.Header.Set(hdr[i], hdr[i+1])
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if id := resp.Header.Get("Mcp-Session-Id"); id != "" {
			session = id
		}
	}
	post(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	for range 2 {
		post(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo"}}`)
	}
	post(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"fails"}}`)
	post(`{"jsonrpc":"2.0","id":4,"method":"no/such/method"}`)
	post(`{"jsonrpc":"2.0","id":5,"method":"resources/read","params":{"uri":"mem://readme"}}`)
	// A task, through the core (the tasks extension is stateless-only).
	created := call(t, srv, `{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"slow",`+telemetryMeta+`}}`)
	var task struct {
		TaskID string `json:"taskId"`
	}
	if err := json.Unmarshal(created.Result, &task); err != nil || task.TaskID == "" {
		t.Fatalf("task: %s %v", created.Result, err)
	}

	scrape := func() string {
		rec := httptest.NewRecorder()
		m.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
		return rec.Body.String()
	}
	for deadline := time.Now().Add(5 * time.Second); !strings.Contains(scrape(), `mcp_server_tasks{state="completed"} 1`); {
		if time.Now().After(deadline) {
			t.Fatalf("the task never showed as completed:\n%s", grep(scrape(), "mcp_server_tasks"))
		}
		time.Sleep(5 * time.Millisecond)
	}
	out := scrape()
	for _, want := range []string{
		`mcp_server_requests_total{component="echo",method="tools/call",outcome="ok"} 2`,
		`mcp_server_requests_total{component="fails",method="tools/call",outcome="tool_error"} 1`,
		`mcp_server_requests_total{component="",method="unknown",outcome="error"} 1`,
		`mcp_server_requests_total{component="mem://readme",method="resources/read",outcome="ok"} 1`,
		`mcp_server_requests_total{component="",method="initialize",outcome="ok"} 1`,
		`mcp_server_request_duration_seconds_count{component="echo",method="tools/call"} 2`,
		`mcp_server_requests_in_flight 0`,
		`mcp_server_listen_streams 0`,
		`mcp_server_sessions 1`,
		`mcp_server_tasks{state="completed"} 1`,
		`mcp_server_tasks{state="working"} 0`,
		`go_goroutines `,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("metrics lack %q:\n%s", want, grep(out, "mcp_"))
		}
	}
}

func grep(s, prefix string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.HasPrefix(l, prefix) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// TestAuthRefusalMetrics counts refusals by reason.
func TestAuthRefusalMetrics(t *testing.T) {
	m := metrics.New()
	m.Event(mcpgen.EventAuthRefused, mcpgen.Tag{Key: "reason", Value: "expired"})
	m.Event(mcpgen.EventAuthRefused, mcpgen.Tag{Key: "reason", Value: "expired"})
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	if !strings.Contains(rec.Body.String(), `mcp_server_auth_refusals_total{reason="expired"} 2`) {
		t.Errorf("refusals:\n%s", grep(rec.Body.String(), "mcp_server_auth"))
	}
}

// TestTraceFromMeta checks that a tools/call carrying the client's trace
// context in params._meta is exported as a server span of that trace,
// child of the client's span, with the MCP attributes, and that the
// handler's context carries it.
func TestTraceFromMeta(t *testing.T) {
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	defer tp.Shutdown(context.Background())
	srv := mcpgen.New(definition(), mcpgen.Options{Observer: tracing.New(tp)})
	defer srv.Close()

	const traceID, parentID = "4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7"
	resp := call(t, srv, `{"jsonrpc":"2.0","id":"a1","method":"tools/call","params":{"name":"echo","_meta":{"traceparent":"00-`+traceID+`-`+parentID+`-01","tracestate":"vendor=x","baggage":"tenant=acme"}}}`)
	if resp.Error != nil || !strings.Contains(string(resp.Result), "trace="+traceID) {
		t.Fatalf("the handler's context does not carry the trace: %s %v", resp.Result, resp.Error)
	}
	call(t, srv, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"fails"}}`)

	spans := exp.GetSpans()
	if len(spans) != 2 {
		t.Fatalf("exported %d spans, want 2", len(spans))
	}
	s := spans[0]
	if s.SpanContext.TraceID().String() != traceID || s.Parent.SpanID().String() != parentID || !s.Parent.IsRemote() {
		t.Errorf("span %s parent %s, want trace %s parent %s", s.SpanContext.TraceID(), s.Parent.SpanID(), traceID, parentID)
	}
	if s.Name != "tools/call echo" || s.SpanKind != trace.SpanKindServer {
		t.Errorf("span %q kind %v", s.Name, s.SpanKind)
	}
	if s.SpanContext.TraceState().Get("vendor") != "x" {
		t.Errorf("tracestate lost: %v", s.SpanContext.TraceState())
	}
	attrs := map[string]string{}
	for _, a := range s.Attributes {
		attrs[string(a.Key)] = a.Value.Emit()
	}
	for k, v := range map[string]string{
		"mcp.method.name": "tools/call", "gen_ai.tool.name": "echo", "gen_ai.operation.name": "execute_tool",
		"jsonrpc.request.id": "a1", "network.transport": "pipe", "mcp.protocol.version": "2025-03-26",
	} {
		if attrs[k] != v {
			t.Errorf("attribute %s = %q, want %q (all: %v)", k, attrs[k], v, attrs)
		}
	}
	f := spans[1]
	if f.Status.Code.String() != "Error" || f.Parent.IsValid() {
		t.Errorf("a tool error: status %v, parent %v", f.Status, f.Parent)
	}
}

// TestTraceFromHeaders falls back to the HTTP traceparent header.
func TestTraceFromHeaders(t *testing.T) {
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	defer tp.Shutdown(context.Background())
	srv := mcpgen.New(definition(), mcpgen.Options{Observer: tracing.New(tp)})
	defer srv.Close()
	hs := httptest.NewServer(mcpgen.HTTPHandler(srv, mcpgen.HTTPOptions{}))
	defer hs.Close()
	const traceID = "0af7651916cd43dd8448eb211c80319c"
	req, _ := http.NewRequest(http.MethodPost, hs.URL, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo",`+telemetryMeta+`}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", "tools/call")
	req.Header.Set("Mcp-Name", "echo")
	req.Header.Set("traceparent", "00-"+traceID+"-b7ad6b7169203331-01")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	spans := exp.GetSpans()
	if len(spans) != 1 || spans[0].SpanContext.TraceID().String() != traceID {
		t.Fatalf("spans %v, want one in trace %s", spans, traceID)
	}
}

// TestAccessLog writes one debug line per request, and is off above debug.
func TestAccessLog(t *testing.T) {
	if mcpgen.NewAccessLog(zap.NewNop()) != nil {
		t.Error("an access log on a logger without debug level")
	}
	core, logs := observer.New(zap.DebugLevel)
	srv := mcpgen.New(definition(), mcpgen.Options{Observer: mcpgen.NewAccessLog(zap.New(core))})
	defer srv.Close()
	m, _ := jsonrpc.Decode([]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"fails"}}`))
	mcpgen.HandleForTest(context.Background(), srv, m, mcpgen.Principal{Subject: "alice", ClientID: "app"}, "")
	entries := logs.FilterMessage("request").All()
	if len(entries) != 1 {
		t.Fatalf("%d access lines", len(entries))
	}
	got := entries[0].ContextMap()
	for k, v := range map[string]any{"method": "tools/call", "component": "fails", "outcome": "tool_error", "subject": "alice", "client_id": "app"} {
		if got[k] != v {
			t.Errorf("%s = %v, want %v (line %v)", k, got[k], v, got)
		}
	}
	if _, ok := got["duration"]; !ok {
		t.Errorf("no duration: %v", got)
	}
}

// TestCancelledOutcome: a call the client cancels counts as cancelled in
// the access log and the metrics, not as the tool error (or error) its
// handler made of the ended context.
func TestCancelledOutcome(t *testing.T) {
	obj := json.RawMessage(`{"type":"object"}`)
	running := make(chan struct{}, 2)
	def := mcpgen.Definition{Name: "cancel", Version: "1", Tools: []mcpgen.Tool{
		{Info: mcpgen.ToolInfo{Name: "waits", InputSchema: obj}, Call: func(ctx context.Context, _ *mcpgen.Request, _ json.RawMessage) (*mcpgen.CallToolResult, error) {
			running <- struct{}{}
			<-ctx.Done()
			return mcpgen.TextResult("", ctx.Err()) // a tool error, as most handlers make it
		}},
	}}
	core, logs := observer.New(zap.DebugLevel)
	m := metrics.New()
	srv := mcpgen.New(def, mcpgen.Options{Observer: mcpgen.CombineObservers(m, mcpgen.NewAccessLog(zap.New(core)))})
	defer srv.Close()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	served := make(chan error, 1)
	go func() { served <- mcpgen.ServeStdio(context.Background(), srv, inR, outW); outW.Close() }()
	go func() { _, _ = io.Copy(io.Discard, outR) }()
	send := func(line string) {
		if _, err := io.WriteString(inW, line+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"waits",` + telemetryMeta + `}}`)
	<-running
	send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`)
	deadline := time.Now().Add(5 * time.Second)
	for logs.FilterField(zap.String("component", "waits")).Len() == 0 {
		if time.Now().After(deadline) {
			t.Fatalf("no access line for the cancelled call: %v", logs.All())
		}
		time.Sleep(5 * time.Millisecond)
	}
	inW.Close()
	if err := <-served; err != nil {
		t.Fatal(err)
	}
	line := logs.FilterField(zap.String("component", "waits")).All()[0].ContextMap()
	if line["outcome"] != mcpgen.OutcomeCancelled {
		t.Errorf("access log outcome %v, want cancelled (line %v)", line["outcome"], line)
	}
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	if want := `mcp_server_requests_total{component="waits",method="tools/call",outcome="cancelled"} 1`; !strings.Contains(rec.Body.String(), want) {
		t.Errorf("metrics lack %q:\n%s", want, grep(rec.Body.String(), "mcp_server_requests_total"))
	}
}

// TestCombine feeds every observer and nests the contexts.
func TestCombine(t *testing.T) {
	if mcpgen.CombineObservers(nil, nil) != nil {
		t.Error("Combine of nothing must be nil, so that the server runs without")
	}
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	m := metrics.New()
	srv := mcpgen.New(definition(), mcpgen.Options{Observer: mcpgen.CombineObservers(m, tracing.New(tp))})
	defer srv.Close()
	resp := call(t, srv, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo"}}`)
	if strings.Contains(string(resp.Result), "trace=00000000000000000000000000000000") || len(exp.GetSpans()) != 1 {
		t.Errorf("combined tracer: %s, %d spans", resp.Result, len(exp.GetSpans()))
	}
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	if !strings.Contains(rec.Body.String(), `mcp_server_requests_total{component="echo",method="tools/call",outcome="ok"} 1`) {
		t.Errorf("combined metrics:\n%s", grep(rec.Body.String(), "mcp_server_requests_total"))
	}
}

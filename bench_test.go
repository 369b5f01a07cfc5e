package mcpgen

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/mcpgen/mcpgen/internal/jsonrpc"
)

// The benchmarks serve pre-decoded messages through Server.Handle, so they
// measure the runtime alone: classification, the _meta checks, argument
// validation, the adapter and result encoding. Transport decoding and
// writing are not included.

func benchServer(b *testing.B) *Server {
	b.Helper()
	def := unitDefinition()
	// Twenty more tools, so that the list is of a realistic size.
	for i := range 20 {
		def.Tools = append(def.Tools, Tool{
			Info: ToolInfo{
				Name:        fmt.Sprintf("tool_%02d", i),
				Description: "A tool that takes a city and a number of days.",
				InputSchema: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"},"days":{"type":"integer","minimum":1,"maximum":14}},"required":["city"]}`),
			},
		})
	}
	return New(def, Options{})
}

func decoded(b *testing.B, line string) *jsonrpc.Message {
	b.Helper()
	m, err := jsonrpc.Decode([]byte(line))
	if err != nil {
		b.Fatal(err)
	}
	return m
}

func BenchmarkToolsCall(b *testing.B) {
	for _, c := range []struct{ name, line string }{
		{"modern", `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hello, world"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"bench","version":"1.0.0"}}}}`},
		{"legacy", `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hello, world"}}}`},
	} {
		b.Run(c.name, func(b *testing.B) {
			s := benchServer(b)
			m := decoded(b, c.line)
			ctx := context.Background()
			if resp := answerOnly(s.handle(ctx, &inbound{Msg: m})); resp.Error != nil {
				b.Fatal(resp.Error.Message)
			}
			b.ReportAllocs()
			for b.Loop() {
				if resp := answerOnly(s.handle(ctx, &inbound{Msg: m})); resp.Error != nil {
					b.Fatal(resp.Error.Message)
				}
			}
		})
	}
}

func BenchmarkToolsList(b *testing.B) {
	for _, c := range []struct{ name, line string }{
		{"modern", `{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`},
		{"legacy", `{"jsonrpc":"2.0","id":3,"method":"tools/list"}`},
	} {
		b.Run(c.name, func(b *testing.B) {
			s := benchServer(b)
			m := decoded(b, c.line)
			ctx := context.Background()
			resp := answerOnly(s.handle(ctx, &inbound{Msg: m}))
			if resp.Error != nil {
				b.Fatal(resp.Error.Message)
			}
			b.SetBytes(int64(len(resp.Result)))
			b.ReportAllocs()
			for b.Loop() {
				if resp := answerOnly(s.handle(ctx, &inbound{Msg: m})); resp.Error != nil {
					b.Fatal(resp.Error.Message)
				}
			}
		})
	}
}

// nopRequests is a RequestObserver that does nothing: what remains is the
// runtime's own cost of following requests.
type nopRequests struct{ nopObserver }

func (nopRequests) StartRequest(ctx context.Context, _ *RequestInfo) context.Context { return ctx }
func (nopRequests) EndRequest(context.Context, *RequestInfo)                         {}

// BenchmarkObserver compares a tools/call with no observer (the default:
// "off" must match BenchmarkToolsCall/modern, allocations included), with
// a no-op Observer (events only), and with a no-op RequestObserver (what
// metrics, tracing and the access log build on). The real observers are
// measured in internal/telemetry's BenchmarkTelemetry.
func BenchmarkObserver(b *testing.B) {
	line := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hello, world"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"bench","version":"1.0.0"}}}}`
	for _, c := range []struct {
		name string
		obs  Observer
	}{{"off", nil}, {"events", nopObserver{}}, {"requests", nopRequests{}}} {
		b.Run(c.name, func(b *testing.B) {
			def := benchServer(b).def
			s := New(def, Options{Observer: c.obs})
			m := decoded(b, line)
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				if resp := answerOnly(s.handle(ctx, &inbound{Msg: m})); resp.Error != nil {
					b.Fatal(resp.Error.Message)
				}
			}
		})
	}
}

package mcpgen_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen"
	"github.com/mcpgen/mcpgen/generated/bench"
	"github.com/mcpgen/mcpgen/internal/jsonrpc"
)

// These benchmarks run the request path of the bench server
// (components/bench) in process, to
// count allocations and to profile what dominates, without the network:
//
//	go test ./internal/server -run '^$' -bench 'Handle|HTTP|Stdio' -benchmem
//	go test ./internal/server -run '^$' -bench 'HTTP/modern/ingest' -cpuprofile cpu.out
//
// The end-to-end numbers (server CPU per request against the peer SDKs)
// come from bench/ (make bench).

const (
	metaModern = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"bench","version":"0.1.0"}}`
)

// ingestArgs is the load generator's ingest payload: 20 entities of 5
// observations.
var ingestArgs = func() string {
	var b strings.Builder
	b.WriteString(`{"entities":[`)
	for i := range 20 {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"name":"entity-%02d","entityType":"benchmark","observations":[`, i)
		for j := range 5 {
			if j > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `"observation %d of entity %d, with a little text to carry"`, j, i)
		}
		b.WriteString(`]}`)
	}
	b.WriteString(`]}`)
	return b.String()
}()

type workload struct {
	name, method, tool, args, want string
}

var workloads = []workload{
	{"echo", "tools/call", "echo", `{"message":"hello 42"}`, `"text":"hello 42"`},
	{"ingest", "tools/call", "ingest", ingestArgs, `"structuredContent":{"count":20,"observations":100}`},
	{"list", "tools/list", "", "", `"name":"noop_48"`},
}

func body(w workload, modern bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, `{"jsonrpc":"2.0","id":7,"method":%q,"params":{`, w.method)
	sep := ""
	if w.tool != "" {
		fmt.Fprintf(&b, `"name":%q,"arguments":%s`, w.tool, w.args)
		sep = ","
	}
	if modern {
		b.WriteString(sep + metaModern)
	}
	b.WriteString("}}")
	return b.String()
}

func newServer() *mcpgen.Server { return bench.New(mcpgen.Options{}) }

// cpuTime is this process's user+system CPU time. The benchmarks report it
// per operation (cpu-ns/op) besides wall time, because on a shared machine
// CPU time moves much less than wall time with the neighbours' load.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU reports the CPU time per operation since start.
func reportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
}

// BenchmarkHandle is the core alone: decode the envelope, Handle, encode
// the response, as a transport would.
func BenchmarkHandle(b *testing.B) {
	for _, era := range []string{"modern", "legacy"} {
		for _, w := range workloads {
			b.Run(era+"/"+w.name, func(b *testing.B) {
				srv := newServer()
				defer srv.Close()
				msg := []byte(body(w, era == "modern"))
				ctx := context.Background()
				check := func() []byte {
					m, err := jsonrpc.Decode(msg)
					if err != nil {
						b.Fatal(err)
					}
					resp := mcpgen.HandleForTest(ctx, srv, m, mcpgen.Principal{}, "2025-11-25")
					out, err := json.Marshal(resp)
					if err != nil {
						b.Fatal(err)
					}
					return out
				}
				if out := check(); !bytes.Contains(out, []byte(w.want)) {
					b.Fatalf("unexpected answer %s", out)
				}
				b.ReportAllocs()
				start := cpuTime()
				for b.Loop() {
					check()
				}
				reportCPU(b, start)
			})
		}
	}
}

// discard is a ResponseWriter that keeps nothing, so that the benchmark
// counts the transport's allocations and not a recorder's.
type discard struct {
	h    http.Header
	code int
	n    int
}

func (d *discard) Header() http.Header         { return d.h }
func (d *discard) WriteHeader(code int)        { d.code = code }
func (d *discard) Write(p []byte) (int, error) { d.n += len(p); return len(p), nil }
func (d *discard) Flush()                      {}

// The deadlines a net/http connection takes, so that the handler's write
// and read deadlines cost here what they cost on a real connection.
func (d *discard) SetWriteDeadline(time.Time) error { return nil }
func (d *discard) SetReadDeadline(time.Time) error  { return nil }

// BenchmarkHTTP is the Streamable HTTP handler (ServeHTTP) with the core,
// without sockets: the 2026-07-28 mode with its routing headers, and the
// legacy mode inside one initialized session.
func BenchmarkHTTP(b *testing.B) {
	for _, era := range []string{"modern", "legacy"} {
		for _, w := range workloads {
			b.Run(era+"/"+w.name, func(b *testing.B) {
				srv := newServer()
				defer srv.Close()
				h := mcpgen.HTTPHandler(srv, mcpgen.HTTPOptions{})
				hdr := http.Header{
					"Content-Type": {"application/json"},
					"Accept":       {"application/json, text/event-stream"},
				}
				if era == "modern" {
					hdr["Mcp-Protocol-Version"] = []string{"2026-07-28"}
					hdr["Mcp-Method"] = []string{w.method}
					if w.tool != "" {
						hdr["Mcp-Name"] = []string{w.tool}
					}
				} else {
					init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"0.1.0"}}}`
					req, _ := http.NewRequest(http.MethodPost, "http://localhost/mcp", strings.NewReader(init))
					req.Header = hdr.Clone()
					d := &discard{h: http.Header{}}
					h.ServeHTTP(d, req)
					sid := d.h.Get("Mcp-Session-Id")
					if sid == "" {
						b.Fatalf("initialize: no session (status %d)", d.code)
					}
					hdr["Mcp-Session-Id"] = []string{sid}
					hdr["Mcp-Protocol-Version"] = []string{"2025-11-25"}
				}
				payload := body(w, era == "modern")
				rd := strings.NewReader(payload)
				req, _ := http.NewRequest(http.MethodPost, "http://localhost/mcp", io.NopCloser(rd))
				req.RemoteAddr = "127.0.0.1:40000" // as net/http sets it
				req.Header = hdr
				req.ContentLength = int64(len(payload))
				req.RemoteAddr = "127.0.0.1:5555"
				d := &discard{h: http.Header{}}
				b.ReportAllocs()
				start := cpuTime()
				for b.Loop() {
					rd.Reset(payload)
					clear(d.h)
					d.code, d.n = 0, 0
					h.ServeHTTP(d, req)
					if d.code != http.StatusOK || d.n == 0 {
						b.Fatalf("status %d, %d bytes", d.code, d.n)
					}
				}
				reportCPU(b, start)
			})
		}
	}
}

// BenchmarkStdio is the stdio transport with the core: b.N requests in one
// stream after initialize (legacy), all answered before Serve returns.
func BenchmarkStdio(b *testing.B) {
	for _, w := range workloads {
		b.Run(w.name, func(b *testing.B) {
			srv := newServer()
			defer srv.Close()
			line := []byte(body(w, false) + "\n")
			var in bytes.Buffer
			in.WriteString(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"0.1.0"}}}` + "\n")
			in.WriteString(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n")
			for range b.N {
				in.Write(line)
			}
			var out countWriter
			b.ReportAllocs()
			b.ResetTimer()
			start := cpuTime()
			if err := mcpgen.ServeStdio(context.Background(), srv, &in, &out); err != nil {
				b.Fatal(err)
			}
			reportCPU(b, start)
			if out.lines != b.N+1 {
				b.Fatalf("%d answers for %d requests", out.lines-1, b.N)
			}
		})
	}
}

type countWriter struct{ lines int }

func (c *countWriter) Write(p []byte) (int, error) {
	c.lines += bytes.Count(p, []byte{'\n'})
	return len(p), nil
}

// TestWorkloads checks the answers the benchmarks rely on, so that a broken
// server fails go test and not only the benchmarks.
func TestWorkloads(t *testing.T) {
	srv := newServer()
	defer srv.Close()
	for _, era := range []string{"modern", "legacy"} {
		for _, w := range workloads {
			m, err := jsonrpc.Decode([]byte(body(w, era == "modern")))
			if err != nil {
				t.Fatal(err)
			}
			resp := mcpgen.HandleForTest(context.Background(), srv, m, mcpgen.Principal{}, "2025-11-25")
			out, _ := json.Marshal(resp)
			if resp.Error != nil || !bytes.Contains(out, []byte(w.want)) {
				t.Errorf("%s %s: %s", era, w.name, out)
			}
		}
	}
	// ingest needs at least one entity, and every field of each.
	for _, args := range []string{`{"entities":[]}`, `{"entities":[{"name":"a","entityType":"t"}]}`, `{}`} {
		m, _ := jsonrpc.Decode([]byte(body(workload{method: "tools/call", tool: "ingest", args: args}, true)))
		out, _ := json.Marshal(mcpgen.HandleForTest(context.Background(), srv, m, mcpgen.Principal{}, ""))
		if !bytes.Contains(out, []byte(`"isError":true`)) {
			t.Errorf("ingest %s accepted: %s", args, out)
		}
	}
}

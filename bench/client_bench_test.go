package bench_test

import (
	"context"
	"fmt"
	"io"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen"
	"github.com/mcpgen/mcpgen/generated/everything"
)

// The client's cost per call, against the official go-sdk client (v1.8.0,
// the version the peers use) on the same server: our everything server
// (generated/everything), whose echo tool returns its message as one text
// block. Each pair of clients calls that tool over the same transport in
// the same protocol revision:
//
//   - http: Streamable HTTP to the server in this process (httptest);
//   - pipe: newline-delimited JSON-RPC over io.Pipe to mcpgen.ServeStdio in
//     this process (our InMemoryTransport; the go-sdk's IOTransport on the
//     same pipes);
//   - stdio: a child process, the built cmd/mcp-everything (our
//     CommandTransport; the go-sdk's CommandTransport).
//
// and each revision: 2026-07-28 (stateless, server/discover) and
// 2025-11-25 (initialize, sessions). Both clients use their defaults
// otherwise (the go-sdk's HTTP client opens its standalone GET stream in a
// legacy session, as ours does).
//
// Besides ns/op, B/op and allocs/op, every call reports cpu-ns/op: the
// process's user+system CPU time (getrusage) per call. Over stdio the
// server is another process, so cpu-ns/op, B/op and allocs/op are the
// client's alone; over http and pipe they include the server's share,
// which is the same for both clients, so the difference is the clients'.
// A third sub-benchmark, mcpgen/go-sdk, reports the ratios of the two
// (below 1: ours costs less). No timing is asserted anywhere.
//
//	cd bench && go test -run '^$' -bench ClientCall -benchmem
//	cd bench && go test -run '^$' -bench 'ClientCall/stdio' -count 5 | benchstat -
//
// TestClientCallers runs every caller a few times and checks the answers.

// clientCall is one caller: connect returns a function that makes one call
// and checks its answer, and a function that ends the connection.
type clientCall struct {
	name    string // "mcpgen" or "go-sdk"
	connect func(ctx context.Context, tb testing.TB) (call func(context.Context) error, done func())
}

// clientTransport is one way to reach the server, with both clients.
type clientTransport struct {
	name    string // "http", "pipe", "stdio"
	version string
	clients []clientCall
}

// quiet keeps the stdio server's startup line off the benchmark's output
// (our CommandTransport passes the server's stderr through).
const quiet = "-log-level=warn"

// echoMessage is what every call sends; the answer must be the same text.
const echoMessage = "hello from the client benchmark"

var echoArgs = map[string]any{"message": echoMessage}

// clientTransports builds the transports to one everything server (and,
// with bin set, to the binary at bin) for revision version.
func clientTransports(tb testing.TB, version, bin string) []clientTransport {
	srv := everything.New(mcpgen.Options{})
	hs := httptest.NewServer(mcpgen.HTTPHandler(srv, mcpgen.HTTPOptions{}))
	tb.Cleanup(func() {
		hs.Close()
		srv.Close()
	})
	ts := []clientTransport{
		{"http", version, []clientCall{
			{"mcpgen", ours(version, func() mcpgen.ClientTransport { return mcpgen.HTTPTransport(hs.URL) })},
			{"go-sdk", theirs(version, func(tb testing.TB) mcp.Transport { return &mcp.StreamableClientTransport{Endpoint: hs.URL} })},
		}},
		{"pipe", version, []clientCall{
			{"mcpgen", ours(version, func() mcpgen.ClientTransport { return mcpgen.InMemoryTransport(srv) })},
			{"go-sdk", theirs(version, func(tb testing.TB) mcp.Transport { return pipeTo(tb, srv) })},
		}},
	}
	if bin != "" {
		ts = append(ts, clientTransport{"stdio", version, []clientCall{
			{"mcpgen", ours(version, func() mcpgen.ClientTransport { return mcpgen.CommandTransport(bin, quiet) })},
			{"go-sdk", theirs(version, func(tb testing.TB) mcp.Transport { return &mcp.CommandTransport{Command: exec.Command(bin, quiet)} })},
		}})
	}
	return ts
}

// ours connects our client through the transport mk makes.
func ours(version string, mk func() mcpgen.ClientTransport) func(context.Context, testing.TB) (func(context.Context) error, func()) {
	return func(ctx context.Context, tb testing.TB) (func(context.Context) error, func()) {
		c, err := mcpgen.Connect(ctx, mk(), mcpgen.ClientOptions{ProtocolVersion: version})
		if err != nil {
			tb.Fatalf("mcpgen connect: %v", err)
		}
		if got := c.ProtocolVersion(); got != version {
			tb.Fatalf("mcpgen client speaks %s, want %s", got, version)
		}
		call := func(ctx context.Context) error {
			res, err := c.CallTool(ctx, "echo", echoArgs)
			if err != nil {
				return err
			}
			if len(res.Content) != 1 || res.Content[0].Text != echoMessage {
				return fmt.Errorf("echo answered %+v", res.Content)
			}
			return nil
		}
		return call, func() {
			if err := c.Close(); err != nil {
				tb.Errorf("mcpgen close: %v", err)
			}
		}
	}
}

// theirs connects the go-sdk client through the transport mk makes.
func theirs(version string, mk func(testing.TB) mcp.Transport) func(context.Context, testing.TB) (func(context.Context) error, func()) {
	return func(ctx context.Context, tb testing.TB) (func(context.Context) error, func()) {
		client := mcp.NewClient(&mcp.Implementation{Name: "go-sdk-bench", Version: "0.1.0"}, nil)
		cs, err := client.Connect(ctx, mk(tb), &mcp.ClientSessionOptions{ProtocolVersion: version})
		if err != nil {
			tb.Fatalf("go-sdk connect: %v", err)
		}
		if got := cs.InitializeResult().ProtocolVersion; got != version {
			tb.Fatalf("go-sdk client speaks %s, want %s", got, version)
		}
		params := &mcp.CallToolParams{Name: "echo", Arguments: echoArgs}
		call := func(ctx context.Context) error {
			res, err := cs.CallTool(ctx, params)
			if err != nil {
				return err
			}
			if len(res.Content) != 1 {
				return fmt.Errorf("echo answered %d blocks", len(res.Content))
			}
			if tc, ok := res.Content[0].(*mcp.TextContent); !ok || tc.Text != echoMessage || res.IsError {
				return fmt.Errorf("echo answered %#v", res.Content[0])
			}
			return nil
		}
		return call, func() {
			if err := cs.Close(); err != nil {
				tb.Errorf("go-sdk close: %v", err)
			}
		}
	}
}

// pipeTo serves srv with mcpgen.ServeStdio over a pair of pipes, as our
// InMemoryTransport does, and returns the go-sdk transport of the other
// ends.
func pipeTo(tb testing.TB, srv *mcpgen.Server) mcp.Transport {
	toServer, fromClient := io.Pipe()
	fromServer, toClient := io.Pipe()
	served := make(chan struct{})
	go func() {
		defer close(served)
		_ = mcpgen.ServeStdio(context.Background(), srv, toServer, toClient)
		toClient.Close()
	}()
	tb.Cleanup(func() {
		fromClient.Close()
		toServer.Close()
		<-served
	})
	return &mcp.IOTransport{Reader: fromServer, Writer: fromClient}
}

// everythingBinary builds cmd/mcp-everything of the root module into dir.
func everythingBinary(tb testing.TB, dir string) string {
	bin := filepath.Join(dir, "mcp-everything")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/mcp-everything")
	cmd.Dir = ".."
	if out, err := cmd.CombinedOutput(); err != nil {
		tb.Fatalf("go build ./cmd/mcp-everything: %v\n%s", err, out)
	}
	return bin
}

// clientVersions are the revisions measured.
var clientVersions = []string{"2026-07-28", "2025-11-25"}

// perCall is what one caller cost per call in a benchmark's last run.
type perCall struct {
	ns, cpuNs, bytes, allocs float64
}

func BenchmarkClientCall(b *testing.B) {
	bin := everythingBinary(b, b.TempDir())
	for _, version := range clientVersions {
		for _, tr := range clientTransports(b, version, bin) {
			// With -count n each sub-benchmark runs n times in a row: the
			// ratio's i-th run compares the clients' i-th runs.
			costs := map[string][]perCall{}
			for _, cc := range tr.clients {
				b.Run(tr.name+"/"+version+"/"+cc.name, func(b *testing.B) {
					costs[cc.name] = append(costs[cc.name], benchCalls(b, cc))
				})
			}
			runs, i := 0, 0
			b.Run(tr.name+"/"+version+"/mcpgen/go-sdk", func(b *testing.B) {
				if b.N == 1 { // each of the -count runs starts with b.N = 1
					i = runs
					runs++
				}
				if i >= len(costs["mcpgen"]) || i >= len(costs["go-sdk"]) {
					b.Skip("the ratio needs both clients' sub-benchmarks")
				}
				ours, theirs := costs["mcpgen"][i], costs["go-sdk"][i]
				b.ReportMetric(0, "ns/op") // times nothing
				b.ReportMetric(ours.ns/theirs.ns, "x-ns")
				b.ReportMetric(ours.cpuNs/theirs.cpuNs, "x-cpu")
				b.ReportMetric(ours.bytes/theirs.bytes, "x-B")
				b.ReportMetric(ours.allocs/theirs.allocs, "x-allocs")
			})
		}
	}
}

// benchCalls measures cc's calls and returns their cost per call.
func benchCalls(b *testing.B, cc clientCall) perCall {
	ctx := context.Background()
	call, done := cc.connect(ctx, b)
	defer done()
	if err := call(ctx); err != nil { // the first call may cache what later ones reuse
		b.Fatal(err)
	}
	b.ReportAllocs()
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	cpu0 := cpuTime()
	for b.Loop() {
		if err := call(ctx); err != nil {
			b.Fatal(err)
		}
	}
	cpu := cpuTime() - cpu0
	runtime.ReadMemStats(&m1)
	n := float64(b.N)
	c := perCall{
		ns:     float64(b.Elapsed().Nanoseconds()) / n,
		cpuNs:  float64(cpu.Nanoseconds()) / n,
		bytes:  float64(m1.TotalAlloc-m0.TotalAlloc) / n,
		allocs: float64(m1.Mallocs-m0.Mallocs) / n,
	}
	b.ReportMetric(c.cpuNs, "cpu-ns/op")
	return c
}

// cpuTime is the user and system CPU time this process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// TestClientCallers checks that every caller of BenchmarkClientCall
// connects in the revision asked for and gets the right answer, a few
// calls each; the stdio pair is left out under -short (it builds a
// binary).
func TestClientCallers(t *testing.T) {
	bin := ""
	if !testing.Short() {
		bin = everythingBinary(t, t.TempDir())
	}
	for _, version := range clientVersions {
		for _, tr := range clientTransports(t, version, bin) {
			for _, cc := range tr.clients {
				t.Run(strings.Join([]string{tr.name, version, cc.name}, "/"), func(t *testing.T) {
					ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
					defer cancel()
					call, done := cc.connect(ctx, t)
					defer done()
					for range 3 {
						if err := call(ctx); err != nil {
							t.Fatal(err)
						}
					}
				})
			}
		}
	}
}

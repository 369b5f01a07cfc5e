package bench_test

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/bench/harness"
)

// The client's cost per call as a Go benchmark: the callers of the bench
// suite's client part (harness.ConnectClient: our client, dynamic and
// typed, the go-sdk's and mcp-go's) against the raw JSON-RPC server
// (cmd/peer-raw, built here), over Streamable HTTP and stdio, in both
// eras, echo and ingest. `make bench` measures the same thing pinned to
// cores and writes the table in docs/bench/results.md; this is the quick
// way to profile one cell:
//
//	cd bench && go test -run '^$' -bench 'ClientCall/legacy-stdio/echo' -benchmem -cpuprofile cpu.out
//
// Besides ns/op, B/op and allocs/op, every sub-benchmark reports
// cpu-ns/op: this process's user+system CPU time (getrusage) per call.
// The server is another process, so all of them are the client's alone.
// No timing is asserted anywhere; TestClientCallers checks the answers.

// rawBinary builds cmd/peer-raw into dir.
func rawBinary(tb testing.TB, dir string) string {
	bin := filepath.Join(dir, "peer-raw")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/peer-raw")
	if out, err := cmd.CombinedOutput(); err != nil {
		tb.Fatalf("go build ./cmd/peer-raw: %v\n%s", err, out)
	}
	return bin
}

// rawHTTP starts peer-raw over HTTP and returns its endpoint.
func rawHTTP(tb testing.TB, bin string) string {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	srv, err := harness.Start(ctx, harness.Spec{Name: "peer-raw", Bin: bin}, harness.Cores{}, true)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(srv.Stop)
	return "http://" + srv.Addr + "/mcp"
}

func BenchmarkClientCall(b *testing.B) {
	bin := rawBinary(b, b.TempDir())
	url := rawHTTP(b, bin)
	for _, m := range harness.ClientModes {
		for _, w := range harness.ClientWorkloads {
			for _, name := range harness.Clients {
				b.Run(m.Name+"/"+string(w)+"/"+strings.ReplaceAll(name, " ", "-"), func(b *testing.B) {
					ctx := context.Background()
					call, done, err := harness.ConnectClient(ctx, name, m, url, bin, w)
					if err != nil {
						b.Fatal(err)
					}
					defer done()
					if err := call(ctx); err != nil { // the first call may cache what later ones reuse
						b.Fatal(err)
					}
					b.ReportAllocs()
					cpu0 := cpuTime()
					for b.Loop() {
						if err := call(ctx); err != nil {
							b.Fatal(err)
						}
					}
					b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/float64(b.N), "cpu-ns/op")
				})
			}
		}
	}
}

// cpuTime is the user and system CPU time this process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// TestClientCallers checks that every caller of the client benchmark
// connects in the revision asked for and gets the right answer, a few
// calls each, in every mode and workload.
func TestClientCallers(t *testing.T) {
	if testing.Short() {
		t.Skip("builds peer-raw and starts servers")
	}
	bin := rawBinary(t, t.TempDir())
	url := rawHTTP(t, bin)
	for _, m := range harness.ClientModes {
		for _, w := range harness.ClientWorkloads {
			for _, name := range harness.Clients {
				t.Run(m.Name+"/"+string(w)+"/"+name, func(t *testing.T) {
					ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
					defer cancel()
					call, done, err := harness.ConnectClient(ctx, name, m, url, bin, w)
					if err != nil {
						t.Fatal(err)
					}
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

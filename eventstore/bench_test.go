package eventstore_test

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen"
)

// BenchmarkAppendFeedConcurrent is the event store under mcp-memory's
// concurrent writers (docs/bench/log.md item 66): 16 goroutines, each op
// one write call's record, two events and the feed's cursor moved, on one
// SQLite file (synchronous=FULL: a commit waits for its fsync). A record
// that finds the cursor already past it (another call's covered it)
// counts as an op too, as in mcp-memory. cpu-ns/op is the process's CPU
// time per op, the commits' syscalls included.
func BenchmarkAppendFeedConcurrent(b *testing.B) {
	s := open(b, filepath.Join(b.TempDir(), "events.db"))
	defer s.Close()
	var at atomic.Int64
	b.SetParallelism(8) // 16 goroutines on 2 cores, as the agents bench
	b.ReportAllocs()
	before := cpuTime()
	var feeds atomic.Int64
	b.RunParallel(func(pb *testing.PB) {
		// A feed per goroutine (a graph per writer), each moved by one
		// pass at a time as mcp-memory's relay does.
		source, cur := fmt.Sprint("graph:", feeds.Add(1)), int64(0)
		for pb.Next() {
			n := at.Add(1)
			es := []*mcpgen.EventRecord{
				{ID: fmt.Sprintf("evt_%d_a", n), Name: "entity.changed", Partition: "g", Time: time.Now().UTC(), Data: json.RawMessage(`{"entity":"a"}`)},
				{ID: fmt.Sprintf("evt_%d_b", n), Name: "entity.changed", Partition: "g", Time: time.Now().UTC(), Data: json.RawMessage(`{"entity":"b"}`)},
			}
			if err := s.AppendFeed(context.Background(), source, cur, cur+1, es, [][]string{nil, nil}); err != nil {
				b.Error(err)
				return
			}
			cur++
		}
	})
	b.ReportMetric(float64(cpuTime()-before)/float64(b.N), "cpu-ns/op")
}

// cpuTime is the CPU time the process has used (user and system, every
// thread: the syscalls of the commits included).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

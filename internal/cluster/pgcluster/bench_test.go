package pgcluster_test

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/mcpgen/mcpgen/internal/cluster"
	"github.com/mcpgen/mcpgen/internal/testutil/pgtest"
)

// BenchmarkMessage measures what one message costs through three
// replicas on PostgreSQL, published by one and received by all three (the
// publisher too), one at a time: a NOTIFY each. It reports the CPU of
// this process (the three replicas) and, when the database runs on this
// machine, of the PostgreSQL backends serving the replicas' connections,
// both per message. The payload is a list change as the runtime publishes
// it.
//
//	go test ./internal/cluster/pgcluster -run '^$' -bench Message -benchtime 3000x
func BenchmarkMessage(b *testing.B) {
	url, schema := pgtest.URL(b, "bench_msg")
	url += "&application_name=" + schema
	conn := pgtest.Connect(b)
	defer conn.Close(context.Background())
	var got atomic.Int64
	var replicas []cluster.Backend
	for range 3 {
		r := open(b, url, nil)
		r.Subscribe("mcp/bench/", func(cluster.Message) { got.Add(1) })
		replicas = append(replicas, r)
	}
	payload := []byte(`{"method":"notifications/tools/list_changed","params":{}}`)
	ctx := context.Background()
	if err := replicas[0].Publish(ctx, "mcp/bench/notify", payload); err != nil { // connections made
		b.Fatal(err)
	}
	for got.Load() < 3 {
		time.Sleep(time.Millisecond)
	}
	got.Store(0)
	self0, db0 := selfCPU(), backendsCPU(b, conn, schema)
	b.ResetTimer()
	for b.Loop() {
		if err := replicas[0].Publish(ctx, "mcp/bench/notify", payload); err != nil {
			b.Fatal(err)
		}
	}
	for deadline := time.Now().Add(30 * time.Second); got.Load() < 3*int64(b.N); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			b.Fatalf("%d of %d deliveries", got.Load(), 3*b.N)
		}
	}
	b.StopTimer()
	self1, db1 := selfCPU(), backendsCPU(b, conn, schema)
	b.ReportMetric(float64((self1-self0).Microseconds())/float64(b.N), "replicas-µs/msg")
	if db0 != nil && db1 != nil {
		var d time.Duration
		for pid, c := range db1 {
			d += c - db0[pid]
		}
		b.ReportMetric(float64(d.Microseconds())/float64(b.N), "pg-µs/msg")
	}
}

// selfCPU is this process's user and system CPU time so far.
func selfCPU() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// backendsCPU is the CPU time of the PostgreSQL backends whose
// application_name is app, by pid, from /proc; nil when the database does
// not run on this machine.
func backendsCPU(b *testing.B, conn *pgx.Conn, app string) map[int]time.Duration {
	rows, err := conn.Query(context.Background(), `SELECT pid FROM pg_stat_activity WHERE application_name = $1`, app)
	if err != nil {
		b.Fatal(err)
	}
	pids, err := pgx.CollectRows(rows, pgx.RowTo[int32])
	if err != nil {
		b.Fatal(err)
	}
	out := map[int]time.Duration{}
	for _, pid := range pids {
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			return nil
		}
		s := string(stat)
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
		utime, _ := strconv.ParseInt(f[11], 10, 64)
		stime, _ := strconv.ParseInt(f[12], 10, 64)
		out[int(pid)] = time.Duration(utime+stime) * 10 * time.Millisecond // clock ticks of 100 Hz
	}
	return out
}

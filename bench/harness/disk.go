package harness

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"time"
)

// fsyncProbe times n fsyncs of a freshly written 32 KiB block in dir (the
// size of a small commit's WAL frames) and returns the median and the 90th
// percentile. mcp-memory's writes wait for one fsync each, the
// reference's for none, so the disk's latency at the time of a run
// explains much of the spread of the write timings between runs.
func fsyncProbe(dir string, n int) (p50, p90 time.Duration, err error) {
	f, err := os.CreateTemp(dir, "fsync-probe-")
	if err != nil {
		return 0, 0, err
	}
	defer os.Remove(f.Name())
	defer f.Close()
	block := make([]byte, 32<<10)
	ds := make([]time.Duration, 0, n)
	for i := range n {
		if _, err := f.WriteAt(block, int64(i%16)*int64(len(block))); err != nil {
			return 0, 0, fmt.Errorf("fsync probe: %w", err)
		}
		t0 := time.Now()
		if err := f.Sync(); err != nil {
			return 0, 0, fmt.Errorf("fsync probe: %w", err)
		}
		ds = append(ds, time.Since(t0))
	}
	slices.Sort(ds)
	return ds[len(ds)/2], ds[len(ds)*9/10], nil
}

// fsyncNote describes the disk's fsync latency measured after
// mcp-memory's timings at each size, for the report.
func fsyncNote(sizes []int, at map[int][2]time.Duration) string {
	var b strings.Builder
	b.WriteString("fsync of 32 KiB on the stores' disk, measured right after mcp-memory's timings at each size (p50 / p90; mcp-memory's writes wait for one each, the reference's for none, so this explains much of the spread of write timings between runs):")
	for _, size := range sizes {
		if d, ok := at[size]; ok {
			fmt.Fprintf(&b, " %d: %s / %s;", size, fmtDur(d[0]), fmtDur(d[1]))
		}
	}
	return strings.TrimSuffix(b.String(), ";") + "."
}

package harness

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"syscall"
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

// settleTime is how long the timings at a size wait after the graph grew.
const settleTime = 2 * time.Second

// settleDisk writes out what the growth left in the page cache and gives
// the disk a moment: growing a graph writes tens of megabytes, and the
// fsyncs of the first writes timed after it took 3x their usual time.
// Both targets wait alike; the timings are of a graph at that size, not
// of the moments after a bulk load.
func settleDisk() {
	syscall.Sync()
	time.Sleep(settleTime)
}

// waitQuietDisk waits, up to limit, until the fsync latency in dir is
// steady: probes a second apart, at least five, until the medians of the
// last three are within a quarter of each other. A run that starts right
// after the build (scripts/bench.sh) found the disk still writing out the
// binaries for tens of seconds after sync returned, and the first write
// timings paid for it (create_entities 1.3 ms at 1k-100k, 0.65 ms later in
// the same run). It returns how long it waited and the last median.
func waitQuietDisk(dir string, limit time.Duration) (time.Duration, time.Duration) {
	t0 := time.Now()
	var last []time.Duration
	for time.Since(t0) < limit {
		p50, _, err := fsyncProbe(dir, 20)
		if err != nil {
			break
		}
		last = append(last, p50)
		if n := len(last); n >= 5 {
			w := last[n-3:]
			if lo, hi := slices.Min(w), slices.Max(w); hi <= lo+lo/4 {
				break
			}
		}
		time.Sleep(time.Second)
	}
	if len(last) == 0 {
		return time.Since(t0), 0
	}
	return time.Since(t0), last[len(last)-1]
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

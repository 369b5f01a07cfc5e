package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/components/memory/memstore"
)

// steppingClock is a fake clock that moves by step at each reading (the
// progress ticker reads it too).
func steppingClock(step time.Duration) func() time.Time {
	var mu sync.Mutex
	t := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	return func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		t = t.Add(step)
		return t
	}
}

// TestImportSummaryLine: off a terminal, import prints one readable line
// (counts with separators, what was skipped and ignored, the time taken
// by the injected clock), not a Go struct; on a terminal it first draws
// its progress in place, then blanks it and prints the same line.
func TestImportSummaryLine(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	graphs, err := memstore.OpenGraphs(ctx, filepath.Join(dir, "memory.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer graphs.Close()
	var file strings.Builder
	for i := range 1200 {
		file.WriteString(`{"type":"entity","name":"e` + strings.Repeat("x", i%3) + itoa(i) + `","entityType":"t","observations":[]}` + "\n")
	}
	file.WriteString(`{"type":"entity","name":"e0","entityType":"t","observations":[]}` + "\n") // repeated: skipped
	file.WriteString(`{"type":"relation","from":"e0","to":"ex1","relationType":"knows"}` + "\n")
	file.WriteString(`{"type":"note","text":"not ours"}` + "\n") // ignored
	path := filepath.Join(dir, "memory.jsonl")
	if err := os.WriteFile(path, []byte(file.String()), 0o644); err != nil {
		t.Fatal(err)
	}

	var stderr bytes.Buffer
	if code := importFile(ctx, graphs, "default", path, &stderr, false, steppingClock(900*time.Millisecond)); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	want := "imported " + path + " into graph default: 1,200 entities, 1 relation in 0.9s; skipped 1 existing entity; ignored 1 line of another type\n"
	if got := stderr.String(); got != want {
		t.Fatalf("off a terminal:\n got %q\nwant %q", got, want)
	}

	// Again on a terminal, into another graph: progress first.
	stderr.Reset()
	if code := importFile(ctx, graphs, "other", path, &stderr, true, steppingClock(300*time.Millisecond)); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	out := stderr.String()
	if !strings.HasPrefix(out, "\rreading "+path+": ") || !strings.Contains(out, " lines") || !strings.Contains(out, "\rstoring 1,203 lines into graph other: ") {
		t.Fatalf("no progress drawn in place:\n%q", out)
	}
	last := out[strings.LastIndex(out, "\r")+1:]
	if !strings.HasPrefix(last, "imported "+path+" into graph other: 1,200 entities, 1 relation in ") || strings.Count(last, "\n") != 1 {
		t.Fatalf("the summary does not follow the blanked progress line:\n%q", out)
	}
}

func itoa(i int) string {
	var b []byte
	for {
		b = append([]byte{byte('0' + i%10)}, b...)
		i /= 10
		if i == 0 {
			return string(b)
		}
	}
}

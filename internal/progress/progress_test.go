package progress

import (
	"strings"
	"sync"
	"testing"
	"time"
)

// clock is a fake time that the test moves.
type clock struct{ t time.Time }

func (c *clock) now() time.Time          { return c.t }
func (c *clock) advance(d time.Duration) { c.t = c.t.Add(d) }

// TestMeterDraws: the line shows count, rate, elapsed time and time left
// from the fraction done; it is redrawn in place (carriage return, the
// rest of a longer earlier line blanked) at most once per interval; Clear
// blanks it.
func TestMeterDraws(t *testing.T) {
	c := &clock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	var out strings.Builder
	m := &Meter{W: &out, Now: c.now, Interval: time.Second, Label: "reading memory.jsonl", Unit: "lines"}
	m.Update(0, 0, 1000)
	if got, want := out.String(), "\rreading memory.jsonl: 0 lines, 0.0s"; got != want {
		t.Fatalf("first draw %q, want %q", got, want)
	}
	out.Reset()
	c.advance(500 * time.Millisecond)
	m.Update(5000, 100, 1000)
	if out.Len() != 0 {
		t.Fatalf("drawn again within the interval: %q", out.String())
	}
	c.advance(1500 * time.Millisecond)
	m.Update(12000, 400, 1000)
	if got, want := out.String(), "\rreading memory.jsonl: 12,000 lines, 6,000/s, 2.0s, about 3.0s left (40%)"; got != want {
		t.Fatalf("second draw %q, want %q", got, want)
	}
	out.Reset()
	m.Relabel("storing", "")
	c.advance(70 * time.Second)
	m.Draw()
	line := "storing: 1m12s"
	if got := out.String(); !strings.HasPrefix(got, "\r"+line) || len(got) != len("\rreading memory.jsonl: 12,000 lines, 6,000/s, 2.0s, about 3.0s left (40%)") || strings.TrimSpace(got[len(line)+1:]) != "" {
		t.Fatalf("redraw %q: want %q padded with blanks over the longer line", got, line)
	}
	out.Reset()
	m.Clear()
	if got := out.String(); got != "\r"+strings.Repeat(" ", len(line))+"\r" {
		t.Fatalf("clear %q", got)
	}
}

func TestCountAndDuration(t *testing.T) {
	for n, want := range map[int64]string{0: "0", 999: "999", 1000: "1,000", 20000: "20,000", 1234567: "1,234,567", -4500: "-4,500"} {
		if got := Count(n); got != want {
			t.Errorf("Count(%d) = %q, want %q", n, got, want)
		}
	}
	for d, want := range map[time.Duration]string{1800 * time.Millisecond: "1.8s", 59 * time.Second: "59.0s", 72 * time.Second: "1m12s", 2 * time.Hour: "2h0m0s"} {
		if got := Duration(d); got != want {
			t.Errorf("Duration(%v) = %q, want %q", d, got, want)
		}
	}
}

// lockedBuilder is a strings.Builder safe for the ticker's goroutine.
type lockedBuilder struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuilder) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuilder) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestMeterTicks: while the work reports nothing, Tick redraws the line
// (its clock moving); stop ends the redrawing and blanks the line.
func TestMeterTicks(t *testing.T) {
	var mu sync.Mutex
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	clock := func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		now = now.Add(time.Second)
		return now
	}
	out := &lockedBuilder{}
	m := &Meter{W: out, Now: clock, Label: "building"}
	m.Update(0, 0, 2)
	stop := m.Tick(time.Millisecond)
	for !strings.Contains(out.String(), "building: 3.0s") {
		time.Sleep(time.Millisecond)
	}
	stop()
	got := out.String()
	if !strings.HasSuffix(got, "\r"+strings.Repeat(" ", len("building: 3.0s"))+"\r") && !strings.Contains(got[strings.LastIndex(got, "building"):], "\r ") {
		t.Fatalf("the line is not blanked at stop: %q", got)
	}
	after := out.String()
	time.Sleep(5 * time.Millisecond)
	if out.String() != after {
		t.Fatal("still drawing after stop")
	}
}

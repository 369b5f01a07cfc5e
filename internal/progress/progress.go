// Package progress shows how far long work has come: on a terminal, one
// line on stderr redrawn in place (what is done, how much, how fast, how
// long it has taken and, when the total is known, how long is left);
// elsewhere nothing until the work ends, when the command prints one
// summary line of its own. mcp-memory import and mcpgen bundle use it.
package progress

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
)

// IsTerminal reports whether w is a terminal (a character device), where
// a line redrawn in place reads as progress rather than as clutter.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// Meter draws one progress line on W, at most once per Interval (and on
// Draw). Set the fields before the first Update; its methods are safe
// for concurrent use (a ticker may Draw while the work Updates).
type Meter struct {
	W        io.Writer
	Now      func() time.Time // time.Now when nil
	Interval time.Duration    // 0: every Update draws
	Label    string           // what is being done: "reading memory.jsonl"
	Unit     string           // what Count counts: "lines"

	mu          sync.Mutex
	start, last time.Time
	count       int64
	done, total int64 // units of work done of total (bytes, say), for the time left
	width       int   // of the line last drawn, to blank what is left of it
	started     bool
}

func (m *Meter) now() time.Time {
	if m.Now != nil {
		return m.Now()
	}
	return time.Now()
}

// Update records that count items are done, and done of total units of
// work (total 0: unknown), and draws the line when Interval has passed
// since it was last drawn.
func (m *Meter) Update(count, done, total int64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.now()
	if !m.started {
		m.start, m.started = now, true
	}
	m.count, m.done, m.total = count, done, total
	if m.last.IsZero() || now.Sub(m.last) >= m.Interval {
		m.drawLocked(now)
	}
}

// Draw draws the line now, with the time elapsed updated.
func (m *Meter) Draw() {
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.now()
	if !m.started {
		m.start, m.started = now, true
	}
	m.drawLocked(now)
}

// Relabel starts another phase of the same work: the label and unit
// change, the clock and the count go on, and the time left is unknown
// until the next Update says how far the phase is.
func (m *Meter) Relabel(label, unit string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.Label, m.Unit = label, unit
	m.done, m.total = 0, 0
}

// Tick draws the line every interval from another goroutine, so that
// the time shown moves while the work reports nothing (a build, a long
// write), until the returned stop, which waits for that goroutine and
// blanks the line.
func (m *Meter) Tick(every time.Duration) (stop func()) {
	done, ended := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(ended)
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				m.Draw()
			}
		}
	}()
	return func() {
		close(done)
		<-ended
		m.Clear()
	}
}

// Clear blanks the line, so that what is printed next starts clean.
func (m *Meter) Clear() {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.width > 0 {
		fmt.Fprintf(m.W, "\r%s\r", strings.Repeat(" ", m.width))
		m.width = 0
	}
}

func (m *Meter) drawLocked(now time.Time) {
	m.last = now
	line := m.lineLocked(now)
	pad := ""
	if n := len(line); n < m.width {
		pad = strings.Repeat(" ", m.width-n)
	}
	fmt.Fprintf(m.W, "\r%s%s", line, pad)
	m.width = len(line)
}

// Line is the progress line as Draw writes it, without the carriage
// return: "reading memory.jsonl: 12,000 lines, 6,000/s, 2.0s, about 3.0s
// left (40%)".
func (m *Meter) Line() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.lineLocked(m.now())
}

func (m *Meter) lineLocked(now time.Time) string {
	elapsed := now.Sub(m.start)
	var b strings.Builder
	b.WriteString(m.Label)
	b.WriteString(": ")
	if m.Unit != "" {
		b.WriteString(Count(m.count) + " " + m.Unit)
		if secs := elapsed.Seconds(); secs >= 0.5 {
			b.WriteString(", " + Count(int64(float64(m.count)/secs)) + "/s")
		}
		b.WriteString(", ")
	}
	b.WriteString(Duration(elapsed))
	if m.total > 0 && m.done > 0 && m.done < m.total {
		left := time.Duration(float64(elapsed) * float64(m.total-m.done) / float64(m.done))
		fmt.Fprintf(&b, ", about %s left (%d%%)", Duration(left), m.done*100/m.total)
	}
	return b.String()
}

// Count writes n with a comma between groups of three digits: 20,000.
func Count(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Duration writes d for a person: tenths of a second under a minute
// (1.8s), whole seconds above (1m12s).
func Duration(d time.Duration) string {
	if d < time.Minute {
		return strconv.FormatFloat(d.Seconds(), 'f', 1, 64) + "s"
	}
	return d.Round(time.Second).String()
}

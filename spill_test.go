package mcpgen

import (
	"bytes"
	"strings"
	"testing"
)

// TestSpillMemory: a spill gives back exactly what was written, whether it
// holds a small answer in memory of its own, a larger one in pooled memory
// (reused by the next spill without showing the last one's bytes), more
// than the pool's capacity under a larger limit (in pooled chunks), or a
// file past its limit, from memory or from chunks.
func TestSpillMemory(t *testing.T) {
	fill := func(s *Spill, n int, c byte) []byte {
		t.Helper()
		want := bytes.Repeat([]byte{c}, n)
		for p := want; len(p) > 0; {
			k := min(len(p), 10_000)
			if _, err := s.Write(p[:k]); err != nil {
				t.Fatal(err)
			}
			p = p[k:]
		}
		return want
	}
	check := func(name string, s *Spill, want []byte) {
		t.Helper()
		got, err := s.Bytes()
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("%s: Bytes gave %d bytes (%v), want the %d written", name, len(got), err, len(want))
		}
		var out strings.Builder
		if n, err := s.WriteTo(&out); err != nil || n != int64(len(want)) || out.String() != string(want) {
			t.Fatalf("%s: WriteTo wrote %d bytes (%v), want the %d written", name, n, err, len(want))
		}
	}

	small := NewSpill(spillPooled)
	check("small", small, fill(small, 1000, 's'))
	if cap(small.mem) >= spillPooled {
		t.Fatalf("a 1,000-byte answer holds %d bytes of memory; want its own, not the pool's", cap(small.mem))
	}
	small.Close()

	for round := range 3 {
		big := NewSpill(spillPooled)
		want := fill(big, 300_000-round*50_000, byte('a'+round))
		if big.Spilled() || cap(big.mem) != spillPooled {
			t.Fatalf("round %d: spilled %v, memory %d bytes; want the pool's %d in memory", round, big.Spilled(), cap(big.mem), spillPooled)
		}
		check("pooled", big, want)
		big.Close()
		if big.Len() != 0 {
			t.Fatalf("round %d: %d bytes after Close", round, big.Len())
		}
	}

	larger := NewSpill(2 * spillPooled)
	want := fill(larger, spillPooled+spillPooled/2, 'l')
	if larger.Spilled() {
		t.Fatal("1.5 MiB under a 2 MiB limit went to a file")
	}
	if len(larger.full) != 1 || cap(larger.full[0]) != spillPooled || cap(larger.mem) != spillPooled {
		t.Fatalf("1.5 MiB held in %d full chunks and one of %d bytes; want one full chunk of the pool's %d and another", len(larger.full), cap(larger.mem), spillPooled)
	}
	check("larger limit", larger, want)
	larger.Close()

	file := NewSpill(spillPooled)
	want = fill(file, spillPooled+1, 'f')
	if !file.Spilled() {
		t.Fatal("past its limit the spill is still in memory")
	}
	check("file", file, want)
	file.Close()

	chunks := NewSpill(3 * spillPooled)
	want = fill(chunks, 3*spillPooled+5, 'c')
	if !chunks.Spilled() {
		t.Fatal("past its limit the spill is still in memory")
	}
	check("file from chunks", chunks, want)
	chunks.Close()
}

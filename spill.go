package mcpgen

import (
	"errors"
	"io"
	"os"
	"slices"
	"sync"
)

// Spill is a [Body] a component renders a large result into: its first bytes are held in memory and, past a
// limit, all of them in an unlinked temporary file, so that an answer of
// hundreds of megabytes costs the process a few buffers, not the answer
// (the file's pages are the kernel's page cache, not the process's
// memory). It collects bytes with Write and gives them back, as often as
// needed, with WriteTo or Bytes. It is not safe for concurrent use, and
// must not be written to once read. Close removes its file.
type Spill struct {
	limit int
	full  [][]byte // earlier chunks held in memory, each full (spillPooled bytes, pooled)
	mem   []byte   // the chunk being filled
	memN  int      // bytes in full and mem
	f     *os.File
	name  string // the file's name while it could not be removed at once
	n     int64  // bytes in f
	err   error  // the first write error: every later write fails alike
}

// NewSpill returns a spill that keeps up to limit bytes in memory before
// it moves them to a temporary file (in os.TempDir).
func NewSpill(limit int) *Spill { return &Spill{limit: limit} }

// spillMem holds the memory of closed spills for the next ones (each a
// *[]byte of capacity spillPooled): a spill that grew its own would
// allocate, copy and leave to the collector about twice its limit every
// time, which for a server streaming a graph of a few megabytes many times
// a second was most of what it allocated. A spill takes pooled memory
// only once it holds more than spillSmall bytes (a small answer costs
// what it holds, not a megabyte); past one chunk it takes another, so a
// spill whose limit is several megabytes holds its bytes in chunks that
// are never copied to grow.
var spillMem sync.Pool

// spillPooled is the capacity of the pooled memory; spillSmall the most a
// spill holds in memory of its own.
const (
	spillPooled = 1 << 20
	spillSmall  = 64 << 10
)

// release gives the pooled chunks back to spillMem.
func (b *Spill) release() {
	for _, c := range append(b.full, b.mem) {
		if cap(c) == spillPooled {
			c = c[:0]
			spillMem.Put(&c)
		}
	}
	b.full, b.mem, b.memN = nil, nil, 0
}

// chunk is an empty pooled chunk.
func chunk() []byte {
	if m, ok := spillMem.Get().(*[]byte); ok {
		return (*m)[:0]
	}
	return make([]byte, 0, spillPooled)
}

// hold appends p to the bytes held in memory: in memory of the spill's own
// up to spillSmall bytes, then in pooled chunks.
func (b *Spill) hold(p []byte) {
	b.memN += len(p)
	if len(b.full) == 0 && cap(b.mem) != spillPooled {
		if len(b.mem)+len(p) <= max(cap(b.mem), spillSmall) {
			b.mem = append(b.mem, p...)
			return
		}
		b.mem = append(chunk(), b.mem...) // at most spillSmall bytes
	}
	for len(p) > 0 {
		if len(b.mem) == cap(b.mem) {
			b.full = append(b.full, b.mem)
			b.mem = chunk()
		}
		n := min(len(p), cap(b.mem)-len(b.mem))
		b.mem = append(b.mem, p[:n]...)
		p = p[n:]
	}
}

// Write appends p. It fails only when the temporary file cannot be
// created or written (a full disk); the spill is then unusable.
func (b *Spill) Write(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	if b.f == nil {
		if b.memN+len(p) <= b.limit {
			b.hold(p)
			return len(p), nil
		}
		if err := b.open(); err != nil {
			b.err = err
			return 0, err
		}
	}
	n, err := b.f.Write(p)
	b.n += int64(n)
	if err != nil {
		b.err = err
	}
	return n, err
}

// open moves what is held in memory to a new temporary file, removed at
// once where the system allows it (then nothing is left behind by a
// crash).
func (b *Spill) open() error {
	f, err := os.CreateTemp("", "mcpgen-spill-*")
	if err != nil {
		return err
	}
	if os.Remove(f.Name()) != nil {
		b.name = f.Name() // removed by Close instead (Windows)
	}
	b.f = f
	for _, c := range append(b.full, b.mem) {
		n, err := f.Write(c)
		b.n += int64(n)
		if err != nil {
			b.release()
			return err
		}
	}
	b.release()
	return nil
}

// Len is the number of bytes written.
func (b *Spill) Len() int64 { return int64(b.memN) + b.n }

// Spilled reports whether the bytes are in a file rather than in memory.
func (b *Spill) Spilled() bool { return b.f != nil }

// WriteTo writes every byte written so far to w, from the start; it may
// be called more than once.
func (b *Spill) WriteTo(w io.Writer) (int64, error) {
	if b.err != nil {
		return 0, b.err
	}
	if b.f == nil {
		var n int64
		for _, c := range append(b.full, b.mem) {
			k, err := w.Write(c)
			n += int64(k)
			if err != nil {
				return n, err
			}
		}
		return n, nil
	}
	// In pieces of a pooled chunk, not io.Copy's 32 KiB (w hidden behind
	// a plain Writer, so that its ReadFrom does not pick that size
	// again): a graph of tens of megabytes cost two system calls per 32
	// KiB, one to read the file and one to write the pipe or socket.
	buf := chunk()
	buf = buf[:cap(buf)]
	defer func() {
		buf = buf[:0]
		spillMem.Put(&buf)
	}()
	return io.CopyBuffer(struct{ io.Writer }{w}, io.NewSectionReader(b.f, 0, b.n), buf)
}

// Bytes returns the bytes written, read back into memory from the file if
// they were spilled. They are the spill's own until Close.
func (b *Spill) Bytes() ([]byte, error) {
	if b.err != nil {
		return nil, b.err
	}
	if b.f == nil {
		if len(b.full) == 0 {
			return b.mem, nil
		}
		return slices.Concat(append(b.full, b.mem)...), nil
	}
	out := make([]byte, b.n)
	n, err := b.f.ReadAt(out, 0)
	if n == len(out) {
		return out, nil // ReadAt may say io.EOF with the last byte
	}
	if errors.Is(err, io.EOF) {
		err = io.ErrUnexpectedEOF
	}
	return nil, err
}

// Close gives the memory and the file back; the spill is empty after.
// A second Close does nothing.
func (b *Spill) Close() error {
	var err error
	if b.f != nil {
		err = b.f.Close()
		if b.name != "" {
			if rerr := os.Remove(b.name); err == nil {
				err = rerr
			}
		}
	}
	b.release()
	*b = Spill{limit: b.limit}
	return err
}

package stdio

import (
	"fmt"
	"io"
	"os"

	"golang.org/x/sys/unix"
)

// growPipe raises the kernel buffer of w to 1 MiB (the default
// /proc/sys/fs/pipe-max-size) when w is a pipe, as a server's stdout
// usually is: with the default 64 KiB, a multi-megabyte answer crosses in
// 64 KiB turns, each a wake-up of the reader and then of the writer. A
// failure (not a pipe, a lower limit) leaves the pipe as it was.
func growPipe(w io.Writer) {
	f, ok := w.(*os.File)
	if !ok {
		return
	}
	if st, err := f.Stat(); err != nil || st.Mode()&os.ModeNamedPipe == 0 {
		return
	}
	_, _ = unix.FcntlInt(f.Fd(), unix.F_SETPIPE_SZ, 1<<20)
}

// pollable returns a reader of the same pipe as r that parks the reading
// goroutine instead of its thread when the pipe is empty, and a function
// to close it: r itself when r is not a pipe or the pipe cannot be
// reopened.
//
// A process's stdin is a blocking descriptor, which Go reads with a system
// call that blocks its thread. The reader goroutine spends most of its time
// there, while the workers it has just handed requests wait for the
// scheduler to take the processor back from the blocked thread (sysmon
// retakes it after 20 µs or more, and wakes another thread to run them).
// Reopening the pipe through /proc gives a new open file description that
// Go sets to non-blocking and reads through its poller; the descriptor the
// process inherited, which the parent may share, stays as it was.
func pollable(r io.Reader) (io.Reader, func()) {
	f, ok := r.(*os.File)
	if !ok {
		return r, func() {}
	}
	if st, err := f.Stat(); err != nil || st.Mode()&os.ModeNamedPipe == 0 {
		return r, func() {}
	}
	// O_NONBLOCK: a named pipe without a writer would otherwise block the
	// open itself.
	p, err := os.OpenFile(fmt.Sprintf("/proc/self/fd/%d", f.Fd()), os.O_RDONLY|unix.O_NONBLOCK, 0)
	if err != nil {
		return r, func() {}
	}
	return p, func() { p.Close() }
}

package mcpgen

import (
	"fmt"
	"io"
	"net"
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

// pollable returns a reader of the same pipe or socket as r that parks
// the reading goroutine instead of its thread while nothing has arrived,
// and a function to call when done reading: r itself when r is not a
// blocking pipe or socket, or when that fails.
//
// A process's stdin is a blocking descriptor, which Go reads with a system
// call that blocks its thread. The reader goroutine spends most of its time
// there, while the workers it has just handed requests wait for the
// scheduler to take the processor back from the blocked thread (sysmon
// retakes it after 20 µs or more, and wakes another thread to run them).
//
// A pipe (os/exec, the Go and Python SDKs) is reopened through /proc: a
// new open file description, which Go sets to non-blocking and reads
// through its poller, while the one the process inherited, which the
// parent may share, stays as it was. A socket (Node's child_process gives
// its children socket pairs) cannot be reopened: its description is set to
// non-blocking while serving, and back to blocking when done; unless w or
// stderr is the same socket, whose blocking writes would then fail when
// the socket is full.
func pollable(r io.Reader, w io.Writer) (io.Reader, func()) {
	nothing := func() {}
	f, ok := r.(*os.File)
	if !ok {
		return r, nothing
	}
	st, err := f.Stat()
	if err != nil {
		return r, nothing
	}
	// Through SyscallConn, not f.Fd, which would switch a file Go already
	// reads through its poller to blocking.
	sc, err := f.SyscallConn()
	if err != nil {
		return r, nothing
	}
	var fd, flags int
	var ferr error
	if err := sc.Control(func(d uintptr) { fd = int(d); flags, ferr = unix.FcntlInt(d, unix.F_GETFL, 0) }); err != nil || ferr != nil {
		return r, nothing
	}
	if flags&unix.O_NONBLOCK != 0 {
		return r, nothing // read through the poller already
	}
	switch {
	case st.Mode()&os.ModeNamedPipe != 0:
		// O_NONBLOCK: a named pipe without a writer would otherwise block
		// the open itself.
		p, err := os.OpenFile(fmt.Sprintf("/proc/self/fd/%d", fd), os.O_RDONLY|unix.O_NONBLOCK, 0)
		if err != nil {
			return r, nothing
		}
		return p, func() { p.Close() }
	case st.Mode()&os.ModeSocket != 0 && !sameFile(st, w) && !sameFile(st, os.Stderr):
		c, err := net.FileConn(f) // a duplicate, set to non-blocking
		if err != nil {
			return r, nothing
		}
		return c, func() {
			c.Close()
			_ = sc.Control(func(d uintptr) { _ = unix.SetNonblock(int(d), false) })
		}
	}
	return r, nothing
}

// sameFile reports whether w is the file of st.
func sameFile(st os.FileInfo, w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	wst, err := f.Stat()
	return err == nil && os.SameFile(st, wst)
}

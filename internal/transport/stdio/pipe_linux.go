package stdio

import (
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

//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package mcpgen

import (
	"net"
	"syscall"
)

// canCheckConn: connOpen works here, so the default HTTP client takes
// plain http:// requests directly (directTransport).
const canCheckConn = true

// connOpen reports whether a kept connection is still open and quiet: a
// look at its socket without reading or waiting (MSG_PEEK|MSG_DONTWAIT)
// finds nothing to read. The end of the stream (the server closed it),
// an error, or bytes the server sent unasked all say it is not to be
// used again.
func connOpen(c net.Conn) bool {
	sc, ok := c.(syscall.Conn)
	if !ok {
		return false
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return false
	}
	open := false
	var buf [1]byte
	err = rc.Read(func(fd uintptr) bool {
		n, _, err := syscall.Recvfrom(int(fd), buf[:], syscall.MSG_PEEK|syscall.MSG_DONTWAIT)
		open = n < 0 && (err == syscall.EAGAIN || err == syscall.EWOULDBLOCK)
		return true
	})
	return err == nil && open
}

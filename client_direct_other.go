//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package mcpgen

import "net"

// canCheckConn: a kept connection cannot be checked here without
// reading it, so the default HTTP client sends every request through
// net/http's Transport.
const canCheckConn = false

func connOpen(net.Conn) bool { return false }

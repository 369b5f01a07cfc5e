package mcpgen

import (
	"net"
	"net/netip"
	"sync"
)

// connLimiter is a listener that closes, at once, a connection past
// perIP open connections from its address (IPv6: its /64, which one
// client usually holds whole) or past total open connections, and
// reports each to the observer. A cap <= 0 is off.
type connLimiter struct {
	net.Listener
	perIP, total int
	obs          Observer

	mu    sync.Mutex
	open  int
	byKey map[netip.Addr]int
}

func limitConns(ln net.Listener, perIP, total int, obs Observer) net.Listener {
	if perIP <= 0 && total <= 0 {
		return ln
	}
	return &connLimiter{Listener: ln, perIP: perIP, total: total, obs: obs, byKey: map[netip.Addr]int{}}
}

// Accept returns the next connection within the caps; those past a cap
// are closed here and never reach the caller.
func (l *connLimiter) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		key := addrKey(c.RemoteAddr())
		if reason := l.admit(key); reason != "" {
			_ = c.Close()
			if l.obs != nil {
				l.obs.Event(EventTransportRefused, Tag{Key: "reason", Value: reason})
			}
			continue
		}
		return &limitedConn{Conn: c, release: func() { l.release(key) }}, nil
	}
}

// admit counts a new connection from key, or names the cap it is past.
func (l *connLimiter) admit(key netip.Addr) string {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.total > 0 && l.open >= l.total {
		return "max_conns"
	}
	if l.perIP > 0 && key.IsValid() && l.byKey[key] >= l.perIP {
		return "max_conns_per_ip"
	}
	l.open++
	if key.IsValid() {
		l.byKey[key]++
	}
	return ""
}

func (l *connLimiter) release(key netip.Addr) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.open--
	if !key.IsValid() {
		return
	}
	if l.byKey[key]--; l.byKey[key] <= 0 {
		delete(l.byKey, key)
	}
}

// addrKey is what a remote address is counted under: its IPv4 address,
// or its IPv6 /64; the zero Addr (not counted per address) for others.
func addrKey(a net.Addr) netip.Addr {
	var ip netip.Addr
	switch a := a.(type) {
	case *net.TCPAddr:
		ip, _ = netip.AddrFromSlice(a.IP)
	default:
		if ap, err := netip.ParseAddrPort(a.String()); err == nil {
			ip = ap.Addr()
		}
	}
	ip = ip.Unmap()
	if ip.Is6() {
		if p, err := ip.Prefix(64); err == nil {
			ip = p.Addr()
		}
	}
	return ip
}

// limitedConn gives its slot back when closed (once, however often
// net/http closes it).
type limitedConn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *limitedConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}

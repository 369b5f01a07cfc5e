package mcpgen

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
)

// guard implements the DNS-rebinding protection: Host and Origin checks.
type guard struct {
	anyHost, anyOrigin bool
	hosts              map[string]bool // lower-case "name" (any port) or "name:port"
	origins            map[string]bool // lower-case scheme://host[:port]
}

func newGuard(hosts, origins []string) guard {
	g := guard{hosts: map[string]bool{}, origins: map[string]bool{}}
	for _, h := range hosts {
		h = strings.ToLower(strings.TrimSpace(h))
		if h == "*" {
			g.anyHost = true
		}
		if h != "" {
			g.hosts[h] = true
		}
	}
	for _, o := range origins {
		o = strings.TrimRight(strings.ToLower(strings.TrimSpace(o)), "/")
		if o == "*" {
			g.anyOrigin = true
		}
		if o != "" {
			g.origins[o] = true
		}
	}
	return g
}

var errNoHost = errors.New("missing Host header")

func (g *guard) check(r *http.Request) error {
	if !g.anyHost && (len(g.hosts) > 0 || loopbackConn(r)) {
		if r.Host == "" {
			return errNoHost
		}
		if !g.hostOK(r.Host) {
			return fmt.Errorf("host %q is not allowed (accept it with --allow-host %s, or HTTPOptions.AllowedHosts)", r.Host, hostname(r.Host))
		}
	}
	origin := r.Header.Get("Origin")
	if origin == "" || g.anyOrigin {
		return nil
	}
	if g.origins[strings.TrimRight(strings.ToLower(origin), "/")] {
		return nil
	}
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" {
		return fmt.Errorf("origin %q is not allowed", origin)
	}
	if g.hostOK(u.Host) || strings.EqualFold(u.Host, r.Host) {
		return nil
	}
	return fmt.Errorf("origin %q is not allowed (accept it with --allow-origin %s, or HTTPOptions.AllowedOrigins)", origin, strings.TrimRight(strings.ToLower(origin), "/"))
}

// hostOK accepts loopback names (any port) and the configured hosts.
func (g *guard) hostOK(hostport string) bool {
	name := hostname(hostport)
	if isLoopbackName(name) {
		return true
	}
	return g.hosts[name] || g.hosts[strings.ToLower(hostport)]
}

// hostname strips the port and IPv6 brackets from a Host value, lower-cased.
func hostname(hostport string) string {
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		return strings.ToLower(h)
	}
	return strings.ToLower(strings.TrimSuffix(strings.TrimPrefix(hostport, "["), "]"))
}

func isLoopbackName(name string) bool {
	if name == "localhost" {
		return true
	}
	ip, err := netip.ParseAddr(name)
	return err == nil && ip.IsLoopback()
}

// loopbackConn reports whether the request arrived on a loopback address.
// Unknown addresses (tests calling ServeHTTP directly, Unix sockets) count
// as loopback, so that the check fails safe.
func loopbackConn(r *http.Request) bool {
	addr, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if !ok {
		return true
	}
	if tcp, ok := addr.(*net.TCPAddr); ok {
		return tcp.IP.IsLoopback()
	}
	host, _, err := net.SplitHostPort(addr.String())
	if err != nil {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err != nil || ip.IsLoopback()
}

package mcpgen

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// This file is what keeps the client safe from the server it talks to:
// the defaults of the bounds in [ClientOptions], the errors that say one
// was reached, the default HTTP client with its timeouts, and the rule
// that a request, and the credentials on it, goes only to the origin of
// the server's URL.

// Client defaults and fixed bounds.
const (
	defaultClientMaxMessage = 16 << 20
	defaultMaxPages         = 1000
	defaultMaxListBytes     = 32 << 20
	// defaultHeaderTimeout is 4 times the keep-alive interval of an
	// mcpgen server, which turns a slow JSON answer into SSE: a server
	// that is working has sent its headers well before.
	defaultHeaderTimeout = 60 * time.Second
	// dialTimeout and tlsTimeout bound connecting (default HTTP client).
	dialTimeout = 10 * time.Second
	tlsTimeout  = 10 * time.Second
	// maxServerRequests bounds the server's requests one connection
	// answers at once, on every transport and stream together; the
	// server's next request is refused at once (see
	// [Client.serverRequest]).
	maxServerRequests = 16
	// defaultWriteBuffer is the write buffer of each connection of the
	// default HTTP client, of which at most maxServerRequests+1 are kept
	// idle.
	defaultWriteBuffer = 32 << 10
	// maxRedirects bounds the requests one request becomes by following
	// same-origin redirects, when the HTTP client has no redirect policy
	// of its own (as Go's default does).
	maxRedirects = 10
)

// Errors that say a bound of the client stopped what a server sent;
// match them with errors.Is.
var (
	// ErrMessageTooLarge: one message from the server (an HTTP body, an
	// SSE event, a stdio line) is larger than ClientOptions.MaxMessageBytes.
	ErrMessageTooLarge = errors.New("message too large")
	// ErrListLimit: a list (List* methods, CheckSurface) has more pages
	// than ClientOptions.MaxPages or more bytes than MaxListBytes.
	ErrListLimit = errors.New("list too long")
	// ErrCrossOriginRedirect: the server redirected a request to another
	// origin (scheme, host or port) than its URL's. The request, its body
	// and its credentials are not sent there.
	ErrCrossOriginRedirect = errors.New("cross-origin redirect")
	// ErrUnexpectedResult: the server's answer does not decode as what
	// was asked for: not JSON, nested deeper than the decoder allows, or
	// of another shape than the result (a typed client's type). The
	// decoder's error is wrapped too (a *json.UnmarshalTypeError ...).
	ErrUnexpectedResult = errors.New("unexpected result")
)

// defaultHTTPClient is the HTTP client of an HTTPTransport given none:
// connecting and the TLS handshake are bounded, and so is the wait for an
// answer's headers (headerTimeout), but not the body, as an SSE answer
// may stream for as long as the call runs. Its pool keeps a connection
// for each answer to the server's requests that may be in flight. Each
// connection writes through a buffer of defaultWriteBuffer bytes, so that
// a request of a few kilobytes of arguments leaves in one write (net/http's
// 4 KB default made two of a 6 KB tools/call). It asks for no
// compression: net/http would otherwise add Accept-Encoding: gzip to
// every request and a gzip reader to every answer that took it up, for
// messages that are mostly small and mostly sent to a server nearby
// (a caller who wants gzip passes an HTTPClient of its own). Plain
// http:// requests without a proxy are sent on kept connections by the
// caller's goroutine (directTransport), with the same bounds.
func defaultHTTPClient(headerTimeout time.Duration) *http.Client {
	t, ok := http.DefaultTransport.(*http.Transport)
	if ok {
		t = t.Clone()
	} else {
		t = &http.Transport{Proxy: http.ProxyFromEnvironment, ForceAttemptHTTP2: true, IdleConnTimeout: 90 * time.Second}
	}
	t.DialContext = (&net.Dialer{Timeout: dialTimeout, KeepAlive: 30 * time.Second}).DialContext
	t.TLSHandshakeTimeout = tlsTimeout
	t.ResponseHeaderTimeout = headerTimeout
	t.MaxIdleConnsPerHost = maxServerRequests + 1
	t.WriteBufferSize = defaultWriteBuffer
	t.DisableCompression = true
	return &http.Client{Transport: &directTransport{next: t, headerTimeout: headerTimeout, maxIdle: t.MaxIdleConnsPerHost, idleTimeout: t.IdleConnTimeout}}
}

// sameOrigin returns a redirect policy that refuses a redirect to another
// origin than the first request's with [ErrCrossOriginRedirect], then
// applies next (nil: at most maxRedirects). Go's own rule keeps the
// Authorization header on a redirect to the same host name on another
// port or scheme, and sends a 307's body to any host; with this policy
// neither leaves the server's origin.
func sameOrigin(next func(*http.Request, []*http.Request) error) func(*http.Request, []*http.Request) error {
	return func(req *http.Request, via []*http.Request) error {
		if from, to := origin(via[0].URL), origin(req.URL); from != to {
			return fmt.Errorf("%w from %s to %s: requests and credentials go only to the server's origin", ErrCrossOriginRedirect, from, to)
		}
		if next != nil {
			return next(req, via)
		}
		if len(via) >= maxRedirects {
			return fmt.Errorf("stopped after %d redirects", maxRedirects)
		}
		return nil
	}
}

// origin is u's scheme, host and port, spelled one way: lower case, with
// the scheme's default port written out.
func origin(u *url.URL) string {
	scheme := strings.ToLower(u.Scheme)
	port := u.Port()
	if port == "" {
		switch scheme {
		case "http":
			port = "80"
		case "https":
			port = "443"
		}
	}
	return scheme + "://" + net.JoinHostPort(strings.ToLower(u.Hostname()), port)
}

// insufficientScope returns the scope refusal of a 403 answer's
// WWW-Authenticate (error="insufficient_scope", scope="..."), or nil.
func insufficientScope(challenges []string) *InsufficientScopeError {
	for _, ch := range challenges {
		params := authParams(ch)
		if params["error"] == "insufficient_scope" {
			return &InsufficientScopeError{Scope: params["scope"]}
		}
	}
	return nil
}

// authParams reads the auth-params of a WWW-Authenticate value (RFC 9110
// section 11.6.1): name=token or name="quoted string", comma separated,
// after the scheme. A value holding several challenges gives the params
// of all of them; the first of a name wins.
func authParams(s string) map[string]string {
	params := map[string]string{}
	for s != "" {
		s = strings.TrimLeft(s, " \t,")
		// A scheme (a token followed by a space, then not by '=') starts
		// a challenge: skip it.
		if i := strings.IndexAny(s, " \t=,"); i > 0 && (s[i] == ' ' || s[i] == '\t') {
			if after := strings.TrimLeft(s[i:], " \t"); !strings.HasPrefix(after, "=") {
				s = after
				continue
			}
		}
		name, rest, ok := strings.Cut(s, "=")
		if !ok {
			break
		}
		name = strings.ToLower(strings.TrimSpace(name))
		rest = strings.TrimLeft(rest, " \t")
		var val string
		if strings.HasPrefix(rest, `"`) {
			var b strings.Builder
			i := 1
			for ; i < len(rest) && rest[i] != '"'; i++ {
				if rest[i] == '\\' && i+1 < len(rest) {
					i++
				}
				b.WriteByte(rest[i])
			}
			val, s = b.String(), rest[min(i+1, len(rest)):]
		} else {
			end := strings.IndexAny(rest, ", \t")
			if end < 0 {
				end = len(rest)
			}
			val, s = rest[:end], rest[end:]
		}
		if _, dup := params[name]; !dup {
			params[name] = val
		}
	}
	return params
}

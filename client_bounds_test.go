package mcpgen

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"
)

// The defaults of the client's bounds, and the pieces of its defences
// that the hostile-server suite (client_hostile_test.go) does not reach
// one by one.

// TestClientDefaults: a zero ClientOptions gets the documented bounds,
// and the default HTTP client the documented timeouts.
func TestClientDefaults(t *testing.T) {
	srv := New(unitDefinition(), Options{})
	defer srv.Close()
	c, err := Connect(context.Background(), InMemoryTransport(srv), ClientOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	o := c.opts
	if o.MaxMessageBytes != 16<<20 || o.MaxPages != 1000 || o.MaxListBytes != 32<<20 || o.HeaderTimeout != 60*time.Second {
		t.Errorf("defaults: MaxMessageBytes %d, MaxPages %d, MaxListBytes %d, HeaderTimeout %s; want 16 MiB, 1000, 32 MiB, 60s",
			o.MaxMessageBytes, o.MaxPages, o.MaxListBytes, o.HeaderTimeout)
	}
	if cap(c.asking) != 16 {
		t.Errorf("%d server requests answered at once, want 16", cap(c.asking))
	}
	direct := defaultHTTPClient(o.HeaderTimeout).Transport.(*directTransport)
	if direct.headerTimeout != 60*time.Second || direct.maxIdle != 17 || direct.idleTimeout != 90*time.Second {
		t.Errorf("direct transport: header timeout %s, %d idle connections kept for %s; want 60s, 17, 90s", direct.headerTimeout, direct.maxIdle, direct.idleTimeout)
	}
	tr := direct.next
	if tr.ResponseHeaderTimeout != 60*time.Second || tr.TLSHandshakeTimeout != 10*time.Second || tr.DialContext == nil {
		t.Errorf("default transport: header timeout %s, TLS %s, dialer set %v; want 60s, 10s, a dialer with a timeout",
			tr.ResponseHeaderTimeout, tr.TLSHandshakeTimeout, tr.DialContext != nil)
	}
	if tr.WriteBufferSize != 32<<10 {
		t.Errorf("default transport: write buffer %d bytes, want 32 KiB (a tools/call of a few KB in one write)", tr.WriteBufferSize)
	}
}

// TestOrigin: two URLs are one origin when scheme, host and port agree,
// however they are spelled.
func TestOrigin(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		same bool
	}{
		{"http://h/mcp", "http://h:80/other?q", true},
		{"https://H.example/", "https://h.example:443/", true},
		{"http://[::1]:8080/", "http://[::1]:8080/x", true},
		{"https://h/", "http://h/", false},
		{"https://h:8443/", "http://h:8443/", false},
		{"http://h:8080/", "http://h:8081/", false},
		{"http://h/", "http://h.evil/", false},
	} {
		a, _ := url.Parse(tc.a)
		b, _ := url.Parse(tc.b)
		if got := origin(a) == origin(b); got != tc.same {
			t.Errorf("%s and %s: same origin %v, want %v (%s, %s)", tc.a, tc.b, got, tc.same, origin(a), origin(b))
		}
	}
}

// TestRedirectBound: a server that redirects within its origin for ever
// gets maxRedirects requests in all, as with Go's default policy; a
// caller's own redirect policy is kept (after the origin check).
func TestRedirectBound(t *testing.T) {
	hops := 0
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hops++
		http.Redirect(w, r, "/again", http.StatusTemporaryRedirect)
	}))
	defer hs.Close()
	post := func(hc *http.Client) error {
		safe := *hc
		safe.CheckRedirect = sameOrigin(hc.CheckRedirect)
		resp, err := safe.Post(hs.URL, "application/json", strings.NewReader("{}"))
		if err == nil {
			resp.Body.Close()
		}
		return err
	}
	if err := post(&http.Client{}); err == nil || hops != maxRedirects {
		t.Errorf("%d requests, error %v; want %d and an error", hops, err, maxRedirects)
	}
	mine := errors.New("mine")
	hops = 0
	err := post(&http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return mine }})
	if !errors.Is(err, mine) || hops != 1 {
		t.Errorf("%d requests, error %v; want the caller's policy to stop at the first redirect", hops, err)
	}
}

// TestAuthParams: the insufficient_scope challenge is read whatever the
// spacing, quoting and other challenges around it.
func TestAuthParams(t *testing.T) {
	for _, tc := range []struct {
		challenges []string
		scope      string
		found      bool
	}{
		{[]string{`Bearer error="insufficient_scope", scope="a b"`}, "a b", true},
		{[]string{`Bearer realm="x",error=insufficient_scope,scope=files:read`}, "files:read", true},
		{[]string{`Bearer error = "insufficient_scope" , scope = "q\"uoted"`}, `q"uoted`, true},
		{[]string{`Basic realm="r"`, `DPoP algs="ES256", error="insufficient_scope", scope="s"`}, "s", true},
		{[]string{`Bearer error="insufficient_scope", error_description="no, really", scope="s"`}, "s", true},
		{[]string{`Bearer error="insufficient_scope"`}, "", true},
		{[]string{`Bearer error="invalid_token", scope="s"`}, "", false},
		{[]string{`Bearer scope="s`}, "", false},
		{nil, "", false},
	} {
		ise := insufficientScope(tc.challenges)
		if (ise != nil) != tc.found || ise != nil && ise.Scope != tc.scope {
			t.Errorf("%q: %+v, want scope %q (found %v)", tc.challenges, ise, tc.scope, tc.found)
		}
	}
}

// unread fails the test when read.
type unread struct{ t *testing.T }

func (u unread) Read([]byte) (int, error) {
	u.t.Error("the body was read")
	return 0, io.EOF
}

// TestReadAnswerDeclaredSize: a JSON answer whose Content-Length is over
// the limit is refused without reading it; one within is read into a
// buffer of its size, and one that is longer than it said is refused.
func TestReadAnswerDeclaredSize(t *testing.T) {
	if _, err := readAnswer(unread{t}, 1<<30, 1<<20); !errors.Is(err, ErrMessageTooLarge) {
		t.Errorf("declared 1 GiB: %v, want ErrMessageTooLarge", err)
	}
	b, err := readAnswer(strings.NewReader(`{"a":1}`), 7, 16)
	if err != nil || string(b) != `{"a":1}` || cap(b) != 8 {
		t.Errorf("declared 7 bytes: %q (cap %d), %v; want them in a buffer of 8", b, cap(b), err)
	}
	if _, err := readAnswer(strings.NewReader(strings.Repeat("x", 17)), 7, 16); !errors.Is(err, ErrMessageTooLarge) {
		t.Errorf("17 bytes declared as 7, limit 16: %v, want ErrMessageTooLarge", err)
	}
	if b, err := readAnswer(strings.NewReader(strings.Repeat("x", 16)), -1, 16); err != nil || len(b) != 16 {
		t.Errorf("16 bytes of unknown size, limit 16: %d bytes, %v", len(b), err)
	}
}

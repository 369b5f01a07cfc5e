package oauth_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/authtest"
	"github.com/mcpgen/mcpgen/oauth"
)

// These tests count the calls the authorization server receives: the
// resource server must not turn requests without credentials into calls
// to it, one for one.

// withIntrospection configures introspection with the test server's
// credentials and then tweak.
func withIntrospection(tweak func(*oauth.Introspection)) func(*oauth.Config) {
	return func(c *oauth.Config) {
		c.Introspection = &oauth.Introspection{ClientID: authtest.IntrospectorID, ClientSecret: authtest.IntrospectorSecret}
		if tweak != nil {
			tweak(c.Introspection)
		}
	}
}

// statuses posts each bearer token concurrently and returns the response
// statuses and Retry-After headers, in order.
func statuses(t *testing.T, m *mcpServer, tokens []string) ([]int, []string) {
	t.Helper()
	codes := make([]int, len(tokens))
	retry := make([]string, len(tokens))
	var wg sync.WaitGroup
	for i, tok := range tokens {
		wg.Go(func() {
			resp, err := http.DefaultClient.Do(whoamiRequest(m, tok))
			if err != nil {
				t.Error(err)
				return
			}
			resp.Body.Close()
			codes[i], retry[i] = resp.StatusCode, resp.Header.Get("Retry-After")
		})
	}
	wg.Wait()
	return codes, retry
}

// TestIntrospectionRateLimitedByAddress: 200 different junk tokens from
// one address cost at most the burst in calls; the rest are refused with
// 429 and Retry-After without a call. A JWT is not charged.
func TestIntrospectionRateLimitedByAddress(t *testing.T) {
	as := authtest.Start(t)
	const burst = 20
	// A refill of one token per 1000 s: no refill during the test.
	m := startMCP(t, as.Issuer, withIntrospection(func(ic *oauth.Introspection) { ic.AddressRate, ic.AddressBurst = 0.001, burst }))
	as.AddClient("good", authtest.Client{Secret: "g", Audience: []string{m.url}, Scopes: []string{"mcp"}})
	var junk []string
	for i := range 200 {
		junk = append(junk, fmt.Sprintf("junk-%d", i))
	}
	codes, retry := statuses(t, m, junk)
	count := map[int]int{}
	for i, c := range codes {
		count[c]++
		if c == http.StatusTooManyRequests && retry[i] == "" {
			t.Errorf("a 429 without Retry-After")
		}
	}
	if calls := as.Introspections(); calls > burst || calls == 0 {
		t.Errorf("200 junk tokens made %d introspection calls, want 1..%d", calls, burst)
	}
	// Of the burst admitted, a few may find no free slot (MaxConcurrent)
	// on a slow machine and be refused with 503 instead of 401.
	admitted := count[http.StatusUnauthorized] + count[http.StatusServiceUnavailable]
	if admitted > burst || admitted+count[http.StatusTooManyRequests] != 200 {
		t.Errorf("statuses: %v, want at most %d 401s or 503s and the rest 429", count, burst)
	}
	before := as.Introspections()
	resp, body := post(t, m, "junk-after")
	if resp.StatusCode != http.StatusTooManyRequests || as.Introspections() != before || m.refused.last() != "rate_limited" {
		t.Errorf("past the burst: %d %s, reason %q, %d calls", resp.StatusCode, body, m.refused.last(), as.Introspections()-before)
	}
	if strings.Contains(body, "junk-after") {
		t.Errorf("the body repeats the token")
	}
	if resp, body := post(t, m, as.Token(t, "good", "g", "mcp")); resp.StatusCode != 200 {
		t.Errorf("a JWT from a limited address: %d %s", resp.StatusCode, body)
	}
}

// TestIntrospectionRefusalCached: one junk token sent 50 times costs one
// call; its refusal is remembered (RefusalTTL) and not charged again.
func TestIntrospectionRefusalCached(t *testing.T) {
	as := authtest.Start(t)
	m := startMCP(t, as.Issuer, withIntrospection(nil))
	for range 50 {
		wantRefused(t, m, "the-same-junk", "inactive")
	}
	if calls := as.Introspections(); calls != 1 {
		t.Errorf("one junk token 50 times made %d introspection calls, want 1", calls)
	}
}

// TestIntrospectionSharedAndCached: 20 concurrent requests with one valid
// opaque token make one call (one in flight per token, then the cache),
// and later requests none; every one of them is served.
func TestIntrospectionSharedAndCached(t *testing.T) {
	as := authtest.Start(t)
	m := startMCP(t, as.Issuer, withIntrospection(nil))
	as.AddClient("opaque", authtest.Client{Secret: "x", Audience: []string{m.url}, Scopes: []string{"mcp"}, Opaque: true})
	tok := as.Token(t, "opaque", "x", "mcp")
	codes, _ := statuses(t, m, slices.Repeat([]string{tok}, 20))
	for _, c := range codes {
		if c != http.StatusOK {
			t.Fatalf("statuses %v, want all 200", codes)
		}
	}
	if resp, body := post(t, m, tok); resp.StatusCode != 200 || !strings.Contains(body, "subject=svc-opaque client=opaque scopes=mcp") {
		t.Fatalf("from the cache: %d %s", resp.StatusCode, body)
	}
	if calls := as.Introspections(); calls != 1 {
		t.Errorf("21 requests with one opaque token made %d introspection calls, want 1", calls)
	}
}

// hanging is an introspection endpoint that answers nothing until
// release is called (or the test ends); it counts the requests it got.
type hanging struct {
	url     string
	calls   atomic.Int64
	release func()
}

func startHanging(t *testing.T) *hanging {
	h := &hanging{}
	done := make(chan struct{})
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.calls.Add(1)
		<-done
	}))
	var once sync.Once
	h.release = func() { once.Do(func() { close(done) }) }
	t.Cleanup(hs.Close)
	t.Cleanup(h.release) // runs first: Close waits for the handlers
	h.url = hs.URL
	return h
}

// TestIntrospectionTimeout: a hanging introspection endpoint is given up
// on after Introspection.Timeout, well before the HTTP client's, with 503;
// the outage is not remembered as a refusal, so the next request asks
// again.
func TestIntrospectionTimeout(t *testing.T) {
	h := startHanging(t)
	m := startMCP(t, "http://127.0.0.1:1", func(c *oauth.Config) {
		withIntrospection(func(ic *oauth.Introspection) { ic.Endpoint, ic.Timeout = h.url, 200*time.Millisecond })(c)
		c.HTTPClient = &http.Client{} // no timeout of its own: only Introspection.Timeout ends the call
	})
	// Release the endpoint before the MCP server closes, which waits for
	// its handlers: if the timeout failed, they would wait for the call.
	t.Cleanup(h.release)
	for i := range 2 {
		// The guard is only there so that a regression fails instead
		// of hanging until the test binary's deadline.
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		resp, err := http.DefaultClient.Do(whoamiRequest(m, "opaque-token").WithContext(ctx))
		cancel()
		if err != nil {
			t.Fatalf("request %d to a hanging endpoint was not given up on: %v", i, err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusServiceUnavailable || m.refused.last() != "unavailable" {
			t.Fatalf("request %d to a hanging endpoint: %d, reason %q", i, resp.StatusCode, m.refused.last())
		}
	}
	if calls := h.calls.Load(); calls != 2 {
		t.Errorf("the endpoint got %d calls, want 2 (an outage is not cached)", calls)
	}
}

// TestIntrospectionSlots: with MaxConcurrent 2 and a hanging endpoint,
// 8 concurrent lookups of different tokens make 2 calls; the other 6 wait
// for a slot at most a second, far less than the 10s Timeout the two
// holders hang for, and are refused with 503 without a call.
func TestIntrospectionSlots(t *testing.T) {
	if testing.Short() {
		t.Skip("waits a second for slots")
	}
	h := startHanging(t)
	m := startMCP(t, "http://127.0.0.1:1", withIntrospection(func(ic *oauth.Introspection) {
		ic.Endpoint, ic.Timeout, ic.MaxConcurrent = h.url, 10*time.Second, 2
	}))
	results := make(chan int, 8)
	for i := range 8 {
		go func() {
			resp, err := http.DefaultClient.Do(whoamiRequest(m, fmt.Sprintf("token-%d", i)))
			if err != nil {
				results <- 0
				return
			}
			resp.Body.Close()
			results <- resp.StatusCode
		}()
	}
	for range 6 {
		if c := <-results; c != http.StatusServiceUnavailable {
			t.Errorf("a lookup without a slot: %d, want 503", c)
		}
	}
	if calls := h.calls.Load(); calls != 2 {
		t.Errorf("the endpoint got %d calls, want 2", calls)
	}
	h.release()
	for range 2 {
		if c := <-results; c != http.StatusServiceUnavailable {
			t.Errorf("a lookup the endpoint never answered: %d, want 503", c)
		}
	}
}

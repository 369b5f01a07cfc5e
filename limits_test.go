package mcpgen

import (
	"strings"
	"testing"
	"testing/synctest"
	"time"
)

const pingLine = `{"jsonrpc":"2.0","id":7,"method":"ping"}`

// TestRateLimitRefill: a token bucket per principal; the refusal says when
// a token will be back, and after that wait the request is served.
func TestRateLimitRefill(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		obs := &recorder{}
		s := New(unitDefinition(), Options{Limits: Limits{Rate: 2, Burst: 3}, Observer: obs})
		alice := func() *inbound { return &inbound{Auth: Principal{Subject: "alice"}} }
		for range 3 {
			result(t, handle(t, s, alice(), pingLine))
		}
		in := alice()
		resp, out := handleOutcome(t, s, in, pingLine)
		wantError(t, resp, CodeTooManyRequests, "2 requests per second (burst 3)")
		if httpStatus(out) != 429 || out.retryAfter != time.Second || string(resp.ID) != "7" {
			t.Fatalf("status %d, retry after %v, id %s", httpStatus(out), out.retryAfter, resp.ID)
		}
		if !strings.Contains(string(resp.Error.Data), `"retryAfterMs":500`) {
			t.Fatalf("data %s", resp.Error.Data)
		}
		if obs.count(EventLimitRefused+" limit=rate method=ping") != 1 || obs.count(EventRequestError+" method=ping") != 1 || obs.count(EventRequest+" method=ping") != 4 {
			t.Fatalf("events %v", obs.events)
		}
		// Notifications are not limited (they cannot be answered).
		if resp := handle(t, s, alice(), `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`); resp != nil {
			t.Fatalf("notification answered: %+v", resp)
		}
		// Another principal, and an anonymous caller by address, have their own.
		result(t, handle(t, s, &inbound{Auth: Principal{Subject: "bob"}}, pingLine))
		result(t, handle(t, s, &inbound{RemoteAddr: "192.0.2.7:5555"}, pingLine))
		time.Sleep(500 * time.Millisecond)
		result(t, handle(t, s, alice(), pingLine))
		wantError(t, handle(t, s, alice(), pingLine), CodeTooManyRequests, "retry after")
	})
}

// TestConcurrencyLimitUnit: a principal's requests in progress are
// bounded; the slot is released when the request ends.
func TestConcurrencyLimitUnit(t *testing.T) {
	l := newLimiter(Limits{Concurrent: 2})
	r1, e1 := l.acquire("sub:a", true)
	r2, e2 := l.acquire("sub:a", true)
	_, e3 := l.acquire("sub:a", true)
	if e1 != nil || e2 != nil || e3 == nil || e3.limit != "concurrency" {
		t.Fatalf("%v %v %v", e1, e2, e3)
	}
	if _, e := l.acquire("sub:a", false); e != nil {
		t.Fatalf("an uncounted request (a listen stream) was refused: %v", e)
	}
	if _, e := l.acquire("sub:b", true); e != nil {
		t.Fatalf("another principal was refused: %v", e)
	}
	r1()
	if _, e := l.acquire("sub:a", true); e != nil {
		t.Fatalf("after a release: %v", e)
	}
	r2()
}

// TestLimiterForgets: principals that have been quiet long enough to
// refill are dropped, so that the table does not grow with every caller.
func TestLimiterForgets(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		l := newLimiter(Limits{Rate: 10, Concurrent: 5})
		for i := range 1000 {
			release, _ := l.acquire(string(rune('a'+i%26))+strings.Repeat("x", i), true)
			release()
		}
		busy, _ := l.acquire("busy", true)
		time.Sleep(2 * time.Minute)
		l.acquire("new", true)
		l.mu.Lock()
		n := len(l.m)
		l.mu.Unlock()
		if n != 2 { // "busy" (in progress) and "new"
			t.Fatalf("%d principals kept", n)
		}
		busy()
	})
}

func TestLimitsOffByDefault(t *testing.T) {
	s := New(unitDefinition(), Options{})
	if s.limits != nil || s.maxMessageBytes() != 8<<20 {
		t.Fatalf("limits %v, max message %d", s.limits, s.maxMessageBytes())
	}
	for range 1000 {
		result(t, handle(t, s, &inbound{}, pingLine))
	}
}

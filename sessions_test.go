package mcpgen

import (
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	"github.com/mcpgen/mcpgen/internal/jsonrpc"
)

// openSession opens a legacy session the way a transport does.
func openSession(t *testing.T, s *Server) *Session {
	t.Helper()
	in := &inbound{}
	result(t, handle(t, s, in, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`))
	if in.Session == nil {
		t.Fatal("initialize did not open a session")
	}
	return in.Session
}

func ended(s *Session) bool {
	select {
	case <-s.doneChan():
		return true
	default:
		return false
	}
}

func TestSessionIdleExpiry(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := New(unitDefinition(), Options{SessionIdle: 10 * time.Millisecond})
		sess := openSession(t, s)
		if s.sessions.get(sess.ID) != sess {
			t.Fatal("a fresh session is not found")
		}
		// Requests keep it alive: each one resets the idle clock.
		for range 5 {
			time.Sleep(8 * time.Millisecond)
			result(t, handle(t, s, &inbound{Session: sess}, `{"jsonrpc":"2.0","id":2,"method":"ping"}`))
		}
		if s.sessions.get(sess.ID) != sess || ended(sess) {
			t.Fatal("a session used every 8ms expired with a 10ms limit")
		}
		// Looking it up is not using it.
		time.Sleep(6 * time.Millisecond)
		if s.sessions.get(sess.ID) == nil {
			t.Fatal("expired after 6ms")
		}
		time.Sleep(6 * time.Millisecond)
		if s.sessions.get(sess.ID) != nil {
			t.Fatal("still found after 12ms idle with a 10ms limit")
		}
		if !ended(sess) || s.Sessions() != 0 {
			t.Fatalf("expired session: ended=%v, sessions=%d", ended(sess), s.Sessions())
		}
	})
}

func TestSessionSweep(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := New(unitDefinition(), Options{SessionIdle: 10 * time.Millisecond})
		a := openSession(t, s)
		time.Sleep(20 * time.Millisecond)
		// Opening another session sweeps idle ones, at most once a minute:
		// the first sweep ran when a opened, so a is still counted.
		b := openSession(t, s)
		if s.Sessions() != 2 || ended(a) {
			t.Fatalf("sweep within the minute: sessions=%d, a ended=%v", s.Sessions(), ended(a))
		}
		time.Sleep(time.Minute)
		c := openSession(t, s)
		if s.Sessions() != 1 || !ended(a) || !ended(b) || ended(c) {
			t.Fatalf("sweep after a minute: sessions=%d, a=%v b=%v c=%v", s.Sessions(), ended(a), ended(b), ended(c))
		}
	})
}

func TestSessionIdleDisabled(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := New(unitDefinition(), Options{SessionIdle: -1})
		sess := openSession(t, s)
		time.Sleep(48 * time.Hour)
		openSession(t, s) // would sweep
		if s.sessions.get(sess.ID) != sess || ended(sess) {
			t.Fatal("a session expired with expiry disabled")
		}
	})
}

func TestEndSession(t *testing.T) {
	s := New(unitDefinition(), Options{})
	sess := openSession(t, s)
	if s.sessions.end("no-such-session") {
		t.Error("EndSession of an unknown id reported true")
	}
	if !s.sessions.end(sess.ID) || !ended(sess) || s.sessions.get(sess.ID) != nil || s.Sessions() != 0 {
		t.Error("EndSession did not end the session")
	}
	if s.sessions.end(sess.ID) {
		t.Error("ending a session twice reported true")
	}
}

// count returns how many events r recorded as key ("name k=v ...").
func (r *recorder) count(key string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, e := range r.events {
		if e == key {
			n++
		}
	}
	return n
}

const initLine = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`

// open initializes a session as subject (a remote address tells anonymous
// callers apart, as on HTTP).
func open(t *testing.T, s *Server, subject, addr string) (*Session, *jsonrpc.Message) {
	t.Helper()
	in := &inbound{Auth: Principal{Subject: subject}, RemoteAddr: addr}
	resp := handle(t, s, in, initLine)
	return in.Session, resp
}

// TestSessionCapManyInitialize: 20,000 initialize calls used to leave
// 20,000 live sessions; with the caps on by default the table stays at the
// cap, and the sessions that make room are the least recently used.
func TestSessionCapManyInitialize(t *testing.T) {
	obs := &recorder{}
	s := New(unitDefinition(), Options{Observer: obs})
	var first, last *Session
	for i := range 20000 {
		sess, resp := open(t, s, "", "192.0.2.1:1234")
		result(t, resp)
		if i == 0 {
			first = sess
		}
		last = sess
	}
	if n := s.Sessions(); n != DefaultMaxSessionsPerPrincipal {
		t.Fatalf("%d sessions open, want the per-principal default %d", n, DefaultMaxSessionsPerPrincipal)
	}
	if s.sessions.get(first.ID) != nil || !ended(first) || s.sessions.get(last.ID) != last {
		t.Fatal("the oldest session was kept or the newest lost")
	}
	if got := obs.count(EventSessionEvicted + " reason=max_sessions_per_principal"); got != 20000-DefaultMaxSessionsPerPrincipal {
		t.Fatalf("%d evictions reported", got)
	}
	// Callers from other addresses are not held by this one's cap, only by
	// the global one (small here: at the global cap every initialize
	// looks through all sessions for the least recently used).
	s = New(unitDefinition(), Options{Limits: Limits{MaxSessions: 100}})
	for i := range 1000 {
		_, resp := open(t, s, "", fmt.Sprintf("192.0.2.%d:80", i%250))
		result(t, resp)
	}
	if n := s.Sessions(); n != 100 {
		t.Fatalf("%d sessions open, want the global cap 100", n)
	}
}

// TestSessionCapEvictsLRU: past the per-principal cap the principal's
// least recently used idle session ends; busy sessions are kept; when all
// are busy the new one is refused with -31429 (HTTP 429).
func TestSessionCapEvictsLRU(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		obs := &recorder{}
		s := New(unitDefinition(), Options{Limits: Limits{MaxSessionsPerPrincipal: 3, MaxSessions: 5}, Observer: obs})
		var a [3]*Session
		for i := range a {
			a[i], _ = open(t, s, "alice", "")
			time.Sleep(time.Second)
		}
		// a[0] is the oldest but was just used: a[1] is the LRU.
		result(t, handle(t, s, &inbound{Session: a[0], Auth: Principal{Subject: "alice"}}, `{"jsonrpc":"2.0","id":2,"method":"ping"}`))
		time.Sleep(time.Second)
		a3, _ := open(t, s, "alice", "")
		if !ended(a[1]) || ended(a[0]) || ended(a[2]) || ended(a3) {
			t.Fatalf("ended: %v %v %v %v, want only the least recently used (second)", ended(a[0]), ended(a[1]), ended(a[2]), ended(a3))
		}
		// A session with a request in progress is never the one ended.
		a[2].inflight.Add(1)
		a4, _ := open(t, s, "alice", "")
		if !ended(a[0]) || ended(a[2]) {
			t.Fatal("a busy session was ended, or the idle one kept")
		}
		// All busy: refused, and nothing ended.
		a3.inflight.Add(1)
		a4.inflight.Add(1)
		in := &inbound{Auth: Principal{Subject: "alice"}}
		resp, out := handleOutcome(t, s, in, initLine)
		wantError(t, resp, CodeTooManyRequests, "Too many sessions")
		if httpStatus(out) != 429 || out.retryAfter < time.Second || in.Session != nil || s.Sessions() != 3 {
			t.Fatalf("refusal: %+v, session %v, %d open", out, in.Session, s.Sessions())
		}
		if obs.count(EventLimitRefused+" limit=sessions method=initialize") != 1 {
			t.Fatalf("refusal not reported: %v", obs.events)
		}
		// The global cap ends the least recently used session of anyone:
		// bob's two fill it; alice's are busy, so bob's first makes room.
		b1, _ := open(t, s, "bob", "")
		time.Sleep(time.Second)
		open(t, s, "bob", "")
		open(t, s, "carol", "")
		if !ended(b1) || s.Sessions() != 5 || obs.count(EventSessionEvicted+" reason=max_sessions") != 1 {
			t.Fatalf("global cap: bob's first ended=%v, %d open", ended(b1), s.Sessions())
		}
	})
}

func TestSessionCapsDisabled(t *testing.T) {
	s := New(unitDefinition(), Options{Limits: Limits{MaxSessions: -1, MaxSessionsPerPrincipal: -1}})
	for range 3 * DefaultMaxSessionsPerPrincipal {
		open(t, s, "", "")
	}
	if n := s.Sessions(); n != 3*DefaultMaxSessionsPerPrincipal {
		t.Fatalf("%d sessions with the caps off", n)
	}
}

// TestSessionOwner: a session belongs to the subject that opened it.
func TestSessionOwner(t *testing.T) {
	s := New(unitDefinition(), Options{})
	sess, _ := open(t, s, "alice", "")
	if !sess.OwnedBy(Principal{Subject: "alice"}) || sess.OwnedBy(Principal{Subject: "bob"}) || sess.OwnedBy(Principal{}) {
		t.Fatal("ownership")
	}
	anon, _ := open(t, s, "", "")
	if !anon.OwnedBy(Principal{}) || anon.OwnedBy(Principal{Subject: "alice"}) {
		t.Fatal("anonymous ownership")
	}
}

package server

import (
	"testing"
	"testing/synctest"
	"time"
)

// initialize opens a legacy session the way a transport does.
func initialize(t *testing.T, s *Server) *Session {
	t.Helper()
	in := &Incoming{}
	result(t, handle(t, s, in, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`))
	if in.Session == nil {
		t.Fatal("initialize did not open a session")
	}
	return in.Session
}

func ended(s *Session) bool {
	select {
	case <-s.Done():
		return true
	default:
		return false
	}
}

func TestSessionIdleExpiry(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := New(unitDefinition(), Options{SessionIdle: 10 * time.Millisecond})
		sess := initialize(t, s)
		if s.Session(sess.ID) != sess {
			t.Fatal("a fresh session is not found")
		}
		// Requests keep it alive: each one resets the idle clock.
		for range 5 {
			time.Sleep(8 * time.Millisecond)
			result(t, handle(t, s, &Incoming{Session: sess}, `{"jsonrpc":"2.0","id":2,"method":"ping"}`))
		}
		if s.Session(sess.ID) != sess || ended(sess) {
			t.Fatal("a session used every 8ms expired with a 10ms limit")
		}
		// Looking it up is not using it.
		time.Sleep(6 * time.Millisecond)
		if s.Session(sess.ID) == nil {
			t.Fatal("expired after 6ms")
		}
		time.Sleep(6 * time.Millisecond)
		if s.Session(sess.ID) != nil {
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
		a := initialize(t, s)
		time.Sleep(20 * time.Millisecond)
		// Opening another session sweeps idle ones, at most once a minute:
		// the first sweep ran when a opened, so a is still counted.
		b := initialize(t, s)
		if s.Sessions() != 2 || ended(a) {
			t.Fatalf("sweep within the minute: sessions=%d, a ended=%v", s.Sessions(), ended(a))
		}
		time.Sleep(time.Minute)
		c := initialize(t, s)
		if s.Sessions() != 1 || !ended(a) || !ended(b) || ended(c) {
			t.Fatalf("sweep after a minute: sessions=%d, a=%v b=%v c=%v", s.Sessions(), ended(a), ended(b), ended(c))
		}
	})
}

func TestSessionIdleDisabled(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := New(unitDefinition(), Options{SessionIdle: -1})
		sess := initialize(t, s)
		time.Sleep(48 * time.Hour)
		initialize(t, s) // would sweep
		if s.Session(sess.ID) != sess || ended(sess) {
			t.Fatal("a session expired with expiry disabled")
		}
	})
}

func TestEndSession(t *testing.T) {
	s := New(unitDefinition(), Options{})
	sess := initialize(t, s)
	if s.EndSession("no-such-session") {
		t.Error("EndSession of an unknown id reported true")
	}
	if !s.EndSession(sess.ID) || !ended(sess) || s.Session(sess.ID) != nil || s.Sessions() != 0 {
		t.Error("EndSession did not end the session")
	}
	if s.EndSession(sess.ID) {
		t.Error("ending a session twice reported true")
	}
}

// TestSessionBoundToPrincipal: a session opened by one principal is not
// found by another (404, as an unknown session), so that a leaked session
// id does not let another caller act in it.
func TestSessionBoundToPrincipal(t *testing.T) {
	s := New(unitDefinition(), Options{})
	in := &Incoming{Auth: Principal{Subject: "alice"}}
	result(t, handle(t, s, in, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`))
	sess := in.Session
	if sess == nil || sess.Subject != "alice" {
		t.Fatalf("session %+v, want one bound to alice", sess)
	}
	result(t, handle(t, s, &Incoming{Session: sess, Auth: Principal{Subject: "alice"}}, `{"jsonrpc":"2.0","id":2,"method":"ping"}`))
	other := &Incoming{Session: sess, Auth: Principal{Subject: "mallory"}}
	wantError(t, handle(t, s, other, `{"jsonrpc":"2.0","id":3,"method":"ping"}`), -32600, "Session not found")
	if other.Status != 404 {
		t.Fatalf("status %d, want 404", other.Status)
	}
}

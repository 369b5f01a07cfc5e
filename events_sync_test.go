package mcpgen

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/mcpgen/mcpgen/internal/jsonrpc"
)

// deferredNotes is an EventSync that holds notes back until a reader
// catches up: it records the pending notes of the partition asked for
// (SyncEvents), or all of them (FlushEvents).
type deferredNotes struct {
	s       *Server
	mu      sync.Mutex
	pending map[string][]string // partition -> notes not recorded yet
	asked   []string            // the partitions SyncEvents was called for
	flushes int
	fail    error
}

func (d *deferredNotes) record(ctx context.Context, partition string) error {
	for _, n := range d.pending[partition] {
		if err := EmitTo(ctx, d.s, partition, "note.changed", note{n, "a"}); err != nil {
			return err
		}
	}
	delete(d.pending, partition)
	return nil
}

func (d *deferredNotes) SyncEvents(ctx context.Context, partition string) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.asked = append(d.asked, partition)
	if d.fail != nil {
		return d.fail
	}
	return d.record(ctx, partition)
}

func (d *deferredNotes) FlushEvents(ctx context.Context) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.flushes++
	for p := range d.pending {
		if err := d.record(ctx, p); err != nil {
			return err
		}
	}
	return nil
}

// TestEventSync: a poll asks the component's EventSync to catch up on its
// partition before it reads, so that it finds a deferred note, and "from
// now" starts after it; a failed catch-up fails the poll with a retryable
// error; Close flushes once.
func TestEventSync(t *testing.T) {
	st := &MemoryEventStore{}
	s := newEventsServer(t, EventOptions{Store: st})
	d := &deferredNotes{s: s, pending: map[string][]string{"": {"early"}, "other": {"elsewhere"}}}
	if err := SetEventSync(s, d); err != nil {
		t.Fatal(err)
	}
	r := result(t, evCall(t, s, alice, "events/poll", `"name":"note.changed","cursor":null`))
	if r["cursor"] != "1" {
		t.Fatalf("from now, after a note deferred before the poll: cursor %v, want 1 (after it)", r["cursor"])
	}
	d.mu.Lock()
	d.pending[""] = []string{"late"}
	d.mu.Unlock()
	r = result(t, evCall(t, s, alice, "events/poll", `"name":"note.changed","cursor":"1"`))
	evs := r["events"].([]any)
	if len(evs) != 1 || evs[0].(map[string]any)["data"].(map[string]any)["note"] != "late" {
		t.Fatalf("poll after a deferred note: %v", r)
	}
	d.mu.Lock()
	asked := strings.Join(d.asked, ",")
	d.fail = errors.New("store down")
	d.mu.Unlock()
	if asked != "," {
		t.Errorf("SyncEvents asked for partitions %q, want the poller's (\"\") twice", asked)
	}
	wantError(t, evCall(t, s, alice, "events/poll", `"name":"note.changed","cursor":"1"`), -32603, "retry")
	s.Close()
	s.Close()
	if _, newest, _ := st.Bounds(context.Background()); d.flushes != 1 || newest != 3 {
		t.Errorf("after Close: %d flushes, newest event %d; want 1 flush recording the other partition's note (3)", d.flushes, newest)
	}
	plain, _ := appsDefinition()
	p := New(plain, Options{})
	defer p.Close()
	if err := SetEventSync(p, d); err == nil {
		t.Error("SetEventSync on a server without events did not fail")
	}
}

// TestEventSyncStream: an events/stream catches up on its partition
// before its first read, so a note deferred before it opened is replayed.
func TestEventSyncStream(t *testing.T) {
	s := newEventsServer(t, EventOptions{})
	d := &deferredNotes{s: s, pending: map[string][]string{"": {"deferred"}}}
	if err := SetEventSync(s, d); err != nil {
		t.Fatal(err)
	}
	peer := &streamPeerRec{got: make(chan string, 100)}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	m, _ := jsonrpc.Decode([]byte(`{"jsonrpc":"2.0","id":"st","method":"events/stream","params":{` + modernCaps(`{}`) + `,"name":"note.changed","cursor":"0"}}`))
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.handle(ctx, &inbound{Msg: m, Auth: alice, Authenticated: true, peer: peer})
	}()
	if n := peer.next(t); !strings.HasPrefix(n, "notifications/events/active ") {
		t.Fatalf("first: %s", n)
	}
	if n := peer.next(t); !strings.HasPrefix(n, "notifications/events/event ") || !strings.Contains(n, `"note":"deferred"`) {
		t.Fatalf("the deferred note was not streamed first: %s", n)
	}
	cancel()
	<-done
}

package memory

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen"
	"github.com/mcpgen/mcpgen/components/memory/memstore"
)

// gatedEvents is an event store whose AppendFeed can be held (a pass in
// the middle of its commit) or made to fail, and counts its calls.
type gatedEvents struct {
	mcpgen.EventStore
	mu      sync.Mutex
	gate    chan struct{} // not nil: AppendFeed waits for it to close
	entered chan struct{} // gets a value when an AppendFeed reaches the gate
	fail    error
	appends int
}

func (g *gatedEvents) AppendFeed(ctx context.Context, source string, from, at int64, es []*mcpgen.EventRecord, to [][]string) error {
	g.mu.Lock()
	g.appends++
	gate, fail := g.gate, g.fail
	g.mu.Unlock()
	if fail != nil {
		g.entered <- struct{}{}
		return fail
	}
	if gate != nil {
		g.entered <- struct{}{}
		<-gate
	}
	return g.EventStore.AppendFeed(ctx, source, from, at, es, to)
}

// hold makes the next AppendFeeds wait; the returned function lets them go.
func (g *gatedEvents) hold() func() {
	gate := make(chan struct{})
	g.mu.Lock()
	g.gate = gate
	g.mu.Unlock()
	return func() {
		g.mu.Lock()
		g.gate = nil
		g.mu.Unlock()
		close(gate)
	}
}

func (g *gatedEvents) setFail(err error) {
	g.mu.Lock()
	g.fail = err
	g.mu.Unlock()
}

func (g *gatedEvents) count() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.appends
}

// relayFixture is a server with mcp-memory's events on a Routed store
// followed by RelayEvents, and the event store beneath it.
type relayFixture struct {
	r      *Routed
	srv    *mcpgen.Server
	events *gatedEvents
	log    mcpgen.EventStore
	rs     *relays
}

func newRelayFixture(t *testing.T) *relayFixture {
	t.Helper()
	ctx := context.Background()
	graphs, err := memstore.OpenGraphs(ctx, filepath.Join(t.TempDir(), "m.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { graphs.Close() })
	log := &mcpgen.MemoryEventStore{}
	events := &gatedEvents{EventStore: log, entered: make(chan struct{}, 16)}
	srv := mcpgen.New(mcpgen.Definition{Name: "relay", Events: []mcpgen.EventType{
		{Name: "entity.changed", Accepts: func(v any) bool { _, ok := v.(EntityChanged); return ok }},
		{Name: "relation.changed", Accepts: func(v any) bool { _, ok := v.(RelationChanged); return ok }},
	}}, mcpgen.Options{Events: mcpgen.EventOptions{Store: events}})
	t.Cleanup(srv.Close)
	r := &Routed{Graphs: graphs, Graph: memstore.DefaultGraph, Anonymous: "anonymous"}
	if err := r.RelayEvents(ctx, srv); err != nil {
		t.Fatal(err)
	}
	rs := r.following(srv)
	if rs == nil {
		t.Fatal("RelayEvents did not make the writes defer their events")
	}
	return &relayFixture{r: r, srv: srv, events: events, log: log, rs: rs}
}

// create commits an entity to the graph, as a tool does before changed.
func (f *relayFixture) create(t *testing.T, name string) {
	t.Helper()
	s, release, err := f.r.Graphs.Use(context.Background(), memstore.DefaultGraph)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	if _, err := s.CreateEntities(context.Background(), []memstore.Entity{{Name: name, EntityType: "t"}}); err != nil {
		t.Fatal(err)
	}
}

// logged lists the entities whose creation is in the event log, read
// from the store without catching up first.
func (f *relayFixture) logged(t *testing.T) string {
	t.Helper()
	recs, err := f.log.Events(context.Background(), "entity.changed", "", 0, 1<<62, 10_000)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range recs {
		_, rest, _ := strings.Cut(string(e.Data), `"entity":"`)
		name, _, _ := strings.Cut(rest, `"`)
		names = append(names, name)
	}
	return strings.Join(names, ",")
}

func (f *relayFixture) entered(t *testing.T) {
	t.Helper()
	select {
	case <-f.events.entered:
	case <-time.After(10 * time.Second):
		t.Fatal("no pass reached the event store")
	}
}

// TestRelayAfterTheAnswer: a write answers without waiting for its
// events' commit; the writes made while a pass commits share the next
// pass (two commits for eleven calls); a reader catching up (SyncEvents)
// finds every event of the writes acknowledged before it, in order.
func TestRelayAfterTheAnswer(t *testing.T) {
	f := newRelayFixture(t)
	ctx := context.Background()
	before := f.events.count()
	release := f.events.hold()
	f.create(t, "A")
	if err := f.rs.changed(ctx, memstore.DefaultGraph); err != nil {
		t.Fatal(err)
	}
	f.entered(t) // the pass of A holds its commit: the write was answered
	var want []string
	for i := range 10 {
		name := fmt.Sprint("B", i)
		want = append(want, name)
		f.create(t, name)
		if err := f.rs.changed(ctx, memstore.DefaultGraph); err != nil {
			t.Fatal(err)
		}
	}
	release()
	if err := f.rs.SyncEvents(ctx, ""); err != nil {
		t.Fatal(err)
	}
	if got, want := f.logged(t), "A,"+strings.Join(want, ","); got != want {
		t.Errorf("events after catching up: %s, want %s", got, want)
	}
	if n := f.events.count() - before; n != 2 {
		t.Errorf("%d event-store commits for 11 writes, want 2 (one pass, then one for the 10 writes made during it)", n)
	}
}

// TestRelayBehindBound: while a pass is stuck, maxRelayBehind writes of
// its graph answer at once; the next waits and relays itself, so that
// its answer comes with every pending event recorded.
func TestRelayBehindBound(t *testing.T) {
	f := newRelayFixture(t)
	ctx := context.Background()
	release := f.events.hold()
	f.create(t, "A")
	if err := f.rs.changed(ctx, memstore.DefaultGraph); err != nil {
		t.Fatal(err)
	}
	f.entered(t)
	f.create(t, "B")
	for range maxRelayBehind - 1 {
		if err := f.rs.changed(ctx, memstore.DefaultGraph); err != nil {
			t.Fatal(err)
		}
	}
	done := make(chan error, 1)
	go func() { done <- f.rs.changed(ctx, memstore.DefaultGraph) }()
	select {
	case err := <-done:
		t.Fatalf("write %d past a stuck pass answered (%v) before its events were recorded", maxRelayBehind+1, err)
	case <-time.After(100 * time.Millisecond):
	}
	release()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if got := f.logged(t); got != "A,B" {
		t.Errorf("events when the bounded write answered: %q, want A,B", got)
	}
}

// TestRelayFailures: a failed pass is reported by the next write, which
// relays itself, as every write does until one succeeds; then writes
// defer their events again and nothing is lost.
func TestRelayFailures(t *testing.T) {
	f := newRelayFixture(t)
	ctx := context.Background()
	f.events.setFail(errors.New("event store down"))
	f.create(t, "A")
	if err := f.rs.changed(ctx, memstore.DefaultGraph); err != nil {
		t.Fatalf("a write answered with its deferred pass's error: %v", err)
	}
	f.entered(t)
	f.rs.passes.Wait() // the failed pass ended
	f.create(t, "B")
	err := f.rs.changed(ctx, memstore.DefaultGraph)
	if err == nil || !strings.Contains(err.Error(), "event store down") {
		t.Fatalf("the write after a failed pass: %v, want the event store's error", err)
	}
	f.entered(t)
	f.events.setFail(nil)
	f.create(t, "C")
	if err := f.rs.changed(ctx, memstore.DefaultGraph); err != nil {
		t.Fatalf("the write once the event store is back: %v", err)
	}
	if got := f.logged(t); got != "A,B,C" {
		t.Errorf("events once the store is back, when the write relaying itself answered: %q, want A,B,C", got)
	}
	f.rs.mu.Lock()
	failed := f.rs.failed
	f.rs.mu.Unlock()
	if failed != nil {
		t.Errorf("after a write relayed itself successfully, passes are still taken as failing: %v", failed)
	}
	f.create(t, "D")
	if err := f.rs.changed(ctx, memstore.DefaultGraph); err != nil {
		t.Fatal(err)
	}
	if err := f.rs.SyncEvents(ctx, ""); err != nil {
		t.Fatal(err)
	}
	if got := f.logged(t); got != "A,B,C,D" {
		t.Errorf("events after catching up: %q, want A,B,C,D", got)
	}
}

// TestRelayFlushOnClose: the server's Close waits for the pass under way
// and records what is pending; a write after it records its own events
// before it answers.
func TestRelayFlushOnClose(t *testing.T) {
	f := newRelayFixture(t)
	ctx := context.Background()
	release := f.events.hold()
	f.create(t, "A")
	if err := f.rs.changed(ctx, memstore.DefaultGraph); err != nil {
		t.Fatal(err)
	}
	f.entered(t)
	f.create(t, "B")
	if err := f.rs.changed(ctx, memstore.DefaultGraph); err != nil {
		t.Fatal(err)
	}
	closed := make(chan struct{})
	go func() { f.srv.Close(); close(closed) }()
	select {
	case <-closed:
		t.Fatal("Close returned while a pass held its commit")
	case <-time.After(100 * time.Millisecond):
	}
	release()
	<-closed
	if got := f.logged(t); got != "A,B" {
		t.Errorf("events when Close returned: %q, want A,B", got)
	}
	f.create(t, "C")
	if err := f.rs.changed(ctx, memstore.DefaultGraph); err != nil {
		t.Fatal(err)
	}
	if got := f.logged(t); got != "A,B,C" {
		t.Errorf("events when a write after Close answered: %q, want A,B,C", got)
	}
}

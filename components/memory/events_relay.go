package memory

import (
	"context"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen"
)

// A write's events are recorded after its answer, by a pass over its
// graph's feed that records those of every call since the last pass in
// one transaction of the event store (relay): a write call pays its
// graph's commit only, and the event store commits once per pass rather
// than once per call. Passes over one graph run one at a time, the first
// at once, then at most one per relayInterval while writes go on. Every
// reader of events catches up first (mcpgen.EventSync: a poll or a
// stream relays its graph's feed before reading; the server flushes at
// Close), so a caller that writes and then polls sees its events; a
// webhook or an open stream hears them when the pass records them, at
// most relayInterval (plus the pass) after the write's answer. A crash
// loses nothing: the feed is written in the change's transaction, and the
// next start relays it (RelayEvents).

// relayInterval is the shortest time between the starts of two passes
// over one graph's feed: the writes of that time share the second.
const relayInterval = 20 * time.Millisecond

// maxRelayBehind bounds the calls of one graph whose events wait for a
// pass: the call that reaches it relays its graph itself before it
// answers, as every write does while passes fail.
const maxRelayBehind = 1000

// relayTimeout bounds one pass run in the background.
const relayTimeout = time.Minute

// relays schedules the passes over the feeds of a Routed's graphs for one
// server; it is the server's mcpgen.EventSync.
type relays struct {
	r   *Routed
	srv *mcpgen.Server

	mu      sync.Mutex
	pending map[string]*pendingRelay // graphs whose pass is due or under way
	closed  bool                     // FlushEvents was called: writes relay at once
	failed  error                    // the last background pass's error, until a pass succeeds
	passes  sync.WaitGroup           // the background passes
}

// pendingRelay is a graph whose pass is due or under way.
type pendingRelay struct {
	dirty  bool // a write committed since the pass under way began
	behind int  // writes since the pass under way began
}

// follow makes r's writes on srv defer their events to passes (see
// above), and installs the passes as srv's mcpgen.EventSync.
func (r *Routed) follow(srv *mcpgen.Server) error {
	rs := &relays{r: r, srv: srv, pending: map[string]*pendingRelay{}}
	if err := mcpgen.SetEventSync(srv, rs); err != nil {
		return err
	}
	r.follows.Store(rs)
	return nil
}

// following returns the passes of r's graphs on srv, nil when its writes
// record their own events (RelayEvents was not called with srv).
func (r *Routed) following(srv *mcpgen.Server) *relays {
	if rs := r.follows.Load(); rs != nil && rs.srv == srv {
		return rs
	}
	return nil
}

// changed schedules the pass that records the events of graph's change
// just committed. It relays at once, returning the pass's error, while
// passes fail, once the server is closing, or when maxRelayBehind calls
// wait.
func (rs *relays) changed(ctx context.Context, graph string) error {
	rs.mu.Lock()
	if rs.closed || rs.failed != nil {
		rs.mu.Unlock()
		return rs.relayNow(ctx, graph)
	}
	p := rs.pending[graph]
	if p == nil {
		rs.pending[graph] = &pendingRelay{}
		rs.passes.Add(1)
		rs.mu.Unlock()
		go rs.run(graph)
		return nil
	}
	p.dirty = true
	p.behind++
	full := p.behind >= maxRelayBehind
	rs.mu.Unlock()
	if full {
		return rs.relayNow(ctx, graph)
	}
	return nil
}

// run passes over graph's feed until a pass finds no write made while it
// ran, relayInterval apart.
func (rs *relays) run(graph string) {
	defer rs.passes.Done()
	for {
		rs.mu.Lock()
		p := rs.pending[graph]
		p.dirty, p.behind = false, 0
		rs.mu.Unlock()
		began := time.Now()
		ctx, cancel := context.WithTimeout(context.Background(), relayTimeout)
		err := rs.r.relay(ctx, rs.srv, graph)
		cancel()
		if err == nil {
			time.Sleep(relayInterval - time.Since(began))
		}
		rs.mu.Lock()
		if err != nil {
			// The next write relays itself and reports it.
			rs.failed = err
		}
		if err != nil || !p.dirty || rs.closed {
			delete(rs.pending, graph)
			rs.mu.Unlock()
			return
		}
		rs.mu.Unlock()
	}
}

// relayNow relays graph's feed in the caller, which waits for a pass
// under way: what it records covers every write pending.
func (rs *relays) relayNow(ctx context.Context, graph string) error {
	rs.mu.Lock()
	if p := rs.pending[graph]; p != nil {
		p.dirty, p.behind = false, 0
	}
	rs.mu.Unlock()
	err := rs.r.relay(ctx, rs.srv, graph)
	if ctx.Err() == nil { // a caller that went away says nothing of the passes
		rs.mu.Lock()
		rs.failed = err
		rs.mu.Unlock()
	}
	return err
}

// SyncEvents implements mcpgen.EventSync: it relays the feed of the
// partition's graph, whether or not a write of this process left it
// pending, so that a reader also sees the events of writes another
// replica acknowledged and has not relayed yet.
func (rs *relays) SyncEvents(ctx context.Context, partition string) error {
	graph := partition
	if graph == "" {
		graph = rs.r.Graph
	}
	return rs.relayNow(ctx, graph)
}

// FlushEvents implements mcpgen.EventSync: it relays every graph with a
// pass due or under way and waits for the background passes to end;
// writes made afterwards relay at once.
func (rs *relays) FlushEvents(ctx context.Context) error {
	rs.mu.Lock()
	rs.closed = true
	graphs := make([]string, 0, len(rs.pending))
	for g := range rs.pending {
		graphs = append(graphs, g)
	}
	rs.mu.Unlock()
	var first error
	for _, g := range graphs {
		if err := rs.relayNow(ctx, g); err != nil && first == nil {
			first = err
		}
	}
	rs.passes.Wait()
	return first
}

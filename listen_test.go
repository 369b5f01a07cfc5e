package mcpgen

import (
	"context"
	"fmt"
	"testing"

	"github.com/mcpgen/mcpgen/internal/jsonrpc"
)

// A subscriptions/listen stream whose request was cancelled gets nothing
// more, even before its handler has returned and unregistered it.
func TestListenCancelledGetsNothing(t *testing.T) {
	s := New(unitDefinition(), Options{})
	peer := &recordingPeer{acked: make(chan struct{})}
	ctx, cancel := context.WithCancel(context.Background())
	m, err := jsonrpc.Decode([]byte(`{"jsonrpc":"2.0","id":"l1","method":"subscriptions/listen","params":{"notifications":{"toolsListChanged":true},` + modernMeta + `}}`))
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan *jsonrpc.Message)
	go func() { done <- s.handle(ctx, &inbound{Msg: m, peer: peer}) }()
	<-peer.acked
	s.ListChanged("tools")
	// Cancelled but (we make sure) still registered: the handler cannot
	// unregister while we hold the lock.
	s.subs.mu.Lock()
	cancel()
	s.subs.mu.Unlock()
	for range 10 {
		s.ListChanged("tools")
	}
	<-done
	s.ListChanged("tools")
	// The same, without depending on the scheduler: a stream that is
	// registered and acknowledged, but whose request was cancelled.
	cancelled, stop := context.WithCancel(context.Background())
	stop()
	ready := make(chan struct{})
	close(ready)
	s.subs.mu.Lock()
	s.subs.listeners[&listener{id: []byte(`"l2"`), filter: listenFilter{ToolsListChanged: true}, peer: peer, ctx: cancelled, ready: ready}] = struct{}{}
	s.subs.mu.Unlock()
	for range 10 {
		s.ListChanged("tools")
	}
	got := peer.notifications()
	want := []string{
		`notifications/subscriptions/acknowledged {"_meta":{"io.modelcontextprotocol/subscriptionId":"l1"},"notifications":{"toolsListChanged":true}}`,
		`notifications/tools/list_changed {"_meta":{"io.modelcontextprotocol/subscriptionId":"l1"}}`,
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("notifications:\n got %q\nwant %q", got, want)
	}
}

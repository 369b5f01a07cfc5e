package mcpgen

import (
	"context"
	"fmt"
	"strings"
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
	go func() { done <- answerOnly(s.handle(ctx, &inbound{Msg: m, peer: peer})) }()
	<-peer.acked
	s.ListChanged("tools")
	// Cancelled but (we make sure) still registered: the handler cannot
	// unregister while we hold the lock.
	s.notes.mu.Lock()
	cancel()
	s.notes.mu.Unlock()
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
	s.notes.mu.Lock()
	s.notes.listeners[&listener{id: []byte(`"l2"`), filter: listenFilter{ToolsListChanged: true}, peer: peer, ctx: cancelled, ready: ready}] = struct{}{}
	s.notes.mu.Unlock()
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

// A listen stream hears only of its caller's own tasks: bob, who cannot
// tasks/get alice's task, does not get its notifications (and its result)
// by naming it in taskIds either.
func TestListenOnlyOwnTasks(t *testing.T) {
	s := New(unitDefinition(), Options{Tasks: true})
	alice, bob := &inbound{Auth: Principal{Subject: "alice"}}, &inbound{Auth: Principal{Subject: "bob"}}
	created := result(t, handle(t, s, alice, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"interview","arguments":{},`+modernMeta+`}}`))
	id := created["taskId"].(string)
	listen := func(who Principal) (*recordingPeer, context.CancelFunc, chan *jsonrpc.Message) {
		peer := &recordingPeer{acked: make(chan struct{})}
		ctx, cancel := context.WithCancel(context.Background())
		m, err := jsonrpc.Decode([]byte(`{"jsonrpc":"2.0","id":"l","method":"subscriptions/listen","params":{"notifications":{"taskIds":["` + id + `"]},` + modernMeta + `}}`))
		if err != nil {
			t.Fatal(err)
		}
		done := make(chan *jsonrpc.Message, 1)
		go func() { done <- answerOnly(s.handle(ctx, &inbound{Msg: m, peer: peer, Auth: who})) }()
		<-peer.acked
		return peer, cancel, done
	}
	bobs, stopBob, bobDone := listen(bob.Auth)
	alices, stopAlice, aliceDone := listen(alice.Auth)
	result(t, handle(t, s, alice, `{"jsonrpc":"2.0","id":2,"method":"tasks/cancel","params":{"taskId":"`+id+`",`+modernMeta+`}}`))
	stopBob()
	stopAlice()
	<-bobDone
	<-aliceDone
	if got := fmt.Sprint(bobs.notifications()); got != `[notifications/subscriptions/acknowledged {"_meta":{"io.modelcontextprotocol/subscriptionId":"l"},"notifications":{}}]` {
		t.Errorf("bob's stream: %s", got)
	}
	if got := fmt.Sprint(alices.notifications()); !strings.Contains(got, `"taskIds":["`+id+`"]`) || !strings.Contains(got, "notifications/tasks") {
		t.Errorf("alice's stream: %s", got)
	}

	// The ids one stream may name are bounded.
	ids := strings.Repeat(`"x",`, maxListenTasks) + `"x"`
	resp := handle(t, s, bob, `{"jsonrpc":"2.0","id":3,"method":"subscriptions/listen","params":{"notifications":{"taskIds":[`+ids+`]},`+modernMeta+`}}`)
	wantError(t, resp, jsonrpc.CodeInvalidParams, "at most 100 taskIds")
}

package mcpgen

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/cluster"
	"github.com/mcpgen/mcpgen/internal/jsonrpc"
)

// gatedPublish records what its replica publishes; the first Publish
// waits until release is closed.
type gatedPublish struct {
	cluster.Backend
	entered, release chan struct{}
	once             sync.Once
	mu               sync.Mutex
	sent             []string // "topic payload"
}

func (g *gatedPublish) Publish(ctx context.Context, topic string, p []byte) error {
	g.once.Do(func() {
		close(g.entered)
		<-g.release
	})
	g.mu.Lock()
	g.sent = append(g.sent, topic[strings.LastIndexByte(topic, '/')+1:]+" "+string(p))
	g.mu.Unlock()
	return g.Backend.Publish(ctx, topic, p)
}

func (g *gatedPublish) published() []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]string(nil), g.sent...)
}

// listenOn opens a subscriptions/listen stream on s for the tools list and
// the resource test://info, and returns its peer once acknowledged.
func listenOn(t *testing.T, s *Server) *streamPeerRec {
	t.Helper()
	m, err := jsonrpc.Decode([]byte(`{"jsonrpc":"2.0","id":"l","method":"subscriptions/listen","params":{"notifications":{"toolsListChanged":true,"resourceSubscriptions":["test://info"]},` + modernMeta + `}}`))
	if err != nil {
		t.Fatal(err)
	}
	peer := &streamPeerRec{got: make(chan string, 100)}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.handle(ctx, &inbound{Msg: m, peer: peer})
	}()
	t.Cleanup(func() { cancel(); <-done })
	if n := peer.next(t); !strings.HasPrefix(n, "notifications/subscriptions/acknowledged ") {
		t.Fatalf("first on the stream: %s", n)
	}
	return peer
}

// TestClusterNotificationsMerged: notifications made while the replica's
// previous publication is on its way go together in the next one, equal
// ones once, in order; one equal to a notification already on its way is
// not merged into it. A listener on another replica gets each.
func TestClusterNotificationsMerged(t *testing.T) {
	mem := cluster.NewMemory()
	def := newFixture().definition(features{})
	a := &gatedPublish{Backend: mem.Replica(), entered: make(chan struct{}), release: make(chan struct{})}
	srvA := New(def, Options{Cluster: a})
	bb := mem.Replica()
	srvB := New(def, Options{Cluster: bb})
	t.Cleanup(func() { srvB.Close(); _ = a.Close(); _ = bb.Close() })
	peer := listenOn(t, srvB)

	srvA.ListChanged("tools")
	<-a.entered // on its way, and held there
	for range 3 {
		srvA.ListChanged("tools")
	}
	srvA.ResourceUpdated("test://info")
	srvA.ListChanged("tools")
	close(a.release)

	for i, want := range []string{
		"notifications/tools/list_changed ",
		"notifications/tools/list_changed ",
		`notifications/resources/updated {"_meta":{"io.modelcontextprotocol/subscriptionId":"l"},"uri":"test://info"}`,
	} {
		if n := peer.next(t); !strings.HasPrefix(n, want) {
			t.Fatalf("notification %d on B: %s, want %s...", i+1, n, want)
		}
	}
	srvA.Close() // publishes anything left
	sent := a.published()
	if len(sent) != 2 || !strings.HasPrefix(sent[0], topicNotify+" ") || !strings.HasPrefix(sent[1], topicNotes+" ") {
		t.Fatalf("published %q, want one notification, then the rest in one message", sent)
	}
	var batch []notifyMsg
	if err := json.Unmarshal([]byte(strings.TrimPrefix(sent[1], topicNotes+" ")), &batch); err != nil {
		t.Fatal(err)
	}
	if len(batch) != 2 || batch[0].Method != "notifications/tools/list_changed" || batch[1].Key != "test://info" {
		t.Fatalf("the second message: %+v, want the tools list once, then the resource", batch)
	}
	select {
	case n := <-peer.got:
		t.Fatalf("one more notification on B: %s", n)
	default:
	}
}

// TestClusterCloseFlushesNotifications: a notification still waiting for
// its turn when the server closes is published before Close returns.
func TestClusterCloseFlushesNotifications(t *testing.T) {
	mem := cluster.NewMemory()
	def := newFixture().definition(features{})
	a := &gatedPublish{Backend: mem.Replica(), entered: make(chan struct{}), release: make(chan struct{})}
	close(a.release)
	srvA := New(def, Options{Cluster: a})
	t.Cleanup(func() { _ = a.Close() })
	srvA.cluster.notifyEvery = time.Hour // the second would wait an hour
	srvA.ListChanged("tools")
	eventually(t, "the first publication", func() bool { return len(a.published()) == 1 })
	srvA.ListChanged("prompts")
	srvA.Close()
	sent := a.published()
	if len(sent) != 2 || !strings.Contains(sent[1], "notifications/prompts/list_changed") {
		t.Fatalf("published %q, want the prompts list's change published at Close", sent)
	}
}

// TestClusterNotificationsBounded: more notifications than one message
// holds go in several, each within maxNotesBytes, all of them in order.
func TestClusterNotificationsBounded(t *testing.T) {
	mem := cluster.NewMemory()
	a := &gatedPublish{Backend: mem.Replica(), entered: make(chan struct{}), release: make(chan struct{})}
	srvA := New(newFixture().definition(features{}), Options{Cluster: a})
	t.Cleanup(func() { _ = a.Close() })
	srvA.ListChanged("tools")
	<-a.entered
	const n = 300
	for i := range n {
		srvA.ResourceUpdated(fmt.Sprintf("test://resource/%03d/%s", i, strings.Repeat("x", 60)))
	}
	close(a.release)
	srvA.Close()
	sent := a.published()
	if len(sent) < 3 {
		t.Fatalf("%d messages, want the 300 notifications split over several", len(sent))
	}
	next := 0
	for _, s := range sent[1:] {
		topic, payload, _ := strings.Cut(s, " ")
		if topic != topicNotes || len(payload) > maxNotesBytes {
			t.Fatalf("a message on %s of %d bytes, want %s within %d", topic, len(payload), topicNotes, maxNotesBytes)
		}
		var batch []notifyMsg
		if err := json.Unmarshal([]byte(payload), &batch); err != nil {
			t.Fatal(err)
		}
		for _, m := range batch {
			if want := fmt.Sprintf("test://resource/%03d/", next); !strings.HasPrefix(m.Key, want) {
				t.Fatalf("notification %d is about %s, want %s...", next, m.Key, want)
			}
			next++
		}
	}
	if next != n {
		t.Fatalf("%d notifications published, want %d", next, n)
	}
}

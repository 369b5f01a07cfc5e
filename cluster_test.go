package mcpgen

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/internal/cluster"
	"github.com/mcpgen/mcpgen/internal/jsonrpc"
	"github.com/mcpgen/mcpgen/internal/testutil/rrproxy"
)

// TestClusterInProcess runs three replicas of the fixture server in this
// process on one cluster.Memory store, behind the round-robin proxy, and
// drives them with the official Go SDK as a legacy (2025-11-25) client:
// every request goes to another replica, so the session, its log level and
// subscriptions, the elicitation answer POSTed to another replica than the
// one waiting for it, and the notifications all have to cross replicas.
func TestClusterInProcess(t *testing.T) {
	proxy, failed := inProcessCluster(t)

	logs := make(chan string, 16)
	updated := make(chan string, 16)
	client := mcp.NewClient(&mcp.Implementation{Name: "legacy", Version: "1"}, &mcp.ClientOptions{
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": "Ada"}}, nil
		},
		LoggingMessageHandler: func(_ context.Context, r *mcp.LoggingMessageRequest) {
			logs <- string(r.Params.Level)
		},
		ResourceUpdatedHandler: func(_ context.Context, r *mcp.ResourceUpdatedNotificationRequest) {
			updated <- r.Params.URI
		},
	})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: proxy.URL()}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	text := func(name string, args map[string]any) string {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return res.Content[0].(*mcp.TextContent).Text
	}

	for i := 0; i < 3; i++ { // three times: the waiting replica differs
		if got := text("ask_name", map[string]any{}); got != "Hello, Ada!" {
			t.Fatalf("ask_name: %q", got)
		}
	}
	if err := cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: "info"}); err != nil {
		t.Fatal(err)
	}
	text("log_steps", map[string]any{})
	for _, want := range []string{"info", "warning"} { // not debug: below the level
		select {
		case got := <-logs:
			if got != want {
				t.Fatalf("log level %q, want %q", got, want)
			}
		case <-ctx.Done():
			t.Fatalf("log %s never arrived", want)
		}
	}
	if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: "test://info"}); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		text("notify_change", map[string]any{"uri": "test://info"})
		select {
		case got := <-updated:
			if got != "test://info" {
				t.Fatalf("updated %q", got)
			}
		case <-ctx.Done():
			t.Fatalf("resources/updated %d never arrived", i)
		}
	}
	text("notify_change", map[string]any{"uri": "test://other"}) // not subscribed
	if err := cs.Unsubscribe(ctx, &mcp.UnsubscribeParams{URI: "test://info"}); err != nil {
		t.Fatal(err)
	}
	text("notify_change", map[string]any{"uri": "test://info"})
	text("echo", map[string]any{"text": "barrier"})
	select {
	case got := <-updated:
		t.Fatalf("resources/updated %q after unsubscribing", got)
	default:
	}

	// A cancellation POSTed to another replica stops the call where it
	// runs (slow_report blocks until cancelled).
	cctx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(cctx, &mcp.CallToolParams{Name: "slow_report", Arguments: map[string]any{"topic": "x"}})
		done <- err
	}()
	time.Sleep(100 * time.Millisecond) // let the call start
	stop()
	<-done
	for failed.calls.Load() == 0 {
		select {
		case <-ctx.Done():
			t.Fatal("the cancelled call kept running on its replica")
		case <-time.After(10 * time.Millisecond):
		}
	}

	for i, h := range proxy.Hits() {
		if h == 0 {
			t.Fatalf("replica %d got no request: %v", i, proxy.Hits())
		}
	}
}

// counting wraps a backend and counts the calls that reach shared state.
type counting struct {
	cluster.Backend
	n atomic.Int64
}

func (c *counting) LoadSession(ctx context.Context, id string) (cluster.Session, error) {
	c.n.Add(1)
	return c.Backend.LoadSession(ctx, id)
}
func (c *counting) PutTask(ctx context.Context, tk cluster.Task) (bool, error) {
	c.n.Add(1)
	return c.Backend.PutTask(ctx, tk)
}
func (c *counting) LoadTask(ctx context.Context, id string) (cluster.Task, error) {
	c.n.Add(1)
	return c.Backend.LoadTask(ctx, id)
}
func (c *counting) Publish(ctx context.Context, topic string, p []byte) error {
	c.n.Add(1)
	return c.Backend.Publish(ctx, topic, p)
}
func (c *counting) CreateSession(ctx context.Context, s cluster.Session) error {
	c.n.Add(1)
	return c.Backend.CreateSession(ctx, s)
}

// TestClusterStatelessPaysNothing: stateless calls that touch no shared
// state (list, call, read, paginate) never reach the backend; a call that
// notifies does (soon after its answer).
func TestClusterStatelessPaysNothing(t *testing.T) {
	b := &counting{Backend: cluster.NewMemory().Replica()}
	srv := New(newFixture().definition(features{}), Options{Cluster: b, Tasks: true})
	defer srv.Close()
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
	for i, line := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{` + meta + `}}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"},` + meta + `}}`,
		`{"jsonrpc":"2.0","id":3,"method":"resources/read","params":{"uri":"test://info",` + meta + `}}`,
		`{"jsonrpc":"2.0","id":4,"method":"server/discover","params":{` + meta + `}}`,
	} {
		m, err := jsonrpc.Decode([]byte(line))
		if err != nil {
			t.Fatal(err)
		}
		resp := answerOnly(srv.handle(context.Background(), &inbound{Msg: m}))
		if resp == nil || resp.Error != nil {
			t.Fatalf("call %d: %+v", i, resp)
		}
	}
	if n := b.n.Load(); n != 0 {
		t.Fatalf("stateless calls reached the backend %d times, want 0", n)
	}
	m, _ := jsonrpc.Decode([]byte(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"notify_change","arguments":{"uri":"test://info"},` + meta + `}}`))
	if resp := answerOnly(srv.handle(context.Background(), &inbound{Msg: m})); resp.Error != nil {
		t.Fatal(resp.Error)
	}
	// Published after the answer, from the outbox.
	for deadline := time.Now().Add(5 * time.Second); b.n.Load() == 0; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("a notifying call did not publish to the other replicas")
		}
	}
}

// failedCalls counts tools/call requests that ended in an error (a
// cancelled call does).
type failedCalls struct{ calls atomic.Int64 }

func (f *failedCalls) Event(name string, tags ...Tag) {
	if name == EventRequestError && len(tags) > 0 && tags[0].Value == "tools/call" {
		f.calls.Add(1)
	}
}

func (f *failedCalls) Timing(string, time.Duration, ...Tag) {}

// inProcessCluster starts three replicas of the fixture on one
// cluster.Memory store behind the round-robin proxy.
func inProcessCluster(t *testing.T) (*rrproxy.Proxy, *failedCalls) {
	mem := cluster.NewMemory()
	fx := newFixture()
	failed := &failedCalls{}
	var backends []string
	for i := 0; i < 3; i++ {
		b := mem.Replica()
		srv := New(fx.definition(features{}), Options{Cluster: b, Tasks: true, Observer: failed})
		hs := httptest.NewServer(HTTPHandler(srv, HTTPOptions{}))
		t.Cleanup(func() { srv.Close(); hs.Close(); _ = b.Close() })
		backends = append(backends, hs.URL)
	}
	proxy, err := rrproxy.Start(backends...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(proxy.Close)
	// Runs first: a blocked slow_report must not keep the servers open.
	t.Cleanup(func() { fx.gateOnce.Do(func() { close(fx.gate) }) })
	return proxy, failed
}

// TestClusterDeleteEndsRemoteCalls: a DELETE that reaches another replica
// ends the session there too, with the requests it was running.
func TestClusterDeleteEndsRemoteCalls(t *testing.T) {
	proxy, failed := inProcessCluster(t)
	send := func(sid, body string) (*http.Response, error) {
		req, _ := http.NewRequest("POST", proxy.URL(), strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if sid != "" {
			req.Header.Set("Mcp-Session-Id", sid)
			req.Header.Set("MCP-Protocol-Version", "2025-11-25")
		}
		return http.DefaultClient.Do(req)
	}
	post := func(sid, body string) *http.Response {
		resp, err := send(sid, body)
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	resp := post("", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`)
	resp.Body.Close()
	sid := resp.Header.Get("Mcp-Session-Id")
	if sid == "" {
		t.Fatal("no session")
	}
	post(sid, `{"jsonrpc":"2.0","method":"notifications/initialized"}`).Body.Close()
	running := make(chan struct{})
	go func() {
		defer close(running)
		resp, err := send(sid, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"slow_report","arguments":{"topic":"x"}}}`)
		if err == nil { // a cancelled legacy call is not answered: EOF is fine
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
	}()
	time.Sleep(100 * time.Millisecond) // let the call start
	req, _ := http.NewRequest("DELETE", proxy.URL(), nil)
	req.Header.Set("Mcp-Session-Id", sid)
	req.Header.Set("MCP-Protocol-Version", "2025-11-25")
	dresp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	dresp.Body.Close()
	if dresp.StatusCode != http.StatusNoContent {
		t.Fatalf("DELETE: %d", dresp.StatusCode)
	}
	if h := proxy.Hits(); h[2] != 1 || h[0] != 2 {
		t.Fatalf("the call and the DELETE did not reach different replicas: %v", h)
	}
	deadline := time.Now().Add(10 * time.Second)
	for failed.calls.Load() == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the deleted session's call kept running on its replica")
		}
		time.Sleep(10 * time.Millisecond)
	}
	<-running
	// Every replica (three pings, round robin) has ended the session.
	for i := range 3 {
		resp := post(sid, `{"jsonrpc":"2.0","id":3,"method":"ping"}`)
		resp.Body.Close()
		if resp.StatusCode != http.StatusNotFound {
			t.Fatalf("ping %d after the DELETE: %d, want 404", i, resp.StatusCode)
		}
	}
}

// TestClusterStaleSessionMessage: a replica's message about a session
// change can arrive after a later change made on this replica (here: the
// save of notifications/initialized, published by another replica before
// the client subscribed on this one, arrives after the subscription). The
// replica must keep the subscription the backend holds, not take the
// stale record: notifications for the resource still reach the session's
// GET stream.
func TestClusterStaleSessionMessage(t *testing.T) {
	mem := cluster.NewMemory()
	b, other := mem.Replica(), mem.Replica()
	def := newFixture().definition(features{})
	srv := New(def, Options{Cluster: b})
	hs := httptest.NewServer(HTTPHandler(srv, HTTPOptions{}))
	t.Cleanup(func() { hs.Close(); srv.Close(); _ = b.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	send := legacySender(ctx, t, hs.URL)
	resp := send("POST", "", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`)
	resp.Body.Close()
	sid := resp.Header.Get("Mcp-Session-Id")
	if sid == "" {
		t.Fatal("no session")
	}
	send("POST", sid, `{"jsonrpc":"2.0","method":"notifications/initialized"}`).Body.Close()
	stale, err := other.LoadSession(ctx, sid)
	if err != nil || !stale.Initialized || len(stale.Subscribed) != 0 {
		t.Fatalf("session before the subscription: %+v %v", stale, err)
	}
	if resp := send("POST", sid, `{"jsonrpc":"2.0","id":2,"method":"resources/subscribe","params":{"uri":"test://info"}}`); resp.StatusCode != 200 {
		t.Fatalf("resources/subscribe: %d", resp.StatusCode)
	} else {
		resp.Body.Close()
	}
	get := send("GET", sid, "")
	defer get.Body.Close()
	if get.StatusCode != 200 {
		t.Fatalf("GET: %d", get.StatusCode)
	}
	updated := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(get.Body)
		for sc.Scan() {
			if strings.Contains(sc.Text(), `"notifications/resources/updated"`) {
				close(updated)
				return
			}
		}
	}()

	// The other replica's late message, then (same publisher, so after
	// it) a notification for the resource.
	prefix := "mcp/" + def.Name + "/"
	raw, _ := json.Marshal(stale)
	if err := other.Publish(ctx, prefix+"session", raw); err != nil {
		t.Fatal(err)
	}
	if err := other.Publish(ctx, prefix+"notify", []byte(`{"method":"notifications/resources/updated","key":"test://info","params":{"uri":"test://info"}}`)); err != nil {
		t.Fatal(err)
	}
	select {
	case <-updated:
	case <-ctx.Done():
		t.Fatal("the update never reached the subscribed session: a stale session message undid its subscription")
	}
	if rec, err := other.LoadSession(ctx, sid); err != nil || len(rec.Subscribed) != 1 {
		t.Fatalf("stored session: %+v %v", rec, err)
	}
}

// TestClusterConcurrentSessionChanges: two replicas change one legacy
// session at once (resources/subscribe to different URIs, many times
// over); every change stays in the shared store and in both replicas'
// copies, which a save of the whole session would lose.
func TestClusterConcurrentSessionChanges(t *testing.T) {
	mem := cluster.NewMemory()
	def := newFixture().definition(features{})
	var urls []string
	var servers []*Server
	for range 2 {
		b := mem.Replica()
		srv := New(def, Options{Cluster: b})
		hs := httptest.NewServer(HTTPHandler(srv, HTTPOptions{}))
		t.Cleanup(func() { hs.Close(); srv.Close(); _ = b.Close() })
		urls, servers = append(urls, hs.URL), append(servers, srv)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	post := func(url, sid, body string) {
		t.Helper()
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if sid != "" {
			req.Header.Set("Mcp-Session-Id", sid)
			req.Header.Set("MCP-Protocol-Version", "2025-11-25")
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Error(err)
			return
		}
		resp.Body.Close()
		if resp.StatusCode/100 != 2 {
			t.Errorf("%s: HTTP %d", body, resp.StatusCode)
		}
	}
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, urls[0], strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	sid := resp.Header.Get("Mcp-Session-Id")
	for _, u := range urls { // both replicas hold the session now
		post(u, sid, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	}
	const each = 10
	var wg sync.WaitGroup
	for i := range each {
		for r, u := range urls {
			wg.Add(1)
			go func() {
				defer wg.Done()
				post(u, sid, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"resources/subscribe","params":{"uri":"test://r%d/%d"}}`, 10+i*2+r, r, i))
			}()
		}
	}
	wg.Wait()
	stored, err := mem.Replica().LoadSession(ctx, sid)
	if err != nil {
		t.Fatal(err)
	}
	if len(stored.Subscribed) != 2*each {
		t.Fatalf("%d subscriptions stored after %d made on two replicas at once: %v", len(stored.Subscribed), 2*each, stored.Subscribed)
	}
	// Each replica's copy follows the other's changes (published, so
	// asynchronously).
	for r, srv := range servers {
		sess := srv.sessions.cached(sid)
		if sess == nil {
			t.Fatalf("replica %d no longer holds the session", r)
		}
		missing := func() string {
			for i := range each {
				for other := range urls {
					if uri := fmt.Sprintf("test://r%d/%d", other, i); !sess.isSubscribed(uri) {
						return uri
					}
				}
			}
			return ""
		}
		for deadline := time.Now().Add(5 * time.Second); missing() != "" && time.Now().Before(deadline); {
			time.Sleep(10 * time.Millisecond)
		}
		if uri := missing(); uri != "" {
			t.Errorf("replica %d's copy is not subscribed to %s", r, uri)
		}
	}
}

// legacySender returns a function that sends one legacy (2025-11-25)
// HTTP request to url, in session sid when it is set.
func legacySender(ctx context.Context, t *testing.T, url string) func(method, sid, body string) *http.Response {
	return func(method, sid, body string) *http.Response {
		t.Helper()
		req, _ := http.NewRequestWithContext(ctx, method, url, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if sid != "" {
			req.Header.Set("Mcp-Session-Id", sid)
			req.Header.Set("MCP-Protocol-Version", "2025-11-25")
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
}

// flaky wraps a backend whose Publish fails while down is set, as when
// the shared store cannot be reached.
type flaky struct {
	cluster.Backend
	down atomic.Bool
}

func (f *flaky) Publish(ctx context.Context, topic string, p []byte) error {
	if f.down.Load() {
		return errors.New("connection refused")
	}
	return f.Backend.Publish(ctx, topic, p)
}

// TestClusterNotificationsSurviveOutage: a resource changes on replica A
// while A cannot publish; the client subscribed on replica B is told once
// A can again. When more changes pile up than A keeps, B's client is told
// to read again everything it watches.
func TestClusterNotificationsSurviveOutage(t *testing.T) {
	mem := cluster.NewMemory()
	def := newFixture().definition(features{})
	a := &flaky{Backend: mem.Replica()}
	srvA := New(def, Options{Cluster: a})
	bb := mem.Replica()
	srvB := New(def, Options{Cluster: bb})
	hs := httptest.NewServer(HTTPHandler(srvB, HTTPOptions{}))
	t.Cleanup(func() { hs.Close(); srvA.Close(); srvB.Close(); _ = a.Close(); _ = bb.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	send := legacySender(ctx, t, hs.URL)
	resp := send("POST", "", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`)
	resp.Body.Close()
	sid := resp.Header.Get("Mcp-Session-Id")
	send("POST", sid, `{"jsonrpc":"2.0","method":"notifications/initialized"}`).Body.Close()
	send("POST", sid, `{"jsonrpc":"2.0","id":2,"method":"resources/subscribe","params":{"uri":"test://info"}}`).Body.Close()
	get := send("GET", sid, "")
	defer get.Body.Close()
	updates := make(chan string, 16)
	go func() {
		sc := bufio.NewScanner(get.Body)
		for sc.Scan() {
			if strings.Contains(sc.Text(), `"notifications/resources/updated"`) {
				updates <- sc.Text()
			}
		}
	}()
	expect := func(what string, want bool) {
		t.Helper()
		wait := 5 * time.Second
		if !want {
			wait = 300 * time.Millisecond
		}
		select {
		case u := <-updates:
			if !want {
				t.Fatalf("%s: notified while the store was down: %s", what, u)
			}
		case <-time.After(wait):
			if want {
				t.Fatalf("%s: the client was not told", what)
			}
		}
	}

	a.down.Store(true)
	srvA.ResourceUpdated("test://info")
	expect("during the outage", false)
	a.down.Store(false)
	expect("after the outage", true)

	// More changes than A keeps (none of them to test://info): the oldest
	// are gone, so every replica reports every resource its clients
	// subscribed to updated.
	a.down.Store(true)
	for i := range maxOutbox + 1 {
		srvA.ResourceUpdated(fmt.Sprintf("test://other/%d", i))
	}
	a.down.Store(false)
	expect("after an outage longer than the outbox", true)
}

// heldEnds delays the session ends its replica hears until the replica
// has answered one more request, or a second has passed: the worst case
// of a message slow to arrive.
type heldEnds struct {
	cluster.Backend
	armed    atomic.Bool
	once     sync.Once
	answered chan struct{}
}

func (h *heldEnds) Subscribe(prefix string, fn func(cluster.Message)) func() {
	return h.Backend.Subscribe(prefix, func(m cluster.Message) {
		if strings.HasSuffix(m.Topic, "/"+topicEnd) {
			select {
			case <-h.answered:
			case <-time.After(time.Second):
			}
		}
		fn(m)
	})
}

// after wraps the replica's handler: once armed, its first answer lets
// the held ends through.
func (h *heldEnds) after(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		next.ServeHTTP(w, r)
		if h.armed.Load() {
			h.once.Do(func() { close(h.answered) })
		}
	})
}

// TestClusterDeleteEndsSessionEverywhere: a DELETE answered on replica A
// has ended the session on replica B, which had it cached, even when the
// news reaches B late: the very next request on B is 404.
func TestClusterDeleteEndsSessionEverywhere(t *testing.T) {
	mem := cluster.NewMemory()
	def := newFixture().definition(features{})
	a := mem.Replica()
	srvA := New(def, Options{Cluster: a})
	hsA := httptest.NewServer(HTTPHandler(srvA, HTTPOptions{}))
	b := &heldEnds{Backend: mem.Replica(), answered: make(chan struct{})}
	srvB := New(def, Options{Cluster: b})
	hsB := httptest.NewServer(b.after(HTTPHandler(srvB, HTTPOptions{})))
	t.Cleanup(func() {
		hsA.Close()
		hsB.Close()
		srvA.Close()
		srvB.Close()
		_ = a.Close()
		_ = b.Close()
	})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	onA, onB := legacySender(ctx, t, hsA.URL), legacySender(ctx, t, hsB.URL)
	resp := onA("POST", "", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`)
	resp.Body.Close()
	sid := resp.Header.Get("Mcp-Session-Id")
	onA("POST", sid, `{"jsonrpc":"2.0","method":"notifications/initialized"}`).Body.Close()
	if resp := onB("POST", sid, `{"jsonrpc":"2.0","id":2,"method":"ping"}`); resp.StatusCode != http.StatusOK {
		t.Fatalf("ping on B before the DELETE: %d", resp.StatusCode)
	} else {
		resp.Body.Close()
	}
	if srvB.sessions.cached(sid) == nil {
		t.Fatal("B did not cache the session")
	}

	b.armed.Store(true)
	if resp := onA("DELETE", sid, ""); resp.StatusCode != http.StatusNoContent {
		t.Fatalf("DELETE on A: %d", resp.StatusCode)
	} else {
		resp.Body.Close()
	}
	resp = onB("POST", sid, `{"jsonrpc":"2.0","id":3,"method":"ping"}`)
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Fatalf("ping on B right after the DELETE on A was answered: %d, want 404", resp.StatusCode)
	}
}

// heldLoad holds a replica's first load of a session, after it has read
// the record, until the replica has handled a session end: the load read
// before a DELETE and returns after the end's message found nothing to
// end.
type heldLoad struct {
	cluster.Backend
	read, ended chan struct{}
	once        sync.Once
}

func (h *heldLoad) LoadSession(ctx context.Context, id string) (cluster.Session, error) {
	rec, err := h.Backend.LoadSession(ctx, id)
	first := false
	h.once.Do(func() { first = true })
	if first {
		close(h.read)
		<-h.ended
	}
	return rec, err
}

func (h *heldLoad) Subscribe(prefix string, fn func(cluster.Message)) func() {
	var once sync.Once
	return h.Backend.Subscribe(prefix, func(m cluster.Message) {
		fn(m)
		if strings.HasSuffix(m.Topic, "/"+topicEnd) {
			once.Do(func() { close(h.ended) })
		}
	})
}

// TestClusterDeleteDuringLoad: a replica loading a session when its
// DELETE is answered elsewhere does not keep a copy of it: the request
// that was loading it may be served (it began before the answer), the
// next one is 404.
func TestClusterDeleteDuringLoad(t *testing.T) {
	mem := cluster.NewMemory()
	def := newFixture().definition(features{})
	a := mem.Replica()
	srvA := New(def, Options{Cluster: a})
	hsA := httptest.NewServer(HTTPHandler(srvA, HTTPOptions{}))
	b := &heldLoad{Backend: mem.Replica(), read: make(chan struct{}), ended: make(chan struct{})}
	srvB := New(def, Options{Cluster: b})
	hsB := httptest.NewServer(HTTPHandler(srvB, HTTPOptions{}))
	t.Cleanup(func() {
		hsA.Close()
		hsB.Close()
		srvA.Close()
		srvB.Close()
		_ = a.Close()
		_ = b.Close()
	})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	onA, onB := legacySender(ctx, t, hsA.URL), legacySender(ctx, t, hsB.URL)
	resp := onA("POST", "", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`)
	resp.Body.Close()
	sid := resp.Header.Get("Mcp-Session-Id")
	onA("POST", sid, `{"jsonrpc":"2.0","method":"notifications/initialized"}`).Body.Close()

	loading := make(chan int, 1)
	go func() {
		req, _ := http.NewRequestWithContext(ctx, "POST", hsB.URL, strings.NewReader(`{"jsonrpc":"2.0","id":2,"method":"ping"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Mcp-Session-Id", sid)
		req.Header.Set("MCP-Protocol-Version", "2025-11-25")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			loading <- 0
			return
		}
		resp.Body.Close()
		loading <- resp.StatusCode
	}()
	<-b.read // B has read the session's record
	if resp := onA("DELETE", sid, ""); resp.StatusCode != http.StatusNoContent {
		t.Fatalf("DELETE on A: %d", resp.StatusCode)
	} else {
		resp.Body.Close()
	}
	if code := <-loading; code != http.StatusOK && code != http.StatusNotFound {
		t.Fatalf("the request loading the session: %d", code)
	}
	if srvB.sessions.cached(sid) != nil {
		t.Fatal("B cached a session deleted while it loaded it")
	}
	resp = onB("POST", sid, `{"jsonrpc":"2.0","id":3,"method":"ping"}`)
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Fatalf("ping on B after the DELETE: %d, want 404", resp.StatusCode)
	}
}

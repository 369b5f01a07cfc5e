package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/internal/testutil/balancer"
	"github.com/mcpgen/mcpgen/internal/testutil/pgtest"
	"github.com/mcpgen/mcpgen/internal/testutil/rrproxy"
)

// replica is one mcp-everything process of a cluster.
type replica struct {
	cmd    *exec.Cmd
	addr   string
	stderr *syncBuffer
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func startReplica(t *testing.T, bin, clusterURL string) *replica {
	t.Helper()
	return startReplicaAt(t, bin, clusterURL, freeAddr(t))
}

// startReplicaAt starts a replica listening on addr (a restart keeps its
// replica's address, as behind a balancer).
func startReplicaAt(t *testing.T, bin, clusterURL, addr string) *replica {
	t.Helper()
	r := &replica{addr: addr, stderr: &syncBuffer{}}
	// --max-conns-per-ip -1: behind a balancer every connection comes
	// from its address (docs/deploy).
	r.cmd = exec.Command(bin, "--http", r.addr, "--cluster", clusterURL, "--log-level", "info", "--shutdown-grace", "5s", "--max-conns-per-ip", "-1")
	r.cmd.Stderr = r.stderr
	if err := r.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = r.cmd.Process.Kill()
		_ = r.cmd.Wait()
		if t.Failed() {
			t.Logf("replica %s log:\n%s", r.addr, r.stderr.String())
		}
	})
	waitListening(t, r.addr)
	return r
}

var rpcID atomic.Int64

// modernCall sends one stateless 2026-07-28 request (declaring the tasks
// extension) and returns the HTTP status and the JSON-RPC response.
func modernCall(t *testing.T, url, method, name string, params map[string]any) (int, map[string]any) {
	t.Helper()
	if params == nil {
		params = map[string]any{}
	}
	params["_meta"] = map[string]any{
		"io.modelcontextprotocol/protocolVersion":    "2026-07-28",
		"io.modelcontextprotocol/clientCapabilities": map[string]any{"extensions": map[string]any{"io.modelcontextprotocol/tasks": map[string]any{}}},
	}
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": rpcID.Add(1), "method": method, "params": params})
	req, _ := http.NewRequest("POST", url, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", method)
	if name != "" {
		req.Header.Set("Mcp-Name", name)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, nil
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		for _, line := range strings.Split(string(raw), "\n") {
			if data, ok := strings.CutPrefix(line, "data: "); ok && strings.Contains(data, `"id"`) {
				raw = []byte(data)
			}
		}
	}
	var out map[string]any
	_ = json.Unmarshal(raw, &out)
	return resp.StatusCode, out
}

// listener is an open subscriptions/listen stream.
type listener struct {
	methods chan string
	ended   chan struct{}
	cancel  context.CancelFunc
}

func listen(t *testing.T, url string) *listener {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": rpcID.Add(1), "method": "subscriptions/listen", "params": map[string]any{
		"notifications": map[string]any{"toolsListChanged": true},
		"_meta": map[string]any{
			"io.modelcontextprotocol/protocolVersion":    "2026-07-28",
			"io.modelcontextprotocol/clientCapabilities": map[string]any{},
		},
	}})
	req, _ := http.NewRequestWithContext(ctx, "POST", url, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", "subscriptions/listen")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		cancel()
		t.Fatalf("listen: %v", err)
	}
	l := &listener{methods: make(chan string, 64), ended: make(chan struct{}), cancel: cancel}
	acked := make(chan struct{})
	go func() {
		defer close(l.ended)
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		first := true
		for sc.Scan() {
			data, ok := strings.CutPrefix(sc.Text(), "data: ")
			if !ok {
				continue
			}
			var m struct {
				Method string `json:"method"`
			}
			_ = json.Unmarshal([]byte(data), &m)
			if first && m.Method == "notifications/subscriptions/acknowledged" {
				first = false
				close(acked)
				continue
			}
			l.methods <- m.Method
		}
	}()
	select {
	case <-acked:
	case <-l.ended:
		t.Fatal("listen stream ended before its acknowledgement")
	case <-time.After(10 * time.Second):
		t.Fatal("listen stream not acknowledged")
	}
	t.Cleanup(cancel)
	return l
}

func (l *listener) await(t *testing.T, method string) {
	t.Helper()
	timeout := time.After(15 * time.Second)
	for {
		select {
		case m := <-l.methods:
			if m == method {
				return
			}
		case <-l.ended:
			t.Fatalf("stream ended while waiting for %s", method)
		case <-timeout:
			t.Fatalf("%s never arrived", method)
		}
	}
}

// workers run test workloads: each step in a loop, with a pause between
// rounds, until halt.
type workers struct {
	pause time.Duration
	stop  chan struct{}
	wg    sync.WaitGroup
}

func newWorkers(pause time.Duration) *workers {
	return &workers{pause: pause, stop: make(chan struct{})}
}

// run calls step(0), step(1), ... on a goroutine of its own.
func (w *workers) run(step func(n int)) {
	w.wg.Add(1)
	go func() {
		defer w.wg.Done()
		for n := 0; ; n++ {
			select {
			case <-w.stop:
				return
			default:
			}
			step(n)
			time.Sleep(w.pause)
		}
	}()
}

// halt stops every loop and waits for the steps in progress.
func (w *workers) halt() {
	close(w.stop)
	w.wg.Wait()
}

// startBehindProxy starts n replicas on clusterURL behind a round-robin
// proxy (closed when the test ends) and returns them with the proxy's
// MCP endpoint.
func startBehindProxy(t *testing.T, bin, clusterURL string, n int) ([]*replica, *rrproxy.Proxy, string) {
	t.Helper()
	var reps []*replica
	var backends []string
	for range n {
		r := startReplica(t, bin, clusterURL)
		reps = append(reps, r)
		backends = append(backends, "http://"+r.addr)
	}
	proxy, err := rrproxy.Start(backends...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(proxy.Close)
	return reps, proxy, proxy.URL() + "/mcp"
}

// awaitTasks waits until every task in ids has ended, failing the test
// when one is lost, still running after a minute and a half, or failed
// while failedOK is false.
func awaitTasks(t *testing.T, url string, ids []string, failedOK bool) (failed int) {
	t.Helper()
	deadline := time.Now().Add(90 * time.Second)
	for _, id := range ids {
		for {
			status, resp := modernCall(t, url, "tasks/get", id, map[string]any{"taskId": id})
			res, _ := resp["result"].(map[string]any)
			if status != 200 || res == nil {
				t.Fatalf("task %s lost: %d %v", id, status, resp)
			}
			st, _ := res["status"].(string)
			if st == "completed" {
				break
			}
			if st == "failed" {
				if !failedOK {
					t.Fatalf("task %s failed: %v", id, res)
				}
				if msg, _ := res["statusMessage"].(string); !strings.Contains(msg, "replica") {
					t.Fatalf("task %s failed for another reason than its replica: %v", id, res)
				}
				failed++
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("task %s still %s", id, st)
			}
			time.Sleep(250 * time.Millisecond)
		}
	}
	return failed
}

// TestReplicaKill runs three replicas on one PostgreSQL schema behind a
// round-robin proxy, with legacy sessions, listen streams and tasks in
// flight, and kills one replica with SIGKILL: legacy sessions continue on
// the survivors, the listen stream on the dead replica ends and its client
// reconnects to another, every task acknowledged is still found, and none
// is left running (the dead replica's fail; the others complete).
func TestReplicaKill(t *testing.T) {
	if testing.Short() {
		t.Skip("starts three server processes")
	}
	clusterURL, _ := pgtest.URL(t, "kill")
	reps, proxy, url := startBehindProxy(t, buildBinary(t), clusterURL, 3)

	// Round robin from the first backend: listener i is on replica i.
	var listeners []*listener
	for i := 0; i < 3; i++ {
		listeners = append(listeners, listen(t, url))
	}
	if hits := proxy.Hits(); hits[0] != 1 || hits[1] != 1 || hits[2] != 1 {
		t.Fatalf("listen streams not spread over the replicas: %v", hits)
	}

	// Legacy clients (official Go SDK, 2025-11-25), each with a session.
	ctx := context.Background()
	legacy := &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"}
	var sessions []*mcp.ClientSession
	for i := 0; i < 3; i++ {
		c := mcp.NewClient(&mcp.Implementation{Name: fmt.Sprintf("legacy-%d", i), Version: "1"}, nil)
		cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url, MaxRetries: 5}, legacy)
		if err != nil {
			t.Fatalf("legacy connect: %v", err)
		}
		defer cs.Close()
		sessions = append(sessions, cs)
	}
	greet := func(cs *mcp.ClientSession, n int) error {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "greet", Arguments: map[string]any{"name": fmt.Sprint(n)}})
		if err != nil {
			return err
		}
		if got := res.Content[0].(*mcp.TextContent).Text; got != fmt.Sprintf("Hello, %d!", n) {
			return fmt.Errorf("greet %d answered %q", n, got)
		}
		return nil
	}

	// Tasks, acknowledged before the kill.
	var taskIDs []string
	for i := 0; i < 6; i++ {
		status, resp := modernCall(t, url, "tools/call", "slow_compute", map[string]any{"name": "slow_compute", "arguments": map[string]any{"seconds": 3}})
		res, _ := resp["result"].(map[string]any)
		id, _ := res["taskId"].(string)
		if status != 200 || id == "" {
			t.Fatalf("task not created: %d %v", status, resp)
		}
		taskIDs = append(taskIDs, id)
	}

	// Concurrent legacy traffic while the replica dies.
	w := newWorkers(0)
	var during atomic.Int64
	for i, cs := range sessions {
		w.run(func(n int) {
			if greet(cs, i*1000+n) == nil {
				during.Add(1)
			}
		})
	}
	time.Sleep(300 * time.Millisecond) // let traffic flow before the kill
	victim := reps[1]
	if err := victim.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = victim.cmd.Wait()
	time.Sleep(300 * time.Millisecond)
	w.halt()
	if during.Load() == 0 {
		t.Fatal("no legacy call succeeded around the kill")
	}

	// Legacy sessions continue on the survivors.
	for i, cs := range sessions {
		for n := 0; n < 6; n++ {
			if err := greet(cs, 100*i+n); err != nil {
				t.Fatalf("session %d after the kill, call %d: %v", i, n, err)
			}
		}
	}

	// The dead replica's listen stream ended; its client reconnects and
	// lands on a survivor; every stream sees a change made anywhere.
	select {
	case <-listeners[1].ended:
	case <-time.After(15 * time.Second):
		t.Fatal("the listen stream on the killed replica did not end")
	}
	listeners[1] = listen(t, url)
	for i := 0; i < 2; i++ { // twice: both survivors cause one change
		if status, resp := modernCall(t, url, "tools/call", "test_trigger_tool_change", map[string]any{"name": "test_trigger_tool_change", "arguments": map[string]any{}}); status != 200 || resp["error"] != nil {
			t.Fatalf("trigger: %d %v", status, resp)
		}
		for j, l := range listeners {
			select {
			case <-l.ended:
				t.Fatalf("listener %d ended", j)
			default:
			}
			l.await(t, "notifications/tools/list_changed")
		}
	}

	// Every acknowledged task is found and ends: none stays working.
	failed := awaitTasks(t, url, taskIDs, true)
	if failed == 0 || failed == len(taskIDs) {
		t.Fatalf("%d of %d tasks failed: want those of the killed replica only", failed, len(taskIDs))
	}
	t.Logf("requests per replica %v; %d legacy calls around the kill; %d of %d tasks failed with the replica", proxy.Hits(), during.Load(), failed, len(taskIDs))
}

// TestClusterOutage blocks one replica's connection to the database: a
// request that needs shared state gets 503 with Retry-After, the outage is
// logged once, and the replica recovers by itself when the connection
// comes back. A stateless call that needs no shared state is served
// throughout.
func TestClusterOutage(t *testing.T) {
	clusterURL, _ := pgtest.URL(t, "outage")
	cut := pgtest.NewCut(t)
	bin := buildBinary(t)
	r := startReplica(t, bin, cut.Rewrite(clusterURL))
	url := "http://" + r.addr + "/mcp"

	var sid string
	post := func() (int, http.Header) {
		body := `{"jsonrpc":"2.0","id":7,"method":"tools/list"}`
		req, _ := http.NewRequest("POST", url, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("MCP-Protocol-Version", "2025-11-25")
		req.Header.Set("Mcp-Session-Id", sid)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode, resp.Header
	}
	// A session this replica has not cached: opened by another replica.
	other := startReplica(t, bin, clusterURL)
	oc := mcp.NewClient(&mcp.Implementation{Name: "elsewhere", Version: "1"}, nil)
	ocs, err := oc.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: "http://" + other.addr + "/mcp", MaxRetries: -1},
		&mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	defer ocs.Close()
	sid = ocs.ID()
	if sid == "" {
		t.Fatal("no legacy session")
	}

	cut.Down()
	for i := 0; i < 3; i++ {
		status, h := post()
		if status != http.StatusServiceUnavailable || h.Get("Retry-After") == "" {
			t.Fatalf("during the outage: %d Retry-After %q, want 503 with Retry-After", status, h.Get("Retry-After"))
		}
	}
	if status, resp := modernCall(t, url, "tools/call", "greet", map[string]any{"name": "greet", "arguments": map[string]any{"name": "x"}}); status != 200 || resp["error"] != nil {
		t.Fatalf("a stateless call during the outage: %d %v", status, resp)
	}
	if n := strings.Count(r.stderr.String(), "cluster database unreachable"); n != 1 {
		t.Fatalf("the outage was logged %d times, want once:\n%s", n, r.stderr.String())
	}
	cut.Up()
	deadline := time.Now().Add(30 * time.Second)
	for {
		status, _ := post()
		if status == 200 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("still %d after the database came back", status)
		}
		time.Sleep(200 * time.Millisecond)
	}
	for !strings.Contains(r.stderr.String(), "reachable again") {
		if time.Now().After(deadline) {
			t.Fatal("the recovery was not logged")
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// TestClusterUnreachableAtStart: a replica that cannot reach the database
// exits at once with a message naming the URL without the password.
func TestClusterUnreachableAtStart(t *testing.T) {
	bin := buildBinary(t)
	cmd := exec.Command(bin, "--http", freeAddr(t), "--cluster", "postgres://app:s3cret@127.0.0.1:1/db?sslmode=disable")
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
		t.Fatalf("exit: %v, want status 1; output:\n%s", err, out)
	}
	if s := string(out); strings.Contains(s, "s3cret") || !strings.Contains(s, "cannot reach the cluster database postgres://app:xxxxx@127.0.0.1:1/db") {
		t.Fatalf("message:\n%s", s)
	}
}

// TestClusterNotificationAcrossOutage: replica A loses the database; a
// tool on A announces that the tool list changed; the client listening on
// replica B hears of it once A reaches the database again, not never.
func TestClusterNotificationAcrossOutage(t *testing.T) {
	if testing.Short() {
		t.Skip("starts two replicas on PostgreSQL")
	}
	clusterURL, _ := pgtest.URL(t, "notifyoutage")
	cut := pgtest.NewCut(t)
	bin := buildBinary(t)
	a := startReplica(t, bin, cut.Rewrite(clusterURL))
	b := startReplica(t, bin, clusterURL)
	l := listen(t, "http://"+b.addr+"/mcp")

	cut.Down()
	// A stateless call needs no shared state: served during the outage.
	if status, resp := modernCall(t, "http://"+a.addr+"/mcp", "tools/call", "test_trigger_tool_change", map[string]any{"name": "test_trigger_tool_change", "arguments": map[string]any{}}); status != 200 || resp["error"] != nil {
		t.Fatalf("tools/call on the replica without its database: %d %v", status, resp)
	}
	select {
	case m := <-l.methods:
		t.Fatalf("%s reached the other replica while the database was down", m)
	case <-time.After(500 * time.Millisecond):
	}
	cut.Up()
	l.await(t, "notifications/tools/list_changed")
}

// legacyPost sends one legacy (2025-11-25) message in session sid and
// returns the HTTP status and headers.
func legacyPost(url, sid, body string) (int, http.Header) {
	req, _ := http.NewRequest("POST", url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2025-11-25")
	if sid != "" {
		req.Header.Set("Mcp-Session-Id", sid)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, nil
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode, resp.Header
}

// TestClusterOutageUnderLoad cuts three replicas (behind a round-robin
// proxy) from PostgreSQL during a mixed workload: stateless calls are
// served throughout; calls that need shared state (task creation, legacy
// subscriptions) get 503 with Retry-After, never another failure, and
// succeed once the database is back; every task and subscription that was
// acknowledged is still there afterwards; the replicas recover without a
// restart.
func TestClusterOutageUnderLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("starts three replicas on PostgreSQL")
	}
	clusterURL, schema := pgtest.URL(t, "outageload")
	cut := pgtest.NewCut(t)
	bin := buildBinary(t)
	_, _, url := startBehindProxy(t, bin, cut.Rewrite(clusterURL), 3)

	// A legacy session, opened and used on every replica before the cut.
	req, _ := http.NewRequest("POST", url, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	sid := resp.Header.Get("Mcp-Session-Id")
	for range 3 {
		if status, _ := legacyPost(url, sid, `{"jsonrpc":"2.0","id":2,"method":"ping"}`); status != 200 {
			t.Fatalf("ping before the outage: %d", status)
		}
	}

	var (
		mu            sync.Mutex
		tasks         []string // acknowledged task ids
		subscribed    []string // acknowledged subscriptions
		refused       int      // 503s with Retry-After
		statelessDone int
		problems      []string
	)
	note := func(format string, args ...any) {
		mu.Lock()
		problems = append(problems, fmt.Sprintf(format, args...))
		mu.Unlock()
	}
	w := newWorkers(20 * time.Millisecond)
	w.run(func(n int) { // stateless: always served
		status, resp := modernCall(t, url, "tools/call", "greet", map[string]any{"name": "greet", "arguments": map[string]any{"name": fmt.Sprint(n)}})
		if status != 200 || resp["error"] != nil {
			note("stateless greet: %d %v", status, resp)
			return
		}
		mu.Lock()
		statelessDone++
		mu.Unlock()
	})
	w.run(func(n int) { // tasks: acknowledged, or refused with 503 (or 429 past the running-task cap)
		time.Sleep(80 * time.Millisecond) // a few running at once, not the cap's worth
		status, resp := modernCall(t, url, "tools/call", "slow_compute", map[string]any{"name": "slow_compute", "arguments": map[string]any{"seconds": 1}})
		res, _ := resp["result"].(map[string]any)
		switch id, _ := res["taskId"].(string); {
		case status == 200 && id != "":
			mu.Lock()
			tasks = append(tasks, id)
			mu.Unlock()
		case status == http.StatusServiceUnavailable || status == http.StatusTooManyRequests:
			mu.Lock()
			refused++
			mu.Unlock()
		default:
			note("task: %d %v", status, resp)
		}
	})
	w.run(func(n int) { // legacy subscriptions: acknowledged or refused with 503
		uri := fmt.Sprintf("test://load/%d", n)
		status, h := legacyPost(url, sid, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"resources/subscribe","params":{"uri":%q}}`, 100+n, uri))
		switch {
		case status == 200:
			mu.Lock()
			subscribed = append(subscribed, uri)
			mu.Unlock()
		case status == http.StatusServiceUnavailable && h.Get("Retry-After") != "":
			mu.Lock()
			refused++
			mu.Unlock()
		default:
			note("subscribe: %d", status)
		}
	})

	time.Sleep(500 * time.Millisecond)
	cut.Down()
	time.Sleep(2 * time.Second)
	cut.Up()
	time.Sleep(3 * time.Second) // recovered: shared-state calls succeed again
	mu.Lock()
	acked := len(tasks)
	mu.Unlock()
	time.Sleep(time.Second)
	w.halt()
	for _, p := range problems {
		t.Error(p)
	}
	if refused == 0 {
		t.Error("no call was refused during the outage: was the database cut?")
	}
	if len(tasks) <= acked {
		t.Errorf("no task was created after the database came back (%d before, %d in all)", acked, len(tasks))
	}
	t.Logf("%d stateless calls, %d tasks and %d subscriptions acknowledged, %d refused with 503", statelessDone, len(tasks), len(subscribed), refused)

	// Every acknowledged task is found and completes.
	awaitTasks(t, url, tasks, false)
	// Every acknowledged subscription is stored.
	var stored []string
	conn := pgtest.Connect(t)
	defer conn.Close(context.Background())
	if err := conn.QueryRow(context.Background(), "SELECT subscribed FROM "+schema+".mcp_sessions WHERE id = $1", sid).Scan(&stored); err != nil {
		t.Fatal(err)
	}
	for _, uri := range subscribed {
		if !slices.Contains(stored, uri) {
			t.Errorf("acknowledged subscription %s is not stored", uri)
		}
	}
}

// TestRollingRestart runs a workload through nginx, started from
// docs/deploy/nginx.conf, in front of three replicas: stateless calls,
// legacy sessions and task creation. It rolls the replicas (SIGTERM,
// graceful drain, restart on the same address, one after another), then
// kills one with SIGKILL and restarts it. During the roll no call fails;
// each replica exits cleanly within its grace; around the kill only the
// calls in flight on the killed replica may fail; the legacy sessions go
// on; every task acknowledged before the kill completes.
func TestRollingRestart(t *testing.T) {
	if testing.Short() {
		t.Skip("starts and restarts three server processes behind nginx")
	}
	clusterURL, _ := pgtest.URL(t, "roll")
	bin := buildBinary(t)
	var reps []*replica
	var addrs [3]string
	for i := range 3 {
		reps = append(reps, startReplica(t, bin, clusterURL))
		addrs[i] = reps[i].addr
	}
	url := balancer.Start(t, "nginx", addrs) + "/mcp"

	ctx := context.Background()
	var sessions []*mcp.ClientSession
	for i := range 2 {
		c := mcp.NewClient(&mcp.Implementation{Name: fmt.Sprintf("legacy-%d", i), Version: "1"}, nil)
		cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url, MaxRetries: 5}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
		if err != nil {
			t.Fatalf("legacy connect: %v", err)
		}
		defer cs.Close()
		sessions = append(sessions, cs)
	}

	var (
		mu                       sync.Mutex
		tasks                    []string
		statelessOK, statelessKO int
		legacyOK, legacyKO       int
		aroundKill               int // failures once the kill began
		killing                  bool
		failures                 []string
	)
	fail := func(what string) { // with mu held
		if killing {
			aroundKill++
		} else if strings.HasPrefix(what, "stateless") {
			statelessKO++
		} else {
			legacyKO++
		}
		failures = append(failures, what)
	}
	w := newWorkers(10 * time.Millisecond)
	w.run(func(n int) {
		status, resp := modernCall(t, url, "tools/call", "greet", map[string]any{"name": "greet", "arguments": map[string]any{"name": fmt.Sprint(n)}})
		mu.Lock()
		defer mu.Unlock()
		if status == 200 && resp["error"] == nil {
			statelessOK++
		} else {
			fail(fmt.Sprintf("stateless: %d %v", status, resp))
		}
	})
	w.run(func(n int) {
		status, resp := modernCall(t, url, "tools/call", "slow_compute", map[string]any{"name": "slow_compute", "arguments": map[string]any{"seconds": 1}})
		res, _ := resp["result"].(map[string]any)
		if id, _ := res["taskId"].(string); status == 200 && id != "" {
			mu.Lock()
			tasks = append(tasks, id)
			mu.Unlock()
		}
	})
	for i, cs := range sessions {
		w.run(func(n int) {
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "greet", Arguments: map[string]any{"name": fmt.Sprint(i)}})
			mu.Lock()
			defer mu.Unlock()
			if err == nil && !res.IsError {
				legacyOK++
			} else {
				fail(fmt.Sprintf("legacy session %d: %v", i, err))
			}
		})
	}

	time.Sleep(500 * time.Millisecond)
	for i, r := range reps {
		if err := r.cmd.Process.Signal(syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- r.cmd.Wait() }()
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("replica %d did not exit cleanly on SIGTERM: %v\n%s", i, err, r.stderr.String())
			}
		case <-time.After(15 * time.Second):
			t.Fatalf("replica %d still running 15 s after SIGTERM", i)
		}
		reps[i] = startReplicaAt(t, bin, clusterURL, r.addr)
		time.Sleep(300 * time.Millisecond) // traffic reaches the new process
	}
	// The tasks acknowledged during the roll end within a second; then
	// one replica is killed outright and started again.
	mu.Lock()
	rolled := len(tasks)
	mu.Unlock()
	time.Sleep(1500 * time.Millisecond)
	mu.Lock()
	killing = true
	mu.Unlock()
	victim := reps[1]
	if err := victim.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = victim.cmd.Wait()
	time.Sleep(300 * time.Millisecond)
	reps[1] = startReplicaAt(t, bin, clusterURL, victim.addr)
	time.Sleep(500 * time.Millisecond)
	w.halt()
	t.Logf("stateless %d ok, legacy %d ok; during the roll %d stateless and %d legacy calls failed, around the kill %d; %d tasks acknowledged", statelessOK, legacyOK, statelessKO, legacyKO, aroundKill, len(tasks))
	for _, f := range failures {
		t.Log(f)
	}
	if statelessKO+legacyKO > 0 {
		t.Errorf("%d stateless and %d legacy calls failed during a graceful roll", statelessKO, legacyKO)
	}
	// Three workers call one at a time: at most three calls were in
	// flight on the killed replica.
	if aroundKill > 3 {
		t.Errorf("%d calls failed around the kill, more than were in flight on the killed replica", aroundKill)
	}
	// The sessions go on after the roll.
	for i, cs := range sessions {
		if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "greet", Arguments: map[string]any{"name": "after"}}); err != nil {
			t.Errorf("legacy session %d after the roll: %v", i, err)
		}
	}
	// Every task acknowledged during the roll is found and completes: a
	// replica that drains lets its running tasks finish within the grace.
	// Those acknowledged later are found and end; the killed replica's
	// fail.
	awaitTasks(t, url, tasks[:rolled], false)
	awaitTasks(t, url, tasks[rolled:], true)
}

// TestClusterBehindStreamingProxy: three replicas on PostgreSQL behind a
// proxy that forwards request bodies as they arrive and keeps two idle
// connections per replica, as an httputil.ReverseProxy with Go's default
// transport does, and that finds the end of each request body only once
// its answer has started: the order of events a busy machine produces at
// random, which cut a few answers in a hundred behind a proxy that runs
// net/http's HTTP/1 server in half duplex (see rrproxy). Every answer that
// streams arrives whole, with what it streamed: progress, logs,
// elicitation and sampling in a legacy session, progress in 2026-07-28.
func TestClusterBehindStreamingProxy(t *testing.T) {
	if testing.Short() {
		t.Skip("starts three replicas on PostgreSQL")
	}
	clusterURL, _ := pgtest.URL(t, "streaming")
	bin := buildBinary(t)
	var backends []string
	for range 3 {
		backends = append(backends, "http://"+startReplica(t, bin, clusterURL).addr)
	}
	proxy, err := rrproxy.StartWith(rrproxy.Options{Stream: true, MaxIdlePerBackend: 2, LateBodyEnd: true}, backends...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(proxy.Close)
	url := proxy.URL() + "/mcp"

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	progress, logs := make(chan float64, 64), make(chan string, 64)
	c := mcp.NewClient(&mcp.Implementation{Name: "streaming", Version: "1"}, &mcp.ClientOptions{
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"username": "ada", "email": "ada@example.com"}}, nil
		},
		CreateMessageHandler: func(context.Context, *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			return &mcp.CreateMessageResult{Role: "assistant", Model: "m", Content: &mcp.TextContent{Text: "four"}}, nil
		},
		LoggingMessageHandler: func(_ context.Context, r *mcp.LoggingMessageRequest) {
			logs <- fmt.Sprint(r.Params.Data)
		},
		ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
			progress <- r.Params.Progress
		},
	})
	cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if err := cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: "info"}); err != nil {
		t.Fatal(err)
	}
	call := func(name string, args map[string]any, progressToken any) string {
		t.Helper()
		p := &mcp.CallToolParams{Name: name, Arguments: args}
		if progressToken != nil {
			p.SetProgressToken(progressToken)
		}
		res, err := cs.CallTool(ctx, p)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if res.IsError || len(res.Content) == 0 {
			t.Fatalf("%s: %+v", name, res)
		}
		return res.Content[0].(*mcp.TextContent).Text
	}
	drain := func(what string, ch any, n int) {
		t.Helper()
		for i := range n {
			var ok bool
			switch ch := ch.(type) {
			case chan float64:
				select {
				case <-ch:
					ok = true
				case <-ctx.Done():
				}
			case chan string:
				select {
				case <-ch:
					ok = true
				case <-ctx.Done():
				}
			}
			if !ok {
				t.Fatalf("%s %d of %d never arrived", what, i+1, n)
			}
		}
	}
	for i := range 5 {
		if got := call("test_tool_with_progress", map[string]any{}, fmt.Sprintf("p%d", i)); !strings.HasPrefix(got, "Reported progress") {
			t.Fatalf("test_tool_with_progress: %q", got)
		}
		drain("progress notification", progress, 3)
		if got := call("test_tool_with_logging", map[string]any{}, nil); !strings.HasPrefix(got, "Sent three log messages") {
			t.Fatalf("test_tool_with_logging: %q", got)
		}
		drain("log message", logs, 3)
		if got := call("test_elicitation", map[string]any{"message": "who?"}, nil); got != "The user submitted: email=ada@example.com, username=ada" {
			t.Fatalf("test_elicitation: %q", got)
		}
		if got := call("test_sampling", map[string]any{"prompt": "2+2?"}, nil); got != "LLM response: four" {
			t.Fatalf("test_sampling: %q", got)
		}
		events := modernEvents(ctx, t, url, fmt.Sprintf("m%d", i))
		if len(events) != 4 || !strings.Contains(events[3], `"Reported progress 0, 50 and 100 out of 100."`) {
			t.Fatalf("2026-07-28 test_tool_with_progress: want three progress events and the result, got %q", events)
		}
	}
}

// modernEvents calls test_tool_with_progress in 2026-07-28 with a progress
// token and returns the data of each SSE event of the answer.
func modernEvents(ctx context.Context, t *testing.T, url, token string) []string {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": rpcID.Add(1), "method": "tools/call", "params": map[string]any{
		"name": "test_tool_with_progress", "arguments": map[string]any{},
		"_meta": map[string]any{
			"progressToken": token,
			"io.modelcontextprotocol/protocolVersion":    "2026-07-28",
			"io.modelcontextprotocol/clientCapabilities": map[string]any{},
		},
	}})
	req, _ := http.NewRequestWithContext(ctx, "POST", url, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", "tools/call")
	req.Header.Set("Mcp-Name", "test_tool_with_progress")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("2026-07-28 answer cut after %q: %v", raw, err)
	}
	var events []string
	for _, line := range strings.Split(string(raw), "\n") {
		if data, ok := strings.CutPrefix(line, "data: "); ok {
			events = append(events, data)
		}
	}
	return events
}

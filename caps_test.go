package mcpgen

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/cluster"
	"github.com/mcpgen/mcpgen/internal/jsonrpc"
)

// Tests of the caps on per-client resources ("hostile network"): each
// used to be unbounded, and a client could grow the server's memory or
// goroutines (or the cluster's store) as far as it liked.

// eventually polls cond until it holds, failing after a generous deadline:
// it waits for work done in the background, and asserts nothing about
// how long it takes.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("waiting for %s", what)
		}
	}
}

// TestClientInfoCap: initialize used to keep capabilities of any size with
// the session (60 calls with 4 MB each took 300 MB); past 64 KiB by
// default it is refused with -32602 naming the limit, and no session opens.
func TestClientInfoCap(t *testing.T) {
	initWith := func(s *Server, capsBytes int) *jsonrpc.Message {
		caps := fmt.Sprintf(`{"experimental":{"pad":%q}}`, strings.Repeat("x", capsBytes))
		return handle(t, s, &inbound{}, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":`+caps+`,"clientInfo":{"name":"c","version":"1"}}}`)
	}
	s := New(unitDefinition(), Options{})
	result(t, initWith(s, 60<<10))
	resp := initWith(s, 4<<20)
	wantError(t, resp, jsonrpc.CodeInvalidParams, "more than the limit of 65536 bytes (64 KiB)")
	if n := s.Sessions(); n != 1 {
		t.Fatalf("%d sessions open after a refused initialize, want 1", n)
	}
	// The clientInfo counts too.
	big := fmt.Sprintf(`{"name":"c","version":"1","description":%q}`, strings.Repeat("x", 70<<10))
	resp = handle(t, s, &inbound{}, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":`+big+`}}`)
	wantError(t, resp, jsonrpc.CodeInvalidParams, "limit of 65536 bytes")

	s = New(unitDefinition(), Options{Limits: Limits{MaxClientInfoBytes: -1}})
	result(t, initWith(s, 1<<20))
}

// TestEvictedSessionLeavesStore: a session ended to make room under the
// session caps used to stay in the cluster's store until it expired (or
// for good with SessionIdle negative); now it is deleted there too.
func TestEvictedSessionLeavesStore(t *testing.T) {
	mem := cluster.NewMemory()
	s := New(unitDefinition(), Options{Cluster: mem.Replica(), Limits: Limits{MaxSessionsPerPrincipal: 2}, SessionIdle: -1})
	defer s.Close()
	store := mem.Replica()
	ctx := context.Background()
	first, resp := open(t, s, "alice", "")
	result(t, resp)
	if _, err := store.LoadSession(ctx, first.ID); err != nil {
		t.Fatalf("the session is not in the store: %v", err)
	}
	for range 2 {
		_, resp := open(t, s, "alice", "")
		result(t, resp)
	}
	if !ended(first) {
		t.Fatal("the least recently used session was not evicted")
	}
	eventually(t, "the evicted session's deletion from the store", func() bool {
		_, err := store.LoadSession(ctx, first.ID)
		return errors.Is(err, cluster.ErrNotFound)
	})
}

// listenStream opens a subscriptions/listen stream for who and returns
// the response (at once when refused) and the stream's cancel.
func listenStream(t *testing.T, s *Server, who Principal) (*jsonrpc.Message, context.CancelFunc) {
	t.Helper()
	m, err := jsonrpc.Decode([]byte(`{"jsonrpc":"2.0","id":"l","method":"subscriptions/listen","params":{"notifications":{"toolsListChanged":true},` + modernMeta + `}}`))
	if err != nil {
		t.Fatal(err)
	}
	peer := &recordingPeer{acked: make(chan struct{})}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan *jsonrpc.Message, 1)
	go func() { done <- answerOnly(s.handle(ctx, &inbound{Msg: m, peer: peer, Auth: who})) }()
	select {
	case <-peer.acked:
		t.Cleanup(func() { cancel(); <-done })
		return nil, cancel
	case resp := <-done:
		cancel()
		return resp, cancel
	}
}

// TestListenStreamCaps: one principal used to open as many listen streams
// as it liked (300 made 590 goroutines and 590 MB); past 16 by default,
// and past the process's cap, subscriptions/listen is refused with
// -31429 while the open streams go on.
func TestListenStreamCaps(t *testing.T) {
	s := New(unitDefinition(), Options{})
	alice := Principal{Subject: "alice"}
	for i := range DefaultMaxListenStreamsPerPrincipal {
		if resp, _ := listenStream(t, s, alice); resp != nil {
			t.Fatalf("stream %d refused: %v", i+1, resp.Error)
		}
	}
	resp, _ := listenStream(t, s, alice)
	wantError(t, resp, CodeTooManyRequests, "at most 16 subscriptions/listen streams per caller")
	if resp, _ := listenStream(t, s, Principal{Subject: "bob"}); resp != nil {
		t.Fatalf("another principal's stream refused: %v", resp.Error)
	}

	s = New(unitDefinition(), Options{Limits: Limits{MaxListenStreams: 3}})
	var first context.CancelFunc
	for i := range 3 {
		resp, cancel := listenStream(t, s, Principal{Subject: fmt.Sprint("p", i)})
		if resp != nil {
			t.Fatalf("stream %d refused: %v", i+1, resp.Error)
		}
		if i == 0 {
			first = cancel
		}
	}
	resp, _ = listenStream(t, s, Principal{Subject: "late"})
	wantError(t, resp, CodeTooManyRequests, "the server has 3 subscriptions/listen streams open")
	first()
	eventually(t, "a closed stream to make room", func() bool {
		resp, _ := listenStream(t, s, Principal{Subject: "late"})
		return resp == nil
	})

	s = New(unitDefinition(), Options{Limits: Limits{MaxListenStreamsPerPrincipal: -1}})
	for i := range DefaultMaxListenStreamsPerPrincipal + 1 {
		if resp, _ := listenStream(t, s, alice); resp != nil {
			t.Fatalf("stream %d refused with no cap: %v", i+1, resp.Error)
		}
	}
}

// taskDefinition is unitDefinition with blob, a task that at once returns
// a text of the length asked.
func taskDefinition() Definition {
	def := unitDefinition()
	def.Tools = append(def.Tools, Tool{
		Info: ToolInfo{Name: "blob", InputSchema: json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer"}}}`)}, Task: "optional",
		Call: func(_ context.Context, _ *Request, args json.RawMessage) (*CallToolResult, error) {
			in, err := DecodeArguments[struct {
				N int `json:"n"`
			}](args)
			if err != nil {
				return nil, err
			}
			return TextResult(strings.Repeat("x", in.N), nil)
		},
	})
	return def
}

func startTask(t *testing.T, s *Server, in *inbound, tool string, n int) *jsonrpc.Message {
	t.Helper()
	return handle(t, s, in, fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":%q,"arguments":{"n":%d},%s}}`, tool, n, modernMeta))
}

func taskID(t *testing.T, resp *jsonrpc.Message) string {
	t.Helper()
	id, _ := result(t, resp)["taskId"].(string)
	if id == "" {
		t.Fatalf("no task: %s", resp.Result)
	}
	return id
}

func getTask(t *testing.T, s *Server, in *inbound, id string) *jsonrpc.Message {
	t.Helper()
	return handle(t, s, in, `{"jsonrpc":"2.0","id":2,"method":"tasks/get","params":{"taskId":"`+id+`",`+modernMeta+`}}`)
}

// finished waits until the task is no longer working and returns its view.
func finished(t *testing.T, s *Server, in *inbound, id string) map[string]any {
	t.Helper()
	var v map[string]any
	eventually(t, "task "+id+" to finish", func() bool {
		v = result(t, getTask(t, s, in, id))
		return terminal(v["status"].(string))
	})
	return v
}

// TestActiveTaskCap: one principal used to start as many tasks as it
// liked (1,000 goroutines in 4.5 s); past 32 running by default a
// task-augmented tools/call is refused with -31429, until one finishes.
func TestActiveTaskCap(t *testing.T) {
	s := New(taskDefinition(), Options{Tasks: true})
	alice := &inbound{Auth: Principal{Subject: "alice"}}
	var ids []string
	for range DefaultMaxActiveTasksPerPrincipal {
		ids = append(ids, taskID(t, startTask(t, s, alice, "interview", 0))) // waits for input
	}
	wantError(t, startTask(t, s, alice, "interview", 0), CodeTooManyRequests, "at most 32 tasks per caller may be running")
	taskID(t, startTask(t, s, &inbound{Auth: Principal{Subject: "bob"}}, "interview", 0))

	result(t, handle(t, s, alice, `{"jsonrpc":"2.0","id":3,"method":"tasks/cancel","params":{"taskId":"`+ids[0]+`",`+modernMeta+`}}`))
	eventually(t, "a cancelled task to make room", func() bool {
		return startTask(t, s, alice, "interview", 0).Error == nil
	})
	stopTasks(s)
}

// stopTasks cancels the tasks still running, which wait for input.
func stopTasks(s *Server) {
	s.tasks.mu.Lock()
	defer s.tasks.mu.Unlock()
	for _, tk := range s.tasks.tasks {
		tk.cancel()
	}
}

// TestTaskRecordCaps: task records used to be kept an hour whatever their
// number and size; past MaxTasks the oldest finished one is forgotten
// (and when all are running a new one is refused), and past
// MaxTaskResultBytes the oldest finished results go, while one result
// over the cap fails its task with an error naming the limit.
func TestTaskRecordCaps(t *testing.T) {
	s := New(taskDefinition(), Options{Tasks: true, Limits: Limits{MaxTasks: 3, MaxTaskResultBytes: -1}})
	in := &inbound{Auth: Principal{Subject: "alice"}}
	var ids []string
	for range 3 {
		id := taskID(t, startTask(t, s, in, "blob", 10))
		finished(t, s, in, id)
		ids = append(ids, id)
	}
	newest := taskID(t, startTask(t, s, in, "blob", 10))
	wantError(t, getTask(t, s, in, ids[0]), jsonrpc.CodeInvalidParams, "Task not found")
	for _, id := range append(ids[1:], newest) {
		result(t, getTask(t, s, in, id))
	}
	finished(t, s, in, newest)
	for range 3 {
		taskID(t, startTask(t, s, in, "interview", 0))
	}
	wantError(t, startTask(t, s, in, "interview", 0), CodeTooManyRequests, "the server is running 3 tasks")
	stopTasks(s)

	s = New(taskDefinition(), Options{Tasks: true, Limits: Limits{MaxTaskResultBytes: 1000}})
	ids = nil
	for range 3 {
		id := taskID(t, startTask(t, s, in, "blob", 400))
		if v := finished(t, s, in, id); v["status"] != "completed" {
			t.Fatalf("task: %v", v)
		}
		ids = append(ids, id)
	}
	wantError(t, getTask(t, s, in, ids[0]), jsonrpc.CodeInvalidParams, "Task not found")
	result(t, getTask(t, s, in, ids[1]))
	result(t, getTask(t, s, in, ids[2]))

	v := finished(t, s, in, taskID(t, startTask(t, s, in, "blob", 2000)))
	if msg := fmt.Sprint(v["error"]); v["status"] != "failed" || !strings.Contains(msg, "limit of 1000 bytes") {
		t.Fatalf("a result over the cap: %v", v)
	}
	result(t, getTask(t, s, in, ids[2])) // kept: the failed task freed nothing and took nothing
}

// deletions wraps a backend and records the sessions deleted from it.
type deletions struct {
	cluster.Backend
	mu  sync.Mutex
	ids []string
}

func (d *deletions) DeleteSession(ctx context.Context, id string) (bool, error) {
	existed, err := d.Backend.DeleteSession(ctx, id)
	if existed {
		d.mu.Lock()
		d.ids = append(d.ids, id)
		d.mu.Unlock()
	}
	return existed, err
}

// TestSweptSessionLeavesStore: a session the idle sweep ends, because the
// store too holds it as expired, used to stay there (PostgreSQL's own
// purge aside); the sweep now deletes it.
func TestSweptSessionLeavesStore(t *testing.T) {
	mem := cluster.NewMemory()
	b := &deletions{Backend: mem.Replica()}
	s := New(unitDefinition(), Options{Cluster: b})
	defer s.Close()
	sess, resp := open(t, s, "alice", "")
	result(t, resp)
	ctx := context.Background()
	rec, err := b.LoadSession(ctx, sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	rec.Expires = time.Now().Add(-time.Second)        // idle on every replica
	if err := b.CreateSession(ctx, rec); err != nil { // the memory backend's create replaces

		t.Fatal(err)
	}
	s.sessions.checkShared([]*Session{sess}) // what the sweep runs for sessions idle here
	if !ended(sess) {
		t.Fatal("the expired session was not ended")
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if fmt.Sprint(b.ids) != fmt.Sprint([]string{sess.ID}) {
		t.Fatalf("sessions deleted from the store: %v, want [%s]", b.ids, sess.ID)
	}
}

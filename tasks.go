package mcpgen

import (
	linkedlist "container/list"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"sync"
	"time"

	"go.uber.org/zap"

	"github.com/mcpgen/mcpgen/internal/jsonrpc"
)

// taskTTL is how long a finished task's result is kept.
const taskTTL = time.Hour

// taskTable holds this process's tasks. Each is kept until taskTTL after
// it finished, within caps (Options.Limits.MaxActiveTasksPerPrincipal, MaxTasks,
// MaxTaskResultBytes; <= 0 here means no cap): the tasks of one principal
// running at once, the records kept, and the bytes of the results kept.
// Past the last two, the oldest finished tasks are forgotten first.
type taskTable struct {
	mu          sync.Mutex
	tasks       map[string]*task
	active      map[string]int   // principal key -> its tasks whose handler runs
	finished    *linkedlist.List // of *task, oldest first
	resultBytes int64            // of the finished tasks' results kept

	maxActive      int
	max            int
	maxResultBytes int64

	tel     *telemetry
	notes   *notifier       // tells listen streams of each state
	cluster *clusterState   // nil: tasks live in this process alone
	running *sync.WaitGroup // the tasks whose handlers run (Server.Drain)
}

func newTaskTable(l Limits, tel *telemetry, notes *notifier, running *sync.WaitGroup) *taskTable {
	return &taskTable{
		tasks: map[string]*task{}, active: map[string]int{}, finished: linkedlist.New(),
		maxActive: l.MaxActiveTasksPerPrincipal, max: l.MaxTasks, maxResultBytes: l.MaxTaskResultBytes,
		tel: tel, notes: notes, running: running,
	}
}

// admit adds a new task, counted as running for its principal, after
// making room under MaxTasks. It refuses it when the principal has
// MaxActiveTasksPerPrincipal tasks running, or when every task kept is
// still running. forgotten are the finished tasks dropped for room.
func (tt *taskTable) admit(tk *task) (forgotten []*task, refused *limitError) {
	tt.mu.Lock()
	defer tt.mu.Unlock()
	if tt.maxActive > 0 && tt.active[tk.key] >= tt.maxActive {
		return nil, &limitError{limit: "tasks", retryAfter: time.Second,
			msg: fmt.Sprintf("Too many requests: at most %d tasks per caller may be running at once; retry when one has finished (or cancel one with tasks/cancel)", tt.maxActive)}
	}
	for tt.max > 0 && len(tt.tasks) >= tt.max {
		oldest := tt.finished.Front()
		if oldest == nil {
			return forgotten, &limitError{limit: "tasks", retryAfter: time.Second,
				msg: fmt.Sprintf("Too many requests: the server is running %d tasks, the most it keeps; retry later", tt.max)}
		}
		forgotten = append(forgotten, tt.forgetLocked(oldest.Value.(*task)))
	}
	tt.tasks[tk.id] = tk
	tt.active[tk.key]++
	return forgotten, nil
}

// abandon removes a task admitted but never started.
func (tt *taskTable) abandon(tk *task) {
	tt.mu.Lock()
	defer tt.mu.Unlock()
	delete(tt.tasks, tk.id)
	tt.doneLocked(tk.key)
}

func (tt *taskTable) doneLocked(key string) {
	if tt.active[key]--; tt.active[key] <= 0 {
		delete(tt.active, key)
	}
}

// finish records that a task's handler returned: it no longer counts as
// running, and its result counts against MaxTaskResultBytes, the oldest
// finished tasks being forgotten to stay under it.
func (tt *taskTable) finish(tk *task) (forgotten []*task) {
	tk.mu.Lock()
	size := int64(len(tk.result))
	tk.mu.Unlock()
	tt.mu.Lock()
	defer tt.mu.Unlock()
	tt.doneLocked(tk.key)
	if tt.tasks[tk.id] != tk {
		return nil
	}
	tk.size = size
	tk.elem = tt.finished.PushBack(tk)
	tt.resultBytes += size
	for tt.maxResultBytes > 0 && tt.resultBytes > tt.maxResultBytes {
		oldest := tt.finished.Front()
		if oldest == nil || oldest.Value == tk {
			break // its own result fits: results over the cap are not kept
		}
		forgotten = append(forgotten, tt.forgetLocked(oldest.Value.(*task)))
	}
	return forgotten
}

// forget drops a finished task at the end of its TTL, and reports whether
// it was still kept.
func (tt *taskTable) forget(tk *task) bool {
	tt.mu.Lock()
	defer tt.mu.Unlock()
	if tt.tasks[tk.id] != tk {
		return false
	}
	tt.forgetLocked(tk)
	return true
}

func (tt *taskTable) forgetLocked(tk *task) *task {
	delete(tt.tasks, tk.id)
	if tk.elem != nil {
		tt.finished.Remove(tk.elem)
		tk.elem = nil
		tt.resultBytes -= tk.size
	}
	return tk
}

// gone tells the observer that forgotten tasks left the table.
func gone(forgotten []*task) {
	for _, tk := range forgotten {
		if tk.observe != nil {
			tk.mu.Lock()
			last := tk.status
			tk.mu.Unlock()
			tk.observe(last, "")
		}
	}
}

type task struct {
	mu        sync.Mutex
	id        string
	subject   string
	key       string // its principal's limit key
	status    string
	message   string
	created   time.Time
	updated   time.Time
	result    json.RawMessage
	err       *jsonrpc.Error
	asks      map[string]InputRequest    // outstanding input requests
	answers   map[string]json.RawMessage // answers received, by key
	answered  chan struct{}              // closed and replaced on each tasks/update
	cancel    context.CancelFunc
	listeners func(*task)
	persist   func(*task) error     // cluster: writes each change through
	observe   func(from, to string) // nil unless an Observer watches

	// Kept by the taskTable, under its lock, once finished: the task's
	// place among the finished and the bytes of its result.
	elem *linkedlist.Element
	size int64
}

// wantsTask reports whether the client declared the tasks extension on this
// request.
func (r *Request) wantsTask() bool {
	var caps struct {
		Extensions map[string]json.RawMessage `json:"extensions"`
	}
	_ = json.Unmarshal(r.ClientCaps, &caps)
	_, ok := caps.Extensions[tasksExtension]
	return ok
}

type taskView struct {
	ResultType     string                  `json:"resultType"`
	TaskID         string                  `json:"taskId"`
	Status         string                  `json:"status"`
	StatusMessage  string                  `json:"statusMessage,omitempty"`
	CreatedAt      string                  `json:"createdAt"`
	LastUpdatedAt  string                  `json:"lastUpdatedAt"`
	TTLMs          int64                   `json:"ttlMs"`
	PollIntervalMs int64                   `json:"pollIntervalMs"`
	InputRequests  map[string]InputRequest `json:"inputRequests,omitempty"`
	Result         json.RawMessage         `json:"result,omitempty"`
	Error          *jsonrpc.Error          `json:"error,omitempty"`
}

func (t *task) view(resultType string, detailed bool) taskView {
	t.mu.Lock()
	defer t.mu.Unlock()
	v := taskView{
		ResultType: resultType, TaskID: t.id, Status: t.status, StatusMessage: t.message,
		CreatedAt: t.created.UTC().Format(time.RFC3339Nano), LastUpdatedAt: t.updated.UTC().Format(time.RFC3339Nano),
		TTLMs: taskTTL.Milliseconds(), PollIntervalMs: 200,
	}
	if detailed {
		if len(t.asks) > 0 {
			// A copy: the view is encoded after the lock is released,
			// while the task may still add and remove questions.
			v.InputRequests = maps.Clone(t.asks)
		}
		// Only the outcome the status names: a cancelled task's goroutine
		// may still record the error its cancellation caused.
		switch t.status {
		case "completed":
			v.Result = t.result
		case "failed":
			v.Error = t.err
		}
	}
	return v
}

func (t *task) set(status, message string) {
	t.mu.Lock()
	if terminal(t.status) {
		t.mu.Unlock()
		return
	}
	from := t.status
	t.status, t.message, t.updated = status, message, time.Now()
	notify, persist := t.listeners, t.persist
	t.mu.Unlock()
	if persist != nil {
		_ = persist(t) // a failed terminal write is retried in the background
	}
	if t.observe != nil && from != status {
		t.observe(from, status)
	}
	if notify != nil {
		notify(t)
	}
}

func terminal(status string) bool {
	return status == "completed" || status == "failed" || status == "cancelled"
}

// start runs a tool call (run, on the task's own request) in the
// background and answers at once with the task's handle.
func (tt *taskTable) start(req *Request, run func(ctx context.Context, req *Request) (*CallToolResult, error)) (any, error) {
	var b [16]byte
	_, _ = rand.Read(b[:])
	now := time.Now()
	tk := &task{
		id: hex.EncodeToString(b[:]), subject: ownerKey(req.Auth.ID(), req.Partition), key: req.principalKey(), status: "working", created: now, updated: now,
		asks: map[string]InputRequest{}, answers: map[string]json.RawMessage{}, answered: make(chan struct{}),
		listeners: tt.notes.notifyTask,
	}
	forgotten, refused := tt.admit(tk)
	gone(forgotten)
	if refused != nil {
		return nil, tt.tel.refused(req, refused)
	}
	ctx, cancel := context.WithCancel(context.Background())
	tk.cancel = cancel
	if c := tt.cluster; c != nil {
		// Shared before the handle is returned: the client's next call
		// may reach another replica.
		if err := c.persistTask(tk); err != nil {
			cancel()
			tt.abandon(tk)
			return nil, unavailableError(err)
		}
		tk.persist = c.persistTask
	}
	if obs := tt.tel.obs; obs != nil {
		tk.observe = func(from, to string) { obs.Event(EventTaskState, Tag{"from", from}, Tag{"to", to}) }
		tk.observe("", tk.status)
	}

	treq := *req
	treq.peer = nil // progress and logs are not sent for tasks
	treq.task = tk
	tt.running.Add(1)
	go func() {
		defer tt.running.Done() // last: after the final status is stored
		defer cancel()
		res, err := run(ctx, &treq)
		if err == nil {
			err = res.readStreams(tt.maxResultBytes) // the result is stored
		}
		tk.mu.Lock()
		if err == nil {
			tk.result, _ = json.Marshal(res)
			res.Release()
			if max := tt.maxResultBytes; max > 0 && int64(len(tk.result)) > max {
				err = fmt.Errorf("%w: the task's result takes %d bytes, more than the limit of %d bytes (%s) the server keeps", jsonrpc.ErrInternal, len(tk.result), max, sizeString(max))
				tk.result = nil
			}
		}
		if err != nil {
			tk.err = jsonrpc.Wire(err)
		}
		tk.mu.Unlock()
		// Before the status says so: once a client sees the task
		// finished, it no longer counts as running.
		gone(tt.finish(tk))
		switch {
		case ctx.Err() != nil:
			tk.set("cancelled", "The task was cancelled.")
		case err != nil:
			tk.set("failed", tk.err.Message)
		default:
			tk.set("completed", "")
		}
		time.AfterFunc(taskTTL, func() {
			if tt.forget(tk) {
				gone([]*task{tk})
			}
		})
	}()
	return tk.view(resultTask, false), nil
}

// ask puts questions on the task (status input_required) and waits until
// tasks/update has answered all of them.
func (t *task) ask(ctx context.Context, qs map[string]InputRequest) (map[string]json.RawMessage, error) {
	t.mu.Lock()
	maps.Copy(t.asks, qs)
	t.mu.Unlock()
	t.set("input_required", "Waiting for the client's input.")
	for {
		t.mu.Lock()
		got := map[string]json.RawMessage{}
		for k := range qs {
			if v, ok := t.answers[k]; ok {
				got[k] = v
			}
		}
		idle := len(t.asks) == 0
		wake := t.answered
		t.mu.Unlock()
		if len(got) == len(qs) {
			if idle {
				t.set("working", "")
			}
			return got, nil
		}
		select {
		case <-wake:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

type taskParams struct {
	TaskID         string                     `json:"taskId"`
	InputResponses map[string]json.RawMessage `json:"inputResponses"`
}

// find is the task raw's params name, if req's caller owns it here.
func (tt *taskTable) find(req *Request, raw json.RawMessage) (*task, *taskParams, error) {
	if !req.wantsTask() {
		return nil, nil, missingTasksCapability()
	}
	var p taskParams
	if err := decode(raw, &p); err != nil {
		return nil, nil, err
	}
	tk := tt.owned(req, p.TaskID)
	if tk == nil {
		return nil, nil, fmt.Errorf("%w: Failed to retrieve task: Task not found", jsonrpc.ErrInvalidParams)
	}
	return tk, &p, nil
}

// ownedIDs keeps the ids of the tasks that req's caller owns: another
// principal's task is as unknown to a listen stream as to tasks/get, and
// its notifications (which carry its result) are not delivered there.
func (tt *taskTable) ownedIDs(ctx context.Context, req *Request, ids []string) []string {
	var own []string
	for _, id := range ids {
		if tt.cluster != nil {
			if _, err := tt.cluster.loadTask(ctx, req, id); err == nil {
				own = append(own, id)
			}
			continue
		}
		if tt.owned(req, id) != nil {
			own = append(own, id)
		}
	}
	return own
}

// local returns the task with this id if this process runs it.
func (tt *taskTable) local(id string) *task {
	if tt == nil {
		return nil
	}
	tt.mu.Lock()
	defer tt.mu.Unlock()
	return tt.tasks[id]
}

// owned returns the task id if req's caller owns it, else nil: another
// principal's task is as unknown as one that does not exist.
func (tt *taskTable) owned(req *Request, id string) *task {
	tt.mu.Lock()
	tk := tt.tasks[id]
	tt.mu.Unlock()
	if tk == nil || tk.subject != ownerKey(req.Auth.ID(), req.Partition) {
		return nil
	}
	return tk
}

// get serves tasks/get.
func (tt *taskTable) get(ctx context.Context, req *Request, raw json.RawMessage) (any, error) {
	if tt.cluster != nil {
		// The shared record is the truth: the task may run elsewhere.
		tk, _, err := tt.findShared(ctx, req, raw)
		if err != nil {
			return nil, err
		}
		return tk.view(resultComplete, true), nil
	}
	tk, _, err := tt.find(req, raw)
	if err != nil {
		return nil, err
	}
	return tk.view(resultComplete, true), nil
}

// update serves tasks/update: the client's answers to a task's questions.
func (tt *taskTable) update(ctx context.Context, req *Request, raw json.RawMessage) (any, error) {
	tk, p, err := tt.find(req, raw)
	if c := tt.cluster; err != nil && c != nil {
		var shared *task
		if shared, p, err = tt.findShared(ctx, req, raw); err != nil {
			return nil, err
		}
		if terminal(shared.status) {
			return json.RawMessage(`{}`), nil
		}
		// The shared record shows at once which questions remain; the
		// owner applies the answers when the message arrives.
		answered := false
		for k := range p.InputResponses {
			if _, ok := shared.asks[k]; ok {
				delete(shared.asks, k)
				answered = true
			}
		}
		if answered {
			if len(shared.asks) == 0 {
				shared.status, shared.message = "working", ""
			}
			shared.updated = time.Now()
			if _, err := c.b.PutTask(ctx, shared.record(c.b.ID())); err != nil {
				return nil, unavailableError(err)
			}
		}
		if err := c.publish(topicTaskIn, taskMsg{ID: p.TaskID, InputResponses: p.InputResponses}); err != nil {
			return nil, unavailableError(err)
		}
		return json.RawMessage(`{}`), nil
	}
	if err != nil {
		return nil, err
	}
	tk.answer(p.InputResponses)
	if tk.persist != nil {
		if err := tk.persist(tk); err != nil {
			return nil, unavailableError(err)
		}
	}
	return json.RawMessage(`{}`), nil
}

// answer records the client's answers to outstanding questions (others are
// ignored) and wakes the questions waiting for them.
func (tk *task) answer(responses map[string]json.RawMessage) {
	tk.mu.Lock()
	for k, v := range responses {
		if _, outstanding := tk.asks[k]; outstanding { // others are ignored
			tk.answers[k] = v
			delete(tk.asks, k)
		}
	}
	// Wake every waiting question: each checks whether it was answered.
	close(tk.answered)
	tk.answered = make(chan struct{})
	tk.mu.Unlock()
}

// cancel serves tasks/cancel.
func (tt *taskTable) cancel(ctx context.Context, req *Request, raw json.RawMessage) (any, error) {
	tk, _, err := tt.find(req, raw)
	if err != nil && tt.cluster != nil {
		return tt.cancelShared(ctx, req, raw)
	}
	if err != nil {
		return nil, err
	}
	tk.cancel()
	tk.set("cancelled", "The task was cancelled.")
	return json.RawMessage(`{}`), nil
}

// missingTasksCapability is -32021 naming the tasks extension.
func missingTasksCapability() error {
	return (&jsonrpc.Error{Code: -32021, Message: "Missing required client capability"}).
		WithData(map[string]any{"requiredCapabilities": map[string]any{"extensions": map[string]any{tasksExtension: map[string]any{}}}})
}

// findShared is find on the cluster's shared record.
func (tt *taskTable) findShared(ctx context.Context, req *Request, raw json.RawMessage) (*task, *taskParams, error) {
	if !req.wantsTask() {
		return nil, nil, missingTasksCapability()
	}
	var p taskParams
	if err := decode(raw, &p); err != nil {
		return nil, nil, err
	}
	tk, err := tt.cluster.loadTask(ctx, req, p.TaskID)
	return tk, &p, err
}

// cancelShared cancels a task another replica runs: the shared record
// says cancelled at once, and the owner stops it when the message arrives.
func (tt *taskTable) cancelShared(ctx context.Context, req *Request, raw json.RawMessage) (any, error) {
	c := tt.cluster
	tk, p, err := tt.findShared(ctx, req, raw)
	if err != nil {
		return nil, err
	}
	if !terminal(tk.status) {
		tk.status, tk.message, tk.updated = "cancelled", "The task was cancelled.", time.Now()
		if _, err := c.b.PutTask(ctx, tk.record(c.b.ID())); err != nil {
			return nil, unavailableError(err)
		}
		if err := c.publish(topicTaskStop, taskMsg{ID: p.TaskID}); err != nil {
			tt.tel.log.Debug("task cancel not published", zap.Error(err))
		}
		tt.notes.notifyTask(tk)
	}
	return json.RawMessage(`{}`), nil
}

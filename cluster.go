package mcpgen

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"go.uber.org/zap"

	"github.com/mcpgen/mcpgen/internal/cluster"
	"github.com/mcpgen/mcpgen/internal/jsonrpc"
)

// touchEvery is how often a session in use pushes its shared expiry.
const touchEvery = time.Minute

// retryAfter is the Retry-After of answers refused because the backend is
// unreachable.
const retryAfter = 2 * time.Second

// Topic suffixes under the server's prefix ("mcp/<name>/").
const (
	topicNotify   = "notify"
	topicNotes    = "notes"  // several notifications, in order (see cluster_outbox.go)
	topicResync   = "resync" // notifications were lost: clients read again
	topicSession  = "session"
	topicEnd      = "end"
	topicEnded    = "ended" // a replica confirms an end: it no longer serves the session
	topicResponse = "response"
	topicTaskIn   = "task.update"
	topicTaskStop = "task.cancel"
	topicCancel   = "cancel"
)

// clusterState is the part of a Server that exists only with a backend:
// the link to the other replicas, and the features it shares state for.
type clusterState struct {
	b           cluster.Backend
	sessions    *sessionTable
	notes       *notifier
	tasks       *taskTable // nil without the tasks extension
	log         *zap.Logger
	canceller   atomic.Pointer[func(sessionID string, requestID json.RawMessage)]
	prefix      string
	unsubscribe func()
	ring        *keyring
	// sessionChanges counts the session changes other replicas published,
	// so that a load can tell whether one arrived while it ran.
	sessionChanges atomic.Uint64
	// ends counts the sessions ended here, by a DELETE or a message, so
	// that a load can tell whether one ended while it read.
	ends    atomic.Uint64
	endAcks endAcks
	outbox  outbox // notifications not yet published
	// notifyEvery is the least time between two publications of
	// notifications (the constant, shorter in tests).
	notifyEvery time.Duration
	stop        chan struct{}
	stopOnce    sync.Once
}

// startCluster loads the signing keys and subscribes to the other
// replicas' messages.
func (s *Server) startCluster(b cluster.Backend, explicitSecret bool) error {
	c := &clusterState{b: b, prefix: "mcp/" + s.def.Name + "/", notifyEvery: notifyEvery, stop: make(chan struct{})}
	c.outbox.wake, c.outbox.done = make(chan struct{}, 1), make(chan struct{})
	if !explicitSecret {
		c.ring = &keyring{b: b, log: s.tel.log, rotated: func() {
			// Cursors are sealed into the prebuilt list pages: reseal
			// them with the new key before the old one is retired.
			if err := s.lists.rebuild(); err != nil {
				s.tel.log.Warn("list pages not resealed", zap.Error(err))
			}
		}}
		if err := c.ring.load(); err != nil {
			return fmt.Errorf("signing keys: %w", err)
		}
		s.signer.ring = c.ring
		go c.ring.refreshEvery(10*time.Minute, c.stop)
	}
	// The features share through c before any message arrives.
	s.cluster = c
	s.sessions.cluster, s.sessions.pendingPrefix = c, "srv-"+b.ID()+"-"
	s.notes.cluster = c
	if s.tasks != nil {
		s.tasks.cluster = c
	}
	c.sessions, c.notes, c.tasks, c.log = s.sessions, s.notes, s.tasks, s.tel.log
	c.unsubscribe = b.Subscribe(c.prefix, c.onMessage)
	go c.drainOutbox()
	return nil
}

// close publishes the notifications still queued (within closeFlush)
// and stops listening to the other replicas.
func (c *clusterState) close() {
	c.stopOnce.Do(func() {
		close(c.stop)
		<-c.outbox.done
		c.unsubscribe()
	})
}

// unavailableError is the answer to a request that needs the backend, or
// a service of its handler, while it cannot be reached (err, logged where
// it was found): -32603, refused as unavailable, retry later.
func unavailableError(error) error {
	return refuse(&jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "Service temporarily unavailable: a service the server needs cannot be reached; retry later"},
		outcome{refusal: refusedUnavailable, retryAfter: retryAfter})
}

// publish sends v to every replica (this one too) on topic.
func (c *clusterState) publish(topic string, v any) error {
	return c.publishCtx(context.Background(), topic, v)
}

// publishCtx is publish within ctx.
func (c *clusterState) publishCtx(ctx context.Context, topic string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode %s message: %w", topic, err)
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	return c.b.Publish(ctx, c.prefix+topic, b)
}

// onMessage handles what other replicas published.
func (c *clusterState) onMessage(m cluster.Message) {
	if m.Lost { // messages may have been missed
		go c.sessions.resync()
		go c.notes.resync()
		return
	}
	topic := strings.TrimPrefix(m.Topic, c.prefix)
	if m.Origin == c.b.ID() && topic != topicNotify && topic != topicNotes {
		return // applied here before it was published
	}
	var err error
	switch topic {
	case topicNotify:
		var n notifyMsg
		if err = json.Unmarshal(m.Payload, &n); err == nil && !(n.Delivered && m.Origin == c.b.ID()) {
			c.notes.deliver(n)
		}
	case topicNotes:
		var ns []notifyMsg
		if err = json.Unmarshal(m.Payload, &ns); err == nil {
			for _, n := range ns {
				if !(n.Delivered && m.Origin == c.b.ID()) {
					c.notes.deliver(n)
				}
			}
		}
	case topicResync:
		if m.Origin != c.b.ID() {
			go c.notes.resync()
		}
	case topicSession:
		var rec cluster.Session
		if err = json.Unmarshal(m.Payload, &rec); err == nil {
			c.sessionChanges.Add(1) // before the look-up: see loadSession
			if sess := c.sessions.cached(rec.ID); sess != nil {
				// Here, not in the background: a notification
				// published after this change (after a subscribe was
				// answered) must find the session changed.
				c.sessions.refresh(sess)
			}
		}
	case topicEnd:
		var id string
		if err = json.Unmarshal(m.Payload, &id); err == nil {
			c.sessions.endCopy(id)
			if f := c.canceller.Load(); f != nil {
				(*f)(id, nil) // its requests running here end too
			}
			go c.sessions.confirmEnd(id)
		}
	case topicEnded:
		var id string
		if err = json.Unmarshal(m.Payload, &id); err == nil {
			c.endAcks.ack(id, m.Origin)
		}
	case topicResponse:
		var r responseMsg
		if err = json.Unmarshal(m.Payload, &r); err == nil {
			if sess := c.sessions.cached(r.Session); sess != nil {
				sess.pending.deliver(&r.Message)
			}
		}
	case topicCancel:
		var cm cancelMsg
		if err = json.Unmarshal(m.Payload, &cm); err == nil {
			if f := c.canceller.Load(); f != nil {
				(*f)(cm.Session, cm.RequestID)
			}
		}
	case topicTaskIn:
		var u taskMsg
		if err = json.Unmarshal(m.Payload, &u); err == nil {
			if tk := c.tasks.local(u.ID); tk != nil {
				tk.answer(u.InputResponses)
			}
		}
	case topicTaskStop:
		var u taskMsg
		if err = json.Unmarshal(m.Payload, &u); err == nil {
			if tk := c.tasks.local(u.ID); tk != nil {
				tk.cancel()
				tk.set("cancelled", "The task was cancelled.")
			}
		}
	}
	if err != nil {
		c.log.Warn("cluster message dropped", zap.String("topic", m.Topic), zap.Error(err))
	}
}

type notifyMsg struct {
	Method string         `json:"method"`
	Key    string         `json:"key,omitempty"`
	Params map[string]any `json:"params"`
	// Delivered is set when the publishing replica has delivered it to
	// its own clients already (it was kept in the outbox during an outage).
	Delivered bool `json:"delivered,omitempty"`
	// Partition is the partition whose clients are told (see
	// [Request.Partition]), unless Everywhere.
	Partition  string `json:"partition,omitempty"`
	Everywhere bool   `json:"everywhere,omitempty"`
}

// in addresses n to partition p's clients.
func (n notifyMsg) in(p string) notifyMsg { n.Partition = p; return n }

// everywhere addresses n to the clients of every partition.
func (n notifyMsg) everywhere() notifyMsg { n.Everywhere = true; return n }

// reaches reports whether n is for the clients of partition p.
func (n notifyMsg) reaches(p string) bool { return n.Everywhere || n.Partition == p }

type responseMsg struct {
	Session string          `json:"session"`
	Message jsonrpc.Message `json:"message"`
}

type cancelMsg struct {
	Session   string          `json:"session"`
	RequestID json.RawMessage `json:"requestId"`
}

// onRemoteCancel sets where a legacy notifications/cancelled that reached
// another replica is handed: the transport that runs the session's
// requests (streamhttp registers its in-flight table). A nil requestID
// means every request of the session (it was deleted on another replica).
// Without a cluster it is never called.
func (c *clusterState) onRemoteCancel(f func(sessionID string, requestID json.RawMessage)) {
	if c != nil {
		c.canceller.Store(&f)
	}
}

// cancelled passes a legacy cancellation to the other replicas, one of
// which may be running the request (this replica's transport has already
// cancelled it if it runs here).
func cancelled(s *Server, _ context.Context, req *Request, _ *params, raw json.RawMessage) (any, error) {
	if s.cluster == nil || req.Session == nil {
		return nil, nil
	}
	var p struct {
		RequestID json.RawMessage `json:"requestId"`
	}
	if json.Unmarshal(raw, &p) != nil || len(p.RequestID) == 0 {
		return nil, nil
	}
	if err := s.cluster.publish(topicCancel, cancelMsg{Session: req.Session.ID, RequestID: p.RequestID}); err != nil {
		s.tel.log.Debug("cancellation not published", zap.Error(err))
	}
	return nil, nil
}

type taskMsg struct {
	ID             string                     `json:"id"`
	InputResponses map[string]json.RawMessage `json:"inputResponses,omitempty"`
}

// routeResponse publishes a client's response to a server-to-client
// request that another replica sent.
func (c *clusterState) routeResponse(in *inbound) error {
	if err := c.publish(topicResponse, responseMsg{Session: in.Session.ID, Message: *in.Msg}); err != nil {
		return unavailableError(err)
	}
	return nil
}

// --- tasks ---

func (t *task) record(owner string) cluster.Task {
	t.mu.Lock()
	defer t.mu.Unlock()
	rec := cluster.Task{
		ID: t.id, Subject: t.subject, Owner: owner, Status: t.status, Message: t.message,
		Created: t.created, Updated: t.updated, Expires: t.updated.Add(taskTTL),
	}
	if len(t.asks) > 0 {
		rec.InputRequests, _ = json.Marshal(t.asks)
	}
	switch t.status {
	case "completed":
		rec.Result = t.result
	case "failed":
		rec.Error, _ = json.Marshal(t.err)
	}
	return rec
}

// persistTask writes a task's state through. A terminal state that cannot
// be written now is retried in the background until it is, so that no
// finished task stays "working" in the backend.
func (c *clusterState) persistTask(t *task) error {
	rec := t.record(c.b.ID())
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	_, err := c.b.PutTask(ctx, rec)
	cancel()
	if err != nil && cluster.Terminal(rec.Status) {
		go func() {
			for wait := time.Second; time.Since(rec.Updated) < taskTTL; wait = min(2*wait, 30*time.Second) {
				select {
				case <-time.After(wait):
				case <-c.stop:
					return
				}
				ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
				_, err := c.b.PutTask(ctx, rec)
				cancel()
				if err == nil {
					return
				}
			}
		}()
	}
	return err
}

// loadTask loads a task from the backend for the caller, as a detached
// task value that only describes it.
func (c *clusterState) loadTask(ctx context.Context, req *Request, id string) (*task, error) {
	rec, err := c.b.LoadTask(ctx, id)
	if errors.Is(err, cluster.ErrNotFound) || err == nil && rec.Subject != ownerKey(req.Auth.ID(), req.Partition) {
		return nil, fmt.Errorf("%w: Failed to retrieve task: Task not found", jsonrpc.ErrInvalidParams)
	}
	if err != nil {
		return nil, unavailableError(err)
	}
	tk := &task{
		id: rec.ID, subject: rec.Subject, status: rec.Status, message: rec.Message,
		created: rec.Created, updated: rec.Updated, result: rec.Result, asks: map[string]InputRequest{},
	}
	if len(rec.InputRequests) > 0 {
		_ = json.Unmarshal(rec.InputRequests, &tk.asks)
	}
	if len(rec.Error) > 0 {
		tk.err = &jsonrpc.Error{}
		_ = json.Unmarshal(rec.Error, tk.err)
	}
	return tk, nil
}

// --- keys ---

// keyring holds the deployment's signing keys, newest first, reloaded
// periodically and when a token signed with an unknown key arrives.
type keyring struct {
	b       cluster.Backend
	log     *zap.Logger
	rotated func() // called when the newest key changed
	keys    atomic.Pointer[[][]byte]
	last    atomic.Int64 // unix nanos of the last reload
}

func (k *keyring) load() error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	keys, err := k.b.SigningKeys(ctx)
	if err != nil {
		return err
	}
	if len(keys) == 0 {
		return errors.New("the backend returned no signing key")
	}
	old := k.keys.Swap(&keys)
	if old != nil && !bytes.Equal((*old)[0], keys[0]) && k.rotated != nil {
		k.rotated()
	}
	k.last.Store(time.Now().UnixNano())
	return nil
}

func (k *keyring) refreshEvery(d time.Duration, stop <-chan struct{}) {
	t := time.NewTicker(d)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			if err := k.load(); err != nil {
				k.log.Warn("signing keys not refreshed", zap.Error(err))
			}
		}
	}
}

func (k *keyring) current() [][]byte { return *k.keys.Load() }

// reloadSoon reloads the keys unless that was done in the last seconds,
// and reports whether it did.
func (k *keyring) reloadSoon() bool {
	last := k.last.Load()
	if time.Since(time.Unix(0, last)) < 5*time.Second || !k.last.CompareAndSwap(last, time.Now().UnixNano()) {
		return false
	}
	return k.load() == nil
}

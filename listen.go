package mcpgen

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/internal/jsonrpc"
)

// This file delivers change notifications: to legacy sessions (their
// resources/subscribe set and list changes) and to 2026-07-28
// subscriptions/listen streams (their filter), each tagged with its
// subscription id.

type listenFilter struct {
	ToolsListChanged      bool     `json:"toolsListChanged,omitempty"`
	PromptsListChanged    bool     `json:"promptsListChanged,omitempty"`
	ResourcesListChanged  bool     `json:"resourcesListChanged,omitempty"`
	ResourceSubscriptions []string `json:"resourceSubscriptions,omitempty"`
	TaskIDs               []string `json:"taskIds,omitempty"`
}

type listener struct {
	id     json.RawMessage
	filter listenFilter
	peer   streamPeer
	key    string // the limit key of its principal
	// partition is the partition of the request that opened it, the only
	// one whose notifications it carries.
	partition string
	ctx       context.Context
	ready     chan struct{} // closed once the acknowledgement was sent
}

func (l *listener) wants(method string, uri string) bool {
	switch method {
	case "notifications/tools/list_changed":
		return l.filter.ToolsListChanged
	case "notifications/prompts/list_changed":
		return l.filter.PromptsListChanged
	case "notifications/resources/list_changed":
		return l.filter.ResourcesListChanged
	case "notifications/resources/updated":
		for _, u := range l.filter.ResourceSubscriptions {
			if u == uri {
				return true
			}
		}
	case "notifications/tasks":
		for _, id := range l.filter.TaskIDs {
			if id == uri {
				return true
			}
		}
	}
	return false
}

// notifier delivers change notifications: to legacy sessions (their
// resources/subscribe set and list changes) and to 2026-07-28
// subscriptions/listen streams (their filter), each tagged with its
// subscription id, on this replica and, through the cluster, on the
// others.
type notifier struct {
	mu        sync.Mutex
	listeners map[*listener]struct{}

	max, maxPerKey int // Limits.MaxListenStreams, MaxListenStreamsPerPrincipal
	sessions       *sessionTable
	cluster        *clusterState // nil: this process alone
	tel            *telemetry
	closing        <-chan struct{} // closed when the server closes
	// serves says which notifications the server can send at all: a
	// listen filter asking for others is trimmed.
	serves struct{ tools, prompts, resources, tasks bool }
	// authorize checks that the caller may read the resource at uri
	// (its declared scope); owned keeps the task ids the caller owns.
	authorize func(ctx context.Context, req *Request, uri string) error
	owned     func(ctx context.Context, req *Request, ids []string) []string
}

// listen serves subscriptions/listen: it acknowledges the filter it will
// honour, then streams matching notifications until the client goes away
// or the server shuts down.
func (n *notifier) listen(ctx context.Context, req *Request, raw json.RawMessage) (any, error) {
	var p struct {
		Notifications listenFilter `json:"notifications"`
	}
	if err := decode(raw, &p); err != nil {
		return nil, err
	}
	if len(p.Notifications.TaskIDs) > maxListenTasks {
		return nil, fmt.Errorf("%w: at most %d taskIds in one subscriptions/listen", jsonrpc.ErrInvalidParams, maxListenTasks)
	}
	if req.peer == nil {
		return nil, fmt.Errorf("%w: this transport cannot stream notifications", jsonrpc.ErrInternal)
	}
	if len(p.Notifications.TaskIDs) > 0 && !req.wantsTask() {
		return nil, missingTasksCapability()
	}
	for _, uri := range p.Notifications.ResourceSubscriptions {
		if err := n.authorize(ctx, req, uri); err != nil {
			return nil, err
		}
	}
	f := p.Notifications
	f.ToolsListChanged = f.ToolsListChanged && n.serves.tools
	f.PromptsListChanged = f.PromptsListChanged && n.serves.prompts
	if !n.serves.resources {
		f.ResourcesListChanged, f.ResourceSubscriptions = false, nil
	}
	if !n.serves.tasks {
		f.TaskIDs = nil
	}
	f.TaskIDs = n.owned(ctx, req, f.TaskIDs)
	id := req.incoming.Msg.ID
	// Register before acknowledging, so that no change between the two is
	// lost; deliveries wait for the acknowledgement, which must come first.
	l := &listener{id: id, filter: f, peer: req.peer, key: req.principalKey(), partition: req.Partition, ctx: ctx, ready: make(chan struct{})}
	n.mu.Lock()
	if refused := n.capLocked(l.key); refused != nil {
		n.mu.Unlock()
		return nil, n.tel.refused(req, refused)
	}
	if n.listeners == nil {
		n.listeners = map[*listener]struct{}{}
	}
	n.listeners[l] = struct{}{}
	n.mu.Unlock()
	defer func() {
		n.mu.Lock()
		delete(n.listeners, l)
		n.mu.Unlock()
	}()
	ack := map[string]any{"_meta": map[string]any{metaSubscriptionID: id}, "notifications": f}
	err := req.peer.Notify(ctx, "notifications/subscriptions/acknowledged", ack)
	close(l.ready)
	if err != nil {
		return nil, err
	}
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-n.closing:
	}
	return map[string]any{"_meta": map[string]any{metaSubscriptionID: id}}, nil
}

// capLocked says which cap, if any, refuses one more listen stream of the
// principal key (Limits.MaxListenStreamsPerPrincipal and
// MaxListenStreams); the caller holds n.mu.
func (n *notifier) capLocked(key string) *limitError {
	if n.max > 0 && len(n.listeners) >= n.max {
		return &limitError{limit: "listen_streams", retryAfter: time.Second,
			msg: fmt.Sprintf("Too many requests: the server has %d subscriptions/listen streams open, the most allowed; retry later", n.max)}
	}
	if n.maxPerKey <= 0 {
		return nil
	}
	count := 0
	for l := range n.listeners {
		if l.key == key {
			count++
		}
	}
	if count >= n.maxPerKey {
		return &limitError{limit: "listen_streams", retryAfter: time.Second,
			msg: fmt.Sprintf("Too many requests: at most %d subscriptions/listen streams per caller may be open at once; close one (one stream can carry every notification) and retry", n.maxPerKey)}
	}
	return nil
}

// maxListenTasks bounds the task ids of one subscriptions/listen: each is
// looked up (in the shared store, in a cluster) before the stream opens.
const maxListenTasks = 100

// broadcast sends a notification to every legacy session and listen stream
// that asked for it. key is the resource URI or task id the notification is
// about, if any.
// In a cluster the notification is queued for the other replicas and
// comes back through the backend to be delivered here too (see
// cluster_outbox.go and onMessage); while the backend fails it is
// delivered here at once and published once the backend is back.
func (n *notifier) broadcast(m notifyMsg) {
	if c := n.cluster; c != nil {
		for _, local := range c.outbox.add(m) {
			n.deliver(local)
		}
		return
	}
	n.deliver(m)
}

// deliver sends a notification to this replica's sessions and listen
// streams that asked for it.
func (n *notifier) deliver(m notifyMsg) {
	method, key, params := m.Method, m.Key, m.Params
	n.sessions.mu.Lock()
	sessions := make([]*Session, 0, len(n.sessions.byID))
	for _, sess := range n.sessions.byID {
		if m.reaches(sess.partition) {
			sessions = append(sessions, sess)
		}
	}
	n.sessions.mu.Unlock()
	for _, sess := range sessions {
		if method == "notifications/resources/updated" && !sess.isSubscribed(key) {
			continue
		}
		if method == "notifications/tasks" {
			continue
		}
		sess.send(method, params)
	}
	n.mu.Lock()
	var targets []*listener
	for l := range n.listeners {
		// A cancelled stream stays registered until its handler returns;
		// nothing more may be sent for it meanwhile.
		if l.ctx.Err() == nil && m.reaches(l.partition) && l.wants(method, key) {
			targets = append(targets, l)
		}
	}
	n.mu.Unlock()
	for _, l := range targets {
		select {
		case <-l.ready:
		case <-l.ctx.Done():
			continue
		}
		tagged := make(map[string]any, len(params)+1)
		for k, v := range params {
			tagged[k] = v
		}
		tagged["_meta"] = map[string]any{metaSubscriptionID: l.id}
		_ = l.peer.Notify(l.ctx, method, tagged)
	}
}

// ResourceUpdated tells subscribers that the resource at uri changed, in
// every partition (see [Request.Partition]).
func (s *Server) ResourceUpdated(uri string) { s.notes.broadcast(resourceUpdated(uri).everywhere()) }

// ListChanged tells clients that the list of kind ("tools", "prompts" or
// "resources") changed, in every partition.
func (s *Server) ListChanged(kind string) { s.notes.broadcast(listChanged(kind).everywhere()) }

func resourceUpdated(uri string) notifyMsg {
	return notifyMsg{Method: "notifications/resources/updated", Key: uri, Params: map[string]any{"uri": uri}}
}

func listChanged(kind string) notifyMsg {
	return notifyMsg{Method: "notifications/" + kind + "/list_changed", Params: map[string]any{}}
}

// notifyTask tells the listen streams that follow t of its state.
func (n *notifier) notifyTask(t *task) {
	v := t.view("", true)
	b, _ := json.Marshal(v)
	var params map[string]any
	_ = json.Unmarshal(b, &params)
	delete(params, "resultType")
	n.broadcast(notifyMsg{Method: "notifications/tasks", Key: t.id, Params: params, Everywhere: true})
}

// ResourceUpdated tells the subscribers in the request's partition that
// the resource at uri changed; a component calls it after a write.
func (r *Request) ResourceUpdated(uri string) {
	r.server.notes.broadcast(resourceUpdated(uri).in(r.Partition))
}

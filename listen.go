package mcpgen

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"go.uber.org/zap"

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

// listen serves subscriptions/listen: it acknowledges the filter it will
// honour, then streams matching notifications until the client goes away
// or the server shuts down.
func (s *Server) listen(ctx context.Context, req *Request, _ *params, raw json.RawMessage) (any, error) {
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
		if err := s.permit(ctx, req, s.resourceScope(uri)); err != nil {
			return nil, err
		}
	}
	f := p.Notifications
	if !hasTools(s) {
		f.ToolsListChanged = false
	}
	if !hasPrompts(s) {
		f.PromptsListChanged = false
	}
	if !hasResources(s) {
		f.ResourcesListChanged, f.ResourceSubscriptions = false, nil
	}
	if s.tasks == nil {
		f.TaskIDs = nil
	}
	f.TaskIDs = s.ownedTasks(ctx, req, f.TaskIDs)
	id := req.incoming.Msg.ID
	// Register before acknowledging, so that no change between the two is
	// lost; deliveries wait for the acknowledgement, which must come first.
	l := &listener{id: id, filter: f, peer: req.peer, key: req.principalKey(), partition: req.Partition, ctx: ctx, ready: make(chan struct{})}
	s.subs.mu.Lock()
	if refused := s.listenCapLocked(l.key); refused != nil {
		s.subs.mu.Unlock()
		return nil, s.refused(req, refused)
	}
	if s.subs.listeners == nil {
		s.subs.listeners = map[*listener]struct{}{}
	}
	s.subs.listeners[l] = struct{}{}
	s.subs.mu.Unlock()
	defer func() {
		s.subs.mu.Lock()
		delete(s.subs.listeners, l)
		s.subs.mu.Unlock()
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
	case <-s.closing():
	}
	return map[string]any{"_meta": map[string]any{metaSubscriptionID: id}}, nil
}

// listenCapLocked says which cap, if any, refuses one more listen stream
// of the principal key (Options.Limits.MaxListenStreamsPerPrincipal and
// MaxListenStreams); the caller holds s.subs.mu.
func (s *Server) listenCapLocked(key string) *limitError {
	perKey, max := s.opts.Limits.MaxListenStreamsPerPrincipal, s.opts.Limits.MaxListenStreams
	if max > 0 && len(s.subs.listeners) >= max {
		return &limitError{limit: "listen_streams", retryAfter: time.Second,
			msg: fmt.Sprintf("Too many requests: the server has %d subscriptions/listen streams open, the most allowed; retry later", max)}
	}
	if perKey <= 0 {
		return nil
	}
	n := 0
	for l := range s.subs.listeners {
		if l.key == key {
			n++
		}
	}
	if n >= perKey {
		return &limitError{limit: "listen_streams", retryAfter: time.Second,
			msg: fmt.Sprintf("Too many requests: at most %d subscriptions/listen streams per caller may be open at once; close one (one stream can carry every notification) and retry", perKey)}
	}
	return nil
}

// maxListenTasks bounds the task ids of one subscriptions/listen: each is
// looked up (in the shared store, in a cluster) before the stream opens.
const maxListenTasks = 100

// ownedTasks keeps the ids of the tasks that req's caller owns: another
// principal's task is as unknown to a listen stream as to tasks/get, and
// its notifications (which carry its result) are not delivered there.
func (s *Server) ownedTasks(ctx context.Context, req *Request, ids []string) []string {
	var own []string
	for _, id := range ids {
		if s.cluster != nil {
			if _, err := s.sharedTask(ctx, req, id); err == nil {
				own = append(own, id)
			}
			continue
		}
		if s.tasks.owned(req, id) != nil {
			own = append(own, id)
		}
	}
	return own
}

// broadcast sends a notification to every legacy session and listen stream
// that asked for it. key is the resource URI or task id the notification is
// about, if any.
// In a cluster the notification comes back through the backend and is
// delivered there (see onMessage), unless it cannot be published.
// When the notification cannot be published, it is delivered here at once
// and kept in the outbox, to be published (in order, after any kept
// before it) once the shared store is back.
func (s *Server) broadcast(n notifyMsg) {
	if s.cluster != nil {
		if !s.cluster.outbox.behind(n) {
			err := s.publish(topicNotify, n)
			if err == nil {
				return
			}
			s.tel.log.Warn("notification kept until the other replicas can be told", zap.String("method", n.Method), zap.Error(err))
			s.cluster.outbox.add(n)
		}
	}
	s.deliver(n)
}

// deliver sends a notification to this replica's sessions and listen
// streams that asked for it.
func (s *Server) deliver(n notifyMsg) {
	method, key, params := n.Method, n.Key, n.Params
	s.sessions.mu.Lock()
	sessions := make([]*Session, 0, len(s.sessions.byID))
	for _, sess := range s.sessions.byID {
		if n.reaches(sess.partition) {
			sessions = append(sessions, sess)
		}
	}
	s.sessions.mu.Unlock()
	for _, sess := range sessions {
		if method == "notifications/resources/updated" && !sess.isSubscribed(key) {
			continue
		}
		if method == "notifications/tasks" {
			continue
		}
		sess.send(method, params)
	}
	s.subs.mu.Lock()
	var targets []*listener
	for l := range s.subs.listeners {
		// A cancelled stream stays registered until its handler returns;
		// nothing more may be sent for it meanwhile.
		if l.ctx.Err() == nil && n.reaches(l.partition) && l.wants(method, key) {
			targets = append(targets, l)
		}
	}
	s.subs.mu.Unlock()
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
func (s *Server) ResourceUpdated(uri string) { s.broadcast(resourceUpdated(uri).everywhere()) }

// ListChanged tells clients that the list of kind ("tools", "prompts" or
// "resources") changed, in every partition.
func (s *Server) ListChanged(kind string) { s.broadcast(listChanged(kind).everywhere()) }

func resourceUpdated(uri string) notifyMsg {
	return notifyMsg{Method: "notifications/resources/updated", Key: uri, Params: map[string]any{"uri": uri}}
}

func listChanged(kind string) notifyMsg {
	return notifyMsg{Method: "notifications/" + kind + "/list_changed", Params: map[string]any{}}
}

func (s *Server) notifyTask(t *task) {
	v := t.view("", true)
	b, _ := json.Marshal(v)
	var params map[string]any
	_ = json.Unmarshal(b, &params)
	delete(params, "resultType")
	s.broadcast(notifyMsg{Method: "notifications/tasks", Key: t.id, Params: params, Everywhere: true})
}

// ResourceUpdated tells the subscribers in the request's partition that
// the resource at uri changed; a component calls it after a write.
func (r *Request) ResourceUpdated(uri string) {
	r.server.broadcast(resourceUpdated(uri).in(r.Partition))
}

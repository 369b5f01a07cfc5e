package mcpgen

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"time"
)

// ListenFilter says which change notifications a subscription receives:
// notifications/tools/list_changed, .../prompts/list_changed and
// .../resources/list_changed; notifications/resources/updated for the
// resources named; and the status notifications of the tasks named
// (notifications/tasks in 2026-07-28, notifications/tasks/status in
// 2025-11-25).
type ListenFilter struct {
	// ToolsListChanged asks for notifications/tools/list_changed.
	ToolsListChanged bool `json:"toolsListChanged,omitempty"`
	// PromptsListChanged asks for notifications/prompts/list_changed.
	PromptsListChanged bool `json:"promptsListChanged,omitempty"`
	// ResourcesListChanged asks for notifications/resources/list_changed.
	ResourcesListChanged bool `json:"resourcesListChanged,omitempty"`
	// ResourceSubscriptions are the URIs of the resources whose
	// notifications/resources/updated to receive.
	ResourceSubscriptions []string `json:"resourceSubscriptions,omitempty"`
	// TaskIDs are the ids of the tasks whose status notifications to
	// receive.
	TaskIDs []string `json:"taskIds,omitempty"`
}

// Notification is one notification of the server: its method and its
// params as sent (with the _meta that tags it with its subscription).
type Notification struct {
	// Method is the notification's method, such as
	// notifications/resources/updated.
	Method string
	// Params are its params as sent.
	Params json.RawMessage
}

// ResourceURI is the uri of a notifications/resources/updated, else "".
func (n Notification) ResourceURI() string {
	if n.Method != "notifications/resources/updated" {
		return ""
	}
	var p struct {
		URI string `json:"uri"`
	}
	_ = json.Unmarshal(n.Params, &p)
	return p.URI
}

// Task decodes a task status notification (notifications/tasks or
// notifications/tasks/status); false for any other notification.
func (n Notification) Task() (*TaskStatus, bool) {
	if n.Method != "notifications/tasks" && n.Method != "notifications/tasks/status" {
		return nil, false
	}
	st, err := decodeTaskStatus(n.Params)
	if err != nil {
		return nil, false
	}
	return st, true
}

// Subscription is an open subscription to change notifications, made by
// [Client.Listen]. Close it when done.
type Subscription struct {
	c      *Client
	filter ListenFilter
	fn     func(Notification)
	legacy bool

	id     string // the subscriptions/listen request's id (2026-07-28)
	ack    chan json.RawMessage
	cancel context.CancelFunc
	done   chan struct{}
	err    error // set before done closes
	once   sync.Once
	closed bool
}

// Filter is what the server agreed to send: the filter its
// acknowledgement names in 2026-07-28, which leaves out what it cannot
// send; in a legacy session the filter asked for.
func (s *Subscription) Filter() ListenFilter { return s.filter }

// Done is closed when the subscription ends: Close was called, or in
// 2026-07-28 the server ended it or the connection broke;
// [Subscription.Err] says why. A legacy subscription ends with Close
// only: it lives in the session.
func (s *Subscription) Done() <-chan struct{} { return s.done }

// Err is nil while the subscription runs, after Close, and after the
// server ended it cleanly (a result to subscriptions/listen); otherwise
// what ended it.
func (s *Subscription) Err() error {
	select {
	case <-s.done:
		return s.err
	default:
		return nil
	}
}

// Close ends the subscription: in 2026-07-28 the subscriptions/listen
// request is cancelled (its HTTP stream closed, or notifications/cancelled
// on stdio); in a legacy session the resources no other subscription
// names are unsubscribed (resources/unsubscribe). Notifications read
// after Close began are not handed to the subscription's function; one
// being handed over as it begins may still be.
func (s *Subscription) Close() error {
	var err error
	s.once.Do(func() {
		s.c.subs.mu.Lock()
		s.closed = true
		s.c.subs.mu.Unlock()
		if !s.legacy {
			s.cancel()
			<-s.done
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		err = s.c.subs.drop(ctx, s)
		s.err = nil
		close(s.done)
	})
	return err
}

// Client bounds of subscriptions.
const (
	// listenAckTimeout bounds the wait for the acknowledgement of a
	// subscriptions/listen, which a server sends before anything else.
	listenAckTimeout = 30 * time.Second
)

// Listen subscribes to the change notifications f names and calls fn
// with each one (fn runs on the goroutine that reads the connection and
// must not block; OnNotification receives them too). Against a
// 2026-07-28 server it opens a subscriptions/listen stream and returns
// once the server acknowledged it (at most 30 s); [Subscription.Filter]
// is what the server agreed to. In a legacy session it sends
// resources/subscribe for each resource of f and hands fn the list
// changes and task status notifications f names as the session receives
// them; over HTTP it returns once the session's GET stream, which
// carries them, is open. ctx bounds the subscribing, not the
// subscription: it lasts until [Subscription.Close].
//
//	sub, err := c.Listen(ctx, mcpgen.ListenFilter{ResourceSubscriptions: []string{"memory://graph"}},
//		func(n mcpgen.Notification) { changed <- n.ResourceURI() })
//	if err != nil { ... }
//	defer sub.Close()
func (c *Client) Listen(ctx context.Context, f ListenFilter, fn func(Notification)) (*Subscription, error) {
	if fn == nil {
		fn = func(Notification) {}
	}
	s := &Subscription{c: c, filter: f, fn: fn, legacy: c.legacy, done: make(chan struct{})}
	if c.legacy {
		if w, ok := c.conn.(interface{ sessionStream(context.Context) error }); ok {
			// Over HTTP the session's notifications come on its GET
			// stream: one sent before it is open would be lost.
			wctx, cancel := context.WithTimeout(ctx, listenAckTimeout)
			err := w.sessionStream(wctx)
			cancel()
			if err != nil {
				return nil, fmt.Errorf("listen: the session's GET stream: %w", err)
			}
		}
		if err := c.subs.add(ctx, c, s); err != nil {
			return nil, err
		}
		return s, nil
	}
	id := c.nextID.Add(1)
	s.id = strconv.FormatInt(id, 10)
	s.ack = make(chan json.RawMessage, 1)
	lctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	s.cancel = cancel
	c.subs.open(s)
	go func() {
		_, err := c.callWith(lctx, &outgoing{id: id, method: "subscriptions/listen"}, map[string]any{"notifications": f})
		c.subs.mu.Lock()
		delete(c.subs.byID, s.id)
		closed := s.closed
		c.subs.mu.Unlock()
		if err != nil && !closed && lctx.Err() == nil {
			s.err = fmt.Errorf("subscriptions/listen: %w", err)
		}
		close(s.done)
	}()
	timer := time.NewTimer(listenAckTimeout)
	defer timer.Stop()
	fail := func(err error) (*Subscription, error) {
		cancel()
		<-s.done
		return nil, err
	}
	select {
	case raw := <-s.ack:
		var a struct {
			Notifications ListenFilter `json:"notifications"`
		}
		if err := json.Unmarshal(raw, &a); err != nil {
			return fail(fmt.Errorf("subscriptions/listen: decode the acknowledgement: %w: %w", ErrUnexpectedResult, err))
		}
		s.filter = a.Notifications
		return s, nil
	case <-s.done:
		if s.err != nil {
			return nil, s.err
		}
		return nil, errors.New("subscriptions/listen: the server ended the subscription before acknowledging it")
	case <-ctx.Done():
		return fail(ctx.Err())
	case <-timer.C:
		return fail(fmt.Errorf("subscriptions/listen: the server did not acknowledge the subscription within %s", listenAckTimeout))
	}
}

// Subscribe subscribes to the notifications/resources/updated of the
// resource at uri, calling fn with the uri at each; see [Client.Listen].
func (c *Client) Subscribe(ctx context.Context, uri string, fn func(uri string)) (*Subscription, error) {
	return c.Listen(ctx, ListenFilter{ResourceSubscriptions: []string{uri}}, func(n Notification) {
		if u := n.ResourceURI(); u != "" && fn != nil {
			fn(u)
		}
	})
}

// subscriptions is the client's table of subscriptions: the 2026-07-28
// ones by the id of their subscriptions/listen request, the legacy ones
// with a count of the subscriptions that name each resource.
type subscriptions struct {
	mu     sync.Mutex
	byID   map[string]*Subscription
	legacy map[*Subscription]struct{}
	uris   map[string]int // resource -> legacy subscriptions naming it
}

// open registers a 2026-07-28 subscription before its request is sent.
func (t *subscriptions) open(s *Subscription) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.byID == nil {
		t.byID = map[string]*Subscription{}
	}
	t.byID[s.id] = s
}

// add subscribes a legacy subscription's resources the session does not
// follow yet, and registers it.
func (t *subscriptions) add(ctx context.Context, c *Client, s *Subscription) error {
	var done []string
	for _, uri := range s.filter.ResourceSubscriptions {
		t.mu.Lock()
		known := t.uris[uri] > 0
		t.mu.Unlock()
		if !known {
			if _, err := c.call(ctx, "resources/subscribe", map[string]any{"uri": uri}, uri); err != nil {
				for _, u := range done {
					_, _ = c.call(context.WithoutCancel(ctx), "resources/unsubscribe", map[string]any{"uri": u}, u)
				}
				return fmt.Errorf("resources/subscribe %s: %w", uri, err)
			}
			done = append(done, uri)
		}
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.legacy == nil {
		t.legacy, t.uris = map[*Subscription]struct{}{}, map[string]int{}
	}
	t.legacy[s] = struct{}{}
	for _, uri := range s.filter.ResourceSubscriptions {
		t.uris[uri]++
	}
	return nil
}

// drop removes a legacy subscription and unsubscribes the resources no
// other one names.
func (t *subscriptions) drop(ctx context.Context, s *Subscription) error {
	t.mu.Lock()
	delete(t.legacy, s)
	var gone []string
	for _, uri := range s.filter.ResourceSubscriptions {
		if t.uris[uri]--; t.uris[uri] <= 0 {
			delete(t.uris, uri)
			gone = append(gone, uri)
		}
	}
	t.mu.Unlock()
	var errs []error
	for _, uri := range gone {
		if _, err := s.c.call(ctx, "resources/unsubscribe", map[string]any{"uri": uri}, uri); err != nil {
			errs = append(errs, fmt.Errorf("resources/unsubscribe %s: %w", uri, err))
		}
	}
	return errors.Join(errs...)
}

// acknowledged hands a notifications/subscriptions/acknowledged to the
// subscription it names.
func (t *subscriptions) acknowledged(params json.RawMessage) {
	id, ok := subscriptionID(params)
	if !ok {
		return
	}
	t.mu.Lock()
	s := t.byID[id]
	t.mu.Unlock()
	if s != nil {
		select {
		case s.ack <- params:
		default: // acknowledged already
		}
	}
}

// route hands a notification to the subscriptions it belongs to: the one
// its _meta names, or in a legacy session those whose filter asks for it.
func (t *subscriptions) route(method string, params json.RawMessage) {
	t.mu.Lock()
	if len(t.byID) == 0 && len(t.legacy) == 0 {
		t.mu.Unlock()
		return
	}
	var targets []*Subscription
	if id, ok := subscriptionID(params); ok {
		if s := t.byID[id]; s != nil && !s.closed {
			targets = append(targets, s)
		}
	} else {
		key := notificationKey(method, params)
		for s := range t.legacy {
			if !s.closed && s.filter.wants(method, key) {
				targets = append(targets, s)
			}
		}
	}
	t.mu.Unlock()
	for _, s := range targets {
		s.fn(Notification{Method: method, Params: params})
	}
}

// wants reports whether the filter asks for the notification method about
// key (a resource URI or a task id).
func (f *ListenFilter) wants(method, key string) bool {
	switch method {
	case "notifications/tools/list_changed":
		return f.ToolsListChanged
	case "notifications/prompts/list_changed":
		return f.PromptsListChanged
	case "notifications/resources/list_changed":
		return f.ResourcesListChanged
	case "notifications/resources/updated":
		return slices.Contains(f.ResourceSubscriptions, key)
	case "notifications/tasks", "notifications/tasks/status":
		return slices.Contains(f.TaskIDs, key)
	}
	return false
}

// notificationKey is the resource URI or task id a notification is about.
func notificationKey(method string, params json.RawMessage) string {
	var p struct {
		URI    string `json:"uri"`
		TaskID string `json:"taskId"`
	}
	switch method {
	case "notifications/resources/updated", "notifications/tasks", "notifications/tasks/status":
		_ = json.Unmarshal(params, &p)
	}
	return p.URI + p.TaskID
}

// subscriptionID reads the subscription id of a notification's _meta.
func subscriptionID(params json.RawMessage) (string, bool) {
	var p struct {
		Meta map[string]json.RawMessage `json:"_meta"`
	}
	if json.Unmarshal(params, &p) != nil {
		return "", false
	}
	raw, ok := p.Meta[metaSubscriptionID]
	if !ok {
		return "", false
	}
	return idKey(raw), true
}

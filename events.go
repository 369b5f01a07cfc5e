package mcpgen

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net/url"
	"strconv"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/internal/jsonrpc"
	"github.com/mcpgen/mcpgen/internal/jsonschema"
)

// EventsExtension is the extension identifier of MCP Events (the
// triggers/events working group's design sketch as the AI SDK's MCP client
// speaks it): a server with [Options].Events serves events/list,
// events/poll, events/stream, events/subscribe and events/unsubscribe with
// webhook delivery. Components emit with [Emit]; the log, the
// subscriptions and the outbox are kept by an [EventStore]. docs/events.md
// is the guide.
const EventsExtension = "io.modelcontextprotocol/events"

// The error codes of the events design sketch.
const (
	// CodeEventNotFound answers a request naming an event or subscription
	// the server does not have.
	CodeEventNotFound = -32011
	// CodeEventForbidden answers a caller that may not subscribe
	// (unauthenticated, or lacking the event's scope).
	CodeEventForbidden = -32012
	// CodeEventQuota answers a subscriber over its quota.
	CodeEventQuota = -32013
	// CodeEventUnsupported answers a delivery mode the server does not offer.
	CodeEventUnsupported = -32014
	// CodeEventCallback answers a webhook URL that is refused or failed
	// its verification.
	CodeEventCallback = -32015
)

// EventType is one event a server offers (an entry of events/list), as
// mcpgen generates it from an //mcp:event struct.
type EventType struct {
	// Name is the event's name in events/list and on every occurrence.
	Name string
	// Description says when the event happens.
	Description string
	// InputSchema describes the subscription arguments (filters).
	InputSchema json.RawMessage
	// PayloadSchema describes the data of every occurrence.
	PayloadSchema json.RawMessage
	// Scope is the permission scope a subscriber must hold, checked like
	// a tool's (with [Options].Grants), when it subscribes or polls and
	// again before every webhook delivery; empty means none.
	Scope string
	// Match reports whether an occurrence's data fits a subscription's
	// arguments; nil delivers every occurrence to every subscription.
	Match func(arguments, data json.RawMessage) bool
	// Accepts reports whether v is this event's Go payload type, so that
	// [Emit] finds the event from the value; generated as a type
	// assertion.
	Accepts func(v any) bool
}

// EventOptions configure the events feature ([Options].Events). The zero
// value keeps events in memory (not durable) with every default.
type EventOptions struct {
	// Store keeps the event log, the webhook subscriptions and the
	// delivery outbox; nil: a [MemoryEventStore], lost on restart. The
	// owner of the server closes it after the server.
	Store EventStore
	// WebhookAllow lists origins (scheme://host[:port]) webhooks may be
	// delivered to although they are not https or not public addresses:
	// for development and tests (--events-webhook-allow).
	WebhookAllow []string
	// Heartbeat is the interval of notifications/events/heartbeat on an
	// events/stream (default 15s).
	Heartbeat time.Duration
	// PollInterval is the nextPollMs advised to pollers and how often
	// streams and the webhook sender look for events other replicas
	// appended (default 1s).
	PollInterval time.Duration
	// MaxSubscriptionsPerPrincipal caps one principal's webhook
	// subscriptions (default 100).
	MaxSubscriptionsPerPrincipal int
	// MaxStreams and MaxStreamsPerPrincipal cap the events/stream
	// requests open at once (defaults 1,000 and 16).
	MaxStreams, MaxStreamsPerPrincipal int
	// MaxTTL is the longest webhook subscription granted (default 24h; a
	// request for no expiry gets it too); MinTTL the shortest (default 1m).
	MaxTTL, MinTTL time.Duration
	// Attempts is how often one event is tried before it is abandoned
	// and a gap is sent (default 8).
	Attempts int
	// RetryBase is the first backoff between attempts, doubled each time
	// up to an hour (default 1s).
	RetryBase time.Duration
	// GiveUpAfter ends a subscription (a terminated envelope) once this
	// many events in a row were abandoned (default 3).
	GiveUpAfter int
	// Timeout bounds one webhook request, the verification included
	// (default 10s).
	Timeout time.Duration
	// Retention is how long events are kept for polls and replays
	// (default 24h).
	Retention time.Duration
	// MaxEvents is how many events are kept at most (default 100,000).
	MaxEvents int
}

func (o EventOptions) withDefaults() EventOptions {
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	defInt := func(d *int, v int) {
		if *d <= 0 {
			*d = v
		}
	}
	def(&o.Heartbeat, 15*time.Second)
	def(&o.PollInterval, time.Second)
	def(&o.MaxTTL, 24*time.Hour)
	def(&o.MinTTL, time.Minute)
	def(&o.RetryBase, time.Second)
	def(&o.Timeout, 10*time.Second)
	def(&o.Retention, 24*time.Hour)
	defInt(&o.MaxSubscriptionsPerPrincipal, 100)
	defInt(&o.MaxStreams, 1000)
	defInt(&o.MaxStreamsPerPrincipal, 16)
	defInt(&o.Attempts, 8)
	defInt(&o.GiveUpAfter, 3)
	defInt(&o.MaxEvents, 100000)
	if o.MinTTL > o.MaxTTL {
		o.MinTTL = o.MaxTTL
	}
	if o.Store == nil {
		o.Store = &MemoryEventStore{MaxEvents: o.MaxEvents}
	}
	return o
}

// Bounds of one request.
const (
	maxPollEvents     = 1000 // maxEvents ceiling
	defaultPollEvents = 100
	maxEventScan      = 5000 // log rows one poll reads at most
	maxEventArgsBytes = 16 << 10
	maxEventPayload   = 256 << 10 // the sketch's delivery body ceiling
	eventBatch        = 200
)

type compiledEvent struct {
	EventType
	input, payload *jsonschema.Schema
}

// events is the events feature of a server.
type events struct {
	types   map[string]*compiledEvent
	order   []*compiledEvent
	list    json.RawMessage // the events/list result, encoded once
	opts    EventOptions
	store   EventStore
	owner   string // the replica claiming deliveries
	tel     *telemetry
	closing <-chan struct{}
	// permit checks a declared scope for a request (the server's permit).
	permit func(ctx context.Context, req *Request, scope string) error

	mu      sync.Mutex
	wake    chan struct{} // closed and replaced at every local append
	streams map[string]int
	nstream int
	sync    EventSync // nil: every event is in the log when its call returns

	hooks *webhooks
}

func newEvents(types []EventType, opts EventOptions, owner string, tel *telemetry, closing <-chan struct{},
	permit func(context.Context, *Request, string) error) (*events, error) {
	f := &events{types: map[string]*compiledEvent{}, opts: opts.withDefaults(), owner: owner, tel: tel,
		closing: closing, permit: permit, wake: make(chan struct{}), streams: map[string]int{}}
	f.store = f.opts.Store
	entries := make([]map[string]any, 0, len(types))
	for _, t := range types {
		if t.Name == "" {
			return nil, errors.New("event with no name")
		}
		if _, dup := f.types[t.Name]; dup {
			return nil, fmt.Errorf("duplicate event %q", t.Name)
		}
		c := &compiledEvent{EventType: t}
		if len(t.InputSchema) == 0 {
			c.EventType.InputSchema = json.RawMessage(`{"type":"object"}`)
		}
		if len(t.PayloadSchema) == 0 {
			c.EventType.PayloadSchema = json.RawMessage(`{"type":"object"}`)
		}
		var err error
		if c.input, err = jsonschema.Compile(c.EventType.InputSchema); err != nil {
			return nil, fmt.Errorf("event %s: input schema: %w", t.Name, err)
		}
		if c.payload, err = jsonschema.Compile(c.EventType.PayloadSchema); err != nil {
			return nil, fmt.Errorf("event %s: payload schema: %w", t.Name, err)
		}
		f.types[t.Name] = c
		f.order = append(f.order, c)
		tel.registered("event", t.Name)
		e := map[string]any{"name": t.Name, "delivery": []string{"poll", "push", "webhook"},
			"inputSchema": c.EventType.InputSchema, "payloadSchema": c.EventType.PayloadSchema}
		if t.Description != "" {
			e["description"] = t.Description
		}
		entries = append(entries, e)
	}
	f.list, _ = json.Marshal(map[string]any{"events": entries})
	f.hooks = newWebhooks(f)
	return f, nil
}

// start runs the webhook sender until the server closes.
func (f *events) start() { go f.hooks.run() }

// notify wakes the streams and the webhook sender of this replica.
func (f *events) notify() {
	f.mu.Lock()
	close(f.wake)
	f.wake = make(chan struct{})
	f.mu.Unlock()
}

func (f *events) woken() <-chan struct{} {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.wake
}

// Emit records ev, a value of an //mcp:event type, as an occurrence of
// its event in the partition of the request ctx carries ([RequestFrom]):
// it is in the event log, and owed to every webhook subscription it
// matches, when Emit returns nil. Emitting a value of a type no event
// of the server declares is an error.
func Emit(ctx context.Context, ev any) error {
	req := RequestFrom(ctx)
	if req == nil || req.server == nil {
		return fmt.Errorf("emit %T: the context carries no request of an mcpgen server", ev)
	}
	f := req.server.events
	if f == nil {
		return fmt.Errorf("emit %T: server %s declares no events", ev, req.server.def.Name)
	}
	t, err := f.typeOf(ev, req.server)
	if err != nil {
		return err
	}
	return f.emit(ctx, req.Partition, t.Name, ev)
}

// typeOf is the event whose payload type ev is.
func (f *events) typeOf(ev any, s *Server) (*compiledEvent, error) {
	for _, t := range f.order {
		if t.Accepts != nil && t.Accepts(ev) {
			return t, nil
		}
	}
	return nil, fmt.Errorf("emit %T: no event of server %s has that payload type", ev, s.def.Name)
}

// EmitTo records an occurrence of the event name with data (a value that
// encodes as its payload) in partition of the server s, outside a
// request or by name.
func EmitTo(ctx context.Context, s *Server, partition, name string, data any) error {
	if s.events == nil {
		return fmt.Errorf("emit event %s: server %s declares no events", name, s.def.Name)
	}
	return s.events.emit(ctx, partition, name, data)
}

func (f *events) emit(ctx context.Context, partition, name string, data any) error {
	t, ok := f.types[name]
	if !ok {
		return fmt.Errorf("emit event %s: no such event", name)
	}
	e, to, err := f.occurrence(ctx, t, partition, data, time.Now(), nil)
	if err != nil {
		return err
	}
	if err := f.store.Append(ctx, e, to); err != nil {
		return fmt.Errorf("emit event %s: append to the log: %w", name, err)
	}
	f.tel.log.Debug("event emitted")
	f.notify()
	return nil
}

// occurrence encodes and checks one occurrence of t in partition and
// lists the subscriptions owed it; subs, when not nil, caches the
// subscriptions read by (event, partition) across the occurrences of one
// batch.
func (f *events) occurrence(ctx context.Context, t *compiledEvent, partition string, data any, now time.Time,
	subs map[[2]string][]EventSubscription) (*EventRecord, []string, error) {
	b, err := json.Marshal(data)
	if err != nil {
		return nil, nil, fmt.Errorf("emit event %s: encode payload: %w", t.Name, err)
	}
	if len(b) > maxEventPayload {
		return nil, nil, fmt.Errorf("emit event %s: payload of %d bytes is over the %d allowed", t.Name, len(b), maxEventPayload)
	}
	// A nil slice of the payload is sent as [], as its schema says (the
	// generator's rule for what is sent; see fillNullArrays).
	b, _ = t.payload.FillNullArrays(b)
	if err := t.payload.Validate(b); err != nil {
		return nil, nil, fmt.Errorf("emit event %s: payload does not fit its schema: %w", t.Name, err)
	}
	key := [2]string{t.Name, partition}
	ss, cached := subs[key]
	if !cached {
		if ss, err = f.store.Subscriptions(ctx, t.Name, partition); err != nil {
			return nil, nil, fmt.Errorf("emit event %s: read subscriptions: %w", t.Name, err)
		}
		if subs != nil {
			subs[key] = ss
		}
	}
	var to []string
	for i := range ss {
		s := &ss[i]
		if (s.Expires.IsZero() || s.Expires.After(now)) && s.Verified && (t.Match == nil || t.Match(s.Arguments, b)) {
			to = append(to, s.ID)
		}
	}
	return &EventRecord{ID: "evt_" + randomHex(12), Name: t.Name, Partition: partition, Time: now.UTC(), Data: b}, to, nil
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// eventError is one of the sketch's coded errors with its data.
func eventError(code int64, data any, format string, args ...any) error {
	return jsonrpc.Errorf(code, format, args...).WithData(data)
}

// subject is what a poll, stream or subscribe names: the event, its
// checked arguments, and the caller's right to read it.
type subject struct {
	t    *compiledEvent
	args json.RawMessage // canonical
}

func (f *events) resolve(ctx context.Context, req *Request, name string, args json.RawMessage) (*subject, error) {
	if name == "" {
		return nil, fmt.Errorf("%w: name is required", jsonrpc.ErrInvalidParams)
	}
	t, ok := f.types[name]
	if !ok {
		return nil, eventError(CodeEventNotFound, map[string]any{"kind": "event"}, "NotFound: no event %q", name)
	}
	canon, err := canonicalArgs(args)
	if err != nil {
		return nil, err
	}
	if err := t.input.Validate(canon); err != nil {
		return nil, fmt.Errorf("%w: arguments of event %s: %s", jsonrpc.ErrInvalidParams, name, argumentError(err))
	}
	if err := f.permit(ctx, req, t.Scope); err != nil {
		return nil, forbidden(name, err)
	}
	return &subject{t: t, args: canon}, nil
}

// forbidden turns a refused scope into the sketch's Forbidden.
func forbidden(name string, err error) error {
	return eventError(CodeEventForbidden, map[string]any{"event": name}, "Forbidden: %v", err)
}

// canonicalArgs bounds subscription arguments and returns them in one
// form (keys sorted), the form they are compared in; absent is {}.
func canonicalArgs(args json.RawMessage) (json.RawMessage, error) {
	if len(args) > maxEventArgsBytes {
		return nil, fmt.Errorf("%w: arguments of %d bytes are over the %d allowed", jsonrpc.ErrInvalidParams, len(args), maxEventArgsBytes)
	}
	if len(args) == 0 || string(args) == "null" {
		return json.RawMessage(`{}`), nil
	}
	var v any
	d := json.NewDecoder(bytes.NewReader(args))
	d.UseNumber()
	if err := d.Decode(&v); err != nil {
		return nil, fmt.Errorf("%w: arguments: %v", jsonrpc.ErrInvalidParams, err)
	}
	return json.Marshal(v)
}

// occurrence is an EventOccurrence on the wire.
type occurrence struct {
	EventID   string          `json:"eventId"`
	Name      string          `json:"name"`
	Timestamp string          `json:"timestamp"`
	Data      json.RawMessage `json:"data"`
	Cursor    *string         `json:"cursor,omitempty"`
	Meta      map[string]any  `json:"_meta,omitempty"`
}

func occurrenceOf(e *EventRecord) occurrence {
	return occurrence{EventID: e.ID, Name: e.Name, Timestamp: e.Time.UTC().Format(time.RFC3339Nano), Data: e.Data}
}

func formatCursor(seq int64) string { return strconv.FormatInt(seq, 10) }

func parseCursor(c string) (int64, error) {
	n, err := strconv.ParseInt(c, 10, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("%w: cursor %q is not one this server issued", jsonrpc.ErrInvalidParams, c)
	}
	return n, nil
}

// start returns the position after which a reader given cursor starts:
// the newest for null (from now), else the cursor, moved up to the
// oldest event kept (truncated) or down to the newest (a cursor from a
// store since emptied: truncated too).
func (f *events) startAt(ctx context.Context, cursor *string) (after int64, truncated bool, err error) {
	oldest, newest, err := f.store.Bounds(ctx)
	if err != nil {
		return 0, false, storeFailed("event log", err)
	}
	if cursor == nil {
		return newest, false, nil
	}
	after, err = parseCursor(*cursor)
	if err != nil {
		return 0, false, err
	}
	if after > newest {
		return newest, true, nil
	}
	if oldest > 0 && after < oldest-1 {
		return oldest - 1, true, nil
	}
	return after, false, nil
}

// storeFailed is the error of a request the event store failed: the client
// may retry.
func storeFailed(what string, err error) error {
	return fmt.Errorf("%w: the %s cannot be read now (%v); retry", jsonrpc.ErrInternal, what, err)
}

// read collects up to max occurrences for sub after the position after,
// reading at most maxEventScan rows of the log; next is the position
// read up to, more whether the log holds more past it.
func (f *events) read(ctx context.Context, sub *subject, partition string, after int64, maxAge time.Duration, max int) (out []EventRecord, next int64, truncated, more bool, err error) {
	_, newest, err := f.store.Bounds(ctx)
	if err != nil {
		return nil, after, false, false, storeFailed("event log", err)
	}
	var floor time.Time
	if maxAge > 0 {
		floor = time.Now().Add(-maxAge)
	}
	next = after
	for scanned := 0; ; {
		batch, err := f.store.Events(ctx, sub.t.Name, partition, next, newest, eventBatch)
		if err != nil {
			return nil, after, false, false, storeFailed("event log", err)
		}
		for i := range batch {
			if len(out) == max {
				return out, next, truncated, true, nil
			}
			e := &batch[i]
			next = e.Seq
			scanned++
			if !floor.IsZero() && e.Time.Before(floor) {
				truncated = true
				continue
			}
			if sub.t.Match == nil || sub.t.Match(sub.args, e.Data) {
				out = append(out, *e)
			}
		}
		if len(batch) < eventBatch {
			// Nothing else of this name up to newest.
			return out, newest, truncated, false, nil
		}
		if scanned >= maxEventScan {
			return out, next, truncated, true, nil
		}
	}
}

type readParams struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	Cursor    *string         `json:"cursor"`
	MaxAgeMs  *int64          `json:"maxAgeMs"`
	MaxEvents *int            `json:"maxEvents"`
}

func (p *readParams) maxAge() (time.Duration, error) {
	if p.MaxAgeMs == nil {
		return 0, nil
	}
	if *p.MaxAgeMs < 0 {
		return 0, fmt.Errorf("%w: maxAgeMs must not be negative", jsonrpc.ErrInvalidParams)
	}
	return time.Duration(*p.MaxAgeMs) * time.Millisecond, nil
}

// readRequest decodes the params of events/poll, events/stream or
// events/subscribe into p (a *readParams or a struct embedding one) and
// resolves what they name.
func (f *events) readRequest(ctx context.Context, req *Request, raw json.RawMessage, p interface{ read() *readParams }) (*subject, time.Duration, error) {
	if err := decode(raw, p); err != nil {
		return nil, 0, err
	}
	r := p.read()
	sub, err := f.resolve(ctx, req, r.Name, r.Arguments)
	if err != nil {
		return nil, 0, err
	}
	maxAge, err := r.maxAge()
	if err != nil {
		return nil, 0, err
	}
	return sub, maxAge, nil
}

func (p *readParams) read() *readParams { return p }

// poll answers events/poll.
func (f *events) poll(ctx context.Context, req *Request, raw json.RawMessage) (any, error) {
	var p readParams
	sub, maxAge, err := f.readRequest(ctx, req, raw, &p)
	if err != nil {
		return nil, err
	}
	max := defaultPollEvents
	if p.MaxEvents != nil {
		if *p.MaxEvents < 1 {
			return nil, fmt.Errorf("%w: maxEvents must be at least 1", jsonrpc.ErrInvalidParams)
		}
		max = min(*p.MaxEvents, maxPollEvents)
	}
	if err := f.syncRead(ctx, req.Partition); err != nil {
		return nil, err
	}
	after, truncated, err := f.startAt(ctx, p.Cursor)
	if err != nil {
		return nil, err
	}
	res := map[string]any{"nextPollMs": f.opts.PollInterval.Milliseconds()}
	evs := []occurrence{}
	more := false
	if p.Cursor != nil {
		var recs []EventRecord
		var cut bool
		recs, after, cut, more, err = f.read(ctx, sub, req.Partition, after, maxAge, max)
		if err != nil {
			return nil, err
		}
		truncated = truncated || cut
		for i := range recs {
			evs = append(evs, occurrenceOf(&recs[i]))
		}
	}
	res["events"], res["cursor"], res["truncated"], res["hasMore"] = evs, formatCursor(after), truncated, more
	return res, nil
}

// stream answers events/stream: notifications/events/active, then each
// occurrence as notifications/events/event and a heartbeat with the
// cursor in quiet periods, until the client goes away or the server
// closes.
func (f *events) stream(ctx context.Context, req *Request, raw json.RawMessage) (any, error) {
	var p readParams
	sub, maxAge, err := f.readRequest(ctx, req, raw, &p)
	if err != nil {
		return nil, err
	}
	if req.peer == nil {
		return nil, fmt.Errorf("%w: this transport cannot stream notifications", jsonrpc.ErrInternal)
	}
	key := req.principalKey()
	if err := f.openStream(key); err != nil {
		return nil, err
	}
	defer f.closeStream(key)
	if err := f.syncRead(ctx, req.Partition); err != nil {
		return nil, err
	}
	after, truncated, err := f.startAt(ctx, p.Cursor)
	if err != nil {
		return nil, err
	}
	id := req.incoming.Msg.ID
	meta := map[string]any{metaSubscriptionID: id}
	send := func(method string, params map[string]any) error {
		params["_meta"] = meta
		return req.peer.Notify(ctx, method, params)
	}
	if err := send("notifications/events/active", map[string]any{"cursor": formatCursor(after), "truncated": truncated}); err != nil {
		return nil, err
	}
	look := time.NewTicker(f.opts.PollInterval)
	defer look.Stop()
	beat := time.NewTimer(f.opts.Heartbeat)
	defer beat.Stop()
	for {
		wake := f.woken()
		recs, next, cut, more, err := f.read(ctx, sub, req.Partition, after, maxAge, defaultPollEvents)
		if err != nil {
			_ = send("notifications/events/error", map[string]any{"error": jsonrpc.Wire(err)})
		} else {
			if cut {
				_ = send("notifications/events/active", map[string]any{"cursor": formatCursor(next), "truncated": true})
			}
			for i := range recs {
				o := occurrenceOf(&recs[i])
				c := formatCursor(recs[i].Seq)
				b, _ := json.Marshal(o)
				var m map[string]any
				_ = json.Unmarshal(b, &m)
				m["cursor"] = c
				if err := send("notifications/events/event", m); err != nil {
					return nil, err
				}
			}
			after, maxAge = next, 0
		}
		if more {
			continue
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-f.closing:
			return map[string]any{"_meta": map[string]any{}}, nil
		case <-wake:
		case <-look.C:
		case <-beat.C:
			if err := f.permit(ctx, req, sub.t.Scope); err != nil {
				_ = send("notifications/events/terminated", map[string]any{"error": jsonrpc.Wire(forbidden(sub.t.Name, err))})
				return map[string]any{"_meta": map[string]any{}}, nil
			}
			if err := send("notifications/events/heartbeat", map[string]any{"cursor": formatCursor(after)}); err != nil {
				return nil, err
			}
			beat.Reset(f.opts.Heartbeat)
		}
	}
}

func (f *events) openStream(key string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.nstream >= f.opts.MaxStreams {
		return eventError(CodeEventQuota, map[string]any{"limit": "streams", "max": f.opts.MaxStreams},
			"ResourceExhausted: the server has %d events/stream requests open, the most allowed; retry later", f.opts.MaxStreams)
	}
	if f.streams[key] >= f.opts.MaxStreamsPerPrincipal {
		return eventError(CodeEventQuota, map[string]any{"limit": "streamsPerPrincipal", "max": f.opts.MaxStreamsPerPrincipal},
			"ResourceExhausted: at most %d events/stream requests per caller may be open at once", f.opts.MaxStreamsPerPrincipal)
	}
	f.nstream++
	f.streams[key]++
	return nil
}

func (f *events) closeStream(key string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.nstream--
	if f.streams[key]--; f.streams[key] <= 0 {
		delete(f.streams, key)
	}
}

// The route handlers.

func eventsList(s *Server, _ context.Context, _ *Request, _ *params, _ json.RawMessage) (any, error) {
	return s.events.list, nil
}

func eventsPoll(s *Server, ctx context.Context, req *Request, _ *params, raw json.RawMessage) (any, error) {
	return s.events.poll(ctx, req, raw)
}

func eventsStream(s *Server, ctx context.Context, req *Request, _ *params, raw json.RawMessage) (any, error) {
	return s.events.stream(ctx, req, raw)
}

func eventsSubscribe(s *Server, ctx context.Context, req *Request, _ *params, raw json.RawMessage) (any, error) {
	return s.events.subscribe(ctx, req, raw)
}

func eventsUnsubscribe(s *Server, ctx context.Context, req *Request, _ *params, raw json.RawMessage) (any, error) {
	return s.events.unsubscribe(ctx, req, raw)
}

func hasEvents(s *Server) bool { return s.events != nil }

func init() {
	RegisterIntegration("events", func() Integration { return new(eventsFlags) })
}

// eventsFlags is --events-webhook-allow in [Main] and [Flags].
type eventsFlags struct{ allow []string }

func (e *eventsFlags) Flags(fs *flag.FlagSet) {
	fs.Func("events-webhook-allow", "let event webhooks go to `ORIGIN` (scheme://host:port) although it is not https or not a public address; repeatable; for development and tests", func(v string) error {
		u, err := url.Parse(v)
		if err != nil || u.Scheme == "" || u.Host == "" || (u.Path != "" && u.Path != "/") {
			return fmt.Errorf("want an origin such as http://127.0.0.1:8080, not %q", v)
		}
		e.allow = append(e.allow, v)
		return nil
	})
}

func (e *eventsFlags) Configure(_ context.Context, s *Setup) error {
	s.Options.Events.WebhookAllow = append(s.Options.Events.WebhookAllow, e.allow...)
	return nil
}

func (*eventsFlags) Serve(context.Context, *Setup) error { return nil }

package mcpgen

import (
	"context"
	"encoding/json"
	"sort"
	"sync"
	"time"
)

// This file defines what the events feature stores (the event log, the
// webhook subscriptions and the delivery outbox) and the interface a store
// implements; MemoryEventStore keeps them in this process. The durable
// stores live in opt-in packages: eventstore (SQLite) and pgcluster
// (PostgreSQL, shared by replicas).

// EventRecord is one emitted event as the log keeps it.
type EventRecord struct {
	// Seq is the event's position in the log, assigned by the store on
	// Append: strictly increasing in the order appends commit, so that a
	// reader that has seen Seq n never later finds an event below n.
	Seq int64
	// ID is the eventId clients deduplicate on (webhook-id on webhooks).
	ID string
	// Name is the event's name.
	Name string
	// Partition is the partition of the request that emitted it.
	Partition string
	// Time is when it was emitted.
	Time time.Time
	// Data is its payload, valid against the event's payload schema.
	Data json.RawMessage
}

// EventSubscription is one webhook subscription (events/subscribe),
// keyed by its derived ID over (principal, url, name, arguments).
type EventSubscription struct {
	// ID is derived from (principal, url, name, arguments), so that the
	// same subscription made twice is one.
	ID string
	// Name is the event subscribed to.
	Name string
	// Arguments are the subscription's filters, as canonical JSON.
	Arguments json.RawMessage
	// URL is the webhook deliveries are posted to.
	URL string
	// Secret is the client's whsec_ signing secret. It is stored because
	// every delivery is signed with it, and never logged.
	Secret string
	// Principal is the subscriber as authenticated when it last
	// subscribed.
	Principal Principal
	// PrincipalKey is the subscriber's quota key ([Principal.ID]).
	PrincipalKey string
	// Partition is the partition it subscribed in; it receives only
	// events emitted there.
	Partition string
	// Created is when it was first made.
	Created time.Time
	// Expires is when it lapses unless refreshed; zero: no expiry.
	Expires time.Time
	// Failures counts events abandoned in a row (every retry failed); a
	// delivery that succeeds resets it.
	Failures int
	// LastDelivery is when a delivery last succeeded.
	LastDelivery time.Time
	// LastError is the category of the last failure: connection_refused,
	// timeout, tls_error, http_4xx or http_5xx.
	LastError string
	// FailingSince is when the current run of failures began; zero while
	// deliveries succeed.
	FailingSince time.Time
	// Active is false while the subscription is suspended after failures,
	// until the next refresh.
	Active bool
	// Verified says the endpoint answered the verification challenge.
	Verified bool
	// ReplayedUntil is the Seq up to which the log was replayed to it.
	ReplayedUntil int64
}

// EventDelivery is one row of the delivery outbox: an event (or a control
// envelope) owed to one subscription.
type EventDelivery struct {
	// ID identifies the row in the store.
	ID int64
	// Subscription is the ID of the subscription it is owed to.
	Subscription string
	// Seq is the event delivered (0 for a control envelope); Claim fills
	// Event with it.
	Seq int64
	// Event is the event of Seq, filled in by Claim.
	Event *EventRecord
	// Control is the body of a control envelope (gap, terminated), nil
	// for an event.
	Control json.RawMessage
	// Attempts counts the tries so far.
	Attempts int
	// Due is when the next try may be made.
	Due time.Time
}

// EventStore keeps the event log, the webhook subscriptions and the
// delivery outbox. Every method is safe for concurrent use; in a cluster
// every replica uses the same store, and Claim hands each due delivery to
// one replica at a time.
type EventStore interface {
	// Append assigns e.Seq, stores e and, atomically with it, one
	// delivery per subscription id in to, due now.
	Append(ctx context.Context, e *EventRecord, to []string) error
	// AppendFeed stores es in order, each with one delivery per
	// subscription id in to[i], and moves the cursor of the feed source
	// from from (0: no cursor yet) to at, all atomically; when the cursor
	// is not at from (another pass moved it meanwhile) or at is not past
	// it, it stores nothing and returns [ErrFeedRecorded] (see
	// [RecordFeed]).
	AppendFeed(ctx context.Context, source string, from, at int64, es []*EventRecord, to [][]string) error
	// FeedCursor returns the cursor of the feed source, and whether it
	// has one.
	FeedCursor(ctx context.Context, source string) (int64, bool, error)
	// Events returns up to limit events of name (all names when empty)
	// in partition with Seq > after and Seq <= upto, in order.
	Events(ctx context.Context, name, partition string, after, upto int64, limit int) ([]EventRecord, error)
	// Bounds returns the oldest Seq still kept (0 when empty) and the
	// newest Seq assigned so far.
	Bounds(ctx context.Context) (oldest, newest int64, err error)

	// SaveSubscription inserts or replaces the subscription with sub.ID.
	SaveSubscription(ctx context.Context, sub *EventSubscription) error
	// Subscription returns the subscription with id, or nil.
	Subscription(ctx context.Context, id string) (*EventSubscription, error)
	// DeleteSubscription removes it and its pending deliveries; it
	// reports whether there was one.
	DeleteSubscription(ctx context.Context, id string) (bool, error)
	// Subscriptions returns the subscriptions to name in partition.
	Subscriptions(ctx context.Context, name, partition string) ([]EventSubscription, error)
	// CountSubscriptions counts the subscriptions of a principal key.
	CountSubscriptions(ctx context.Context, principalKey string) (int, error)

	// Enqueue adds deliveries (control envelopes, replays), due now.
	Enqueue(ctx context.Context, ds []EventDelivery) error
	// Claim leases up to max deliveries due at now to owner until
	// now+lease, oldest first; a delivery whose lease ran out (its
	// owner died) is due again.
	Claim(ctx context.Context, owner string, now time.Time, lease time.Duration, max int) ([]EventDelivery, error)
	// Complete removes a delivery.
	Complete(ctx context.Context, id int64) error
	// Retry makes a delivery due again at due, after attempts attempts.
	Retry(ctx context.Context, id int64, due time.Time, attempts int) error
	// PendingBelow returns the lowest Seq still owed to the subscription
	// other than the delivery except (0: none).
	PendingBelow(ctx context.Context, subscription string, except int64) (int64, error)

	// Prune drops events older than before and the oldest beyond the
	// newest keep, and subscriptions that expired before now with their deliveries.
	Prune(ctx context.Context, now, before time.Time, keep int) error
}

// MemoryEventStore is an [EventStore] in this process's memory: nothing
// survives a restart, and replicas do not share it. It is the default of
// a server with events and no [EventOptions].Store; it keeps at most
// MaxEvents events (default 10,000), dropping the oldest.
type MemoryEventStore struct {
	// MaxEvents is how many events it keeps (default 10,000).
	MaxEvents int

	mu     sync.Mutex
	events []EventRecord
	next   int64
	subs   map[string]*EventSubscription
	outbox map[int64]*memDelivery
	nextD  int64
	feeds  map[string]int64 // the cursors of AppendFeed, by source
}

type memDelivery struct {
	EventDelivery
	owner string
	until time.Time
}

func (m *MemoryEventStore) init() {
	if m.subs == nil {
		m.subs = map[string]*EventSubscription{}
		m.outbox = map[int64]*memDelivery{}
		m.feeds = map[string]int64{}
	}
}

// Append implements [EventStore].
func (m *MemoryEventStore) Append(_ context.Context, e *EventRecord, to []string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.init()
	m.append(e, to)
	return nil
}

// AppendFeed implements [EventStore].
func (m *MemoryEventStore) AppendFeed(_ context.Context, source string, from, at int64, es []*EventRecord, to [][]string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.init()
	if m.feeds[source] != from || at <= from {
		return ErrFeedRecorded
	}
	m.feeds[source] = at
	for i, e := range es {
		m.append(e, to[i])
	}
	return nil
}

// FeedCursor implements [EventStore].
func (m *MemoryEventStore) FeedCursor(_ context.Context, source string) (int64, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	at, ok := m.feeds[source]
	return at, ok, nil
}

func (m *MemoryEventStore) append(e *EventRecord, to []string) {
	m.next++
	e.Seq = m.next
	m.events = append(m.events, *e)
	max := m.MaxEvents
	if max <= 0 {
		max = 10000
	}
	if over := len(m.events) - max; over > 0 {
		m.events = append(m.events[:0:0], m.events[over:]...)
	}
	for _, id := range to {
		m.nextD++
		m.outbox[m.nextD] = &memDelivery{EventDelivery: EventDelivery{ID: m.nextD, Subscription: id, Seq: e.Seq, Due: e.Time}}
	}
}

// Events implements [EventStore].
func (m *MemoryEventStore) Events(_ context.Context, name, partition string, after, upto int64, limit int) ([]EventRecord, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	i := sort.Search(len(m.events), func(i int) bool { return m.events[i].Seq > after })
	var out []EventRecord
	for ; i < len(m.events) && len(out) < limit; i++ {
		e := m.events[i]
		if e.Seq > upto {
			break
		}
		if (name == "" || e.Name == name) && e.Partition == partition {
			out = append(out, e)
		}
	}
	return out, nil
}

// Bounds implements [EventStore].
func (m *MemoryEventStore) Bounds(context.Context) (int64, int64, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.events) == 0 {
		return 0, m.next, nil
	}
	return m.events[0].Seq, m.next, nil
}

// SaveSubscription implements [EventStore].
func (m *MemoryEventStore) SaveSubscription(_ context.Context, sub *EventSubscription) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.init()
	c := *sub
	m.subs[sub.ID] = &c
	return nil
}

// Subscription implements [EventStore].
func (m *MemoryEventStore) Subscription(_ context.Context, id string) (*EventSubscription, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if s, ok := m.subs[id]; ok {
		c := *s
		return &c, nil
	}
	return nil, nil
}

// DeleteSubscription implements [EventStore].
func (m *MemoryEventStore) DeleteSubscription(_ context.Context, id string) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	_, ok := m.subs[id]
	delete(m.subs, id)
	for k, d := range m.outbox {
		if d.Subscription == id {
			delete(m.outbox, k)
		}
	}
	return ok, nil
}

// Subscriptions implements [EventStore].
func (m *MemoryEventStore) Subscriptions(_ context.Context, name, partition string) ([]EventSubscription, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []EventSubscription
	for _, s := range m.subs {
		if s.Name == name && s.Partition == partition {
			out = append(out, *s)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}

// CountSubscriptions implements [EventStore].
func (m *MemoryEventStore) CountSubscriptions(_ context.Context, key string) (int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	n := 0
	for _, s := range m.subs {
		if s.PrincipalKey == key {
			n++
		}
	}
	return n, nil
}

// Enqueue implements [EventStore].
func (m *MemoryEventStore) Enqueue(_ context.Context, ds []EventDelivery) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.init()
	for _, d := range ds {
		m.nextD++
		d.ID = m.nextD
		d.Event = nil
		m.outbox[d.ID] = &memDelivery{EventDelivery: d}
	}
	return nil
}

// Claim implements [EventStore].
func (m *MemoryEventStore) Claim(_ context.Context, owner string, now time.Time, lease time.Duration, max int) ([]EventDelivery, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var due []*memDelivery
	for _, d := range m.outbox {
		if !d.Due.After(now) && !d.until.After(now) {
			due = append(due, d)
		}
	}
	sort.Slice(due, func(i, j int) bool { return due[i].ID < due[j].ID })
	if len(due) > max {
		due = due[:max]
	}
	out := make([]EventDelivery, 0, len(due))
	for _, d := range due {
		d.owner, d.until = owner, now.Add(lease)
		c := d.EventDelivery
		if c.Seq != 0 {
			i := sort.Search(len(m.events), func(i int) bool { return m.events[i].Seq >= c.Seq })
			if i < len(m.events) && m.events[i].Seq == c.Seq {
				e := m.events[i]
				c.Event = &e
			}
		}
		out = append(out, c)
	}
	return out, nil
}

// Complete implements [EventStore].
func (m *MemoryEventStore) Complete(_ context.Context, id int64) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.outbox, id)
	return nil
}

// Retry implements [EventStore].
func (m *MemoryEventStore) Retry(_ context.Context, id int64, due time.Time, attempts int) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if d, ok := m.outbox[id]; ok {
		d.Due, d.Attempts, d.until, d.owner = due, attempts, time.Time{}, ""
	}
	return nil
}

// PendingBelow implements [EventStore].
func (m *MemoryEventStore) PendingBelow(_ context.Context, sub string, except int64) (int64, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var low int64
	for _, d := range m.outbox {
		if d.Subscription == sub && d.ID != except && d.Seq != 0 && (low == 0 || d.Seq < low) {
			low = d.Seq
		}
	}
	return low, nil
}

// Prune implements [EventStore].
func (m *MemoryEventStore) Prune(_ context.Context, now, before time.Time, keep int) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	drop := 0
	for drop < len(m.events) && (len(m.events)-drop > keep || m.events[drop].Time.Before(before)) {
		drop++
	}
	m.events = append(m.events[:0:0], m.events[drop:]...)
	for id, s := range m.subs {
		if !s.Expires.IsZero() && s.Expires.Before(now) {
			delete(m.subs, id)
			for k, d := range m.outbox {
				if d.Subscription == id {
					delete(m.outbox, k)
				}
			}
		}
	}
	return nil
}

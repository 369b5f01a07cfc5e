package mcpgen

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	"go.uber.org/zap"
)

// maxOutbox bounds the notifications a replica keeps unpublished; past it
// the oldest go (delivered here if they were not), and the replicas are
// told to resynchronise their clients instead.
const maxOutbox = 1024

// notifyEvery is the least time between two of a replica's publications
// of notifications.
const notifyEvery = 50 * time.Millisecond

// maxNotesBytes bounds the encoded notifications of one message, so that
// it travels inline in a backend with a size limit (PostgreSQL's NOTIFY
// takes under 8,000 bytes); a larger notification goes alone.
const maxNotesBytes = 6000

// closeFlush bounds how long Close waits for the queue to be published.
const closeFlush = 2 * time.Second

// outbox holds the notifications this replica has yet to publish, oldest
// first: pending[:inFlight] are being published, the others wait.
//
// Notifications do not hold up the request that made the change:
// broadcast queues them here and one goroutine (drainOutbox) publishes
// the queue, all of it in one message, then waits notifyEvery before it
// publishes what came in meanwhile (the first notification after a quiet
// spell goes at once). A notification equal to one still waiting (same
// method, key, addressees and params) is sent once: a notification says
// that something changed, and one sent after both changes tells a client
// everything the two would. Under load a replica so sends one message per
// notifyEvery, whatever the number of requests that notified; when quiet,
// a notification costs what it did. While the shared store cannot be
// reached the queue is the outbox of the outage: its notifications are
// delivered here at once and published, in order, once the store is back.
type outbox struct {
	mu       sync.Mutex
	pending  []*queued
	waiting  map[string]*queued // the pending ones not in flight, by key
	inFlight int
	failing  bool          // the last publication failed: deliver here at once
	dropped  bool          // some were lost to the bound: resync before the next
	wake     chan struct{} // a notification was queued
	done     chan struct{} // closed when the publishing goroutine has ended
}

// queued is one notification to publish and its key (see mergeKey).
type queued struct {
	n   notifyMsg
	key string
}

// mergeKey is the same for equal notifications (method, key, addressees,
// params) and differs otherwise; Delivered does not count. Its length is
// about that of the notification's encoding less its field names. A list
// change, which has no params, is keyed without encoding anything.
func (n notifyMsg) mergeKey() (string, error) {
	var params []byte
	if len(n.Params) > 0 {
		var err error
		if params, err = json.Marshal(n.Params); err != nil { // a map's keys in order
			return "", err
		}
	}
	to := "p"
	if n.Everywhere {
		to = "*"
	}
	return n.Method + "\x00" + n.Key + "\x00" + to + n.Partition + "\x00" + string(params), nil
}

// entryOverhead is what a notification's encoding in a batch adds to the
// length of its key: field names, quotes, separators.
const entryOverhead = len(`{"method":"","key":"","params":,"delivered":true,"partition":"","everywhere":true},`)

// add queues n, or merges it with an equal one waiting, and returns the
// notifications to deliver here now, in order: n itself while the store
// is failing, and one that the bound pushed out before it was published
// and delivered.
func (o *outbox) add(n notifyMsg) []notifyMsg {
	n.Delivered = false
	key, err := n.mergeKey()
	if err != nil { // params that do not encode reach this replica's clients only
		return []notifyMsg{n}
	}
	var local []notifyMsg
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.failing {
		n.Delivered = true
	}
	if q := o.waiting[key]; q != nil {
		q.n.Delivered = q.n.Delivered && n.Delivered
	} else {
		if len(o.pending) >= maxOutbox && o.inFlight < len(o.pending) {
			old := o.pending[o.inFlight]
			copy(o.pending[o.inFlight:], o.pending[o.inFlight+1:])
			o.pending[len(o.pending)-1] = nil
			o.pending = o.pending[:len(o.pending)-1]
			if o.waiting[old.key] == old {
				delete(o.waiting, old.key)
			}
			if !old.n.Delivered {
				local = append(local, old.n)
			}
			o.dropped = true
		}
		q := &queued{n: n, key: key}
		o.pending = append(o.pending, q)
		if o.waiting == nil {
			o.waiting = map[string]*queued{}
		}
		o.waiting[q.key] = q
	}
	if n.Delivered {
		local = append(local, n)
	}
	select {
	case o.wake <- struct{}{}:
	default:
	}
	return local
}

// take marks the oldest notifications, up to maxNotesBytes of them (at
// least one), in flight and returns them; full says that more were left
// for want of room. It reports too whether a resync must go first.
func (o *outbox) take() (batch []notifyMsg, full, dropped bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	size := 0
	for _, q := range o.pending {
		if len(batch) > 0 && size+len(q.key)+entryOverhead > maxNotesBytes {
			full = true
			break
		}
		size += len(q.key) + entryOverhead
		batch = append(batch, q.n)
		if o.waiting[q.key] == q {
			delete(o.waiting, q.key)
		}
	}
	o.inFlight = len(batch)
	return batch, full, o.dropped
}

// sent removes the notifications in flight, published.
func (o *outbox) sent() {
	o.mu.Lock()
	defer o.mu.Unlock()
	clear(o.pending[:o.inFlight])
	o.pending = o.pending[o.inFlight:]
	o.inFlight = 0
	o.failing = false
}

// resynced records that the replicas were told to resynchronise.
func (o *outbox) resynced() {
	o.mu.Lock()
	o.dropped = false
	o.mu.Unlock()
}

// failed records a failed publication: every queued notification not
// delivered here yet is marked delivered and returned, to be delivered
// here now, and later ones will be delivered as they come until a
// publication succeeds. It reports whether the store was fine before.
func (o *outbox) failed() (local []notifyMsg, first bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.inFlight = 0
	first, o.failing = !o.failing, true
	for _, q := range o.pending {
		if !q.n.Delivered {
			q.n.Delivered = true
			local = append(local, q.n)
		}
		o.waiting[q.key] = q // in flight no more: later equal ones merge in
	}
	return local, first
}

// drainOutbox publishes the queue whenever something was queued, at most
// once per notifyEvery, retrying with a backoff while the store fails,
// until the server stops; then it publishes what is left, once.
func (c *clusterState) drainOutbox() {
	o := &c.outbox
	defer close(o.done)
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	sleep := func(d time.Duration) bool { // false: the server stops
		timer.Reset(d)
		select {
		case <-c.stop:
			return false
		case <-timer.C:
			return true
		}
	}
	for {
		select {
		case <-c.stop:
			c.flushOutbox()
			return
		case <-o.wake:
		}
		backoff := 100 * time.Millisecond
		for {
			published, full, err := c.publishOutbox(context.Background())
			if err != nil {
				if !sleep(backoff) {
					return
				}
				backoff = min(2*backoff, 5*time.Second)
				continue
			}
			if !published {
				break // nothing queued: wait for the next one
			}
			backoff = 100 * time.Millisecond
			if !full && !sleep(c.notifyEvery) {
				c.flushOutbox()
				return
			}
		}
	}
}

// publishOutbox publishes the oldest queued notifications in one message
// (a resync first if some were dropped) and reports whether there were
// any, and whether more wait for want of room. When the store fails, what
// was queued is delivered here (see failed).
func (c *clusterState) publishOutbox(ctx context.Context) (published, full bool, err error) {
	o := &c.outbox
	batch, full, dropped := o.take()
	if len(batch) == 0 {
		return false, false, nil
	}
	if dropped {
		// Past the bound some notifications are gone: every replica
		// tells its clients to read again what they watch.
		if err = c.publishCtx(ctx, topicResync, struct{}{}); err == nil {
			o.resynced()
		}
	}
	if err == nil {
		if len(batch) == 1 {
			err = c.publishCtx(ctx, topicNotify, batch[0]) // the form replicas before batching read
		} else {
			err = c.publishCtx(ctx, topicNotes, batch)
		}
	}
	if err != nil {
		local, first := o.failed()
		if first {
			c.log.Warn("notifications kept until the other replicas can be told", zap.Int("notifications", len(local)), zap.Error(err))
		}
		for _, n := range local {
			c.notes.deliver(n)
		}
		return true, full, err
	}
	o.sent()
	return true, full, nil
}

// flushOutbox publishes what is queued when the server stops, within
// closeFlush, unless the store is failing: a replica that is replaced
// does not take the last changes with it.
func (c *clusterState) flushOutbox() {
	ctx, cancel := context.WithTimeout(context.Background(), closeFlush)
	defer cancel()
	for {
		c.outbox.mu.Lock()
		failing := c.outbox.failing
		c.outbox.mu.Unlock()
		if failing || ctx.Err() != nil {
			return
		}
		if published, _, err := c.publishOutbox(ctx); !published || err != nil {
			return
		}
	}
}

// resync tells this replica's clients to read again what they
// watch, after notifications may have been lost (the replica's link to
// the shared store broke, or another replica dropped some): every
// subscribed resource is reported updated, and every list changed to
// those that listen for it.
func (n *notifier) resync() {
	uris := map[string]bool{}
	n.sessions.mu.Lock()
	for _, sess := range n.sessions.byID {
		sess.mu.Lock()
		for uri := range sess.subscribed {
			uris[uri] = true
		}
		sess.mu.Unlock()
	}
	n.sessions.mu.Unlock()
	n.mu.Lock()
	for l := range n.listeners {
		for _, uri := range l.filter.ResourceSubscriptions {
			uris[uri] = true
		}
	}
	n.mu.Unlock()
	n.tel.log.Info("notifications may have been lost: clients told to read again", zap.Int("resources", len(uris)))
	for uri := range uris {
		n.deliver(resourceUpdated(uri).everywhere())
	}
	for _, kind := range []string{"tools", "prompts", "resources"} {
		n.deliver(listChanged(kind).everywhere())
	}
}

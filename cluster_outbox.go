package mcpgen

import (
	"sync"
	"time"

	"go.uber.org/zap"
)

// maxOutbox bounds the notifications a replica keeps while the shared
// store cannot be reached; past it the oldest go, and the replicas are
// told to resynchronise their clients instead.
const maxOutbox = 1024

// outbox holds the notifications this replica could not publish, to
// publish them in order once it can: a client subscribed on another
// replica then learns of a change made during an outage, late rather
// than never. They were delivered here already (Delivered is set).
type outbox struct {
	mu      sync.Mutex
	pending []notifyMsg
	dropped bool          // some were lost to the bound: resync after
	wake    chan struct{} // a notification was queued
}

// behind keeps n when others wait to be published, so that the order
// holds; false when none does and n may be published now.
func (o *outbox) behind(n notifyMsg) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	if len(o.pending) == 0 {
		return false
	}
	o.addLocked(n)
	return true
}

// add keeps n, which could not be published.
func (o *outbox) add(n notifyMsg) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.addLocked(n)
}

func (o *outbox) addLocked(n notifyMsg) {
	n.Delivered = true
	if len(o.pending) == maxOutbox {
		o.pending = o.pending[1:]
		o.dropped = true
	}
	o.pending = append(o.pending, n)
	select {
	case o.wake <- struct{}{}:
	default:
	}
}

// drainOutbox publishes what the outbox holds whenever something was
// queued, retrying with a backoff while the store still fails, until the
// server stops.
func (c *clusterState) drainOutbox() {
	o, stop := &c.outbox, c.stop
	for {
		select {
		case <-stop:
			return
		case <-o.wake:
		}
		for backoff := 100 * time.Millisecond; !c.flushOutbox(); backoff = min(2*backoff, 5*time.Second) {
			select {
			case <-stop:
				return
			case <-time.After(backoff):
			}
		}
	}
}

// flushOutbox publishes the outbox, oldest first; false when the store
// failed again (what is left stays for the next try).
func (c *clusterState) flushOutbox() bool {
	o := &c.outbox
	for {
		o.mu.Lock()
		if len(o.pending) == 0 {
			o.mu.Unlock()
			return true
		}
		n, dropped := o.pending[0], o.dropped
		o.mu.Unlock()
		if dropped {
			// Past the bound some notifications are gone: every replica
			// tells its clients to read again what they watch.
			if c.publish(topicResync, struct{}{}) != nil {
				return false
			}
			o.mu.Lock()
			o.dropped = false
			o.mu.Unlock()
		}
		if c.publish(topicNotify, n) != nil {
			return false
		}
		o.mu.Lock()
		o.pending = o.pending[1:]
		o.mu.Unlock()
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

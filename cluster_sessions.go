package mcpgen

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"go.uber.org/zap"

	"github.com/mcpgen/mcpgen/internal/cluster"
	"github.com/mcpgen/mcpgen/internal/jsonrpc"
)

// The legacy sessions of a server in a cluster: created in the backend at
// initialize, loaded by any replica that sees their Mcp-Session-Id and
// cached there, changed field by field and reloaded where cached, ended
// everywhere before a DELETE is answered (see ClusterBackend).

func (sess *Session) record(idle time.Duration) cluster.Session {
	client, _ := json.Marshal(sess.Client)
	sess.mu.Lock()
	defer sess.mu.Unlock()
	rec := cluster.Session{
		ID: sess.ID, Subject: ownerKey(sess.owner, sess.partition), Version: sess.Version, Client: client, ClientCaps: sess.ClientCaps,
		LogLevel: sess.logLevel, Initialized: sess.initialized, Created: sess.started, Expires: expiry(sess.lastSeen, idle),
	}
	for uri := range sess.subscribed {
		rec.Subscribed = append(rec.Subscribed, uri)
	}
	return rec
}

// expiry is when a session last seen at t ends; "never" is far away.
func expiry(t time.Time, idle time.Duration) time.Time {
	if idle < 0 {
		return t.AddDate(100, 0, 0)
	}
	return t.Add(idle)
}

// apply takes the mutable state another replica saved.
func (sess *Session) apply(rec cluster.Session) {
	sess.mu.Lock()
	defer sess.mu.Unlock()
	sess.logLevel, sess.initialized = rec.LogLevel, rec.Initialized
	sess.subscribed = make(map[string]bool, len(rec.Subscribed))
	for _, uri := range rec.Subscribed {
		sess.subscribed[uri] = true
	}
}

func (t *sessionTable) fromRecord(rec cluster.Session) *Session {
	var client Implementation
	_ = json.Unmarshal(rec.Client, &client)
	sess := &Session{
		ID: rec.ID, Version: rec.Version, Client: client, ClientCaps: rec.ClientCaps,
		started: rec.Created, lastSeen: time.Now(), sharedTouch: time.Now(), done: make(chan struct{}),
	}
	sess.owner, sess.partition = splitOwnerKey(rec.Subject)
	sess.pending.prefix = "srv-" + t.cluster.b.ID() + "-"
	sess.key = sess.owner // the limit key of its principal (anonymous: by address, unknown here)
	sess.apply(rec)
	return sess
}

// load finds a session another replica opened and caches it here.
func (t *sessionTable) load(ctx context.Context, id string) (*Session, error) {
	for tries := 1; ; tries++ {
		changes, ends := t.cluster.sessionChanges.Load(), t.cluster.ends.Load()
		rec, err := t.cluster.b.LoadSession(ctx, id)
		if errors.Is(err, cluster.ErrNotFound) {
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
		sess := t.fromRecord(rec)
		t.mu.Lock()
		if cached := t.byID[id]; cached != nil { // loaded meanwhile by another request
			t.mu.Unlock()
			return cached, nil
		}
		if t.cluster.ends.Load() != ends {
			// A session ended while we read, perhaps this one after we
			// read it, and its end found no copy here to end: a copy
			// cached now would outlive it. Read again; while sessions
			// keep ending, serve this request without caching.
			t.mu.Unlock()
			if tries < 3 {
				continue
			}
			return sess, nil
		}
		t.addLocked(sess)
		t.mu.Unlock()
		if t.cluster.sessionChanges.Load() != changes {
			// A change published while we read was not seen by this copy,
			// which was not yet cached: read again.
			go t.refresh(sess)
		}
		return sess, nil
	}
}

// refresh reloads a cached session's state from the backend after
// another replica changed it. The published record itself is not applied:
// messages from different replicas may arrive in another order than their
// saves (one published before a change made here can arrive after it),
// while the backend holds the latest state.
func (t *sessionTable) refresh(sess *Session) {
	sess.saveMu.Lock()
	defer sess.saveMu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	rec, err := t.cluster.b.LoadSession(ctx, sess.ID)
	switch {
	case errors.Is(err, cluster.ErrNotFound):
		t.drop(sess.ID)
	case err != nil: // the backend's reconnection (Message.Lost) resyncs
		t.tel.log.Debug("session not refreshed", zap.String("session", sess.ID), zap.Error(err))
	default:
		sess.apply(rec)
	}
}

// change makes a change to a session and, in a cluster, stores it
// field by field (another replica's concurrent change of the same session
// stays), takes the stored state, and tells the replicas that cache it.
// The change holds the session's saveMu, as reloads do, so that a reload
// that read the backend before the change cannot undo it here.
func (t *sessionTable) change(ctx context.Context, sess *Session, u cluster.SessionUpdate) error {
	if sess == nil {
		return nil
	}
	if t.cluster == nil {
		sess.update(u)
		return nil
	}
	sess.saveMu.Lock()
	defer sess.saveMu.Unlock()
	u.Expires = expiry(sess.lastSeenNow(), t.idle)
	rec, err := t.cluster.b.UpdateSession(ctx, sess.ID, u)
	if err != nil {
		if errors.Is(err, cluster.ErrNotFound) {
			t.drop(sess.ID)
			return fmt.Errorf("%w: the session ended", jsonrpc.ErrInvalidRequest)
		}
		return unavailableError(err)
	}
	sess.apply(rec)
	if err := t.cluster.publish(topicSession, rec); err != nil {
		t.tel.log.Debug("session change not published", zap.Error(err))
	}
	return nil
}

// cached returns the session if this replica holds it, without
// asking the backend.
func (t *sessionTable) cached(id string) *Session {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.byID[id]
}

// endCopy ends this replica's copy of a session deleted from the shared
// store, and any copy a load that read it before the delete is about to
// cache (see loadSession).
func (t *sessionTable) endCopy(id string) {
	t.cluster.ends.Add(1) // before the drop: a load that caches after it sees the change
	t.drop(id)
}

// endWait bounds how long a DELETE waits for the other replicas to confirm
// that they ended the session.
const endWait = 2 * time.Second

// endEverywhere ends, on every replica, a session this one has deleted
// from the shared store, and returns once each replica subscribed to this
// server's messages has confirmed that it no longer serves the session,
// so that a request sent after the DELETE's answer is refused wherever
// it lands. A replica that does not confirm within endWait is cut off
// from the store (or stopped); the wait ends without it, and it checks
// its sessions against the store when its listener is back.
func (t *sessionTable) endEverywhere(ctx context.Context, id string) {
	c := t.cluster
	t.endCopy(id)
	w := c.endAcks.add(id)
	defer c.endAcks.remove(w)
	if err := t.cluster.publish(topicEnd, id); err != nil {
		t.tel.log.Warn("session end not published: other replicas end it when they next check it", zap.String("session", id), zap.Error(err))
		return
	}
	ctx, cancel := context.WithTimeout(ctx, endWait)
	defer cancel()
	// Read after the delete: a replica that subscribed later loads the
	// session only after the delete, and finds it gone.
	replicas, err := c.b.Subscribers(ctx, c.prefix)
	if err != nil {
		t.tel.log.Warn("replicas not listed: the session end was not confirmed", zap.String("session", id), zap.Error(err))
		return
	}
	if missing := w.await(ctx, c.b.ID(), replicas); len(missing) > 0 {
		t.tel.log.Warn("session end not confirmed by every replica", zap.String("session", id), zap.Strings("replicas", missing))
	}
}

// confirmEnd tells the replica that deleted a session that this one has
// ended its copy (onMessage did, before calling it).
func (t *sessionTable) confirmEnd(id string) {
	if err := t.cluster.publish(topicEnded, id); err != nil {
		t.tel.log.Debug("session end not confirmed", zap.String("session", id), zap.Error(err))
	}
}

// endAcks holds the DELETEs waiting for the replicas' confirmations.
type endAcks struct {
	mu    sync.Mutex
	waits map[*endAck]struct{}
}

// endAck is one DELETE's wait.
type endAck struct {
	session string
	more    chan struct{} // a confirmation arrived
	mu      sync.Mutex
	from    map[string]bool // replicas that confirmed
}

func (a *endAcks) add(session string) *endAck {
	w := &endAck{session: session, from: map[string]bool{}, more: make(chan struct{}, 1)}
	a.mu.Lock()
	if a.waits == nil {
		a.waits = map[*endAck]struct{}{}
	}
	a.waits[w] = struct{}{}
	a.mu.Unlock()
	return w
}

func (a *endAcks) remove(w *endAck) {
	a.mu.Lock()
	delete(a.waits, w)
	a.mu.Unlock()
}

// ack records replica's confirmation of the end of session.
func (a *endAcks) ack(session, replica string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	for w := range a.waits {
		if w.session != session {
			continue
		}
		w.mu.Lock()
		w.from[replica] = true
		w.mu.Unlock()
		select {
		case w.more <- struct{}{}:
		default:
		}
	}
}

// await waits until every replica of want but self has confirmed, or ctx
// ends; it returns those that have not.
func (w *endAck) await(ctx context.Context, self string, want []string) []string {
	for {
		var missing []string
		w.mu.Lock()
		for _, r := range want {
			if r != self && !w.from[r] {
				missing = append(missing, r)
			}
		}
		w.mu.Unlock()
		if len(missing) == 0 {
			return nil
		}
		select {
		case <-w.more:
		case <-ctx.Done():
			return missing
		}
	}
}

// drop ends this replica's copy of a session ended elsewhere.
func (t *sessionTable) drop(id string) {
	t.mu.Lock()
	if sess := t.byID[id]; sess != nil {
		t.removeLocked(sess) // ends it
	}
	t.mu.Unlock()
}

// touchShared pushes a session's shared expiry, at most once per
// touchEvery, in the background: a request never waits for it.
func (t *sessionTable) touchShared(sess *Session) {
	now := time.Now()
	sess.mu.Lock()
	due := now.Sub(sess.sharedTouch) >= touchEvery
	if due {
		sess.sharedTouch = now
	}
	sess.mu.Unlock()
	if !due || t.idle < 0 {
		return
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := t.cluster.b.TouchSession(ctx, sess.ID, now.Add(t.idle)); errors.Is(err, cluster.ErrNotFound) {
			t.drop(sess.ID)
		}
	}()
}

// stillShared reports whether a session this replica saw idle is alive in
// the backend; on error it is kept.
func (t *sessionTable) stillShared(sess *Session) bool {
	sess.saveMu.Lock()
	defer sess.saveMu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	rec, err := t.cluster.b.LoadSession(ctx, sess.ID)
	if errors.Is(err, cluster.ErrNotFound) {
		return false
	}
	if err == nil {
		sess.apply(rec)
		sess.mu.Lock()
		if last := rec.Expires.Add(-t.idle); last.After(sess.lastSeen) {
			sess.lastSeen = last
		}
		sess.mu.Unlock()
	}
	return true
}

// checkShared ends the sessions this replica saw idle that are not alive
// elsewhere either, and deletes what the store still holds of them.
func (t *sessionTable) checkShared(idle []*Session) {
	var gone []string
	for _, sess := range idle {
		if !t.stillShared(sess) {
			t.drop(sess.ID)
			gone = append(gone, sess.ID)
		}
	}
	t.forgetShared(gone)
}

// forgetShared deletes sessions ended here (evicted under the session
// caps, or expired) from the shared store, where they would otherwise
// stay until their expiry (or for good, with SessionIdle negative), and
// tells the replicas that cache them to end them too.
func (t *sessionTable) forgetShared(ids []string) {
	for _, id := range ids {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		existed, err := t.cluster.b.DeleteSession(ctx, id)
		cancel()
		if err != nil {
			t.tel.log.Debug("ended session not deleted from the shared store", zap.String("session", id), zap.Error(err))
			continue
		}
		if !existed {
			continue
		}
		if err := t.cluster.publish(topicEnd, id); err != nil {
			t.tel.log.Debug("session end not published", zap.Error(err))
		}
	}
}

// resync refreshes every cached session after messages may have
// been lost: ended ones end here, changed ones take their state.
func (t *sessionTable) resync() {
	t.mu.Lock()
	all := make([]*Session, 0, len(t.byID))
	for _, sess := range t.byID {
		all = append(all, sess)
	}
	t.mu.Unlock()
	t.checkShared(all)
}

package mcpgen

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpgen/mcpgen/internal/jsonrpc"
)

// sessionTable owns the legacy sessions of a server, so that transports
// hold none: HTTP looks them up by Mcp-Session-Id. Sessions idle for longer
// than the limit are ended, so that clients that never send DELETE do not
// leak them, and the number of sessions is capped, globally and per
// principal: past a cap, opening a session ends the least recently used
// one without a request in progress (of that principal, for the
// per-principal cap), and when every session is busy the new one is
// refused.
type sessionTable struct {
	mu    sync.Mutex
	byID  map[string]*Session
	byKey map[string]map[*Session]struct{} // principal key -> its sessions
	idle  time.Duration
	sweep time.Time

	max, maxPerKey int // <= 0: no cap

	maxClientInfo int // Limits.MaxClientInfoBytes

	tel *telemetry
	// cluster shares the sessions with the other replicas (nil: this
	// process alone). Sessions idle here are then checked against the
	// shared store instead of being ended at once, those ended here are
	// deleted from it, and the caps bound the sessions this replica
	// holds, not the deployment's.
	cluster *clusterState
	// pendingPrefix, in a cluster, is the prefix of our server-to-client
	// request ids, naming this replica.
	pendingPrefix string
}

func newSessionTable(idle time.Duration, l Limits, tel *telemetry) *sessionTable {
	return &sessionTable{
		byID: map[string]*Session{}, byKey: map[string]map[*Session]struct{}{}, idle: idle,
		max: l.MaxSessions, maxPerKey: l.MaxSessionsPerPrincipal, maxClientInfo: l.MaxClientInfoBytes, tel: tel,
	}
}

// open adds a session for the principal (owner is its [Principal.ID], key its
// limit key) in partition, making room under the caps first. evicted reports the
// sessions it ended for that, so that the caller can tell the observer.
func (t *sessionTable) open(version string, client Implementation, caps json.RawMessage, owner, partition, key string) (s *Session, evicted []string, err *limitError) {
	var gone []string // the sessions evicted, to delete from a shared store
	t.mu.Lock()
	defer func() {
		t.mu.Unlock()
		if len(gone) > 0 && t.cluster != nil {
			go t.forgetShared(gone)
		}
	}()
	t.expireLocked()
	if mine := t.byKey[key]; t.maxPerKey > 0 && len(mine) >= t.maxPerKey {
		victim := lru(mine)
		if victim == nil {
			return nil, nil, &limitError{limit: "sessions", retryAfter: time.Second,
				msg: fmt.Sprintf("Too many sessions: this caller has %d sessions with requests in progress, the most allowed; end one (HTTP DELETE) or retry later", t.maxPerKey)}
		}
		t.removeLocked(victim)
		evicted = append(evicted, "max_sessions_per_principal")
		gone = append(gone, victim.ID)
	}
	if t.max > 0 && len(t.byID) >= t.max {
		var victim *Session
		for _, c := range t.byID {
			if c.inflight.Load() == 0 && (victim == nil || c.idleSince().Before(victim.idleSince())) {
				victim = c
			}
		}
		if victim == nil {
			return nil, evicted, &limitError{limit: "sessions", retryAfter: time.Second,
				msg: fmt.Sprintf("Too many sessions: the server has %d sessions with requests in progress, the most allowed; retry later", t.max)}
		}
		t.removeLocked(victim)
		evicted = append(evicted, "max_sessions")
		gone = append(gone, victim.ID)
	}
	s = newSession(version, client, caps)
	s.owner, s.partition, s.key = owner, partition, key
	s.pending.prefix = t.pendingPrefix
	t.addLocked(s)
	return s, evicted, nil
}

// checkClientInfo refuses, with -32602 naming the limit, an initialize
// whose capabilities and clientInfo together are larger than
// Options.Limits.MaxClientInfoBytes: the session keeps both for its lifetime
// (and a cluster stores them), so their size is the client's to choose
// only up to the cap.
func (t *sessionTable) checkClientInfo(caps json.RawMessage, client Implementation) error {
	limit := t.maxClientInfo
	if limit < 0 {
		return nil
	}
	info, _ := json.Marshal(client)
	n := len(caps) + len(info)
	if n <= limit {
		return nil
	}
	if t.tel.obs != nil {
		t.tel.obs.Event(EventLimitRefused, Tag{"limit", "client_info"}, Tag{"method", "initialize"})
	}
	return (&jsonrpc.Error{Code: jsonrpc.CodeInvalidParams,
		Message: fmt.Sprintf("invalid params: /params/capabilities and /params/clientInfo take %d bytes together, more than the limit of %d bytes (%s)", n, limit, sizeString(int64(limit)))}).
		WithData(map[string]any{"limit": "client_info", "maxBytes": limit})
}

// addLocked adds a session to the table.
func (t *sessionTable) addLocked(s *Session) {
	t.byID[s.ID] = s
	mine := t.byKey[s.key]
	if mine == nil {
		mine = map[*Session]struct{}{}
		t.byKey[s.key] = mine
	}
	mine[s] = struct{}{}
}

// lru returns the least recently used session without a request in
// progress, or nil.
func lru(set map[*Session]struct{}) *Session {
	var victim *Session
	for c := range set {
		if c.inflight.Load() == 0 && (victim == nil || c.idleSince().Before(victim.idleSince())) {
			victim = c
		}
	}
	return victim
}

// removeLocked forgets a session and ends it.
func (t *sessionTable) removeLocked(s *Session) {
	delete(t.byID, s.ID)
	if mine := t.byKey[s.key]; mine != nil {
		delete(mine, s)
		if len(mine) == 0 {
			delete(t.byKey, s.key)
		}
	}
	s.end()
}

// expireLocked ends idle sessions, at most once a minute.
func (t *sessionTable) expireLocked() {
	if t.idle < 0 || time.Since(t.sweep) < time.Minute {
		return
	}
	t.sweep = time.Now()
	var idle []*Session
	for _, s := range t.byID {
		if time.Since(s.idleSince()) > t.idle {
			if t.cluster != nil {
				idle = append(idle, s)
				continue
			}
			t.removeLocked(s)
		}
	}
	if len(idle) > 0 {
		go t.checkShared(idle)
	}
}

// initialize opens the session of a legacy initialize request and
// returns the revision negotiated: the client's, when this server speaks
// it, else the latest legacy one.
func (t *sessionTable) initialize(ctx context.Context, req *Request, raw json.RawMessage) (string, error) {
	var ip initializeParams
	if err := decode(raw, &ip); err != nil {
		return "", err
	}
	if err := t.checkClientInfo(ip.Capabilities, ip.ClientInfo); err != nil {
		return "", err
	}
	version := latestLegacy
	for _, v := range legacyVersions {
		if v == ip.ProtocolVersion {
			version = v
		}
	}
	key := ""
	if req.incoming != nil {
		key = req.incoming.principalKey()
	}
	sess, evicted, refused := t.open(version, ip.ClientInfo, ip.Capabilities, req.Auth.ID(), req.Partition, key)
	for _, reason := range evicted {
		t.tel.event(EventSessionEvicted, "reason", reason)
	}
	if refused != nil {
		return "", t.tel.refused(req, refused)
	}
	if t.cluster != nil {
		if err := t.cluster.b.CreateSession(ctx, sess.record(t.idle)); err != nil {
			t.drop(sess.ID)
			return "", unavailableError(err)
		}
	}
	req.Session = sess
	req.Version = version
	if req.incoming != nil {
		req.incoming.Session = sess
	}
	return version, nil
}

type initializeParams struct {
	ProtocolVersion string          `json:"protocolVersion"`
	Capabilities    json.RawMessage `json:"capabilities"`
	ClientInfo      Implementation  `json:"clientInfo"`
}

// get returns the live legacy session with this id, or nil when it is
// unknown, ended or expired (or the shared store cannot be reached).
func (t *sessionTable) get(id string) *Session {
	sess, _ := t.lookup(context.Background(), id)
	return sess
}

// lookup returns the live legacy session with this id, or nil when it is
// unknown, ended or expired. In a cluster a session opened on another
// replica is loaded from the shared store; an error (wrapping
// cluster.ErrUnavailable) means the store cannot be reached and the
// request should be retried.
func (t *sessionTable) lookup(ctx context.Context, id string) (*Session, error) {
	t.mu.Lock()
	t.expireLocked()
	sess := t.byID[id]
	if sess != nil && t.idle > 0 && time.Since(sess.idleSince()) > t.idle {
		if t.cluster != nil {
			// Idle here, perhaps in use on another replica.
			t.mu.Unlock()
			if t.stillShared(sess) {
				return sess, nil
			}
			t.drop(id)
			t.forgetShared([]string{id})
			return nil, nil
		}
		t.removeLocked(sess)
		sess = nil
	}
	t.mu.Unlock()
	if sess != nil || t.cluster == nil {
		return sess, nil
	}
	return t.load(ctx, id)
}

// end ends a legacy session (stdio EOF) and reports whether it existed.
func (t *sessionTable) end(id string) bool {
	ok, _ := t.delete(context.Background(), id)
	return ok
}

// delete ends a legacy session (HTTP DELETE), on every replica in a
// cluster before it returns, and reports whether it existed. An error
// (wrapping cluster.ErrUnavailable) means the shared store cannot be
// reached.
func (t *sessionTable) delete(ctx context.Context, id string) (bool, error) {
	t.mu.Lock()
	sess, ok := t.byID[id]
	if ok {
		t.removeLocked(sess)
	}
	t.mu.Unlock()
	if t.cluster == nil {
		return ok, nil
	}
	shared, err := t.cluster.b.DeleteSession(ctx, id)
	if err != nil {
		return ok, err
	}
	if ok || shared {
		t.endEverywhere(ctx, id)
	}
	return ok || shared, nil
}

// count is how many legacy sessions this process holds.
func (t *sessionTable) count() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.byID)
}

// closeAll ends this process's copy of every session (in a cluster they
// live on elsewhere).
func (t *sessionTable) closeAll() {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, sess := range t.byID {
		t.removeLocked(sess)
	}
}

// Sessions returns how many legacy sessions are open.
func (s *Server) Sessions() int { return s.sessions.count() }

// pendingCalls matches the client's responses to the requests the server
// sent it (legacy server-to-client requests).
type pendingCalls struct {
	prefix string // "srv-" when empty; names the replica in a cluster
	mu     sync.Mutex
	next   atomic.Int64
	calls  map[string]chan *jsonrpc.Message
}

// Send issues a server-to-client request through write and waits for the
// client's answer, the context's end or the session's end.
func (p *pendingCalls) Send(ctx context.Context, method string, params any, write func(*jsonrpc.Message) error, done <-chan struct{}) (json.RawMessage, error) {
	prefix := p.prefix
	if prefix == "" {
		prefix = "srv-"
	}
	id := prefix + strconv.FormatInt(p.next.Add(1), 10)
	raw, err := json.Marshal(params)
	if err != nil {
		return nil, fmt.Errorf("encode %s params: %w", method, err)
	}
	ch := make(chan *jsonrpc.Message, 1)
	p.mu.Lock()
	if p.calls == nil {
		p.calls = map[string]chan *jsonrpc.Message{}
	}
	p.calls[strconv.Quote(id)] = ch
	p.mu.Unlock()
	defer func() {
		p.mu.Lock()
		delete(p.calls, strconv.Quote(id))
		p.mu.Unlock()
	}()
	if err := write(&jsonrpc.Message{JSONRPC: jsonrpc.Version, ID: json.RawMessage(strconv.Quote(id)), Method: method, Params: raw}); err != nil {
		return nil, fmt.Errorf("send %s: %w", method, err)
	}
	select {
	case m := <-ch:
		if m.Error != nil {
			// Not returned as a coded error: its code describes the
			// client's handling of our request, and relayed as is it would
			// become the error of the request being served (a client's
			// -32601 for elicitation/create read as "tools/call not found").
			return nil, fmt.Errorf("%s: the client answered with error %d: %s", method, m.Error.Code, m.Error.Message)
		}
		return m.Result, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-done:
		return nil, fmt.Errorf("%s: the session ended before the client answered", method)
	}
}

func (p *pendingCalls) deliver(m *jsonrpc.Message) bool {
	p.mu.Lock()
	ch, ok := p.calls[string(m.ID)]
	p.mu.Unlock()
	if ok {
		select {
		case ch <- m: // the first answer wins; a duplicate is dropped
		default:
		}
	}
	return ok
}

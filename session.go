package mcpgen

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpgen/mcpgen/internal/cluster"
	"github.com/mcpgen/mcpgen/internal/jsonrpc"
)

// Session is the state a legacy (initialize-handshake) client builds up:
// negotiated revision, client identity and capabilities, log level and
// resource subscriptions. Stateless 2026-07-28 requests have none.
type Session struct {
	// ID is the session's id, sent as Mcp-Session-Id over HTTP.
	ID string
	// Version is the protocol revision negotiated at initialize.
	Version string
	// Client names the client, as initialize said.
	Client Implementation
	// ClientCaps are the capabilities the client declared at
	// initialize, as it sent them.
	ClientCaps json.RawMessage

	started     time.Time
	sharedTouch time.Time // last push of the shared expiry (cluster)
	owner       string    // the subject of the principal that opened it
	partition   string    // the partition of its initialize (Request.Partition)
	key         string    // that principal's limit key
	// inflight counts the session's requests in progress: a busy session
	// is never ended to make room under the session caps.
	inflight atomic.Int32

	// saveMu orders, in a cluster, this replica's changes of the session
	// (change and save) with its reloads from the backend.
	saveMu sync.Mutex

	mu          sync.Mutex
	initialized bool
	logLevel    string
	subscribed  map[string]bool
	lastSeen    time.Time
	notify      func(method string, params any) // session-wide notifications (HTTP GET stream or stdio)
	held        []heldNote                      // sent while notify was nil, for the next GET stream
	pending     pendingCalls
	done        chan struct{}
	endOnce     sync.Once
}

func newSession(version string, client Implementation, caps json.RawMessage) *Session {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return &Session{
		ID: hex.EncodeToString(b[:]), Version: version, Client: client, ClientCaps: caps,
		subscribed: map[string]bool{}, started: time.Now(), lastSeen: time.Now(), done: make(chan struct{}),
	}
}

// OwnedBy reports whether p may use the session: it is the principal
// (the same [Principal.ID], or both anonymous) whose initialize opened it.
// Transports answer anyone else as if the session did not exist.
func (s *Session) OwnedBy(p Principal) bool { return s.owner == p.ID() }

// ownerKey is who owns a session or a task in a partition, as one string
// for the shared store: the owner's [Principal.ID] alone outside
// partitions. A
// partition holds no control character (see [HTTPOptions].Partition).
func ownerKey(subject, partition string) string {
	if partition == "" {
		return subject
	}
	return partition + "\x1f" + subject
}

// splitOwnerKey is the inverse of ownerKey.
func splitOwnerKey(k string) (subject, partition string) {
	if p, sub, ok := strings.Cut(k, "\x1f"); ok {
		return sub, p
	}
	return k, ""
}

// Started is when the client's initialize opened the session.
func (s *Session) Started() time.Time { return s.started }

// LogLevel returns the level set with logging/setLevel, or "" for none.
func (s *Session) LogLevel() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.logLevel
}

// update makes a change to a session kept in this process only.
func (s *Session) update(u cluster.SessionUpdate) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if u.LogLevel != "" {
		s.logLevel = u.LogLevel
	}
	s.initialized = s.initialized || u.Initialized
	if u.Subscribe != "" {
		s.subscribed[u.Subscribe] = true
	}
	delete(s.subscribed, u.Unsubscribe)
}

// lastSeenNow is when the session was last used.
func (s *Session) lastSeenNow() time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lastSeen
}

// Touch marks the session as in use, so that a client holding only a
// long-lived stream open is not expired as idle.
func (s *Session) touchNow() { s.touch() }

func (s *Session) touch() {
	s.mu.Lock()
	s.lastSeen = time.Now()
	s.mu.Unlock()
}

func (s *Session) idleSince() time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lastSeen
}

func (s *Session) isSubscribed(uri string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.subscribed[uri]
}

// maxHeldNotes bounds the session-wide notifications a session keeps
// while no channel for them is open (a legacy HTTP client between its
// initialize and its GET stream, or between two GET streams); later ones
// are dropped.
const maxHeldNotes = 16

// heldNote is a session-wide notification kept for the next channel.
type heldNote struct {
	method string
	params any
}

// setNotifier sets where session-wide notifications (list changes,
// resource updates, logs outside a request) go, and returns those sent
// while there was nowhere (at most maxHeldNotes), for the caller to send
// first. Transports call it when the client opens a channel for them;
// nil holds them until the next.
func (s *Session) setNotifier(f func(method string, params any)) []heldNote {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.notify = f
	if f == nil {
		return nil
	}
	held := s.held
	s.held = nil
	return held
}

func (s *Session) send(method string, params any) {
	s.mu.Lock()
	f := s.notify
	if f == nil {
		if len(s.held) < maxHeldNotes && !slices.ContainsFunc(s.held, func(n heldNote) bool { return sameListChange(n.method, method) }) {
			s.held = append(s.held, heldNote{method, params})
		}
		s.mu.Unlock()
		return
	}
	s.mu.Unlock()
	f(method, params)
}

// sameListChange reports whether two notifications are the same list
// change: one of them tells the client all the other would.
func sameListChange(a, b string) bool {
	return a == b && strings.HasSuffix(a, "/list_changed")
}

// call sends a server-to-client request through write and waits for the
// client's answer, which the transport hands back through [Server.handle].
func (s *Session) call(ctx context.Context, method string, params any, write func(*jsonrpc.Message) error) (json.RawMessage, error) {
	return s.pending.Send(ctx, method, params, write, s.done)
}

// doneChan is closed when the session ends.
func (s *Session) doneChan() <-chan struct{} { return s.done }

func (s *Session) end() { s.endOnce.Do(func() { close(s.done) }) }

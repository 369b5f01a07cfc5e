// Package cluster is the shared state that lets N identical replicas of one
// MCP server run behind any load balancer, with nothing sticky: legacy
// sessions, tasks of the tasks extension, the keys that sign cursors and
// requestState, and a publish/subscribe channel that carries notifications
// and server-to-client responses to the replica that needs them.
//
// [Backend] is the whole contract, kept small so that engines other than
// PostgreSQL (Redis, NATS) can implement it without touching the router.
// [Memory] implements it in one process (replicas that are several servers
// in one process, and tests); package pgcluster implements it on
// PostgreSQL. A server without a backend keeps all of this in its own
// memory and pays nothing for it.
//
// Every method that reaches a shared store may fail with an error wrapping
// [ErrUnavailable] when the store cannot be reached; the runtime turns it
// into a retryable answer (HTTP 503 with Retry-After).
package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"time"
)

// ErrUnavailable marks errors caused by a service the server needs (the
// shared store, or a component's own database) being unreachable: the
// request may succeed when retried later, and the runtime answers it with
// a retryable error (HTTP 503 with Retry-After).
var ErrUnavailable = errors.New("service unavailable")

// ErrNotFound is returned for a session or task that does not exist (or
// expired).
var ErrNotFound = errors.New("not found")

// Backend is the shared state of the replicas of one deployment. All
// methods are safe for concurrent use. Records are values: the caller owns
// what it passes and what it gets back.
type Backend interface {
	// ID names this replica (unique per process start); it is the origin of
	// the messages it publishes and the owner of the tasks it runs.
	ID() string

	// CreateSession stores a new legacy session.
	CreateSession(ctx context.Context, s Session) error
	// LoadSession returns a live session, or ErrNotFound when it is
	// unknown, deleted or idle past its Expires.
	LoadSession(ctx context.Context, id string) (Session, error)
	// UpdateSession changes the mutable state of a session field by
	// field, atomically, and returns the session as stored afterwards:
	// replicas changing one session at once keep each other's changes.
	// ErrNotFound if it is gone.
	UpdateSession(ctx context.Context, id string, u SessionUpdate) (Session, error)
	// TouchSession moves a session's expiry to expires, never earlier.
	TouchSession(ctx context.Context, id string, expires time.Time) error
	// DeleteSession removes a session and reports whether it existed.
	DeleteSession(ctx context.Context, id string) (bool, error)

	// PutTask creates or updates a task. A task in a terminal state
	// (completed, failed, cancelled) is never changed again: the call then
	// reports false and leaves the stored task as it is.
	PutTask(ctx context.Context, t Task) (bool, error)
	// LoadTask returns a task, or ErrNotFound. A task that is not terminal
	// and whose owner stopped renewing its lease is returned (and stored)
	// as failed: a replica that died mid-task leaves no task stuck.
	LoadTask(ctx context.Context, id string) (Task, error)

	// SigningKeys returns the keys that sign cursors and requestState,
	// newest first. The first call on an empty store creates one; a newest
	// key older than the rotation period is replaced by a new one, and
	// the old ones stay valid for a while.
	SigningKeys(ctx context.Context) ([][]byte, error)

	// Publish sends a message on topic to every subscriber of every
	// replica, this one included. Delivery is at most once; subscribers
	// see each replica's messages in the order they were published. A
	// message equal to the one this replica published just before it
	// (same topic and payload), while that one is still on its way, may
	// be delivered once for both: callers publish changes, not counts.
	Publish(ctx context.Context, topic string, payload []byte) error
	// Subscribe registers fn for every message published on any topic
	// starting with prefix. fn runs on one goroutine per subscription and
	// must not block for long. When messages may have been lost (the
	// connection to the store was re-established), fn is called with
	// Message.Lost set, so that caches can be dropped. The returned
	// function ends the subscription.
	Subscribe(prefix string, fn func(Message)) (cancel func())
	// Subscribers returns the IDs of the replicas, this one included,
	// whose subscription to exactly prefix is live: made and not
	// cancelled, and in a shared store renewed within LeaseTimeout while
	// the replica received messages. A subscription counts from the
	// moment Subscribe returns, so that a replica that acts on shared
	// state after subscribing is named by any later call on any replica
	// (a DELETE waits for each one's confirmation).
	Subscribers(ctx context.Context, prefix string) ([]string, error)

	// Close releases the backend's resources; tasks it owns stop being
	// renewed.
	Close() error
}

// Session is the shared state of one legacy (initialize-handshake) session.
type Session struct {
	ID          string
	Subject     string // the principal that opened it; others cannot use it
	Version     string
	Client      json.RawMessage // protocol.Implementation
	ClientCaps  json.RawMessage
	LogLevel    string
	Subscribed  []string // resource URIs of resources/subscribe
	Initialized bool
	Created     time.Time
	Expires     time.Time // ended if not touched before
}

// SessionUpdate is one change of a session's mutable state; its zero
// fields leave the state as it is.
type SessionUpdate struct {
	LogLevel    string    // the new log level
	Initialized bool      // marks the session initialized
	Subscribe   string    // a resource URI to add to Subscribed
	Unsubscribe string    // a resource URI to remove from Subscribed
	Expires     time.Time // moves the expiry later, never earlier
}

// Apply makes u's change to s, as a backend that keeps sessions in
// memory does.
func (u SessionUpdate) Apply(s *Session) {
	if u.LogLevel != "" {
		s.LogLevel = u.LogLevel
	}
	s.Initialized = s.Initialized || u.Initialized
	if u.Subscribe != "" && !slices.Contains(s.Subscribed, u.Subscribe) {
		s.Subscribed = append(s.Subscribed, u.Subscribe)
	}
	if u.Unsubscribe != "" {
		s.Subscribed = slices.DeleteFunc(s.Subscribed, func(uri string) bool { return uri == u.Unsubscribe })
	}
	if u.Expires.After(s.Expires) {
		s.Expires = u.Expires
	}
}

// Task is the shared state of one task of the tasks extension. Result and
// Error are raw JSON (a tool result, a JSON-RPC error object).
type Task struct {
	ID            string
	Subject       string
	Owner         string // the replica running it (Backend.ID)
	Status        string // working, input_required, completed, failed, cancelled
	Message       string
	InputRequests json.RawMessage // outstanding questions, by key
	Result        json.RawMessage
	Error         json.RawMessage
	Created       time.Time
	Updated       time.Time
	Expires       time.Time // removed after
}

// Terminal reports whether status is final.
func Terminal(status string) bool {
	return status == "completed" || status == "failed" || status == "cancelled"
}

// Message is one published message, or (Lost) the news that some may have
// been lost.
type Message struct {
	Topic   string
	Origin  string // the publishing replica's ID
	Payload []byte
	Lost    bool
}

// Lease timing: an owner renews the leases of its running tasks every
// LeaseRenew; a task whose lease is older than LeaseTimeout is failed.
const (
	LeaseRenew   = 2 * time.Second
	LeaseTimeout = 10 * time.Second
)

// Key rotation: a new signing key is made when the newest is older than
// KeyRotate; superseded keys verify for KeyRetain more.
const (
	KeyRotate = 24 * time.Hour
	KeyRetain = 7 * 24 * time.Hour
)

// DeadTaskMessage is the status message of a task failed because its
// replica stopped.
const DeadTaskMessage = "The replica running the task stopped before it finished."

// DeadTaskError is the JSON-RPC error object stored with such a task.
var DeadTaskError = json.RawMessage(`{"code":-32603,"message":"The replica running the task stopped before it finished."}`)

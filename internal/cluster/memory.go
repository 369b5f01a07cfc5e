package cluster

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"strings"
	"sync"
	"time"
)

// Memory is a [Backend] store held in this process: several servers in one
// process (or in a test) become replicas of one deployment by taking each a
// view from [Memory.Replica]. Nothing survives the process.
type Memory struct {
	mu       sync.Mutex
	sessions map[string]Session
	tasks    map[string]Task
	keys     [][]byte
	alive    map[string]bool // replica id -> not closed
	subs     map[*memSub]struct{}
}

// NewMemory returns an empty in-process store.
func NewMemory() *Memory {
	return &Memory{
		sessions: map[string]Session{}, tasks: map[string]Task{},
		alive: map[string]bool{}, subs: map[*memSub]struct{}{},
	}
}

// Replica returns a view of the store with its own replica ID.
func (m *Memory) Replica() Backend {
	r := &memReplica{m: m, id: NewID()}
	m.mu.Lock()
	m.alive[r.id] = true
	m.mu.Unlock()
	return r
}

// RotateKey makes a new newest signing key, as the rotation period does
// in a lasting store; the older keys stay valid.
func (m *Memory) RotateKey() {
	k := make([]byte, 32)
	_, _ = rand.Read(k)
	m.mu.Lock()
	m.keys = append([][]byte{k}, m.keys...)
	m.mu.Unlock()
}

// NewID returns a random identifier for a replica (16 hex digits).
func NewID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

type memReplica struct {
	m  *Memory
	id string
}

type memSub struct {
	replica string
	prefix  string
	ch      chan Message
	done    chan struct{}
}

func (r *memReplica) ID() string { return r.id }

func (r *memReplica) CreateSession(_ context.Context, s Session) error {
	r.m.mu.Lock()
	defer r.m.mu.Unlock()
	r.m.sessions[s.ID] = cloneSession(s)
	return nil
}

func (r *memReplica) LoadSession(_ context.Context, id string) (Session, error) {
	r.m.mu.Lock()
	defer r.m.mu.Unlock()
	s, ok := r.m.sessions[id]
	if !ok || !time.Now().Before(s.Expires) {
		return Session{}, ErrNotFound
	}
	return cloneSession(s), nil
}

func (r *memReplica) UpdateSession(_ context.Context, id string, u SessionUpdate) (Session, error) {
	r.m.mu.Lock()
	defer r.m.mu.Unlock()
	s, ok := r.m.sessions[id]
	if !ok {
		return Session{}, ErrNotFound
	}
	s = cloneSession(s)
	u.Apply(&s)
	r.m.sessions[id] = s
	return cloneSession(s), nil
}

func (r *memReplica) TouchSession(_ context.Context, id string, expires time.Time) error {
	r.m.mu.Lock()
	defer r.m.mu.Unlock()
	s, ok := r.m.sessions[id]
	if !ok {
		return ErrNotFound
	}
	if expires.After(s.Expires) {
		s.Expires = expires
		r.m.sessions[id] = s
	}
	return nil
}

func (r *memReplica) DeleteSession(_ context.Context, id string) (bool, error) {
	r.m.mu.Lock()
	defer r.m.mu.Unlock()
	_, ok := r.m.sessions[id]
	delete(r.m.sessions, id)
	return ok, nil
}

func (r *memReplica) PutTask(_ context.Context, t Task) (bool, error) {
	r.m.mu.Lock()
	defer r.m.mu.Unlock()
	if old, ok := r.m.tasks[t.ID]; ok {
		if Terminal(old.Status) {
			return false, nil
		}
		t.Owner, t.Subject, t.Created = old.Owner, old.Subject, old.Created
	}
	r.m.tasks[t.ID] = t
	return true, nil
}

func (r *memReplica) LoadTask(_ context.Context, id string) (Task, error) {
	r.m.mu.Lock()
	defer r.m.mu.Unlock()
	t, ok := r.m.tasks[id]
	if !ok || time.Now().After(t.Expires) {
		return Task{}, ErrNotFound
	}
	if !Terminal(t.Status) && !r.m.alive[t.Owner] {
		t.Status, t.Message, t.Error, t.InputRequests, t.Updated = "failed", DeadTaskMessage, DeadTaskError, nil, time.Now()
		r.m.tasks[id] = t
	}
	return t, nil
}

func (r *memReplica) SigningKeys(context.Context) ([][]byte, error) {
	r.m.mu.Lock()
	defer r.m.mu.Unlock()
	if len(r.m.keys) == 0 {
		k := make([]byte, 32)
		_, _ = rand.Read(k)
		r.m.keys = [][]byte{k}
	}
	return append([][]byte(nil), r.m.keys...), nil
}

func (r *memReplica) Publish(_ context.Context, topic string, payload []byte) error {
	msg := Message{Topic: topic, Origin: r.id, Payload: append([]byte(nil), payload...)}
	r.m.mu.Lock()
	var to []*memSub
	for s := range r.m.subs {
		if strings.HasPrefix(topic, s.prefix) {
			to = append(to, s)
		}
	}
	r.m.mu.Unlock()
	for _, s := range to {
		{
			select {
			case s.ch <- msg:
			case <-s.done:
			}
		}
	}
	return nil
}

func (r *memReplica) Subscribe(prefix string, fn func(Message)) func() {
	s := &memSub{replica: r.id, prefix: prefix, ch: make(chan Message, 1024), done: make(chan struct{})}
	r.m.mu.Lock()
	r.m.subs[s] = struct{}{}
	r.m.mu.Unlock()
	go func() {
		for {
			select {
			case m := <-s.ch:
				fn(m)
			case <-s.done:
				return
			}
		}
	}()
	var once sync.Once
	return func() {
		once.Do(func() {
			r.m.mu.Lock()
			delete(r.m.subs, s)
			r.m.mu.Unlock()
			close(s.done)
		})
	}
}

func (r *memReplica) Subscribers(_ context.Context, prefix string) ([]string, error) {
	r.m.mu.Lock()
	defer r.m.mu.Unlock()
	seen := map[string]bool{}
	var ids []string
	for s := range r.m.subs {
		if s.prefix == prefix && r.m.alive[s.replica] && !seen[s.replica] {
			seen[s.replica] = true
			ids = append(ids, s.replica)
		}
	}
	return ids, nil
}

// Close marks the replica as stopped: tasks it owned and did not finish
// are failed when next read.
func (r *memReplica) Close() error {
	r.m.mu.Lock()
	r.m.alive[r.id] = false
	r.m.mu.Unlock()
	return nil
}

func cloneSession(s Session) Session {
	s.Subscribed = append([]string(nil), s.Subscribed...)
	return s
}

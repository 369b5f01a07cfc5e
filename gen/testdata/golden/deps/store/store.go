// Package store is a dependency of the deps golden case.
package store

import (
	"sort"
	"sync"
)

// Store is a tiny key-value store, injected as *store.Store.
type Store struct {
	mu sync.Mutex
	m  map[string]string
}

// New returns an empty store.
func New() *Store { return &Store{m: map[string]string{}} }

// Put stores v under k.
func (s *Store) Put(k, v string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.m[k] = v
}

// Get returns the value under k.
func (s *Store) Get(k string) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.m[k]
	return v, ok
}

// Keys returns the keys in order.
func (s *Store) Keys() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for k := range s.m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Package deps is a golden case: handlers declare dependencies after the
// context (a named struct pointer, an interface, a second type with the
// same name) and New takes each of them once, ordered by parameter name.
//
//mcp:server name=deps
package deps

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/mcpgen/mcpgen"
	"github.com/mcpgen/mcpgen/gen/testdata/golden/deps/cache"
	"github.com/mcpgen/mcpgen/gen/testdata/golden/deps/store"
)

// Clock tells the time; it is injected as an interface.
type Clock interface {
	Now() time.Time
}

// Remember stores a value under a key.
//
//mcp:tool idempotent
type Remember struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// Call stores the value and says when.
func (in Remember) Call(ctx context.Context, s *store.Store, clock Clock, req *mcpgen.Request) (string, error) {
	s.Put(in.Key, in.Value)
	return fmt.Sprintf("stored %s at %s (%s)", in.Key, clock.Now().UTC().Format(time.RFC3339), req.Method), nil
}

// Recall returns the value stored under a key.
//
//mcp:tool readonly
type Recall struct {
	Key string `json:"key"`
}

// Call looks the key up and counts the hit.
func (in Recall) Call(ctx context.Context, s *store.Store, hits *cache.Store) (string, error) {
	v, ok := s.Get(in.Key)
	if !ok {
		return "", fmt.Errorf("no value under %q", in.Key)
	}
	hits.Hits++
	return v, nil
}

// Entry is one stored value, by key.
//
//mcp:resource uri=store://entries/{key}
type Entry struct {
	Key string `json:"key"`
}

// Read returns the value.
func (e Entry) Read(ctx context.Context, s *store.Store) (string, error) {
	v, ok := s.Get(e.Key)
	if !ok {
		return "", mcpgen.ErrResourceNotFound
	}
	return v, nil
}

// Complete offers the stored keys.
func (e Entry) Complete(ctx context.Context, c mcpgen.CompleteRequest, s *store.Store) ([]string, error) {
	var out []string
	for _, k := range s.Keys() {
		if strings.HasPrefix(k, c.Value) {
			out = append(out, k)
		}
	}
	return out, nil
}

// Digest summarises the store for the model.
//
//mcp:prompt
type Digest struct {
	// Heading of the digest.
	Heading string `json:"heading,omitempty"`
}

// Get lists the keys with the time and the upstream's name.
func (p Digest) Get(ctx context.Context, clock Clock, s *store.Store, up *cache.Server) (string, error) {
	return fmt.Sprintf("%s at %s from %s: %s", p.Heading, clock.Now().UTC().Format(time.RFC3339), up.Name, strings.Join(s.Keys(), ", ")), nil
}

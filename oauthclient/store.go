package oauthclient

import (
	"context"
	"sync"

	"golang.org/x/oauth2"
)

// TokenKey names the tokens of one resource from one authorization
// server: tokens are bound to both (RFC 8707, and the authorization server
// binding of MCP), so a store never hands a token to another server.
type TokenKey struct {
	// Issuer is the authorization server's issuer identifier ("" for a
	// 2025-03-26 server without metadata).
	Issuer string
	// Resource is the resource indicator the token was requested for.
	Resource string
}

// TokenStore keeps tokens between requests, and between processes when
// it persists them. Implementations must be safe for concurrent use.
// The default, [MemoryStore], forgets them with the process.
type TokenStore interface {
	// Token returns the stored token for key, or nil (and no error) when
	// there is none.
	Token(ctx context.Context, key TokenKey) (*oauth2.Token, error)
	// SetToken stores tok for key; a nil tok deletes it.
	SetToken(ctx context.Context, key TokenKey, tok *oauth2.Token) error
}

// MemoryStore is a [TokenStore] in memory. The zero value is ready.
type MemoryStore struct {
	mu sync.Mutex
	m  map[TokenKey]*oauth2.Token
}

// Token implements [TokenStore].
func (s *MemoryStore) Token(_ context.Context, key TokenKey) (*oauth2.Token, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.m[key], nil
}

// SetToken implements [TokenStore].
func (s *MemoryStore) SetToken(_ context.Context, key TokenKey, tok *oauth2.Token) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if tok == nil {
		delete(s.m, key)
		return nil
	}
	if s.m == nil {
		s.m = map[TokenKey]*oauth2.Token{}
	}
	s.m[key] = tok
	return nil
}

// Package authtest runs a real OAuth 2.0 / OpenID Connect authorization
// server for tests: zitadel/oidc's OpenID provider (the library the ZITADEL
// identity server is built on) with its example storage, in process on
// 127.0.0.1. Only tests import it.
package authtest

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/google/uuid"
	"github.com/zitadel/oidc/v3/example/server/storage"
	"github.com/zitadel/oidc/v3/pkg/oidc"
	"github.com/zitadel/oidc/v3/pkg/op"
	"golang.org/x/text/language"
)

// The storage is adapted for service clients: the client credentials
// grant, JWT (with a scope claim) or opaque access tokens with a
// configured audience (what RFC 8707's resource indicator would select), a
// scope allow-list per client, and signing keys that a test can rotate.

// Client is a pre-registered client of the authorization server.
type Client struct {
	Secret   string
	Audience []string      // the aud of its tokens
	Scopes   []string      // scopes it may be granted
	Lifetime time.Duration // access token lifetime (default 5 min); negative issues expired tokens
	Opaque   bool          // opaque (introspected) instead of JWT access tokens

	// Subject is the sub of its tokens (default "svc-" and its id), to
	// test subjects a server might confuse with its own labels.
	Subject string

	// Tokens that leave out what RFC 9068 and RFC 8707 ask for, to test
	// that the resource server refuses them: no sub claim, no client_id
	// in introspection, no aud in introspection.
	NoSubject, NoClientID, NoAudience bool
}

// The resource server's credentials for token introspection.
const (
	IntrospectorID     = "mcp-resource-server"
	IntrospectorSecret = "rs-secret"
)

type rsaKey struct {
	id  string
	key *rsa.PrivateKey
}

func (k *rsaKey) SignatureAlgorithm() jose.SignatureAlgorithm { return jose.RS256 }
func (k *rsaKey) Algorithm() jose.SignatureAlgorithm          { return jose.RS256 }
func (k *rsaKey) Use() string                                 { return "sig" }
func (k *rsaKey) ID() string                                  { return k.id }

type signingKey struct{ *rsaKey }

func (k signingKey) Key() any { return k.key }

type publicKey struct{ *rsaKey }

func (k publicKey) Key() any { return &k.key.PublicKey }

// opaqueToken is what the server remembers of an opaque token it issued.
type opaqueToken struct {
	subject, clientID string
	scopes, audience  []string
	exp               time.Time
}

// asStorage is the example storage with the service-client parts replaced.
type asStorage struct {
	*storage.Storage

	mu      sync.Mutex
	keys    []*rsaKey // the last one signs
	clients map[string]*Client
	opaque  map[string]*opaqueToken
	// introspector is the client (the MCP server) allowed to introspect.
	introspector, introspectorSecret string
}

func newKey(t testing.TB) *rsaKey {
	t.Helper()
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	return &rsaKey{id: uuid.NewString(), key: k}
}

// Rotate adds a new signing key; the old one stays published (as during
// a real rotation) unless retire is set.
func (a *Server) Rotate(t testing.TB, retire bool) {
	s := a.storage
	k := newKey(t)
	s.mu.Lock()
	defer s.mu.Unlock()
	if retire {
		s.keys = nil
	}
	s.keys = append(s.keys, k)
}

func (s *asStorage) SigningKey(context.Context) (op.SigningKey, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return signingKey{s.keys[len(s.keys)-1]}, nil
}

func (s *asStorage) SignatureAlgorithms(context.Context) ([]jose.SignatureAlgorithm, error) {
	return []jose.SignatureAlgorithm{jose.RS256}, nil
}

func (s *asStorage) KeySet(context.Context) ([]op.Key, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []op.Key
	for _, k := range s.keys {
		out = append(out, publicKey{k})
	}
	return out, nil
}

// serviceClient is an op.Client for the client credentials grant.
type serviceClient struct {
	*storage.Client
	opaque bool
}

func (c serviceClient) GrantTypes() []oidc.GrantType {
	return []oidc.GrantType{oidc.GrantTypeClientCredentials}
}

func (c serviceClient) AccessTokenType() op.AccessTokenType {
	if c.opaque {
		return op.AccessTokenTypeBearer
	}
	return op.AccessTokenTypeJWT
}

func (c serviceClient) ClockSkew() time.Duration { return 0 }

func (s *asStorage) ClientCredentials(_ context.Context, id, secret string) (op.Client, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.clients[id]
	if !ok || c.Secret != secret {
		return nil, errors.New("wrong client id or secret")
	}
	return serviceClient{storage.WebClient(id, secret), c.Opaque}, nil
}

// clientTokenRequest carries the client id to CreateAccessToken.
type clientTokenRequest struct {
	*oidc.JWTTokenRequest
	clientID string
}

func (s *asStorage) ClientCredentialsTokenRequest(_ context.Context, id string, scopes []string) (op.TokenRequest, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.clients[id]
	if !ok {
		return nil, errors.New("unknown client")
	}
	var granted []string
	for _, sc := range scopes {
		if slices.Contains(c.Scopes, sc) {
			granted = append(granted, sc)
		}
	}
	subject := "svc-" + id
	if c.Subject != "" {
		subject = c.Subject
	}
	if c.NoSubject {
		subject = ""
	}
	return clientTokenRequest{&oidc.JWTTokenRequest{Subject: subject, Audience: c.Audience, Scopes: granted}, id}, nil
}

func (s *asStorage) CreateAccessToken(_ context.Context, req op.TokenRequest) (string, time.Time, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	lifetime := 5 * time.Minute
	clientID := ""
	if r, ok := req.(clientTokenRequest); ok {
		clientID = r.clientID
		if c := s.clients[clientID]; c != nil && c.Lifetime != 0 {
			lifetime = c.Lifetime
		}
	}
	id := uuid.NewString()
	exp := time.Now().Add(lifetime)
	s.opaque[id] = &opaqueToken{subject: req.GetSubject(), clientID: clientID, scopes: req.GetScopes(), audience: req.GetAudience(), exp: exp}
	return id, exp, nil
}

// GetPrivateClaimsFromScopes puts the granted scopes in the JWT access
// token's scope claim (RFC 9068 section 2.2.3).
func (s *asStorage) GetPrivateClaimsFromScopes(_ context.Context, _, _ string, scopes []string) (map[string]any, error) {
	if len(scopes) == 0 {
		return nil, nil
	}
	return map[string]any{"scope": strings.Join(scopes, " ")}, nil
}

func (s *asStorage) AuthorizeClientIDSecret(ctx context.Context, id, secret string) error {
	if id == s.introspector && secret == s.introspectorSecret {
		return nil
	}
	return errors.New("invalid client")
}

func (s *asStorage) GetClientByClientID(ctx context.Context, id string) (op.Client, error) {
	if id == s.introspector {
		return storage.WebClient(id, s.introspectorSecret), nil
	}
	s.mu.Lock()
	c, ok := s.clients[id]
	s.mu.Unlock()
	if ok {
		return serviceClient{storage.WebClient(id, c.Secret), c.Opaque}, nil
	}
	return nil, errors.New("client not found")
}

func (s *asStorage) SetIntrospectionFromToken(_ context.Context, resp *oidc.IntrospectionResponse, tokenID, _, _ string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	tok, ok := s.opaque[tokenID]
	if !ok || time.Now().After(tok.exp) {
		return errors.New("token is not active")
	}
	resp.Subject, resp.ClientID, resp.Scope, resp.Audience = tok.subject, tok.clientID, tok.scopes, tok.audience
	if c := s.clients[tok.clientID]; c != nil {
		if c.NoClientID {
			resp.ClientID = ""
		}
		if c.NoAudience {
			resp.Audience = nil
		}
	}
	resp.Expiration = oidc.FromTime(tok.exp)
	return nil
}

// Server is a running authorization server.
type Server struct {
	Issuer         string
	storage        *asStorage
	introspections atomic.Int64
}

// Introspections is the number of requests its introspection endpoint
// has received, answered or not.
func (a *Server) Introspections() int64 { return a.introspections.Load() }

// Start starts an OpenID provider on 127.0.0.1 with its own storage
// (clients are added with AddClient). It stops when the test ends.
func Start(t testing.TB) *Server {
	t.Helper()
	st := &asStorage{
		Storage: storage.NewStorage(storage.NewUserStore("http://127.0.0.1")),
		keys:    []*rsaKey{newKey(t)}, clients: map[string]*Client{}, opaque: map[string]*opaqueToken{},
		introspector: IntrospectorID, introspectorSecret: IntrospectorSecret,
	}
	return serve(t, st)
}

// AnotherIssuer starts a second provider over the same clients and keys,
// under another issuer name: its tokens are well signed but not by the
// issuer a resource server trusts.
func (a *Server) AnotherIssuer(t testing.TB) *Server { return serve(t, a.storage) }

// serve starts a provider over st; each has its own issuer.
func serve(t testing.TB, st *asStorage) *Server {
	t.Helper()
	hs := httptest.NewUnstartedServer(nil)
	issuer := "http://" + hs.Listener.Addr().String()
	var cryptoKey [32]byte
	_, _ = rand.Read(cryptoKey[:])
	provider, err := op.NewProvider(&op.Config{
		CryptoKey: cryptoKey, CryptoKeyId: "k1", CodeMethodS256: true, AuthMethodPost: true,
		SupportedUILocales: []language.Tag{language.English},
	}, st, op.StaticIssuer(issuer), op.WithAllowInsecure())
	if err != nil {
		t.Fatalf("authorization server: %v", err)
	}
	a := &Server{Issuer: issuer, storage: st}
	introspect := provider.IntrospectionEndpoint().Relative()
	hs.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == introspect {
			a.introspections.Add(1)
		}
		provider.ServeHTTP(w, r)
	})
	hs.Start()
	t.Cleanup(hs.Close)
	return a
}

// AddClient registers a client.
func (a *Server) AddClient(id string, c Client) {
	a.storage.mu.Lock()
	a.storage.clients[id] = &c
	a.storage.mu.Unlock()
}

// Token gets an access token with the client credentials grant, by a
// plain form POST (RFC 6749 section 4.4): expired tokens come with a
// negative expires_in that client libraries rightly reject.
func (a *Server) Token(t testing.TB, client, secret string, scopes ...string) string {
	t.Helper()
	form := url.Values{"grant_type": {"client_credentials"}, "scope": {strings.Join(scopes, " ")}}
	req, _ := http.NewRequest(http.MethodPost, a.Issuer+"/oauth/token", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth(client, secret)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	b, _ := io.ReadAll(resp.Body)
	if err := json.Unmarshal(b, &tok); err != nil || tok.AccessToken == "" {
		t.Fatalf("token for %s: %d %s", client, resp.StatusCode, b)
	}
	return tok.AccessToken
}

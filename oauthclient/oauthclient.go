// Package oauthclient is MCP authorization for clients: an
// [mcpgen.ClientAuth] that answers a server's 401 and 403 the way the MCP
// authorization specification (2025-03-26 to 2026-07-28) asks of a client.
//
// On a 401 it
//
//   - finds the protected resource metadata (RFC 9728) from the
//     resource_metadata of the WWW-Authenticate challenge, else at the
//     path-suffixed and then the root well-known location, and refuses
//     metadata whose resource is not the server it talks to
//     ([ErrResourceMismatch]);
//   - fetches the authorization server's metadata (RFC 8414, or OpenID
//     Connect discovery) from the well-known locations in MCP's order and
//     refuses a document whose issuer is not the one it was fetched for
//     ([ErrIssuerMismatch]); a server of the 2025-03-26 revision, with no
//     resource metadata, is its own authorization server, and without
//     any metadata its default endpoints /authorize, /token and /register
//     are used;
//   - gets a client identity: the configured client ID (pre-registration),
//     else the client ID metadata document URL when the server supports
//     them, else dynamic client registration (RFC 7591), kept per
//     authorization server and never shown to another one;
//   - runs the authorization code grant with PKCE (S256), the resource
//     indicator (RFC 8707) on both requests, a state, and the check of the
//     iss parameter of the response (RFC 9207) against the recorded issuer
//     by simple string comparison; or, for a client acting for itself,
//     the client credentials grant with a client secret or a
//     private_key_jwt assertion (RFC 7523), or the JWT bearer grant with
//     an assertion it is given (workload identity federation, and
//     enterprise-managed authorization through [IdentityAssertion]);
//   - asks for the scopes of the challenge, else the scopes_supported of
//     the resource metadata, else none, and offline_access when the
//     authorization server lists it, so that it can refresh;
//   - asks for a DPoP-bound token (RFC 9449) when the authorization server
//     supports ES256 proofs, and then presents it with the DPoP scheme and
//     a fresh proof on every request, using the nonces servers hand out.
//
// On a 403 with error="insufficient_scope" it re-authorizes with the
// scopes it had plus the challenged ones (step-up), unless that asks for
// nothing new. A renewed token that is refused again counts towards
// [Config.MaxAttempts]; past it the refusal is returned to the caller.
// When the resource metadata names another authorization server than the
// one that issued the current token, the client starts over with the new
// one (registering again).
//
// The user-agent step is [Config.UserAgent]: it is given the authorization
// URL and returns the redirect the authorization server answered with.
// [Headless] does that for servers that approve without a user (tests,
// the conformance suite). Tokens live in a [TokenStore].
//
// Everything an authorization server sends is bounded: documents and
// answers at 256 KiB (token answers at 1 MiB, by golang.org/x/oauth2),
// every request by the HTTP client's timeout, redirects at 3, DPoP nonce
// retries at one per token request (the transport bounds the others),
// and the number of authorization attempts
// by MaxAttempts. Endpoints that would carry credentials over plain http
// off the loopback interface are refused.
//
// A credential the client holds (a client secret, the assertions of a
// private key, a JWT bearer assertion) goes only to the authorization
// server of [Config.ClientIssuer], which such a configuration must name:
// an MCP server whose metadata names another one is refused
// ([ErrIssuerMismatch]) before that one is contacted, and token requests
// follow no redirects. A refresh token goes back only to the token
// endpoint of the issuer that issued it.
//
//	auth, err := oauthclient.New(oauthclient.Config{
//		RedirectURL: "http://127.0.0.1:8765/callback",
//		UserAgent:   openBrowserAndWait, // yours
//	})
//	...
//	c, err := mcpgen.Connect(ctx, mcpgen.HTTPTransport(url), mcpgen.ClientOptions{Auth: auth})
//
// The OAuth protocol work is golang.org/x/oauth2 (authorization URL,
// PKCE, code exchange, refresh, client credentials, whose grant type it
// lets the JWT bearer grant and token exchange replace); JWT client
// assertions and DPoP proofs are signed with github.com/go-jose/go-jose/v4.
// What x/oauth2 cannot send (the resource indicator on a refresh, DPoP
// headers) is added by the RoundTripper of the token endpoint requests.
package oauthclient

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/hex"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"

	"github.com/mcpgen/mcpgen"
)

// Errors a refusal can end in; match them with errors.Is.
var (
	// ErrResourceMismatch: the protected resource metadata describes
	// another resource than the server the client talks to.
	ErrResourceMismatch = errors.New("oauthclient: protected resource metadata is for another resource")
	// ErrIssuerMismatch: authorization server metadata, or the iss of an
	// authorization response, names another issuer than expected; or the
	// MCP server uses another authorization server than ClientIssuer.
	ErrIssuerMismatch = errors.New("oauthclient: issuer mismatch")
	// ErrInsufficientScope: the server wants scopes the client already
	// asked for, or re-authorizing did not help.
	ErrInsufficientScope = errors.New("oauthclient: insufficient scope")
	// ErrTooManyAttempts: renewed credentials were refused MaxAttempts
	// times in a row.
	ErrTooManyAttempts = errors.New("oauthclient: too many authorization attempts")
	// ErrNoClient: the authorization server offers no way to obtain a
	// client identity and none is configured.
	ErrNoClient = errors.New("oauthclient: no client identity")
	// ErrAuthorizationResponse: the authorization response was an error,
	// lacked the code, or did not carry the state or iss it must.
	ErrAuthorizationResponse = errors.New("oauthclient: bad authorization response")
)

// Grant is an OAuth grant the client uses to obtain tokens.
type Grant string

const (
	// GrantAuthorizationCode is the authorization code grant with PKCE,
	// for a client acting for a user (the default).
	GrantAuthorizationCode Grant = "authorization_code"
	// GrantClientCredentials is the client credentials grant of the MCP
	// extension io.modelcontextprotocol/oauth-client-credentials, for a
	// client acting for itself: it needs ClientID and ClientSecret or
	// PrivateKey.
	GrantClientCredentials Grant = "client_credentials"
	// GrantJWTBearer is the JWT bearer grant (RFC 7523 section 2.1) of
	// workload identity federation: the client presents an assertion it
	// was given (by its platform) instead of credentials of its own. It
	// needs Assertion; ClientID is sent when set.
	GrantJWTBearer Grant = "urn:ietf:params:oauth:grant-type:jwt-bearer"
)

// UserAgent performs the user-agent step of the authorization code grant:
// it lets the user authorize at authURL and returns the URL the
// authorization server redirected to (the RedirectURL with code, state and
// maybe iss or error in its query). It is called with the context of the
// refused request, one call at a time; the requests that wait on it wait
// until it returns, so it should honour ctx.
type UserAgent func(ctx context.Context, authURL string) (redirect *url.URL, err error)

// Config configures an [Auth]. The zero value of every field but
// RedirectURL and UserAgent (which the authorization code grant needs)
// has a useful default.
type Config struct {
	// Grant is how tokens are obtained; default GrantAuthorizationCode.
	Grant Grant

	// ClientID is a pre-registered client identifier, for the
	// authorization server ClientIssuer names.
	ClientID string
	// ClientSecret is the secret pre-registered with ClientID, if the
	// client has one.
	ClientSecret string
	// ClientIssuer is the issuer identifier of the authorization server
	// ClientID and the credentials are for, exactly as its metadata
	// states it (https://auth.example.com). A client that holds a
	// credential (ClientSecret, PrivateKey, or the Assertion of
	// GrantJWTBearer) must set ClientIssuer: the credential is presented
	// to that authorization server only, and an MCP server whose metadata
	// names another one is refused with [ErrIssuerMismatch] before
	// anything is sent to it. Without a credential, ClientIssuer restricts
	// a ClientID to that server the same way.
	ClientIssuer string
	// PrivateKey, with ClientID, authenticates the client with a signed
	// JWT assertion (private_key_jwt, RFC 7523) instead of a secret: an
	// *ecdsa.PrivateKey, *rsa.PrivateKey or ed25519.PrivateKey (see
	// [ParsePrivateKey]).
	PrivateKey crypto.Signer
	// SigningAlgorithm is PrivateKey's JWS algorithm; default
	// ES256/ES384/ES512 by curve, RS256, or EdDSA.
	SigningAlgorithm string

	// Assertion returns the JWT the GrantJWTBearer grant presents to the
	// authorization server issuer for a token for resource: a workload
	// identity token the platform gives the client, or an identity
	// assertion grant from the enterprise's identity provider
	// ([IdentityAssertion.Assertion]).
	Assertion func(ctx context.Context, issuer, resource string) (string, error)

	// ClientMetadataURL is the https URL of this client's client ID
	// metadata document, used as its client_id by authorization servers
	// that support them.
	ClientMetadataURL string
	// ClientName is sent in dynamic registration; default "mcpgen-client".
	ClientName string
	// RedirectURL is the redirect URI of the authorization code grant.
	RedirectURL string
	// UserAgent performs the user-agent step; see [Headless].
	UserAgent UserAgent

	// NoRefresh stops the client from asking for offline_access and
	// registering for the refresh_token grant.
	NoRefresh bool
	// NoDPoP stops the client from asking for DPoP-bound tokens (RFC
	// 9449) from authorization servers that support them.
	NoDPoP bool
	// MaxAttempts bounds how many times in a row a renewed credential may
	// be refused before the refusal is returned; default 3.
	MaxAttempts int

	// Tokens stores tokens; default a [MemoryStore].
	Tokens TokenStore
	// HTTPClient makes the requests to metadata and authorization server
	// endpoints; default a client with a 30 second timeout. Its redirects
	// are capped at 3 either way.
	HTTPClient *http.Client
}

// Auth is an [mcpgen.ClientAuth] doing MCP authorization for one MCP
// server (use one Auth per server). It is safe for concurrent use:
// refusals and refreshes are handled one at a time, and a request refused
// with a token that has since been renewed is simply retried.
type Auth struct {
	cfg Config
	hc  *http.Client

	flow sync.Mutex // held while a refusal is handled

	mu         sync.Mutex
	cur        *binding           // the resource and authorization server in use
	registered map[string]*client // dynamic registrations by registrationKey
	dpop       *dpop              // the DPoP key, made on first use
}

var _ mcpgen.ClientAuth = (*Auth)(nil)

// binding is the protected resource and authorization server the current
// token is for, and how it was obtained.
type binding struct {
	key      TokenKey
	md       *serverMetadata
	client   *client
	scopes   []string // scopes requested for the current token
	uses     int      // requests the current token was put on
	attempts int      // renewals in a row not followed by a second use
	dpop     bool     // tokens are requested with DPoP proofs
}

// New checks cfg and returns an Auth.
func New(cfg Config) (*Auth, error) {
	if cfg.Grant == "" {
		cfg.Grant = GrantAuthorizationCode
	}
	switch cfg.Grant {
	case GrantAuthorizationCode:
		if cfg.RedirectURL == "" || cfg.UserAgent == nil {
			return nil, errors.New("oauthclient: the authorization code grant needs RedirectURL and UserAgent")
		}
		if _, err := url.Parse(cfg.RedirectURL); err != nil {
			return nil, fmt.Errorf("oauthclient: RedirectURL: %w", err)
		}
	case GrantClientCredentials:
		if cfg.ClientID == "" || (cfg.ClientSecret == "" && cfg.PrivateKey == nil) {
			return nil, errors.New("oauthclient: the client credentials grant needs ClientID and ClientSecret or PrivateKey")
		}
	case GrantJWTBearer:
		if cfg.Assertion == nil {
			return nil, errors.New("oauthclient: the JWT bearer grant needs Assertion")
		}
	default:
		return nil, fmt.Errorf("oauthclient: unknown grant %q", cfg.Grant)
	}
	if err := checkClientIssuer(cfg); err != nil {
		return nil, err
	}
	if cfg.ClientMetadataURL != "" {
		u, err := url.Parse(cfg.ClientMetadataURL)
		if err != nil || u.Scheme != "https" || strings.Trim(u.Path, "/") == "" {
			return nil, errors.New("oauthclient: ClientMetadataURL must be an https URL with a path")
		}
	}
	if cfg.PrivateKey != nil {
		if _, err := signingAlgorithm(cfg.PrivateKey, cfg.SigningAlgorithm); err != nil {
			return nil, err
		}
	}
	if cfg.ClientName == "" {
		cfg.ClientName = "mcpgen-client"
	}
	if cfg.MaxAttempts <= 0 {
		cfg.MaxAttempts = 3
	}
	if cfg.Tokens == nil {
		cfg.Tokens = &MemoryStore{}
	}
	hc := &http.Client{Timeout: 30 * time.Second}
	if cfg.HTTPClient != nil {
		c := *cfg.HTTPClient
		hc = &c
	}
	next := hc.CheckRedirect
	hc.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if len(via) >= 3 {
			return errors.New("oauthclient: more than 3 redirects")
		}
		if next != nil {
			return next(req, via)
		}
		return nil
	}
	return &Auth{cfg: cfg, hc: hc, registered: map[string]*client{}}, nil
}

// checkClientIssuer refuses a configuration that holds a credential
// but names no authorization server to present it to, and a ClientIssuer
// that credentials could not safely go to: it must be an https URL (http
// only on the loopback interface) without query or fragment.
func checkClientIssuer(cfg Config) error {
	if cfg.ClientIssuer == "" {
		held := ""
		switch {
		case cfg.ClientSecret != "":
			held = "ClientSecret is"
		case cfg.PrivateKey != nil:
			held = "PrivateKey signs client assertions"
		case cfg.Grant == GrantJWTBearer:
			held = "the JWT bearer grant's assertion is"
		default:
			return nil
		}
		return fmt.Errorf("oauthclient: %s presented only to the authorization server it is for: set ClientIssuer to that server's issuer identifier, exactly as its metadata states it (e.g. https://auth.example.com)", held)
	}
	u, err := url.Parse(cfg.ClientIssuer)
	if err != nil || u.Host == "" || u.User != nil || u.RawQuery != "" || u.Fragment != "" || checkEndpoint(cfg.ClientIssuer) != nil {
		return fmt.Errorf("oauthclient: ClientIssuer %q: set it to the authorization server's issuer identifier, an https URL (http only on the loopback interface) without query or fragment", cfg.ClientIssuer)
	}
	return nil
}

// Authorize implements [mcpgen.ClientAuth]: it puts the current access
// token, refreshed when it has expired and can be, on req. Before the
// first refusal there is no token and req goes out without one.
func (a *Auth) Authorize(ctx context.Context, req *http.Request) error {
	a.mu.Lock()
	b := a.cur
	a.mu.Unlock()
	if b == nil {
		return nil
	}
	tok, err := a.cfg.Tokens.Token(ctx, b.key)
	if err != nil {
		return fmt.Errorf("oauthclient: token store: %w", err)
	}
	if tok == nil {
		return nil
	}
	if !tok.Valid() && tok.RefreshToken != "" {
		// One refresh at a time: a refresh token may be good for one use.
		a.flow.Lock()
		if t, err := a.cfg.Tokens.Token(ctx, b.key); err == nil && t != nil {
			tok = t
		}
		if !tok.Valid() && tok.RefreshToken != "" {
			if t, err := a.refresh(ctx, b, tok); err == nil {
				tok = t
			}
		}
		a.flow.Unlock()
	}
	if tok.AccessToken == "" {
		return nil
	}
	if strings.EqualFold(tok.Type(), "DPoP") {
		d, err := a.dpopKey()
		if err != nil {
			return err
		}
		p, err := d.proof(req.Method, req.URL, tok.AccessToken)
		if err != nil {
			return fmt.Errorf("oauthclient: DPoP proof: %w", err)
		}
		req.Header.Set("Authorization", "DPoP "+tok.AccessToken)
		req.Header.Set("DPoP", p)
	} else {
		req.Header.Set("Authorization", "Bearer "+tok.AccessToken)
	}
	a.mu.Lock()
	b.uses++
	a.mu.Unlock()
	return nil
}

// Refused implements [mcpgen.ClientAuth]. It does not read resp's body.
func (a *Auth) Refused(ctx context.Context, req *http.Request, resp *http.Response) error {
	ch, _ := parseChallenge(resp.Header.Values("WWW-Authenticate"))
	a.flow.Lock()
	defer a.flow.Unlock()

	a.mu.Lock()
	prev, d := a.cur, a.dpop
	a.mu.Unlock()
	if d != nil && resp.StatusCode == http.StatusUnauthorized && ch.err == "use_dpop_nonce" && d.remember(req.URL, resp) {
		return nil // send it again with the nonce (RFC 9449 section 9)
	}
	if prev != nil {
		// Renewed since req went out: just send it again.
		_, sent, _ := strings.Cut(req.Header.Get("Authorization"), " ")
		if tok, _ := a.cfg.Tokens.Token(ctx, prev.key); tok != nil && tok.AccessToken != "" && sent != tok.AccessToken {
			return nil
		}
	}
	attempts := 0
	if prev != nil {
		a.mu.Lock()
		if prev.uses <= 1 {
			attempts = prev.attempts
		}
		a.mu.Unlock()
	}
	if attempts >= a.cfg.MaxAttempts {
		return fmt.Errorf("%w: %d renewed credentials refused in a row (HTTP %d)", ErrTooManyAttempts, attempts, resp.StatusCode)
	}

	switch resp.StatusCode {
	case http.StatusForbidden:
		if ch.err != "insufficient_scope" {
			return fmt.Errorf("oauthclient: %s refused with 403 (%s)", req.URL.Redacted(), orNone(ch.err))
		}
		if prev == nil {
			return fmt.Errorf("%w: 403 before any authorization", ErrInsufficientScope)
		}
		want := union(prev.scopes, ch.scope)
		if len(want) == len(prev.scopes) {
			return fmt.Errorf("%w: the server wants %q, which the token was requested with", ErrInsufficientScope, strings.Join(ch.scope, " "))
		}
		return a.obtain(ctx, prev, want, attempts+1)
	case http.StatusUnauthorized:
	default:
		return fmt.Errorf("oauthclient: cannot handle HTTP %d", resp.StatusCode)
	}

	b, prm, err := a.discover(ctx, req.URL, ch.resourceMetadata)
	if err != nil {
		return err
	}
	if prev != nil && prev.key == b.key {
		// Same resource and authorization server: keep the client, and
		// refresh if the token can be.
		b.client = prev.client
		if tok, _ := a.cfg.Tokens.Token(ctx, b.key); tok != nil && tok.RefreshToken != "" && attempts == 0 {
			if _, err := a.refresh(ctx, prev, tok); err == nil {
				a.mu.Lock()
				prev.attempts, prev.uses = 1, 0
				a.mu.Unlock()
				return nil
			}
		}
	} else if prev != nil {
		attempts = 0 // another authorization server: a fresh start
		_ = a.cfg.Tokens.SetToken(ctx, prev.key, nil)
	}
	scopes := ch.scope
	if len(scopes) == 0 && prm != nil {
		scopes = prm.ScopesSupported
	}
	if prev != nil && prev.key == b.key {
		scopes = union(prev.scopes, scopes)
	}
	return a.obtain(ctx, b, scopes, attempts+1)
}

// discover finds the resource and authorization server behind server.
func (a *Auth) discover(ctx context.Context, server *url.URL, hint string) (*binding, *resourceMetadata, error) {
	s := *server
	s.RawQuery, s.Fragment, s.User = "", "", nil
	prm, err := a.discoverResource(ctx, &s, hint)
	var md *serverMetadata
	switch {
	case err == nil:
		issuer, err := a.chooseIssuer(&s, prm)
		if err != nil {
			return nil, nil, err
		}
		md, err = a.discoverServer(ctx, issuer)
		if err != nil {
			return nil, nil, err
		}
		return &binding{key: TokenKey{Issuer: md.Issuer, Resource: prm.Resource}, md: md}, prm, nil
	case errors.Is(err, errNotFound) && hint == "":
		// A 2025-03-26 server: it is its own authorization server.
		origin := s.Scheme + "://" + s.Host
		md, err = a.discoverServer(ctx, origin)
		if errors.Is(err, errNotFound) {
			md, err = fallbackMetadata(origin), nil
		}
		if err != nil {
			return nil, nil, err
		}
		return &binding{key: TokenKey{Issuer: md.Issuer, Resource: s.String()}, md: md}, nil, nil
	default:
		return nil, nil, err
	}
}

// chooseIssuer picks the authorization server of server's resource
// metadata prm: the configured ClientIssuer, which must be one of those
// prm names (compared exactly, as issuer identifiers are), else the
// first. A server naming only others is refused before any of them is
// contacted.
func (a *Auth) chooseIssuer(server *url.URL, prm *resourceMetadata) (string, error) {
	want := a.cfg.ClientIssuer
	if want == "" {
		return prm.AuthorizationServers[0], nil
	}
	if slices.Contains(prm.AuthorizationServers, want) {
		return want, nil
	}
	return "", fmt.Errorf("%w: the MCP server %s names the authorization server %s, and the client is configured for ClientIssuer %q only; its credentials go to no other",
		ErrIssuerMismatch, server.Redacted(), quoteAll(prm.AuthorizationServers), want)
}

// quoteAll is ss quoted and joined with commas.
func quoteAll(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = fmt.Sprintf("%q", s)
	}
	return strings.Join(q, ", ")
}

// obtain gets a token for a copy of b0 with scopes and makes that
// current. b0 itself is not changed: it may be the current binding.
func (a *Auth) obtain(ctx context.Context, b0 *binding, scopes []string, attempt int) error {
	a.mu.Lock()
	nb := *b0 // uses and attempts change under mu
	a.mu.Unlock()
	b := &nb
	if a.cfg.ClientIssuer != "" && b.md.Issuer != a.cfg.ClientIssuer {
		uses := fmt.Sprintf("%q", b.md.Issuer)
		if b.md.Issuer == "" {
			uses = "the default endpoints of a 2025-03-26 server without metadata"
		}
		return fmt.Errorf("%w: the client is configured for ClientIssuer %q, the MCP server uses %s", ErrIssuerMismatch, a.cfg.ClientIssuer, uses)
	}
	if b.client == nil {
		c, err := a.clientFor(ctx, b.md)
		if err != nil {
			return err
		}
		b.client = c
	}
	b.dpop = !a.cfg.NoDPoP && dpopSupported(b.md)
	var tok *oauth2.Token
	var err error
	switch a.cfg.Grant {
	case GrantClientCredentials, GrantJWTBearer:
		tok, err = a.clientCredentials(ctx, b, scopes)
	default:
		if !b.md.fallback && !slices.Contains(b.md.CodeChallengeMethodsSupported, "S256") {
			return fmt.Errorf("oauthclient: authorization server %s does not state S256 PKCE support (code_challenge_methods_supported)", b.md.Issuer)
		}
		if !a.cfg.NoRefresh && slices.Contains(b.md.ScopesSupported, "offline_access") && !slices.Contains(scopes, "offline_access") {
			scopes = append(slices.Clip(scopes), "offline_access")
		}
		tok, err = a.authorizationCode(ctx, b, scopes)
	}
	if err != nil {
		return err
	}
	if err := a.cfg.Tokens.SetToken(ctx, b.key, tok); err != nil {
		return fmt.Errorf("oauthclient: token store: %w", err)
	}
	b.scopes, b.uses, b.attempts = scopes, 0, attempt
	a.mu.Lock()
	a.cur = b
	a.mu.Unlock()
	return nil
}

// oauth2Config is the x/oauth2 view of b's client at b's server.
func (a *Auth) oauth2Config(b *binding, scopes []string) *oauth2.Config {
	style := oauth2.AuthStyleInParams
	secret := b.client.secret
	switch b.client.method {
	case AuthMethodBasic:
		style = oauth2.AuthStyleInHeader
	case AuthMethodNone, AuthMethodPrivateKeyJWT:
		secret = ""
	}
	return &oauth2.Config{
		ClientID: b.client.id, ClientSecret: secret,
		Endpoint:    oauth2.Endpoint{AuthURL: b.md.AuthorizationEndpoint, TokenURL: b.md.TokenEndpoint, AuthStyle: style},
		RedirectURL: a.cfg.RedirectURL,
		Scopes:      scopes,
	}
}

// authorizationCode runs the authorization code grant with PKCE.
func (a *Auth) authorizationCode(ctx context.Context, b *binding, scopes []string) (*oauth2.Token, error) {
	if b.md.AuthorizationEndpoint == "" || b.md.TokenEndpoint == "" {
		return nil, fmt.Errorf("oauthclient: authorization server %s has no authorization or token endpoint", b.md.Issuer)
	}
	cfg := a.oauth2Config(b, scopes)
	verifier, state := oauth2.GenerateVerifier(), randomState()
	resource := oauth2.SetAuthURLParam("resource", b.key.Resource)
	authURL := cfg.AuthCodeURL(state, oauth2.S256ChallengeOption(verifier), resource)
	redirect, err := a.cfg.UserAgent(ctx, authURL)
	if err != nil {
		return nil, fmt.Errorf("oauthclient: user agent: %w", err)
	}
	q := redirect.Query()
	// RFC 9207 first: nothing of a response from the wrong issuer is acted on.
	if iss, ok := q["iss"]; ok && !b.md.fallback {
		if len(iss) != 1 || iss[0] != b.md.Issuer {
			return nil, refusal(fmt.Sprintf("oauthclient: the authorization response names issuer %q, not %q", q.Get("iss"), b.md.Issuer),
				ErrAuthorizationResponse, ErrIssuerMismatch)
		}
	} else if b.md.IssParameterSupported {
		return nil, fmt.Errorf("%w: no iss, though the authorization server states it sends one", ErrAuthorizationResponse)
	}
	if q.Get("state") != state {
		return nil, fmt.Errorf("%w: state does not match", ErrAuthorizationResponse)
	}
	if e := q.Get("error"); e != "" {
		return nil, fmt.Errorf("%w: %s: %s", ErrAuthorizationResponse, e, q.Get("error_description"))
	}
	code := q.Get("code")
	if code == "" {
		return nil, fmt.Errorf("%w: no code", ErrAuthorizationResponse)
	}
	tok, err := cfg.Exchange(a.tokenCtx(ctx, b), code, oauth2.VerifierOption(verifier), resource)
	if err != nil {
		return nil, fmt.Errorf("oauthclient: token request: %w", err)
	}
	return tok, nil
}

// clientCredentials runs the client credentials grant, or the JWT bearer
// grant, which differs only in its grant type and assertion.
func (a *Auth) clientCredentials(ctx context.Context, b *binding, scopes []string) (*oauth2.Token, error) {
	if b.md.TokenEndpoint == "" {
		return nil, fmt.Errorf("oauthclient: authorization server %s has no token endpoint", b.md.Issuer)
	}
	oc := a.oauth2Config(b, scopes)
	cc := clientcredentials.Config{
		ClientID: oc.ClientID, ClientSecret: oc.ClientSecret, TokenURL: oc.Endpoint.TokenURL,
		Scopes: scopes, AuthStyle: oc.Endpoint.AuthStyle,
		EndpointParams: url.Values{"resource": {b.key.Resource}},
	}
	if a.cfg.Grant == GrantJWTBearer {
		// x/oauth2's client credentials flow lets grant_type be replaced.
		assertion, err := a.cfg.Assertion(ctx, b.md.Issuer, b.key.Resource)
		if err != nil {
			return nil, fmt.Errorf("oauthclient: assertion: %w", err)
		}
		cc.EndpointParams.Set("grant_type", string(GrantJWTBearer))
		cc.EndpointParams.Set("assertion", assertion)
	}
	tok, err := cc.Token(a.tokenCtx(ctx, b))
	if err != nil {
		return nil, fmt.Errorf("oauthclient: token request: %w", err)
	}
	return tok, nil
}

// refresh renews tok with its refresh token and stores the result.
func (a *Auth) refresh(ctx context.Context, b *binding, tok *oauth2.Token) (*oauth2.Token, error) {
	if a.cfg.Grant != GrantAuthorizationCode {
		return nil, errors.New("oauthclient: only authorization code tokens are refreshed")
	}
	old := *tok
	old.Expiry = time.Unix(1, 0) // make x/oauth2 refresh now
	nt, err := a.oauth2Config(b, b.scopes).TokenSource(a.tokenCtx(ctx, b), &old).Token()
	if err != nil {
		return nil, err
	}
	if err := a.cfg.Tokens.SetToken(ctx, b.key, nt); err != nil {
		return nil, err
	}
	return nt, nil
}

// tokenCtx hands x/oauth2 the bounded HTTP client, with the
// tokenTransport for b's token endpoint.
func (a *Auth) tokenCtx(ctx context.Context, b *binding) context.Context {
	hc := *a.hc
	next := hc.Transport
	if next == nil {
		next = http.DefaultTransport
	}
	tt := tokenTransport{next: next, tokenURL: b.md.TokenEndpoint, resource: b.key.Resource}
	if b.client != nil && b.client.method == AuthMethodPrivateKeyJWT {
		aud := b.md.Issuer
		if aud == "" {
			aud = b.md.TokenEndpoint
		}
		tt.assertion = func() (string, error) { return a.assertion(aud) }
	}
	if b.dpop {
		d, err := a.dpopKey()
		if err == nil {
			tt.dpop = d
		}
	}
	hc.Transport = tt
	hc.CheckRedirect = refuseRedirect
	return context.WithValue(ctx, oauth2.HTTPClient, &hc)
}

// refuseRedirect is the CheckRedirect of requests that carry credentials
// in their body (token requests): a 307 or 308 would send the body, client
// secret or assertion included, to wherever the Location names.
func refuseRedirect(req *http.Request, _ []*http.Request) error {
	return fmt.Errorf("oauthclient: the token endpoint redirected to %s: token requests follow no redirects, so that credentials reach no other server", req.URL.Redacted())
}

// assertion is a private_key_jwt client assertion for audience aud
// (RFC 7523 section 3): issuer and subject the client ID, a minute long.
func (a *Auth) assertion(aud string) (string, error) {
	alg, _ := signingAlgorithm(a.cfg.PrivateKey, a.cfg.SigningAlgorithm)
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: alg, Key: a.cfg.PrivateKey}, (&jose.SignerOptions{}).WithType("JWT"))
	if err != nil {
		return "", fmt.Errorf("oauthclient: client assertion: %w", err)
	}
	now := time.Now()
	return jwt.Signed(signer).Claims(jwt.Claims{
		Issuer: a.cfg.ClientID, Subject: a.cfg.ClientID, Audience: jwt.Audience{aud},
		ID: randomState(), IssuedAt: jwt.NewNumericDate(now), Expiry: jwt.NewNumericDate(now.Add(time.Minute)),
	}).Serialize()
}

// signingAlgorithm is the JWS algorithm for key: alg when given, else
// the one its type implies.
func signingAlgorithm(key crypto.Signer, alg string) (jose.SignatureAlgorithm, error) {
	if alg != "" {
		return jose.SignatureAlgorithm(alg), nil
	}
	switch k := key.(type) {
	case *ecdsa.PrivateKey:
		switch k.Curve {
		case elliptic.P256():
			return jose.ES256, nil
		case elliptic.P384():
			return jose.ES384, nil
		case elliptic.P521():
			return jose.ES512, nil
		}
	case *rsa.PrivateKey:
		return jose.RS256, nil
	case ed25519.PrivateKey:
		return jose.EdDSA, nil
	}
	return "", fmt.Errorf("oauthclient: no signing algorithm for a %T; set SigningAlgorithm", key)
}

// ParsePrivateKey reads a PEM private key (PKCS #8, SEC 1 EC or PKCS #1
// RSA) for [Config.PrivateKey].
func ParsePrivateKey(pemBytes []byte) (crypto.Signer, error) {
	blk, _ := pem.Decode(pemBytes)
	if blk == nil {
		return nil, errors.New("oauthclient: no PEM block")
	}
	var k any
	var err error
	switch blk.Type {
	case "EC PRIVATE KEY":
		k, err = x509.ParseECPrivateKey(blk.Bytes)
	case "RSA PRIVATE KEY":
		k, err = x509.ParsePKCS1PrivateKey(blk.Bytes)
	default:
		k, err = x509.ParsePKCS8PrivateKey(blk.Bytes)
	}
	if err != nil {
		return nil, fmt.Errorf("oauthclient: private key: %w", err)
	}
	s, ok := k.(crypto.Signer)
	if !ok {
		return nil, fmt.Errorf("oauthclient: a %T cannot sign", k)
	}
	return s, nil
}

// Headless is a [UserAgent] for authorization servers that approve
// without a user, as test servers do: it requests the authorization URL
// without following the redirect and returns the redirect's Location.
// hc may be nil (a client with a 30 second timeout).
func Headless(hc *http.Client) UserAgent {
	c := &http.Client{Timeout: 30 * time.Second}
	if hc != nil {
		cc := *hc
		c = &cc
	}
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return func(ctx context.Context, authURL string) (*url.URL, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, authURL, nil)
		if err != nil {
			return nil, err
		}
		resp, err := c.Do(req)
		if err != nil {
			return nil, err
		}
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxDocument))
		resp.Body.Close()
		loc := resp.Header.Get("Location")
		if resp.StatusCode < 300 || resp.StatusCode > 399 || loc == "" {
			return nil, fmt.Errorf("authorization endpoint answered %s without a redirect", resp.Status)
		}
		return resp.Request.URL.Parse(loc)
	}
}

// refusal is an error with its own message that matches each of kinds.
func refusal(msg string, kinds ...error) error { return &kindError{msg, kinds} }

type kindError struct {
	msg   string
	kinds []error
}

func (e *kindError) Error() string   { return e.msg }
func (e *kindError) Unwrap() []error { return e.kinds }

func randomState() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// union is a with the members of b it lacks appended, in order.
func union(a, b []string) []string {
	out := slices.Clone(a)
	for _, s := range b {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

func orNone(s string) string {
	if s == "" {
		return "no error code"
	}
	return s
}

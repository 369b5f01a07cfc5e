// Package oauth makes an MCP endpoint an OAuth 2.1 resource server as the
// MCP authorization specification (2025-11-25 and 2026-07-28) asks:
//
//   - it publishes OAuth 2.0 Protected Resource Metadata (RFC 9728) naming
//     the authorization server, the resource and the scopes it knows;
//   - it refuses a request without a valid bearer token with 401 and a
//     WWW-Authenticate challenge pointing at that metadata, and a token
//     that lacks a scope with 403 error="insufficient_scope" naming the
//     scope, so that a client can step up;
//   - it validates JWT access tokens (RFC 9068) against the keys of the
//     issuer, discovered from its metadata (RFC 8414, or OpenID Connect
//     discovery): signature, issuer, audience (the canonical resource URI,
//     RFC 8707), expiry and not-before; keys are cached and fetched again
//     when a token names an unknown key id;
//   - it asks the authorization server about opaque tokens through token
//     introspection (RFC 7662) when [Config.Introspection] is set, in a way
//     that cannot be used as an amplifier: answers are cached by a hash of
//     the token (an active one until its exp, at most 5 minutes; a refusal
//     30 seconds), concurrent lookups of one token share one call, calls
//     time out after 5 seconds and at most 16 are in flight (then 503), and
//     each remote address may cause 10 lookups a second, 20 at once (then
//     429 with Retry-After). See [Introspection] for the knobs.
//
// A [ResourceServer] is the [mcpgen.HTTPOptions].Auth of an endpoint,
// which calls [ResourceServer.Authenticate] on every request; serve
// [ResourceServer.MetadataHandler] at each of [ResourceServer.MetadataPaths]
// on the same host:
//
//	rs, err := oauth.New(oauth.Config{Issuer: "https://auth.example.com", Audience: "https://mcp.example.com/mcp", ScopesSupported: srv.Scopes()})
//	...
//	mux.Handle("/mcp", mcpgen.HTTPHandler(srv, mcpgen.HTTPOptions{Auth: rs}))
//	for _, p := range rs.MetadataPaths() {
//		mux.Handle(p, rs.MetadataHandler())
//	}
//
// A main that imports this package gets the flags --auth-issuer,
// --auth-audience and --auth-client-id in [mcpgen.Main], which do the
// same. Tokens are never logged and never leave the package: handlers see
// an [mcpgen.Principal] (subject, scopes, client).
//
// JOSE (JWS parsing, signature verification, JWK sets) is
// github.com/go-jose/go-jose/v4; discovery and introspection are plain
// HTTP and JSON.
package oauth

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/go-jose/go-jose/v4"
	"go.uber.org/zap"

	"github.com/mcpgen/mcpgen"
)

// Config configures a [ResourceServer].
type Config struct {
	// Issuer is the authorization server's issuer identifier (an https
	// URL, or http on loopback for development). Its metadata is fetched
	// from the well-known locations of RFC 8414 and OpenID Connect
	// discovery; the issuer it states must be identical.
	Issuer string
	// Audience is the canonical URI of the MCP endpoint (RFC 8707), e.g.
	// https://mcp.example.com/mcp: the "resource" of the metadata and the
	// audience every token must carry.
	Audience string
	// Scopes are required of every request; they are named in the 401
	// challenge and in scopes_supported. Usually empty.
	Scopes []string
	// ScopesSupported are the scopes the components require (the
	// server's generated list); published as scopes_supported with Scopes.
	ScopesSupported []string
	// Introspection, when set, validates tokens that are not JWTs with
	// the authorization server's introspection endpoint (RFC 7662).
	Introspection *Introspection
	// Algorithms are the JWS algorithms accepted (default: RS256, RS384,
	// RS512, PS256, PS384, PS512, ES256, ES384, ES512, EdDSA). Symmetric
	// algorithms and "none" are never accepted.
	Algorithms []jose.SignatureAlgorithm
	// Leeway is the clock skew tolerated on exp and nbf (default 30s).
	Leeway time.Duration
	// KeyRefreshInterval is the least time between two fetches of the
	// issuer's keys caused by unknown key ids (default 10s), so that
	// tokens with made-up key ids cannot hammer the authorization server.
	// Negative means no limit.
	KeyRefreshInterval time.Duration
	// HTTPClient fetches metadata and keys and calls introspection
	// (default: a client with a 10s timeout).
	HTTPClient *http.Client
	// Logger receives refusals at debug level (never the token) and
	// discovery failures as warnings; nil logs nothing.
	Logger *zap.Logger
}

// Introspection configures token introspection (RFC 7662).
type Introspection struct {
	// Endpoint is the introspection URL; empty takes the
	// introspection_endpoint of the authorization server's metadata.
	Endpoint string
	// ClientID names this resource server at the endpoint, which it
	// authenticates with ClientSecret (HTTP Basic, RFC 6749 section
	// 2.3.1).
	ClientID string
	// ClientSecret is the secret that goes with ClientID.
	ClientSecret string

	// Timeout bounds one introspection, from waiting for a free slot to
	// reading the answer (default 5s); past it the request is refused
	// with 503. It is shorter than the HTTP client's timeout so that a
	// hanging authorization server does not hold requests for long.
	Timeout time.Duration
	// MaxConcurrent bounds the introspection calls in flight (default
	// 16). A lookup that finds no free slot waits at most a second (or
	// Timeout if shorter), then is refused with 503: lookups never queue
	// without bound.
	MaxConcurrent int

	// CacheTTL is how long an active token's answer is remembered
	// (default 5m), never past the token's exp; a token revoked at the
	// authorization server is accepted for at most that long. Negative
	// disables the cache of active tokens.
	CacheTTL time.Duration
	// RefusalTTL is how long an inactive or otherwise refused token's
	// answer is remembered (default 30s), so that one junk token sent
	// again and again costs one call. Outages (503) are never
	// remembered. Negative disables the cache of refusals.
	RefusalTTL time.Duration
	// CacheSize bounds the entries of each cache, active and refused
	// (default 10000). Entries are keyed by the SHA-256 of the token.
	CacheSize int

	// AddressRate and AddressBurst limit, per remote address (the host
	// of http.Request.RemoteAddr), the lookups that may cause a call to
	// the authorization server: a token that is not a JWT and is not in
	// the cache costs its sender one token of a bucket refilled at
	// AddressRate per second (default 10) holding at most AddressBurst
	// (default 20). An empty bucket is refused with 429 and Retry-After,
	// without a call. Behind a reverse proxy every caller shares the
	// proxy's address, so raise the limits there. A negative AddressRate
	// disables the limit.
	AddressRate float64
	// AddressBurst is the most lookups one remote address may make at
	// once before AddressRate applies (default 20); see AddressRate.
	AddressBurst int
}

var defaultAlgorithms = []jose.SignatureAlgorithm{
	jose.RS256, jose.RS384, jose.RS512, jose.PS256, jose.PS384, jose.PS512,
	jose.ES256, jose.ES384, jose.ES512, jose.EdDSA,
}

// ResourceServer authenticates requests to one MCP endpoint. It is safe
// for concurrent use.
type ResourceServer struct {
	cfg         Config
	resource    string // canonical form of cfg.Audience
	metadataURL string
	paths       []string
	supported   []string
	log         *zap.Logger
	issuer      *issuer
	intro       *introspector // nil without cfg.Introspection
}

// New checks cfg and returns a resource server. It does not contact the
// authorization server: metadata and keys are fetched on first use and
// again after a failure, so the MCP server can start while the
// authorization server is down.
func New(cfg Config) (*ResourceServer, error) {
	if cfg.Issuer == "" {
		return nil, errors.New("auth: an issuer URL is required")
	}
	if err := checkURL(cfg.Issuer); err != nil {
		return nil, fmt.Errorf("auth: issuer %q: %w", cfg.Issuer, err)
	}
	if cfg.Audience == "" {
		return nil, errors.New("auth: an audience (the canonical URI of the MCP endpoint) is required")
	}
	if err := checkURL(cfg.Audience); err != nil {
		return nil, fmt.Errorf("auth: audience %q: %w", cfg.Audience, err)
	}
	for _, a := range cfg.Algorithms {
		if strings.HasPrefix(string(a), "HS") || a == "none" || a == "" {
			return nil, fmt.Errorf("auth: algorithm %q is not accepted for access tokens", a)
		}
	}
	if len(cfg.Algorithms) == 0 {
		cfg.Algorithms = defaultAlgorithms
	}
	if cfg.Leeway == 0 {
		cfg.Leeway = 30 * time.Second
	}
	if cfg.KeyRefreshInterval == 0 {
		cfg.KeyRefreshInterval = 10 * time.Second
	}
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = &http.Client{Timeout: 10 * time.Second}
	}
	if cfg.Introspection != nil {
		ic := *cfg.Introspection // the caller's value is not changed
		if ic.Timeout <= 0 {
			ic.Timeout = 5 * time.Second
		}
		if ic.MaxConcurrent <= 0 {
			ic.MaxConcurrent = 16
		}
		if ic.CacheTTL == 0 {
			ic.CacheTTL = 5 * time.Minute
		}
		if ic.RefusalTTL == 0 {
			ic.RefusalTTL = 30 * time.Second
		}
		if ic.CacheSize <= 0 {
			ic.CacheSize = 10_000
		}
		if ic.AddressRate == 0 {
			ic.AddressRate = 10
		}
		if ic.AddressBurst <= 0 {
			ic.AddressBurst = 20
		}
		cfg.Introspection = &ic
	}
	rs := &ResourceServer{cfg: cfg, resource: canonical(cfg.Audience), log: cfg.Logger}
	if rs.log == nil {
		rs.log = zap.NewNop()
	}
	u, _ := url.Parse(cfg.Audience)
	path := strings.TrimSuffix(u.EscapedPath(), "/")
	rs.paths = []string{wellKnown + path}
	if path != "" {
		rs.paths = append(rs.paths, wellKnown)
	}
	rs.metadataURL = u.Scheme + "://" + u.Host + wellKnown + path
	seen := map[string]bool{}
	for _, s := range slices.Concat(cfg.Scopes, cfg.ScopesSupported) {
		if s != "" && !seen[s] {
			seen[s] = true
			rs.supported = append(rs.supported, s)
		}
	}
	slices.Sort(rs.supported)
	rs.issuer = newIssuer(cfg)
	if cfg.Introspection != nil {
		rs.intro = newIntrospector(cfg.Introspection)
	}
	return rs, nil
}

// checkURL accepts absolute https URLs, and http ones on loopback hosts,
// without a fragment.
func checkURL(s string) error {
	u, err := url.Parse(s)
	if err != nil {
		return err
	}
	if u.Fragment != "" || strings.Contains(s, "#") {
		return errors.New("must not have a fragment")
	}
	switch strings.ToLower(u.Scheme) {
	case "https":
	case "http":
		h := u.Hostname()
		if h != "localhost" && h != "127.0.0.1" && h != "::1" {
			return errors.New("must use https (http only on localhost)")
		}
	default:
		return errors.New("must be an absolute https URL")
	}
	if u.Host == "" {
		return errors.New("has no host")
	}
	return nil
}

// canonical lowercases the scheme and host of a URI and drops a trailing
// slash, so that audiences compare as RFC 8707 resources.
func canonical(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return s
	}
	u.Scheme = strings.ToLower(u.Scheme)
	u.Host = strings.ToLower(u.Host)
	u.Path = strings.TrimSuffix(u.Path, "/")
	u.RawPath = strings.TrimSuffix(u.RawPath, "/")
	return u.String()
}

// refusal is an [mcpgen.AuthError] with its Bearer challenge. Its Reason
// is one of missing_token, invalid_request, malformed, algorithm,
// unknown_key, signature, issuer, audience, expired, not_yet_valid,
// no_subject, inactive, unavailable, rate_limited, insufficient_scope.
func refusal(status int, reason, desc, challenge string) *mcpgen.AuthError {
	e := &mcpgen.AuthError{Status: status, Reason: reason, Description: desc, Err: fmt.Errorf("%d %s: %s", status, reason, desc)}
	if challenge != "" {
		e.Header = http.Header{"Www-Authenticate": {challenge}}
	}
	return e
}

// Authenticate checks the bearer token of r and returns who is calling,
// or why the request is refused: an [*mcpgen.AuthError] with the status
// and challenge to send. It makes ResourceServer an [mcpgen.Authenticator].
func (rs *ResourceServer) Authenticate(r *http.Request) (mcpgen.Principal, error) {
	hdrs := r.Header.Values("Authorization")
	if len(hdrs) == 0 {
		return mcpgen.Principal{}, rs.refuse(http.StatusUnauthorized, "", "missing_token", "")
	}
	scheme, token, ok := strings.Cut(hdrs[0], " ")
	token = strings.TrimSpace(token)
	if len(hdrs) > 1 || !ok || !strings.EqualFold(scheme, "Bearer") || token == "" {
		return mcpgen.Principal{}, rs.refuse(http.StatusUnauthorized, "invalid_request", "invalid_request", "send one Authorization: Bearer header")
	}
	p, reason, err := rs.verify(r, token)
	if err != nil {
		rs.log.Debug("token refused", zap.String("reason", reason), zap.Error(err))
		if e, ok := err.(*mcpgen.AuthError); ok {
			return mcpgen.Principal{}, e // rate_limited
		}
		if reason == "unavailable" {
			// The authorization server could not be reached: the token
			// may be fine, but it cannot be checked now.
			return mcpgen.Principal{}, refusal(http.StatusServiceUnavailable, reason, "the authorization server is unavailable", "")
		}
		return mcpgen.Principal{}, rs.refuse(http.StatusUnauthorized, "invalid_token", reason, describe(reason))
	}
	for _, s := range rs.cfg.Scopes {
		if !p.HasScope(s) {
			return p, rs.InsufficientScope(p, s)
		}
	}
	return p, nil
}

// InsufficientScope is the 403 refusal of a token that lacks scope: its
// challenge names the scopes to ask for, the ones already granted that
// this server knows and the missing one, so that a step-up keeps them.
// It makes ResourceServer an [mcpgen.ScopeChallenger].
func (rs *ResourceServer) InsufficientScope(p mcpgen.Principal, scope string) *mcpgen.AuthError {
	want := slices.Clone(rs.cfg.Scopes)
	for _, s := range p.Scopes {
		if slices.Contains(rs.supported, s) && !slices.Contains(want, s) {
			want = append(want, s)
		}
	}
	if !slices.Contains(want, scope) {
		want = append(want, scope)
	}
	desc := "this needs scope " + scope
	return refusal(http.StatusForbidden, "insufficient_scope", desc, rs.challenge("insufficient_scope", desc, want))
}

func (rs *ResourceServer) refuse(status int, errCode, reason, desc string) *mcpgen.AuthError {
	return refusal(status, reason, desc, rs.challenge(errCode, desc, rs.cfg.Scopes))
}

// challenge builds a Bearer WWW-Authenticate value (RFC 6750 section 3,
// RFC 9728 section 5.1).
func (rs *ResourceServer) challenge(errCode, desc string, scopes []string) string {
	var b strings.Builder
	b.WriteString("Bearer ")
	if errCode != "" {
		fmt.Fprintf(&b, "error=%q, ", errCode)
		if desc != "" {
			fmt.Fprintf(&b, "error_description=%q, ", sanitize(desc))
		}
	}
	fmt.Fprintf(&b, "resource_metadata=%q", rs.metadataURL)
	if len(scopes) > 0 {
		fmt.Fprintf(&b, ", scope=%q", sanitize(strings.Join(scopes, " ")))
	}
	return b.String()
}

// sanitize keeps the characters RFC 6750 allows in quoted values.
func sanitize(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r > 0x7e || r == '"' || r == '\\' {
			return '?'
		}
		return r
	}, s)
}

func describe(reason string) string {
	switch reason {
	case "expired":
		return "the access token expired"
	case "not_yet_valid":
		return "the access token is not valid yet"
	case "audience":
		return "the access token was not issued for this resource"
	case "issuer":
		return "the access token was not issued by the expected authorization server"
	case "inactive":
		return "the access token is not active"
	case "no_subject":
		return "the access token names no subject (sub)"
	default:
		return "the access token is invalid"
	}
}

// MetadataURL is the URL of the Protected Resource Metadata document, as
// named in challenges.
func (rs *ResourceServer) MetadataURL() string { return rs.metadataURL }

// Resource is the canonical resource URI tokens must be issued for.
func (rs *ResourceServer) Resource() string { return rs.cfg.Audience }

// ScopesSupported is the sorted scopes_supported of the metadata.
func (rs *ResourceServer) ScopesSupported() []string { return slices.Clone(rs.supported) }

// verify validates a token and returns its principal, or the reason of
// the refusal.
func (rs *ResourceServer) verify(r *http.Request, token string) (mcpgen.Principal, string, error) {
	if strings.Count(token, ".") == 2 {
		return rs.verifyJWT(r.Context(), token)
	}
	if rs.intro != nil {
		return rs.lookup(r, token)
	}
	return mcpgen.Principal{}, "malformed", errors.New("not a JWT and no introspection is configured")
}

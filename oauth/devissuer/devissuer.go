// Package devissuer is a development-only OAuth 2.0 authorization server:
// it lets you try an MCP server's scopes on your own machine with real
// tokens, in minutes, without running Keycloak or writing an issuer.
//
// NOT FOR PRODUCTION. It grants any scope to anyone who asks: it has no
// users, no consent and no client secrets (any client_id and secret are
// accepted), and its signing key lives in memory, so its tokens die with
// the process. It therefore serves only on loopback: [New] refuses an
// issuer URL whose host is not a loopback address or localhost, and its
// handler refuses requests that do not come from a loopback address or
// name another host.
//
// What it serves, under the issuer URL's path (http://127.0.0.1:8080/dev-auth,
// say):
//
//   - authorization server metadata (RFC 8414) at
//     /.well-known/oauth-authorization-server/dev-auth, which is where the
//     oauth package's resource server and MCP clients look for it;
//   - its public key as a JWK set at /dev-auth/jwks;
//   - a token endpoint at /dev-auth/token for the client credentials grant
//     (RFC 6749 section 4.4): POST grant_type=client_credentials, the
//     scope wanted, optionally the resource (RFC 8707, which must be the
//     audience the issuer was made for) and, as a development extension,
//     subject (the sub of the token; default "dev-" and the client_id).
//
// Tokens are JWT access tokens (RFC 9068, ES256) with iss, sub, aud,
// client_id, scope, iat, nbf, exp and jti: what the oauth package's ResourceServer
// checks, so that everything but the issuer is as in production.
//
// A binary built on mcpgen.Main that imports the oauth package has all of
// this behind one flag, --dev-auth; `mcpgen dev-token` mints a token from
// the command line ([Token] in Go). docs/oauth-local.md walks through it.
package devissuer

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
)

// Config configures an [Issuer].
type Config struct {
	// URL is the issuer identifier: an http URL on a loopback host, with a
	// path (http://127.0.0.1:8080/dev-auth) so that the issuer can share
	// the MCP endpoint's listener.
	URL string
	// Audience is the resource every token is issued for: the canonical
	// URI of the MCP endpoint (http://127.0.0.1:8080/mcp).
	Audience string
	// Lifetime is how long a token is valid (default 1 hour).
	Lifetime time.Duration
}

// Issuer is a running development authorization server. It is safe for
// concurrent use.
type Issuer struct {
	cfg  Config
	path string // the issuer URL's path, without a trailing slash
	sig  jose.Signer
	meta []byte
	jwks []byte
}

// MetadataPrefix is the well-known prefix of authorization server
// metadata (RFC 8414 section 3); the issuer's path follows it.
const MetadataPrefix = "/.well-known/oauth-authorization-server"

// maxForm bounds a token request's body.
const maxForm = 16 << 10

// New checks cfg and makes an issuer with a fresh signing key. It refuses
// an issuer URL that is not http on a loopback host: its tokens grant
// anything, so nothing but this machine may reach it.
func New(cfg Config) (*Issuer, error) {
	u, err := url.Parse(cfg.URL)
	if err != nil {
		return nil, fmt.Errorf("devissuer: issuer URL %q: %w", cfg.URL, err)
	}
	if u.Scheme != "http" || !Loopback(u.Hostname()) || u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("devissuer: issuer URL %q: must be http on a loopback host (127.0.0.1, ::1, localhost): a development issuer grants every scope to whoever reaches it", cfg.URL)
	}
	path := strings.TrimSuffix(u.EscapedPath(), "/")
	if path == "" {
		return nil, fmt.Errorf("devissuer: issuer URL %q needs a path (e.g. /dev-auth), so that it can share a listener with the MCP endpoint", cfg.URL)
	}
	if _, err := url.Parse(cfg.Audience); err != nil || cfg.Audience == "" {
		return nil, fmt.Errorf("devissuer: audience %q: want the MCP endpoint's URL", cfg.Audience)
	}
	if cfg.Lifetime <= 0 {
		cfg.Lifetime = time.Hour
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("devissuer: signing key: %w", err)
	}
	var id [9]byte
	_, _ = rand.Read(id[:])
	kid := "dev-" + base64.RawURLEncoding.EncodeToString(id[:])
	sig, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.ES256, Key: jose.JSONWebKey{Key: key, KeyID: kid}},
		(&jose.SignerOptions{}).WithType("at+jwt"))
	if err != nil {
		return nil, fmt.Errorf("devissuer: signer: %w", err)
	}
	is := &Issuer{cfg: cfg, path: path, sig: sig}
	is.cfg.URL = strings.TrimSuffix(cfg.URL, "/")
	origin := u.Scheme + "://" + u.Host
	is.meta, _ = json.Marshal(map[string]any{
		"issuer":                                is.cfg.URL,
		"token_endpoint":                        origin + path + "/token",
		"jwks_uri":                              origin + path + "/jwks",
		"grant_types_supported":                 []string{"client_credentials"},
		"token_endpoint_auth_methods_supported": []string{"client_secret_basic", "client_secret_post", "none"},
		"response_types_supported":              []string{},
	})
	is.jwks, _ = json.Marshal(jose.JSONWebKeySet{Keys: []jose.JSONWebKey{{Key: &key.PublicKey, KeyID: kid, Algorithm: string(jose.ES256), Use: "sig"}}})
	return is, nil
}

// URL is the issuer identifier, as tokens carry it in iss.
func (is *Issuer) URL() string { return is.cfg.URL }

// TokenURL is the token endpoint.
func (is *Issuer) TokenURL() string {
	u, _ := url.Parse(is.cfg.URL)
	return u.Scheme + "://" + u.Host + is.path + "/token"
}

// Mount serves the issuer's metadata, keys and token endpoint on mux.
func (is *Issuer) Mount(mux *http.ServeMux) {
	h := is.Handler()
	mux.Handle(MetadataPrefix+is.path, h)
	mux.Handle(is.path+"/", h)
}

// Handler serves the metadata at MetadataPrefix followed by the issuer's
// path, the JWK set at its path + "/jwks" and the token endpoint at its
// path + "/token", to loopback callers only.
func (is *Issuer) Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !fromLoopback(r) {
			http.Error(w, "the development issuer serves this machine only", http.StatusForbidden)
			return
		}
		switch r.URL.Path {
		case MetadataPrefix + is.path:
			serveJSON(w, r, is.meta)
		case is.path + "/jwks":
			serveJSON(w, r, is.jwks)
		case is.path + "/token":
			is.token(w, r)
		default:
			http.NotFound(w, r)
		}
	})
}

func serveJSON(w http.ResponseWriter, r *http.Request, doc []byte) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_, _ = w.Write(doc)
}

// token is the token endpoint: the client credentials grant, any client.
func (is *Issuer) token(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", "POST")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, maxForm)
	if err := r.ParseForm(); err != nil {
		tokenError(w, http.StatusBadRequest, "invalid_request", "the body must be a form of at most 16 KiB: "+err.Error())
		return
	}
	if gt := r.PostForm.Get("grant_type"); gt != "client_credentials" {
		tokenError(w, http.StatusBadRequest, "unsupported_grant_type", fmt.Sprintf("grant_type %q: the development issuer has the client_credentials grant only", gt))
		return
	}
	if res := r.PostForm["resource"]; len(res) > 1 || len(res) == 1 && strings.TrimSuffix(res[0], "/") != strings.TrimSuffix(is.cfg.Audience, "/") {
		tokenError(w, http.StatusBadRequest, "invalid_target", fmt.Sprintf("resource %q: this issuer issues tokens for %s only", res, is.cfg.Audience))
		return
	}
	client, _, ok := r.BasicAuth()
	if !ok {
		client = r.PostForm.Get("client_id")
	}
	if client == "" {
		client = "dev"
	}
	subject := r.PostForm.Get("subject")
	if subject == "" {
		subject = "dev-" + client
	}
	scopes := strings.Fields(r.PostForm.Get("scope"))
	tok, err := is.Mint(client, subject, scopes...)
	if err != nil {
		tokenError(w, http.StatusInternalServerError, "server_error", err.Error())
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_ = json.NewEncoder(w).Encode(map[string]any{
		"access_token": tok,
		"token_type":   "Bearer",
		"expires_in":   int(is.cfg.Lifetime / time.Second),
		"scope":        strings.Join(scopes, " "),
	})
}

// tokenError is an RFC 6749 section 5.2 error response.
func tokenError(w http.ResponseWriter, status int, code, desc string) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]string{"error": code, "error_description": desc})
}

// Mint signs an access token for subject, as client, with scopes, for
// the issuer's audience: what the token endpoint hands out, for tests
// that want a token without an HTTP round trip.
func (is *Issuer) Mint(client, subject string, scopes ...string) (string, error) {
	now := time.Now()
	var jti [12]byte
	_, _ = rand.Read(jti[:])
	claims := jwt.Claims{
		Issuer: is.cfg.URL, Subject: subject, Audience: jwt.Audience{is.cfg.Audience},
		IssuedAt: jwt.NewNumericDate(now), NotBefore: jwt.NewNumericDate(now),
		Expiry: jwt.NewNumericDate(now.Add(is.cfg.Lifetime)), ID: base64.RawURLEncoding.EncodeToString(jti[:]),
	}
	extra := map[string]any{"client_id": client}
	if len(scopes) > 0 {
		extra["scope"] = strings.Join(scopes, " ")
	}
	tok, err := jwt.Signed(is.sig).Claims(claims).Claims(extra).Serialize()
	if err != nil {
		return "", fmt.Errorf("devissuer: sign: %w", err)
	}
	return tok, nil
}

// Loopback reports whether host (without port or brackets) is
// localhost or a loopback address.
func Loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// fromLoopback accepts requests from a loopback address that name a
// loopback host: a page in a browser that DNS-rebinds a name of its own to
// 127.0.0.1 sends that name, and is refused.
func fromLoopback(r *http.Request) bool {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil || !Loopback(host) {
		return false
	}
	name := r.Host
	if h, _, err := net.SplitHostPort(name); err == nil {
		name = h
	}
	return Loopback(strings.Trim(name, "[]"))
}

// Token gets a token for the MCP endpoint at endpoint from the development
// issuer that protects it, the way a client discovers one: the endpoint's
// protected resource metadata (RFC 9728) names the issuer, whose metadata
// (RFC 8414) names the token endpoint, which is asked for scopes with the
// client credentials grant. subject, when not empty, is the token's sub.
// It is what `mcpgen dev-token` runs, and works against loopback URLs
// only.
func Token(ctx context.Context, endpoint string, subject string, scopes ...string) (string, error) {
	u, err := url.Parse(endpoint)
	if err != nil || u.Scheme != "http" || !Loopback(u.Hostname()) {
		return "", fmt.Errorf("devissuer: %q: the development issuer serves http on loopback only (e.g. http://127.0.0.1:8080/mcp)", endpoint)
	}
	hc := &http.Client{Timeout: 10 * time.Second}
	origin := u.Scheme + "://" + u.Host
	var prm struct {
		Resource             string   `json:"resource"`
		AuthorizationServers []string `json:"authorization_servers"`
	}
	prmURL := origin + "/.well-known/oauth-protected-resource" + strings.TrimSuffix(u.EscapedPath(), "/")
	if err := getJSON(ctx, hc, prmURL, &prm); err != nil {
		return "", fmt.Errorf("devissuer: the server's protected resource metadata (is it running with --dev-auth?): %w", err)
	}
	if len(prm.AuthorizationServers) == 0 {
		return "", fmt.Errorf("devissuer: %s names no authorization server", prmURL)
	}
	iss, err := url.Parse(prm.AuthorizationServers[0])
	if err != nil || iss.Scheme != "http" || !Loopback(iss.Hostname()) {
		return "", fmt.Errorf("devissuer: the server's authorization server %q is not a development issuer on loopback; get tokens from it as its documentation says", prm.AuthorizationServers[0])
	}
	var md struct {
		Issuer        string `json:"issuer"`
		TokenEndpoint string `json:"token_endpoint"`
	}
	mdURL := iss.Scheme + "://" + iss.Host + MetadataPrefix + strings.TrimSuffix(iss.EscapedPath(), "/")
	if err := getJSON(ctx, hc, mdURL, &md); err != nil {
		return "", fmt.Errorf("devissuer: authorization server metadata: %w", err)
	}
	if md.Issuer != prm.AuthorizationServers[0] {
		return "", fmt.Errorf("devissuer: %s states issuer %q, want %q", mdURL, md.Issuer, prm.AuthorizationServers[0])
	}
	te, err := url.Parse(md.TokenEndpoint)
	if err != nil || te.Scheme != "http" || !Loopback(te.Hostname()) {
		return "", fmt.Errorf("devissuer: token endpoint %q is not on loopback", md.TokenEndpoint)
	}
	form := url.Values{"grant_type": {"client_credentials"}, "client_id": {"mcpgen-dev-token"}, "resource": {prm.Resource}}
	if len(scopes) > 0 {
		form.Set("scope", strings.Join(scopes, " "))
	}
	if subject != "" {
		form.Set("subject", subject)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, md.TokenEndpoint, strings.NewReader(form.Encode()))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := hc.Do(req)
	if err != nil {
		return "", fmt.Errorf("devissuer: token request: %w", err)
	}
	defer resp.Body.Close()
	var tr struct {
		AccessToken string `json:"access_token"`
		Error       string `json:"error"`
		Description string `json:"error_description"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&tr); err != nil {
		return "", fmt.Errorf("devissuer: token response (%s): %w", resp.Status, err)
	}
	if resp.StatusCode != http.StatusOK || tr.AccessToken == "" {
		return "", fmt.Errorf("devissuer: token request refused (%s): %s: %s", resp.Status, tr.Error, tr.Description)
	}
	return tr.AccessToken, nil
}

// getJSON fetches a JSON document of at most 1 MiB into v.
func getJSON(ctx context.Context, hc *http.Client, u string, v any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: %s", u, resp.Status)
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(v); err != nil {
		return errors.Join(fmt.Errorf("GET %s: decode", u), err)
	}
	return nil
}

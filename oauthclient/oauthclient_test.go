package oauthclient_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/oauth2"

	"github.com/mcpgen/mcpgen/oauthclient"
)

const redirect = "http://127.0.0.1:8765/callback"

// newAuth is an Auth for the authorization code grant, approving through
// Headless, with cfg's other fields.
func newAuth(t *testing.T, cfg oauthclient.Config) *oauthclient.Auth {
	t.Helper()
	if cfg.Grant == "" && cfg.UserAgent == nil {
		cfg.RedirectURL = redirect
		cfg.UserAgent = oauthclient.Headless(nil)
	}
	a, err := oauthclient.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// call sends POST u?op=op the way the client transport does: Authorize,
// and after a refusal that Refused renewed credentials for, again, at most
// 3 times.
func call(t *testing.T, a *oauthclient.Auth, u, op string) error {
	t.Helper()
	ctx := context.Background()
	for try := 0; ; try++ {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, u+"?op="+op, strings.NewReader("{}"))
		if err := a.Authorize(ctx, req); err != nil {
			return err
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode == http.StatusOK {
			return nil
		}
		if resp.StatusCode != http.StatusUnauthorized && resp.StatusCode != http.StatusForbidden {
			return fmt.Errorf("HTTP %d", resp.StatusCode)
		}
		if err := a.Refused(ctx, req, resp); err != nil {
			return err
		}
		if try == 3 {
			return fmt.Errorf("still HTTP %d after %d renewals", resp.StatusCode, try)
		}
	}
}

func mustCall(t *testing.T, a *oauthclient.Auth, u, op string) {
	t.Helper()
	if err := call(t, a, u, op); err != nil {
		t.Fatalf("%s: %v", op, err)
	}
}

// TestDiscovery finds the resource and authorization server metadata at
// each location MCP allows, and asks for them in MCP's order.
func TestDiscovery(t *testing.T) {
	cases := []struct {
		name     string
		prmPath  string
		noHint   bool
		prefix   string
		metaPath string
		wantPRM  []string // the RS paths requested
		wantMeta []string // the AS paths requested
	}{
		{name: "challenge/RFC8414", prmPath: "/.well-known/oauth-protected-resource/mcp",
			wantPRM: []string{"/.well-known/oauth-protected-resource/mcp"}, wantMeta: []string{"/.well-known/oauth-authorization-server"}},
		{name: "path-suffixed/OIDC", prmPath: "/.well-known/oauth-protected-resource/mcp", noHint: true, metaPath: "/.well-known/openid-configuration",
			wantPRM:  []string{"/.well-known/oauth-protected-resource/mcp"},
			wantMeta: []string{"/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"}},
		{name: "root/RFC8414 path insertion", prmPath: "/.well-known/oauth-protected-resource", noHint: true, prefix: "/tenant1",
			wantPRM:  []string{"/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"},
			wantMeta: []string{"/.well-known/oauth-authorization-server/tenant1"}},
		{name: "custom/OIDC path appending", prmPath: "/custom/metadata.json", prefix: "/tenant1", metaPath: "/tenant1/.well-known/openid-configuration",
			wantPRM: []string{"/custom/metadata.json"},
			wantMeta: []string{"/.well-known/oauth-authorization-server/tenant1", "/.well-known/openid-configuration/tenant1",
				"/tenant1/.well-known/openid-configuration"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			as := newAS(t, func(as *fakeAS) { as.prefix, as.metaPath = c.prefix, c.metaPath })
			rs := newRS(t, as, func(rs *fakeRS) { rs.prmPath, rs.noHint = c.prmPath, c.noHint })
			mustCall(t, newAuth(t, oauthclient.Config{}), rs.url(), "list")
			if !slices.Equal(rs.prmRequests, c.wantPRM) {
				t.Errorf("resource metadata requests %q, want %q", rs.prmRequests, c.wantPRM)
			}
			if !slices.Equal(as.metaGets, c.wantMeta) {
				t.Errorf("server metadata requests %q, want %q", as.metaGets, c.wantMeta)
			}
		})
	}
}

// TestResourceMismatch: metadata for another resource is refused before
// anything is sent to the authorization server; metadata at the root, for
// the origin, is not a mismatch (TestDiscovery), nor is a parent path.
func TestResourceMismatch(t *testing.T) {
	for _, res := range []string{"https://evil.example.com/mcp", "{{origin}}/other", "{{origin}}/mcp2"} {
		t.Run(res, func(t *testing.T) {
			as := newAS(t, nil)
			rs := newRS(t, as, nil)
			rs.resource = strings.ReplaceAll(res, "{{origin}}", rs.srv.URL)
			err := call(t, newAuth(t, oauthclient.Config{}), rs.url(), "list")
			if !errors.Is(err, oauthclient.ErrResourceMismatch) {
				t.Fatalf("err = %v, want ErrResourceMismatch", err)
			}
			if authz, _, regs := as.record(); len(authz)+len(regs) > 0 || len(as.metaGets) > 0 {
				t.Errorf("the authorization server was contacted: %d authorizations, %d registrations, metadata %q", len(authz), len(regs), as.metaGets)
			}
		})
	}
	t.Run("parent path", func(t *testing.T) {
		as := newAS(t, nil)
		rs := newRS(t, as, nil)
		rs.resource = rs.srv.URL + "/"
		mustCall(t, newAuth(t, oauthclient.Config{}), rs.url(), "list")
		authz, tokens, _ := as.record()
		if got := authz[0].Get("resource"); got != rs.srv.URL+"/" || tokens[0].form.Get("resource") != got {
			t.Errorf("resource %q / %q, want the one of the metadata", got, tokens[0].form.Get("resource"))
		}
	})
}

// TestMetadataIssuerMismatch: a metadata document stating another issuer
// is not used.
func TestMetadataIssuerMismatch(t *testing.T) {
	as := newAS(t, func(as *fakeAS) { as.issuerDoc = "https://attacker.example.com" })
	rs := newRS(t, as, nil)
	err := call(t, newAuth(t, oauthclient.Config{}), rs.url(), "list")
	if !errors.Is(err, oauthclient.ErrIssuerMismatch) {
		t.Fatalf("err = %v, want ErrIssuerMismatch", err)
	}
	if authz, tokens, regs := as.record(); len(authz)+len(tokens)+len(regs) > 0 {
		t.Errorf("endpoints of the rejected metadata were used")
	}
}

// TestPlaintextEndpoint: metadata sending credentials over plain http
// to another host is refused; loopback http (every other test) is not.
func TestPlaintextEndpoint(t *testing.T) {
	as := newAS(t, func(as *fakeAS) { as.tokenURL = "http://auth.example.com/token" })
	rs := newRS(t, as, nil)
	err := call(t, newAuth(t, oauthclient.Config{}), rs.url(), "list")
	if err == nil || !strings.Contains(err.Error(), "neither https nor on the loopback") {
		t.Fatalf("err = %v, want a refusal of the endpoint", err)
	}
	if authz, _, regs := as.record(); len(authz)+len(regs) > 0 {
		t.Error("the metadata was used")
	}
}

// TestIssParameter is RFC 9207 as MCP tables it: a present iss is compared
// by simple string comparison whether advertised or not; an absent one is
// refused only when advertised.
func TestIssParameter(t *testing.T) {
	cases := []struct {
		advertise bool
		mode      string
		want      error
	}{
		{true, "", nil},
		{false, "omit", nil},
		{false, "", nil},
		{true, "omit", oauthclient.ErrAuthorizationResponse},
		{true, "wrong", oauthclient.ErrIssuerMismatch},
		{false, "wrong", oauthclient.ErrIssuerMismatch},
		{true, "slash", oauthclient.ErrIssuerMismatch},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("advertised=%v/iss=%s", c.advertise, c.mode), func(t *testing.T) {
			as := newAS(t, func(as *fakeAS) { as.advertiseIss, as.issMode = c.advertise, c.mode })
			rs := newRS(t, as, nil)
			err := call(t, newAuth(t, oauthclient.Config{}), rs.url(), "list")
			_, tokens, _ := as.record()
			if c.want == nil {
				if err != nil || len(tokens) != 1 {
					t.Fatalf("err = %v, %d token requests; want success", err, len(tokens))
				}
				return
			}
			if !errors.Is(err, c.want) {
				t.Fatalf("err = %v, want %v", err, c.want)
			}
			if len(tokens) != 0 {
				t.Errorf("the code was sent to the token endpoint")
			}
		})
	}
}

// TestAuthorizationRequest: PKCE S256 (checked by the server against the
// verifier), state, the resource on both requests, the redirect URI; and
// no authorization at a server that does not state S256 support.
func TestAuthorizationRequest(t *testing.T) {
	as := newAS(t, nil)
	rs := newRS(t, as, nil)
	mustCall(t, newAuth(t, oauthclient.Config{}), rs.url(), "list")
	authz, tokens, _ := as.record()
	q := authz[0]
	for k, want := range map[string]string{"response_type": "code", "code_challenge_method": "S256", "resource": rs.url(), "redirect_uri": redirect} {
		if q.Get(k) != want {
			t.Errorf("authorization request %s = %q, want %q", k, q.Get(k), want)
		}
	}
	if q.Get("state") == "" || q.Get("code_challenge") == "" {
		t.Errorf("authorization request without state or code_challenge: %v", q)
	}
	if f := tokens[0].form; f.Get("resource") != rs.url() || f.Get("code_verifier") == "" || f.Get("grant_type") != "authorization_code" {
		t.Errorf("token request %v", f)
	}

	noPKCE := newAS(t, func(as *fakeAS) { as.noPKCE = true })
	rs2 := newRS(t, noPKCE, nil)
	if err := call(t, newAuth(t, oauthclient.Config{}), rs2.url(), "list"); err == nil || !strings.Contains(err.Error(), "S256") {
		t.Errorf("err = %v, want a refusal for missing PKCE support", err)
	}
}

// TestStateMismatch: a redirect with another state is refused.
func TestStateMismatch(t *testing.T) {
	as := newAS(t, nil)
	rs := newRS(t, as, nil)
	headless := oauthclient.Headless(nil)
	a := newAuth(t, oauthclient.Config{RedirectURL: redirect, UserAgent: func(ctx context.Context, authURL string) (*url.URL, error) {
		u, err := headless(ctx, authURL)
		if err == nil {
			q := u.Query()
			q.Set("state", "forged")
			u.RawQuery = q.Encode()
		}
		return u, err
	}})
	if err := call(t, a, rs.url(), "list"); !errors.Is(err, oauthclient.ErrAuthorizationResponse) {
		t.Fatalf("err = %v, want ErrAuthorizationResponse", err)
	}
}

// TestScopeSelection: the challenge's scope, else the metadata's
// scopes_supported, else no scope parameter.
func TestScopeSelection(t *testing.T) {
	cases := []struct {
		name, challenge string
		supported       []string
		want            string
		present         bool
	}{
		{"challenge", "files:read", []string{"a", "b"}, "files:read", true},
		{"scopes_supported", "", []string{"a", "b"}, "a b", true},
		{"omitted", "", nil, "", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			as := newAS(t, nil)
			rs := newRS(t, as, func(rs *fakeRS) { rs.scope, rs.supported = c.challenge, c.supported })
			mustCall(t, newAuth(t, oauthclient.Config{}), rs.url(), "list")
			authz, _, _ := as.record()
			_, present := authz[0]["scope"]
			if authz[0].Get("scope") != c.want || present != c.present {
				t.Errorf("scope %q (present %v), want %q (present %v)", authz[0].Get("scope"), present, c.want, c.present)
			}
		})
	}
}

// TestStepUp: a 403 insufficient_scope re-authorizes with the scopes the
// token had plus the challenged ones; a challenge for scopes the token was
// already requested with is returned, not looped on.
func TestStepUp(t *testing.T) {
	as := newAS(t, nil)
	rs := newRS(t, as, func(rs *fakeRS) {
		rs.scope = "read"
		rs.need = map[string][]string{"list": {"read"}, "call": {"write"}}
	})
	a := newAuth(t, oauthclient.Config{})
	mustCall(t, a, rs.url(), "list")
	mustCall(t, a, rs.url(), "call")
	mustCall(t, a, rs.url(), "list")
	authz, _, _ := as.record()
	if len(authz) != 2 || authz[1].Get("scope") != "read write" {
		t.Fatalf("%d authorizations, the second for %q; want 2, the second for %q", len(authz), authz[len(authz)-1].Get("scope"), "read write")
	}

	// A scope the authorization server never grants: after the step-up
	// asked for it, the refusal is returned.
	as2 := newAS(t, func(as *fakeAS) { as.deny = []string{"never"} })
	rs2 := newRS(t, as2, func(rs *fakeRS) {
		rs.scope = "admin"
		rs.need = map[string][]string{"list": {"admin", "never"}}
	})
	err := call(t, newAuth(t, oauthclient.Config{}), rs2.url(), "list")
	if !errors.Is(err, oauthclient.ErrInsufficientScope) {
		t.Fatalf("err = %v, want ErrInsufficientScope", err)
	}
	if authz2, _, _ := as2.record(); len(authz2) != 2 {
		t.Errorf("%d authorizations, want 2", len(authz2))
	}
}

// TestRetryLimit: a server that refuses every fresh token with 401 is
// given at most MaxAttempts authorizations.
func TestRetryLimit(t *testing.T) {
	as := newAS(t, nil)
	rs := newRS(t, as, nil)
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/mcp" && r.Header.Get("Authorization") != "" {
			as.revoke() // every token dies on first use
		}
		rs.ServeHTTP(w, r)
	}))
	defer hs.Close()
	rs.resource = hs.URL + "/mcp"
	a := newAuth(t, oauthclient.Config{MaxAttempts: 2})
	var err error
	for i := 0; i < 3 && err == nil; i++ {
		err = call(t, a, hs.URL+"/mcp", "list")
	}
	if !errors.Is(err, oauthclient.ErrTooManyAttempts) {
		t.Fatalf("err = %v, want ErrTooManyAttempts", err)
	}
	if authz, _, _ := as.record(); len(authz) != 2 {
		t.Errorf("%d authorizations, want 2", len(authz))
	}
}

// TestRegistration: pre-registered credentials, then a client ID
// metadata document where supported, then dynamic registration, done once
// per authorization server.
func TestRegistration(t *testing.T) {
	t.Run("pre-registered", func(t *testing.T) {
		as := newAS(t, func(as *fakeAS) { as.cimd = true; as.methods = []string{"client_secret_basic"} })
		rs := newRS(t, as, nil)
		mustCall(t, newAuth(t, oauthclient.Config{ClientID: "pre", ClientSecret: "s3cret", ClientIssuer: as.issuer(), ClientMetadataURL: "https://app.example/client.json"}), rs.url(), "list")
		authz, tokens, regs := as.record()
		if len(regs) != 0 || authz[0].Get("client_id") != "pre" || !tokens[0].basic || tokens[0].basicID != "pre" || tokens[0].basicPW != "s3cret" {
			t.Errorf("registrations %d, client_id %q, basic %v %q:%q", len(regs), authz[0].Get("client_id"), tokens[0].basic, tokens[0].basicID, tokens[0].basicPW)
		}
	})
	t.Run("pre-registered with a key", func(t *testing.T) {
		key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		as := newAS(t, func(as *fakeAS) { as.methods, as.jwtKey = []string{"private_key_jwt"}, &key.PublicKey })
		rs := newRS(t, as, nil)
		mustCall(t, newAuth(t, oauthclient.Config{ClientID: "svc", PrivateKey: key, ClientIssuer: as.issuer()}), rs.url(), "list")
		if _, tokens, _ := as.record(); len(tokens) != 1 || tokens[0].basic || tokens[0].form.Get("client_secret") != "" {
			t.Errorf("token requests %+v", tokens)
		}
	})
	t.Run("pre-registered elsewhere", func(t *testing.T) {
		as := newAS(t, nil)
		rs := newRS(t, as, nil)
		err := call(t, newAuth(t, oauthclient.Config{ClientID: "pre", ClientIssuer: "https://other.example"}), rs.url(), "list")
		if !errors.Is(err, oauthclient.ErrIssuerMismatch) {
			t.Errorf("err = %v, want ErrIssuerMismatch", err)
		}
	})
	t.Run("client ID metadata document", func(t *testing.T) {
		as := newAS(t, func(as *fakeAS) { as.cimd = true })
		rs := newRS(t, as, nil)
		mustCall(t, newAuth(t, oauthclient.Config{ClientMetadataURL: "https://app.example/client.json"}), rs.url(), "list")
		authz, tokens, regs := as.record()
		if len(regs) != 0 || authz[0].Get("client_id") != "https://app.example/client.json" || tokens[0].basic || tokens[0].form.Get("client_secret") != "" {
			t.Errorf("registrations %d, client_id %q, token auth %v", len(regs), authz[0].Get("client_id"), tokens[0])
		}
	})
	t.Run("dynamic", func(t *testing.T) {
		as := newAS(t, func(as *fakeAS) { as.refresh = true })
		rs := newRS(t, as, nil)
		a := newAuth(t, oauthclient.Config{ClientMetadataURL: "https://app.example/client.json", ClientName: "tester"})
		mustCall(t, a, rs.url(), "list")
		as.revoke()
		mustCall(t, a, rs.url(), "list") // refresh
		as.revoke()
		as.denyRefresh = true
		mustCall(t, a, rs.url(), "list") // a new authorization, same registration
		authz, _, regs := as.record()
		if len(regs) != 1 || len(authz) != 2 {
			t.Fatalf("%d registrations and %d authorizations, want 1 and 2", len(regs), len(authz))
		}
		r := regs[0]
		if r["application_type"] != "native" || r["client_name"] != "tester" || r["token_endpoint_auth_method"] != "none" ||
			fmt.Sprint(r["redirect_uris"]) != "["+redirect+"]" || !strings.Contains(fmt.Sprint(r["grant_types"]), "refresh_token") {
			t.Errorf("registration %v", r)
		}
	})
	t.Run("none possible", func(t *testing.T) {
		as := newAS(t, func(as *fakeAS) { as.noDCR = true })
		rs := newRS(t, as, nil)
		if err := call(t, newAuth(t, oauthclient.Config{}), rs.url(), "list"); !errors.Is(err, oauthclient.ErrNoClient) {
			t.Errorf("err = %v, want ErrNoClient", err)
		}
	})
}

// TestTokenEndpointAuth: the method the registration answer or the
// metadata names.
func TestTokenEndpointAuth(t *testing.T) {
	for _, m := range []string{"client_secret_basic", "client_secret_post", "none"} {
		t.Run(m, func(t *testing.T) {
			as := newAS(t, func(as *fakeAS) {
				as.methods, as.regMethod = []string{m}, m
				if m != "none" {
					as.regSecret = "reg-secret"
				}
			})
			rs := newRS(t, as, nil)
			mustCall(t, newAuth(t, oauthclient.Config{}), rs.url(), "list")
			_, tokens, regs := as.record()
			tr := tokens[0]
			got := "none"
			switch {
			case tr.basic && tr.basicPW == "reg-secret":
				got = "client_secret_basic"
			case tr.form.Get("client_secret") == "reg-secret":
				got = "client_secret_post"
			case tr.basic || tr.form.Get("client_secret") != "":
				got = "wrong secret"
			}
			if got != m || regs[0]["token_endpoint_auth_method"] != m {
				t.Errorf("authenticated with %s, registered for %v; want %s", got, regs[0]["token_endpoint_auth_method"], m)
			}
		})
	}
	t.Run("secret without method, post only", func(t *testing.T) {
		as := newAS(t, func(as *fakeAS) { as.methods, as.regSecret = []string{"client_secret_post"}, "reg-secret" })
		rs := newRS(t, as, nil)
		mustCall(t, newAuth(t, oauthclient.Config{}), rs.url(), "list")
		if _, tokens, _ := as.record(); tokens[0].form.Get("client_secret") != "reg-secret" || tokens[0].basic {
			t.Errorf("token request %v", tokens[0])
		}
	})
}

// TestRefresh: offline_access is asked for when the authorization server
// lists it (and not otherwise); an expired token is refreshed before use,
// a refused one after the 401, both with the resource indicator.
func TestRefresh(t *testing.T) {
	for _, listed := range []bool{true, false} {
		t.Run(fmt.Sprintf("offline_access listed=%v", listed), func(t *testing.T) {
			as := newAS(t, func(as *fakeAS) {
				as.scopes = []string{"mcp"}
				if listed {
					as.scopes = append(as.scopes, "offline_access")
				}
			})
			rs := newRS(t, as, func(rs *fakeRS) { rs.supported = []string{"mcp"} })
			mustCall(t, newAuth(t, oauthclient.Config{}), rs.url(), "list")
			authz, _, regs := as.record()
			if got := strings.Contains(authz[0].Get("scope"), "offline_access"); got != listed {
				t.Errorf("scope %q", authz[0].Get("scope"))
			}
			if !strings.Contains(fmt.Sprint(regs[0]["grant_types"]), "refresh_token") {
				t.Errorf("registered grant types %v", regs[0]["grant_types"])
			}
		})
	}
	t.Run("NoRefresh", func(t *testing.T) {
		as := newAS(t, func(as *fakeAS) { as.scopes = []string{"offline_access"} })
		rs := newRS(t, as, nil)
		mustCall(t, newAuth(t, oauthclient.Config{NoRefresh: true}), rs.url(), "list")
		authz, _, regs := as.record()
		if authz[0].Has("scope") || strings.Contains(fmt.Sprint(regs[0]["grant_types"]), "refresh_token") {
			t.Errorf("scope %q, grant types %v", authz[0].Get("scope"), regs[0]["grant_types"])
		}
	})
	t.Run("expired and refused", func(t *testing.T) {
		as := newAS(t, func(as *fakeAS) { as.refresh = true })
		rs := newRS(t, as, nil)
		store := &oauthclient.MemoryStore{}
		a := newAuth(t, oauthclient.Config{Tokens: store})
		mustCall(t, a, rs.url(), "list")
		// Refused: refreshed after the 401.
		as.revoke()
		mustCall(t, a, rs.url(), "list")
		// Expired: refreshed before use.
		key := oauthclient.TokenKey{Issuer: as.issuer(), Resource: rs.url()}
		tok, _ := store.Token(context.Background(), key)
		if tok == nil {
			t.Fatalf("no token stored under %v", key)
		}
		expired := *tok
		expired.Expiry = time.Now().Add(-time.Minute)
		_ = store.SetToken(context.Background(), key, &expired)
		mustCall(t, a, rs.url(), "list")
		authz, tokens, _ := as.record()
		if len(authz) != 1 {
			t.Errorf("%d authorizations, want 1", len(authz))
		}
		var refreshes int
		for _, tr := range tokens {
			if tr.form.Get("grant_type") == "refresh_token" {
				refreshes++
				if tr.form.Get("resource") != rs.url() {
					t.Errorf("refresh without the resource: %v", tr.form)
				}
			}
		}
		if refreshes != 2 {
			t.Errorf("%d refreshes, want 2", refreshes)
		}
	})
}

// TestMigration: when the resource metadata names another authorization
// server the client registers there anew and never shows it the first
// server's client ID.
func TestMigration(t *testing.T) {
	as1, as2 := newAS(t, nil), newAS(t, nil)
	rs := newRS(t, as1, nil)
	a := newAuth(t, oauthclient.Config{})
	mustCall(t, a, rs.url(), "list")
	mustCall(t, a, rs.url(), "list")
	rs.setAS(as2)
	mustCall(t, a, rs.url(), "list")
	_, _, regs1 := as1.record()
	authz2, tokens2, regs2 := as2.record()
	if len(regs1) != 1 || len(regs2) != 1 {
		t.Fatalf("registrations %d and %d, want 1 each", len(regs1), len(regs2))
	}
	id1 := strings.TrimPrefix(as1.srv.URL, "http://")
	for _, q := range authz2 {
		if strings.HasPrefix(q.Get("client_id"), id1) {
			t.Errorf("the first server's client ID was shown to the second")
		}
	}
	for _, tr := range tokens2 {
		if strings.HasPrefix(tr.form.Get("client_id"), id1) || strings.HasPrefix(tr.basicID, id1) {
			t.Errorf("the first server's client ID was sent to the second's token endpoint")
		}
	}
}

// TestLegacyServer is the 2025-03-26 revision: no resource metadata, the
// server is its own authorization server, with metadata at its origin or,
// without any, the default endpoints.
func TestLegacyServer(t *testing.T) {
	for _, meta := range []bool{true, false} {
		t.Run(fmt.Sprintf("metadata=%v", meta), func(t *testing.T) {
			as := newAS(t, func(as *fakeAS) { as.noMetadata = !meta; as.issMode = "omit" })
			hs := legacyServer(t, as) // the AS's issuer is now the server's origin
			mustCall(t, newAuth(t, oauthclient.Config{}), hs.URL+"/mcp", "list")
			authz, tokens, regs := as.record()
			if len(authz) != 1 || len(tokens) != 1 || len(regs) != 1 {
				t.Errorf("%d authorizations, %d token requests, %d registrations", len(authz), len(tokens), len(regs))
			}
		})
	}
}

// TestClientCredentials: the client credentials grant with a secret
// (basic) or a private_key_jwt assertion the server verifies.
func TestClientCredentials(t *testing.T) {
	t.Run("secret", func(t *testing.T) {
		as := newAS(t, func(as *fakeAS) { as.methods = []string{"client_secret_basic"} })
		rs := newRS(t, as, func(rs *fakeRS) { rs.supported = []string{"svc"} })
		a := newAuth(t, oauthclient.Config{Grant: oauthclient.GrantClientCredentials, ClientID: "svc", ClientSecret: "pw", ClientIssuer: as.issuer()})
		mustCall(t, a, rs.url(), "list")
		_, tokens, regs := as.record()
		tr := tokens[0]
		if len(regs) != 0 || tr.form.Get("grant_type") != "client_credentials" || tr.basicID != "svc" || tr.basicPW != "pw" ||
			tr.form.Get("resource") != rs.url() || tr.form.Get("scope") != "svc" {
			t.Errorf("token request %+v", tr)
		}
	})
	t.Run("private_key_jwt", func(t *testing.T) {
		key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		der, _ := x509.MarshalPKCS8PrivateKey(key)
		parsed, err := oauthclient.ParsePrivateKey(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}))
		if err != nil {
			t.Fatal(err)
		}
		as := newAS(t, func(as *fakeAS) { as.methods, as.jwtKey = []string{"private_key_jwt"}, &key.PublicKey })
		rs := newRS(t, as, nil)
		a := newAuth(t, oauthclient.Config{Grant: oauthclient.GrantClientCredentials, ClientID: "svc", PrivateKey: parsed, ClientIssuer: as.issuer()})
		mustCall(t, a, rs.url(), "list")
		if _, tokens, _ := as.record(); tokens[0].basic || tokens[0].form.Get("client_secret") != "" {
			t.Errorf("a secret was sent: %+v", tokens[0])
		}
		// The wrong key is refused by the server, and the refusal returned.
		other, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		bad := newAuth(t, oauthclient.Config{Grant: oauthclient.GrantClientCredentials, ClientID: "svc", PrivateKey: other, ClientIssuer: as.issuer()})
		if err := call(t, bad, rs.url(), "list"); err == nil || !strings.Contains(err.Error(), "invalid_client") {
			t.Errorf("err = %v, want invalid_client", err)
		}
	})
}

// TestJWTBearer presents the assertion it is given, with the issuer to
// mint it for; a refused assertion is returned, not retried.
func TestJWTBearer(t *testing.T) {
	for _, assertion := range []string{"workload-jwt", "expired-jwt"} {
		t.Run(assertion, func(t *testing.T) {
			as := newAS(t, func(as *fakeAS) { as.noDCR = true; as.methods = []string{"none"} })
			rs := newRS(t, as, nil)
			var audience string
			a := newAuth(t, oauthclient.Config{Grant: oauthclient.GrantJWTBearer, ClientID: "wl", ClientIssuer: as.issuer(),
				Assertion: func(_ context.Context, issuer, _ string) (string, error) { audience = issuer; return assertion, nil }})
			err := call(t, a, rs.url(), "list")
			_, tokens, _ := as.record()
			if audience != as.issuer() || len(tokens) != 1 || tokens[0].form.Get("client_id") != "wl" || tokens[0].form.Get("resource") != rs.url() {
				t.Errorf("asked for an assertion for %q; token requests %v", audience, tokens)
			}
			if ok := assertion == "workload-jwt"; (err == nil) != ok {
				t.Errorf("err = %v", err)
			}
		})
	}
}

// TestDPoP: with an authorization server that supports DPoP the token
// is requested with a proof and presented with the DPoP scheme and a
// fresh proof bound to it on each request, nonces of both servers are
// used; with NoDPoP, or a server that does not support it, Bearer.
func TestDPoP(t *testing.T) {
	for _, nonce := range []string{"", "n-1"} {
		t.Run("nonce="+nonce, func(t *testing.T) {
			as := newAS(t, func(as *fakeAS) { as.dpop, as.dpopNonce, as.refresh = true, nonce, true })
			rs := newRS(t, as, func(rs *fakeRS) { rs.dpopNonce = nonce })
			a := newAuth(t, oauthclient.Config{})
			mustCall(t, a, rs.url(), "list")
			mustCall(t, a, rs.url(), "list")
			as.revoke()
			mustCall(t, a, rs.url(), "list") // refreshed with a proof
			_, tokens, _ := as.record()
			want := 2 // the code, the refresh
			if nonce != "" {
				want++ // the first is refused for want of the nonce
			}
			if len(tokens) != want {
				t.Errorf("%d token requests, want %d", len(tokens), want)
			}
			if len(rs.dpopProofs) != 3 || rs.dpopProofs[0] == rs.dpopProofs[1] {
				t.Errorf("proofs accepted: %d, want 3 different", len(rs.dpopProofs))
			}
		})
	}
	t.Run("NoDPoP", func(t *testing.T) {
		as := newAS(t, func(as *fakeAS) { as.dpop = true })
		rs := newRS(t, as, nil)
		// The server refuses tokens without a proof: none is asked for.
		err := call(t, newAuth(t, oauthclient.Config{NoDPoP: true}), rs.url(), "list")
		if _, tokens, _ := as.record(); len(tokens) != 1 || tokens[0].form.Get("grant_type") != "authorization_code" {
			t.Fatalf("token requests %v", tokens)
		}
		if err == nil {
			t.Error("a token request without proof succeeded at a server that requires one")
		}
	})
}

// TestIdentityAssertion: enterprise-managed authorization exchanges the
// ID token at the identity provider for an ID-JAG for the authorization
// server and resource, and presents it with the JWT bearer grant and the
// client's own credentials.
func TestIdentityAssertion(t *testing.T) {
	as := newAS(t, func(as *fakeAS) { as.noDCR = true; as.methods = []string{"client_secret_basic"} })
	rs := newRS(t, as, nil)
	var exchange url.Values
	idp := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		exchange = r.PostForm
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"access_token":"workload-jwt","issued_token_type":"urn:ietf:params:oauth:token-type:id-jag","token_type":"N_A"}`)
	}))
	defer idp.Close()
	ia := &oauthclient.IdentityAssertion{TokenURL: idp.URL, ClientID: "idp-client",
		IDToken: func(context.Context) (string, error) { return "the-id-token", nil }}
	a := newAuth(t, oauthclient.Config{Grant: oauthclient.GrantJWTBearer, ClientID: "xaa", ClientSecret: "pw", ClientIssuer: as.issuer(), Assertion: ia.Assertion})
	mustCall(t, a, rs.url(), "list")
	for k, want := range map[string]string{
		"grant_type": "urn:ietf:params:oauth:grant-type:token-exchange", "subject_token": "the-id-token",
		"subject_token_type":   "urn:ietf:params:oauth:token-type:id_token",
		"requested_token_type": "urn:ietf:params:oauth:token-type:id-jag",
		"audience":             as.issuer(), "resource": rs.url(), "client_id": "idp-client",
	} {
		if exchange.Get(k) != want {
			t.Errorf("token exchange %s = %q, want %q", k, exchange.Get(k), want)
		}
	}
	if _, tokens, _ := as.record(); tokens[0].basicID != "xaa" || tokens[0].basicPW != "pw" {
		t.Errorf("JWT bearer request %+v, want client_secret_basic", tokens[0])
	}
}

// TestBounds: an oversized document and a redirect loop end in errors,
// not in memory or time.
func TestBounds(t *testing.T) {
	t.Run("oversized metadata", func(t *testing.T) {
		hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/mcp" {
				w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="http://`+r.Host+`/prm"`)
				w.WriteHeader(http.StatusUnauthorized)
				return
			}
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"resource":"`)
			chunk := strings.Repeat("x", 64<<10)
			for range 64 { // 4 MiB
				if _, err := io.WriteString(w, chunk); err != nil {
					return
				}
			}
		}))
		defer hs.Close()
		err := call(t, newAuth(t, oauthclient.Config{}), hs.URL+"/mcp", "list")
		if err == nil || !strings.Contains(err.Error(), "larger than") {
			t.Errorf("err = %v, want a refusal of the size", err)
		}
	})
	t.Run("redirect loop", func(t *testing.T) {
		var n int
		hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/mcp" {
				w.WriteHeader(http.StatusUnauthorized)
				return
			}
			n++
			http.Redirect(w, r, r.URL.Path+"x", http.StatusFound)
		}))
		defer hs.Close()
		if err := call(t, newAuth(t, oauthclient.Config{}), hs.URL+"/mcp", "list"); err == nil {
			t.Error("no error")
		}
		if n > 3*4 {
			t.Errorf("%d redirects followed", n)
		}
	})
}

// TestChallengeParsing reads Bearer parameters among other schemes, with
// quoting and escapes.
func TestChallengeParsing(t *testing.T) {
	as := newAS(t, nil)
	rs := newRS(t, as, nil)
	hint := rs.srv.URL + rs.prmPath
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") == "" {
			w.Header().Add("WWW-Authenticate", `Basic realm="x, y", Bearer realm="a\"b", scope="s1 s2", resource_metadata=`+`"`+hint+`"`)
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		rs.ServeHTTP(w, r)
	}))
	defer hs.Close()
	rs.resource = hs.URL + "/mcp"
	mustCall(t, newAuth(t, oauthclient.Config{}), hs.URL+"/mcp", "list")
	authz, _, _ := as.record()
	if authz[0].Get("scope") != "s1 s2" {
		t.Errorf("scope %q, want %q", authz[0].Get("scope"), "s1 s2")
	}
}

// TestNew refuses configurations that cannot work.
func TestNew(t *testing.T) {
	for name, cfg := range map[string]oauthclient.Config{
		"no user agent":      {RedirectURL: redirect},
		"no redirect":        {UserAgent: oauthclient.Headless(nil)},
		"cc without secret":  {Grant: oauthclient.GrantClientCredentials, ClientID: "x"},
		"http CIMD":          {RedirectURL: redirect, UserAgent: oauthclient.Headless(nil), ClientMetadataURL: "http://app.example/c.json"},
		"CIMD without path":  {RedirectURL: redirect, UserAgent: oauthclient.Headless(nil), ClientMetadataURL: "https://app.example"},
		"unknown grant type": {Grant: "password"},
	} {
		if _, err := oauthclient.New(cfg); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// TestConcurrentRefusals: requests refused together share one
// authorization.
func TestConcurrentRefusals(t *testing.T) {
	as := newAS(t, nil)
	rs := newRS(t, as, nil)
	a := newAuth(t, oauthclient.Config{})
	mustCall(t, a, rs.url(), "list")
	as.revoke()
	errs := make(chan error, 8)
	for range 8 {
		go func() { errs <- call(t, a, rs.url(), "list") }()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	if authz, _, _ := as.record(); len(authz) > 3 {
		t.Errorf("%d authorizations for one refusal of 8 requests", len(authz))
	}
}

var _ = json.Marshal
var _ oauth2.TokenSource

package oauthclient_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/mcpgen/mcpgen/oauthclient"
)

// heldCredentials are configurations that hold a credential, one per
// kind the client can present, with the authorization server setup that
// accepts it. asked records the issuers a JWT bearer assertion was asked
// for.
func heldCredentials(t *testing.T, asked *[]string) map[string]struct {
	cfg   oauthclient.Config
	setup func(*fakeAS)
} {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	return map[string]struct {
		cfg   oauthclient.Config
		setup func(*fakeAS)
	}{
		"client credentials with a secret": {
			oauthclient.Config{Grant: oauthclient.GrantClientCredentials, ClientID: "svc", ClientSecret: "pw"},
			func(as *fakeAS) { as.methods = []string{"client_secret_basic"} }},
		"client credentials with a key": {
			oauthclient.Config{Grant: oauthclient.GrantClientCredentials, ClientID: "svc", PrivateKey: key},
			func(as *fakeAS) { as.methods, as.jwtKey = []string{"private_key_jwt"}, &key.PublicKey }},
		"authorization code with a secret": {
			oauthclient.Config{ClientID: "pre", ClientSecret: "pw", RedirectURL: redirect, UserAgent: oauthclient.Headless(nil)},
			func(as *fakeAS) { as.methods = []string{"client_secret_basic"} }},
		"JWT bearer": {
			oauthclient.Config{Grant: oauthclient.GrantJWTBearer, ClientID: "wl",
				Assertion: func(_ context.Context, issuer, _ string) (string, error) {
					mu.Lock()
					defer mu.Unlock()
					*asked = append(*asked, issuer)
					return "workload-jwt", nil
				}},
			func(as *fakeAS) { as.noDCR, as.methods = true, []string{"none"} }},
	}
}

// TestCredentialsGoToTheConfiguredIssuerOnly: a credential the client
// holds is presented to the authorization server of ClientIssuer and to
// no other. A configuration with a credential and no ClientIssuer is
// refused by New, with a message naming the field; an MCP server whose
// resource metadata names a foreign authorization server, or none (a
// 2025-03-26 server), is refused with ErrIssuerMismatch before the
// foreign server is contacted at all; one that names the configured
// issuer after a foreign one gets the configured one used.
func TestCredentialsGoToTheConfiguredIssuerOnly(t *testing.T) {
	var asked []string
	for name, c := range heldCredentials(t, &asked) {
		t.Run(name, func(t *testing.T) {
			asked = nil
			if _, err := oauthclient.New(c.cfg); err == nil || !strings.Contains(err.Error(), "set ClientIssuer") {
				t.Errorf("New without ClientIssuer: err = %v, want a refusal saying to set ClientIssuer", err)
			}

			home := newAS(t, c.setup)
			foreign := newAS(t, c.setup)
			cfg := c.cfg
			cfg.ClientIssuer = home.issuer()

			hostile := newRS(t, foreign, nil)
			err := call(t, newAuth(t, cfg), hostile.url(), "list")
			if !errors.Is(err, oauthclient.ErrIssuerMismatch) || !strings.Contains(err.Error(), foreign.issuer()) || !strings.Contains(err.Error(), "ClientIssuer") {
				t.Errorf("a server naming a foreign authorization server: err = %v, want ErrIssuerMismatch naming it and ClientIssuer", err)
			}
			authz, tokens, regs := foreign.record()
			if len(foreign.metaGets)+len(authz)+len(tokens)+len(regs) != 0 {
				t.Errorf("the foreign authorization server was contacted: metadata %q, %d authorizations, token requests %+v, %d registrations",
					foreign.metaGets, len(authz), tokens, len(regs))
			}

			old := newRS(t, foreign, func(rs *fakeRS) { rs.prmPath = "" })
			if err := call(t, newAuth(t, cfg), old.url(), "list"); !errors.Is(err, oauthclient.ErrIssuerMismatch) {
				t.Errorf("a 2025-03-26 server without metadata: err = %v, want ErrIssuerMismatch", err)
			}

			both := newRS(t, home, func(rs *fakeRS) { rs.before = []string{foreign.issuer()} })
			mustCall(t, newAuth(t, cfg), both.url(), "list")
			if _, tokens, _ := home.record(); len(tokens) != 1 {
				t.Errorf("the configured authorization server got %d token requests, want 1", len(tokens))
			}
			authz, tokens, regs = foreign.record()
			if len(foreign.metaGets)+len(authz)+len(tokens)+len(regs) != 0 {
				t.Errorf("the foreign authorization server named first was contacted: metadata %q, token requests %+v", foreign.metaGets, tokens)
			}
			for _, iss := range asked {
				if iss != home.issuer() {
					t.Errorf("a JWT bearer assertion was asked for %q", iss)
				}
			}
		})
	}
}

// TestNewChecksClientIssuer: ClientIssuer is where credentials go, so it
// must be an https URL (http on the loopback interface) without query or
// fragment.
func TestNewChecksClientIssuer(t *testing.T) {
	for _, iss := range []string{"auth.example.com", "http://auth.example.com", "https://auth.example.com?x=1", "https://auth.example.com#f", "https://user@auth.example.com"} {
		_, err := oauthclient.New(oauthclient.Config{Grant: oauthclient.GrantClientCredentials, ClientID: "svc", ClientSecret: "pw", ClientIssuer: iss})
		if err == nil || !strings.Contains(err.Error(), "ClientIssuer") {
			t.Errorf("ClientIssuer %q: err = %v, want a refusal naming ClientIssuer", iss, err)
		}
	}
	for _, iss := range []string{"https://auth.example.com", "https://auth.example.com/tenant1", "http://127.0.0.1:9000"} {
		if _, err := oauthclient.New(oauthclient.Config{Grant: oauthclient.GrantClientCredentials, ClientID: "svc", ClientSecret: "pw", ClientIssuer: iss}); err != nil {
			t.Errorf("ClientIssuer %q: %v", iss, err)
		}
	}
}

// TestTokenRequestsFollowNoRedirect: a token endpoint that answers 307
// (which keeps the method and the body) does not get the client secret
// of the body sent on to the server it names; nor does the identity
// provider of enterprise-managed authorization get the ID token sent on.
func TestTokenRequestsFollowNoRedirect(t *testing.T) {
	var mu sync.Mutex
	var leaked []string
	sink := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		leaked = append(leaked, r.URL.Path+" "+string(b))
		mu.Unlock()
		http.Error(w, "no", http.StatusBadRequest)
	}))
	defer sink.Close()
	redirector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, sink.URL+r.URL.Path, http.StatusTemporaryRedirect)
	}))
	defer redirector.Close()

	as := newAS(t, func(as *fakeAS) {
		as.methods = []string{"client_secret_post"}
		as.tokenURL = redirector.URL + "/token"
	})
	rs := newRS(t, as, nil)
	a := newAuth(t, oauthclient.Config{Grant: oauthclient.GrantClientCredentials, ClientID: "svc", ClientSecret: "pw", ClientIssuer: as.issuer()})
	if err := call(t, a, rs.url(), "list"); err == nil || !strings.Contains(err.Error(), "redirect") {
		t.Errorf("err = %v, want a refused redirect", err)
	}

	ia := &oauthclient.IdentityAssertion{TokenURL: redirector.URL + "/idp-token", ClientID: "idp-client", ClientSecret: "idp-pw",
		IDToken: func(context.Context) (string, error) { return "the-id-token", nil }}
	if _, err := ia.Assertion(context.Background(), as.issuer(), rs.url()); err == nil || !strings.Contains(err.Error(), "redirect") {
		t.Errorf("identity provider: err = %v, want a refused redirect", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(leaked) != 0 {
		t.Errorf("credentials were sent on to the redirect's target: %q", leaked)
	}
}

// TestRegistrationsWithoutMetadataStayApart: two 2025-03-26 servers
// without metadata have no issuer to tell them apart, yet the client
// registered (and given a secret) at the first must register anew at
// the second, not send it the first one's client ID and secret.
func TestRegistrationsWithoutMetadataStayApart(t *testing.T) {
	as1 := newAS(t, func(as *fakeAS) { as.noMetadata, as.issMode, as.regSecret = true, "omit", "secret-1" })
	as2 := newAS(t, func(as *fakeAS) { as.noMetadata, as.issMode, as.regSecret = true, "omit", "secret-2" })
	hs1, hs2 := legacyServer(t, as1), legacyServer(t, as2)
	a := newAuth(t, oauthclient.Config{})
	mustCall(t, a, hs1.URL+"/mcp", "list")
	mustCall(t, a, hs2.URL+"/mcp", "list")
	_, _, regs1 := as1.record()
	_, tokens2, regs2 := as2.record()
	if len(regs1) != 1 || len(regs2) != 1 {
		t.Errorf("registrations %d and %d, want 1 at each server", len(regs1), len(regs2))
	}
	for _, tr := range tokens2 {
		if tr.basicPW == "secret-1" || tr.form.Get("client_secret") == "secret-1" {
			t.Errorf("the first server's client secret was sent to the second: %+v", tr)
		}
	}
}

// TestTokenEndpointOnAnotherHost: the configured issuer's metadata may
// name a token endpoint on another origin (RFC 8414 allows it; what is
// checked is the issuer), and the secret goes there.
func TestTokenEndpointOnAnotherHost(t *testing.T) {
	as := newAS(t, func(as *fakeAS) { as.methods = []string{"client_secret_basic"} })
	elsewhere := httptest.NewServer(as)
	defer elsewhere.Close()
	as.tokenURL = elsewhere.URL + "/token"
	rs := newRS(t, as, nil)
	mustCall(t, newAuth(t, oauthclient.Config{Grant: oauthclient.GrantClientCredentials, ClientID: "svc", ClientSecret: "pw", ClientIssuer: as.issuer()}), rs.url(), "list")
	if _, tokens, _ := as.record(); len(tokens) != 1 || tokens[0].basicPW != "pw" {
		t.Errorf("token requests at %s: %+v, want one with the secret", as.tokenURL, tokens)
	}
}

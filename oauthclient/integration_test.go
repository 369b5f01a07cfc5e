package oauthclient_test

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/mcpgen/mcpgen"
	"github.com/mcpgen/mcpgen/internal/authtest"
	"github.com/mcpgen/mcpgen/oauth"
	"github.com/mcpgen/mcpgen/oauthclient"
)

// TestAgainstOurResourceServer runs the client credentials grant against
// a real OpenID provider (internal/authtest) and this module's resource
// server (package oauth), which validates the JWT access tokens: the
// first request is refused with the challenge of oauth, the client
// discovers both servers, gets a token with the scope the challenge
// names, and steps up when a call needs another.
func TestAgainstOurResourceServer(t *testing.T) {
	as := authtest.Start(t)
	hs := httptest.NewUnstartedServer(nil)
	endpoint := "http://" + hs.Listener.Addr().String() + "/mcp"
	rs, err := oauth.New(oauth.Config{Issuer: as.Issuer, Audience: endpoint, Scopes: []string{"notes:read"}, ScopesSupported: []string{"notes:read", "notes:write"}})
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	for _, p := range rs.MetadataPaths() {
		mux.Handle(p, rs.MetadataHandler())
	}
	var refused int
	mux.HandleFunc("/mcp", func(w http.ResponseWriter, r *http.Request) {
		p, err := rs.Authenticate(r)
		if err == nil && r.URL.Query().Get("op") == "call" && !p.HasScope("notes:write") {
			err = rs.InsufficientScope(p, "notes:write")
		}
		var ae *mcpgen.AuthError
		if errors.As(err, &ae) {
			refused++
			for k, v := range ae.Header {
				w.Header()[k] = v
			}
			w.WriteHeader(ae.Status)
			return
		}
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		fmt.Fprint(w, "ok")
	})
	hs.Config.Handler = mux
	hs.Start()
	defer hs.Close()

	as.AddClient("svc", authtest.Client{Secret: "pw", Audience: []string{endpoint}, Scopes: []string{"notes:read", "notes:write"}})
	a, err := oauthclient.New(oauthclient.Config{Grant: oauthclient.GrantClientCredentials, ClientID: "svc", ClientSecret: "pw", ClientIssuer: as.Issuer})
	if err != nil {
		t.Fatal(err)
	}
	mustCall(t, a, endpoint, "list")
	mustCall(t, a, endpoint, "call")
	mustCall(t, a, endpoint, "list")
	if refused != 2 {
		t.Errorf("%d refusals, want 2 (the first request and the first call)", refused)
	}

	// A client the provider does not know gets the provider's refusal.
	b, _ := oauthclient.New(oauthclient.Config{Grant: oauthclient.GrantClientCredentials, ClientID: "svc", ClientSecret: "wrong", ClientIssuer: as.Issuer})
	if err := call(t, b, endpoint, "list"); err == nil {
		t.Error("a wrong secret was accepted")
	}
}

package devissuer_test

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen"
	"github.com/mcpgen/mcpgen/oauth"
	"github.com/mcpgen/mcpgen/oauth/devissuer"
	"github.com/mcpgen/mcpgen/oauthclient"
)

// TestRefusesNonLoopback: the issuer is made only for a loopback URL, and
// serves only requests from and to loopback.
func TestRefusesNonLoopback(t *testing.T) {
	for _, u := range []string{"http://0.0.0.0:8080/dev-auth", "http://mcp.example.com/dev-auth", "https://127.0.0.1/dev-auth", "http://127.0.0.1:8080"} {
		if _, err := devissuer.New(devissuer.Config{URL: u, Audience: "http://127.0.0.1:8080/mcp"}); err == nil {
			t.Errorf("New(%s) accepted", u)
		}
	}
	is, err := devissuer.New(devissuer.Config{URL: "http://127.0.0.1:8080/dev-auth", Audience: "http://127.0.0.1:8080/mcp"})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ remote, host string }{{"10.0.0.7:5555", "127.0.0.1:8080"}, {"127.0.0.1:5555", "attacker.example:8080"}} {
		r := httptest.NewRequest(http.MethodPost, "/dev-auth/token", strings.NewReader("grant_type=client_credentials&scope=admin"))
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		r.RemoteAddr, r.Host = c.remote, c.host
		w := httptest.NewRecorder()
		is.Handler().ServeHTTP(w, r)
		if w.Code != http.StatusForbidden || strings.Contains(w.Body.String(), "access_token") {
			t.Errorf("from %s to %s: %d %s, want 403", c.remote, c.host, w.Code, w.Body)
		}
	}
	if _, err := devissuer.Token(context.Background(), "http://mcp.example.com/mcp", ""); err == nil {
		t.Error("Token asked a server that is not on loopback")
	}
}

// scoped serves a server with a tool that needs scope "notes:write",
// protected by a development issuer on the same listener.
func scoped(t *testing.T) (endpoint string, is *devissuer.Issuer) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	origin := "http://" + ln.Addr().String()
	endpoint = origin + "/mcp"
	is, err = devissuer.New(devissuer.Config{URL: origin + "/dev-auth", Audience: endpoint})
	if err != nil {
		t.Fatal(err)
	}
	srv := mcpgen.New(mcpgen.Definition{Name: "dev", Version: "1", Scopes: []string{"notes:write"}, Tools: []mcpgen.Tool{{
		Info:  mcpgen.ToolInfo{Name: "write", InputSchema: json.RawMessage(`{"type":"object"}`)},
		Scope: "notes:write",
		Call: func(_ context.Context, req *mcpgen.Request, _ json.RawMessage) (*mcpgen.CallToolResult, error) {
			return mcpgen.TextResult("written by "+req.Auth.Subject, nil)
		},
	}}}, mcpgen.Options{})
	t.Cleanup(srv.Close)
	rs, err := oauth.New(oauth.Config{Issuer: is.URL(), Audience: endpoint, ScopesSupported: srv.Scopes()})
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", mcpgen.HTTPHandler(srv, mcpgen.HTTPOptions{Auth: rs}))
	for _, p := range rs.MetadataPaths() {
		mux.Handle(p, rs.MetadataHandler())
	}
	is.Mount(mux)
	hs := &httptest.Server{Listener: ln, Config: &http.Server{Handler: mux}}
	hs.Start()
	t.Cleanup(hs.Close)
	return endpoint, is
}

// TestScopedCall: a token from the issuer with the scope calls the tool;
// one without it is refused with 403 insufficient_scope naming it; a
// resource indicator for another resource gets no token.
func TestScopedCall(t *testing.T) {
	ctx := context.Background()
	endpoint, _ := scoped(t)
	call := func(token string) error {
		c, err := mcpgen.Connect(ctx, mcpgen.HTTPTransport(endpoint), mcpgen.ClientOptions{Auth: mcpgen.StaticToken(token)})
		if err != nil {
			return err
		}
		defer c.Close()
		res, err := c.CallTool(ctx, "write", nil)
		if err == nil && res.Content[0].Text != "written by alice" {
			t.Errorf("the tool saw %q", res.Content[0].Text)
		}
		return err
	}
	tok, err := devissuer.Token(ctx, endpoint, "alice", "notes:write")
	if err != nil {
		t.Fatal(err)
	}
	if err := call(tok); err != nil {
		t.Errorf("with notes:write: %v", err)
	}
	tok, err = devissuer.Token(ctx, endpoint, "alice", "notes:read")
	if err != nil {
		t.Fatal(err)
	}
	var se *mcpgen.InsufficientScopeError
	if err := call(tok); !errors.As(err, &se) || se.Scope != "notes:write" {
		t.Errorf("with notes:read: %v, want insufficient scope notes:write", err)
	}

	resp, err := http.PostForm(strings.TrimSuffix(endpoint, "/mcp")+"/dev-auth/token", url.Values{"grant_type": {"client_credentials"}, "resource": {"http://127.0.0.1:1/other"}})
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var e struct{ Error string }
	_ = json.NewDecoder(resp.Body).Decode(&e)
	if resp.StatusCode != 400 || e.Error != "invalid_target" {
		t.Errorf("a token for another resource: %d %q, want 400 invalid_target", resp.StatusCode, e.Error)
	}
}

// TestClientCredentials: oauthclient's client credentials grant gets its
// tokens from the issuer on its own, stepping up to the scope a 403 names.
func TestClientCredentials(t *testing.T) {
	ctx := context.Background()
	endpoint, is := scoped(t)
	auth, err := oauthclient.New(oauthclient.Config{Grant: oauthclient.GrantClientCredentials, ClientID: "ci", ClientSecret: "anything", ClientIssuer: is.URL()})
	if err != nil {
		t.Fatal(err)
	}
	c, err := mcpgen.Connect(ctx, mcpgen.HTTPTransport(endpoint), mcpgen.ClientOptions{Auth: auth})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	res, err := c.CallTool(ctx, "write", nil)
	if err != nil || res.Content[0].Text != "written by dev-ci" {
		t.Errorf("write through oauthclient: %v %+v", err, res)
	}
}

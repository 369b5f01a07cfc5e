package oauth_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth/extauth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/mcpgen/mcpgen"
	"github.com/mcpgen/mcpgen/internal/authtest"
	"github.com/mcpgen/mcpgen/oauth"
)

// refusals records the reasons of mcp.auth.refused events.
type refusals struct {
	mu      sync.Mutex
	reasons []string
}

func (r *refusals) Event(name string, tags ...mcpgen.Tag) {
	if name != mcpgen.EventAuthRefused {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.reasons = append(r.reasons, tags[0].Value)
}

func (r *refusals) Timing(string, time.Duration, ...mcpgen.Tag) {}

func (r *refusals) last() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.reasons) == 0 {
		return ""
	}
	return r.reasons[len(r.reasons)-1]
}

// mcpServer is a protected MCP endpoint: "whoami" (no scope) reports the
// principal its handler sees, "admin_reset" requires scope "admin".
type mcpServer struct {
	url      string // the endpoint, also the resource (audience)
	refused  *refusals
	resource *oauth.ResourceServer
}

func startMCP(t *testing.T, issuer string, tweak func(*oauth.Config)) *mcpServer {
	t.Helper()
	obj := json.RawMessage(`{"type":"object"}`)
	whoami := func(_ context.Context, req *mcpgen.Request, _ json.RawMessage) (*mcpgen.CallToolResult, error) {
		return mcpgen.TextResult(fmt.Sprintf("subject=%s client=%s scopes=%s", req.Auth.Subject, req.Auth.ClientID, strings.Join(slices.Sorted(slices.Values(req.Auth.Scopes)), ",")), nil) // the token lists scopes in any order
	}
	def := mcpgen.Definition{
		Name: "protected", Version: "1",
		Tools: []mcpgen.Tool{
			{Info: mcpgen.ToolInfo{Name: "whoami", InputSchema: obj}, Call: whoami},
			{Info: mcpgen.ToolInfo{Name: "admin_reset", InputSchema: obj}, Scope: "admin", Call: whoami},
		},
		Scopes: []string{"admin"},
	}
	rec := &refusals{}
	srv := mcpgen.New(def, mcpgen.Options{Observer: rec})
	t.Cleanup(srv.Close)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	endpoint := "http://" + ln.Addr().String() + "/mcp"
	cfg := oauth.Config{Issuer: issuer, Audience: endpoint, Scopes: []string{"mcp"}, ScopesSupported: srv.Scopes(), KeyRefreshInterval: -1}
	if tweak != nil {
		tweak(&cfg)
	}
	rs, err := oauth.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", mcpgen.HTTPHandler(srv, mcpgen.HTTPOptions{Auth: rs}))
	for _, p := range rs.MetadataPaths() {
		mux.Handle(p, rs.MetadataHandler())
	}
	hs := httptest.NewUnstartedServer(mux)
	hs.Listener.Close()
	hs.Listener = ln
	hs.Start()
	t.Cleanup(hs.Close)
	return &mcpServer{url: endpoint, refused: rec, resource: rs}
}

// TestClientDiscoversAndStepsUp drives the whole flow with the official Go
// SDK's client-credentials handler: 401 -> protected resource metadata ->
// authorization server metadata -> token -> retry -> 403
// insufficient_scope on a scoped tool -> new token with more scope ->
// retry. The handler sees the token's subject, client and scopes.
func TestClientDiscoversAndStepsUp(t *testing.T) {
	as := authtest.Start(t)
	m := startMCP(t, as.Issuer, nil)
	as.AddClient("agent", authtest.Client{Secret: "s3cret", Audience: []string{m.url}, Scopes: []string{"mcp", "admin"}})
	// Count what the client sends, to see the flow happen.
	var mu sync.Mutex
	var seen []string
	rt := roundTripper(func(r *http.Request) (*http.Response, error) {
		resp, err := http.DefaultTransport.RoundTrip(r)
		if err == nil {
			mu.Lock()
			seen = append(seen, fmt.Sprintf("%s %s %d", r.Method, r.URL.Path, resp.StatusCode))
			mu.Unlock()
		}
		return resp, err
	})
	hc := &http.Client{Transport: rt}
	h, err := extauth.NewClientCredentialsHandler(&extauth.ClientCredentialsHandlerConfig{
		Credentials: &oauthex.ClientCredentials{ClientID: "agent", ClientSecretAuth: &oauthex.ClientSecretAuth{ClientSecret: "s3cret"}},
		HTTPClient:  hc,
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "oauth-test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: m.url, OAuthHandler: h, HTTPClient: hc}, nil)
	if err != nil {
		t.Fatalf("connect through OAuth: %v", err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "whoami"})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Content[0].(*mcp.TextContent).Text; got != "subject=svc-agent client=agent scopes=mcp" {
		t.Errorf("whoami with the first token: %q", got)
	}
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "admin_reset"})
	if err != nil {
		t.Fatalf("admin_reset after step-up: %v", err)
	}
	if got := res.Content[0].(*mcp.TextContent).Text; got != "subject=svc-agent client=agent scopes=admin,mcp" {
		t.Errorf("admin_reset after step-up: %q", got)
	}
	mu.Lock()
	defer mu.Unlock()
	flow := strings.Join(seen, "\n")
	for _, want := range []string{
		"POST /mcp 401",
		"GET /.well-known/oauth-protected-resource/mcp 200",
		"GET /.well-known/openid-configuration 200",
		"POST /oauth/token 200",
		"POST /mcp 403",
	} {
		if !strings.Contains(flow, want) {
			t.Errorf("the client's requests lack %q:\n%s", want, flow)
		}
	}
	if m.refused.last() != "insufficient_scope" {
		t.Errorf("refusal reasons: %v", m.refused.reasons)
	}
}

type roundTripper func(*http.Request) (*http.Response, error)

func (f roundTripper) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// post sends tools/call whoami with a bearer token (none when empty).
func post(t *testing.T, m *mcpServer, bearer string) (*http.Response, string) {
	t.Helper()
	resp, err := http.DefaultClient.Do(whoamiRequest(m, bearer))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	return resp, string(b)
}

// whoamiRequest is the request post sends.
func whoamiRequest(m *mcpServer, bearer string) *http.Request {
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"whoami","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`
	req, _ := http.NewRequest(http.MethodPost, m.url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", "tools/call")
	req.Header.Set("Mcp-Name", "whoami")
	if bearer != "" {
		req.Header.Set("Authorization", "Bearer "+bearer)
	}
	return req
}

// wantRefused checks a 401 invalid_token refusal for reason.
func wantRefused(t *testing.T, m *mcpServer, bearer, reason string) {
	t.Helper()
	resp, body := post(t, m, bearer)
	if resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("%s: status %d, want 401; body %s", reason, resp.StatusCode, body)
	}
	ch := resp.Header.Get("WWW-Authenticate")
	if !strings.Contains(ch, `error="invalid_token"`) || !strings.Contains(ch, `resource_metadata="`+m.resource.MetadataURL()+`"`) {
		t.Errorf("%s: challenge %q", reason, ch)
	}
	if got := m.refused.last(); got != reason {
		t.Errorf("refused for %q, want %q", got, reason)
	}
	if strings.Contains(body, bearer) {
		t.Errorf("%s: the body repeats the token", reason)
	}
}

// TestRefusals presents each kind of bad token to the endpoint.
func TestRefusals(t *testing.T) {
	as := authtest.Start(t)
	m := startMCP(t, as.Issuer, nil)
	as.AddClient("good", authtest.Client{Secret: "g", Audience: []string{m.url}, Scopes: []string{"mcp"}})
	as.AddClient("expired", authtest.Client{Secret: "e", Audience: []string{m.url}, Scopes: []string{"mcp"}, Lifetime: -10 * time.Minute})
	as.AddClient("other", authtest.Client{Secret: "o", Audience: []string{"https://other.example/mcp"}, Scopes: []string{"mcp"}})
	as.AddClient("noscope", authtest.Client{Secret: "n", Audience: []string{m.url}})
	good := as.Token(t, "good", "g", "mcp")
	if resp, body := post(t, m, good); resp.StatusCode != 200 || !strings.Contains(body, "subject=svc-good") {
		t.Fatalf("a good token: %d %s", resp.StatusCode, body)
	}

	t.Run("missing", func(t *testing.T) {
		resp, _ := post(t, m, "")
		want := `Bearer resource_metadata="` + m.resource.MetadataURL() + `", scope="mcp"`
		if resp.StatusCode != 401 || resp.Header.Get("WWW-Authenticate") != want {
			t.Errorf("no token: %d %q, want 401 %q", resp.StatusCode, resp.Header.Get("WWW-Authenticate"), want)
		}
	})
	t.Run("expired", func(t *testing.T) { wantRefused(t, m, as.Token(t, "expired", "e", "mcp"), "expired") })
	t.Run("wrong audience", func(t *testing.T) { wantRefused(t, m, as.Token(t, "other", "o", "mcp"), "audience") })
	t.Run("wrong issuer", func(t *testing.T) {
		// A second provider with another issuer name on the same keys:
		// the signature is good, the issuer is not.
		other := as.AnotherIssuer(t)
		wantRefused(t, m, other.Token(t, "good", "g", "mcp"), "issuer")
	})
	t.Run("alg none", func(t *testing.T) {
		parts := strings.Split(good, ".")
		hdr := base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"none","typ":"JWT"}`))
		wantRefused(t, m, hdr+"."+parts[1]+".", "algorithm")
	})
	t.Run("tampered", func(t *testing.T) {
		parts := strings.Split(good, ".")
		payload, err := base64.RawURLEncoding.DecodeString(parts[1])
		if err != nil {
			t.Fatal(err)
		}
		forged := strings.Replace(string(payload), `"scope":"mcp"`, `"scope":"mcp admin"`, 1)
		if forged == string(payload) {
			t.Fatalf("no scope claim to tamper with in %s", payload)
		}
		wantRefused(t, m, parts[0]+"."+base64.RawURLEncoding.EncodeToString([]byte(forged))+"."+parts[2], "signature")
	})
	t.Run("garbage", func(t *testing.T) { wantRefused(t, m, "not-a-token", "malformed") })
	t.Run("no subject", func(t *testing.T) {
		// Signed, for this audience, with the scope, but naming nobody:
		// it must not pass as an anonymous caller that skips scope checks.
		as.AddClient("nosub", authtest.Client{Secret: "s", Audience: []string{m.url}, Scopes: []string{"mcp", "admin"}, NoSubject: true})
		tok := as.Token(t, "nosub", "s", "mcp admin")
		if claims := string(mustDecodeJWTPayload(t, tok)); strings.Contains(claims, `"sub":"svc`) {
			t.Fatalf("the test token names a subject: %s", claims)
		}
		wantRefused(t, m, tok, "no_subject")
	})
	t.Run("required scope missing", func(t *testing.T) {
		resp, _ := post(t, m, as.Token(t, "noscope", "n", "mcp"))
		ch := resp.Header.Get("WWW-Authenticate")
		if resp.StatusCode != 403 || !strings.Contains(ch, `error="insufficient_scope"`) || !strings.Contains(ch, `scope="mcp"`) {
			t.Errorf("a token without the required scope: %d %q", resp.StatusCode, ch)
		}
	})
	t.Run("key rotation", func(t *testing.T) {
		as.Rotate(t, true) // the old key is withdrawn
		rotated := as.Token(t, "good", "g", "mcp")
		if resp, body := post(t, m, rotated); resp.StatusCode != 200 {
			t.Fatalf("a token signed with the new key: %d %s", resp.StatusCode, body)
		}
		wantRefused(t, m, good, "unknown_key")
	})
}

// TestMetadata checks the RFC 9728 documents at both well-known paths.
func TestMetadata(t *testing.T) {
	m := startMCP(t, "http://127.0.0.1:1", nil)
	base := strings.TrimSuffix(m.url, "/mcp")
	for _, path := range []string{"/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"} {
		resp, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Resource             string   `json:"resource"`
			AuthorizationServers []string `json:"authorization_servers"`
			ScopesSupported      []string `json:"scopes_supported"`
		}
		err = json.NewDecoder(resp.Body).Decode(&doc)
		resp.Body.Close()
		if err != nil || resp.StatusCode != 200 {
			t.Fatalf("%s: %d %v", path, resp.StatusCode, err)
		}
		if doc.Resource != m.url || !slices.Equal(doc.AuthorizationServers, []string{"http://127.0.0.1:1"}) || !slices.Equal(doc.ScopesSupported, []string{"admin", "mcp"}) {
			t.Errorf("%s: %+v", path, doc)
		}
	}
	if want := base + "/.well-known/oauth-protected-resource/mcp"; m.resource.MetadataURL() != want {
		t.Errorf("metadata URL %q, want %q", m.resource.MetadataURL(), want)
	}
}

// TestAuthorizationServerDown answers 503, not 401: the token may be good.
func TestAuthorizationServerDown(t *testing.T) {
	m := startMCP(t, "http://127.0.0.1:1", nil)
	enc := base64.RawURLEncoding.EncodeToString
	resp, _ := post(t, m, enc([]byte(`{"alg":"RS256","kid":"k"}`))+"."+enc([]byte(`{"sub":"x"}`))+"."+enc([]byte("sig")))
	if resp.StatusCode == 200 || resp.StatusCode == 401 {
		t.Errorf("with the authorization server unreachable: %d", resp.StatusCode)
	}
}

// TestIntrospection validates an opaque token with RFC 7662 introspection.
func TestIntrospection(t *testing.T) {
	as := authtest.Start(t)
	m := startMCP(t, as.Issuer, func(c *oauth.Config) {
		c.Introspection = &oauth.Introspection{ClientID: authtest.IntrospectorID, ClientSecret: authtest.IntrospectorSecret}
	})
	as.AddClient("opaque", authtest.Client{Secret: "x", Audience: []string{m.url}, Scopes: []string{"mcp"}, Opaque: true})
	as.AddClient("opaqueold", authtest.Client{Secret: "y", Audience: []string{m.url}, Scopes: []string{"mcp"}, Opaque: true, Lifetime: -time.Hour})
	as.AddClient("opaqueelse", authtest.Client{Secret: "z", Audience: []string{"https://other.example/mcp"}, Scopes: []string{"mcp"}, Opaque: true})
	tok := as.Token(t, "opaque", "x", "mcp")
	if strings.Count(tok, ".") == 2 {
		t.Fatalf("expected an opaque token, got a JWT")
	}
	if resp, body := post(t, m, tok); resp.StatusCode != 200 || !strings.Contains(body, "subject=svc-opaque client=opaque scopes=mcp") {
		t.Fatalf("an opaque token: %d %s", resp.StatusCode, body)
	}
	wantRefused(t, m, as.Token(t, "opaqueold", "y", "mcp"), "inactive")
	wantRefused(t, m, as.Token(t, "opaqueelse", "z", "mcp"), "audience")

	// Without sub, the client acting for itself is known by its client_id,
	// as a client: it is not the subject of that name. With neither, or
	// without an audience, the token is refused.
	as.AddClient("opaquesvc", authtest.Client{Secret: "s", Audience: []string{m.url}, Scopes: []string{"mcp"}, Opaque: true, NoSubject: true})
	if resp, body := post(t, m, as.Token(t, "opaquesvc", "s", "mcp")); resp.StatusCode != 200 || !strings.Contains(body, "subject= client=opaquesvc") {
		t.Fatalf("an opaque token without sub: %d %s", resp.StatusCode, body)
	}
	as.AddClient("opaquenobody", authtest.Client{Secret: "n", Audience: []string{m.url}, Scopes: []string{"mcp"}, Opaque: true, NoSubject: true, NoClientID: true})
	wantRefused(t, m, as.Token(t, "opaquenobody", "n", "mcp"), "no_subject")
	as.AddClient("opaquenoaud", authtest.Client{Secret: "a", Audience: []string{m.url}, Scopes: []string{"mcp"}, Opaque: true, NoAudience: true})
	wantRefused(t, m, as.Token(t, "opaquenoaud", "a", "mcp"), "audience")
}

// mustDecodeJWTPayload returns the claims of a JWT, unverified.
func mustDecodeJWTPayload(t *testing.T, tok string) []byte {
	t.Helper()
	parts := strings.Split(tok, ".")
	if len(parts) != 3 {
		t.Fatalf("not a JWT: %q", tok)
	}
	b, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestKeyRefreshLimit: within KeyRefreshInterval of the last fetch, a
// token naming an unknown key is refused without fetching the keys again,
// so made-up key ids cannot make the server hammer the issuer.
func TestKeyRefreshLimit(t *testing.T) {
	as := authtest.Start(t)
	m := startMCP(t, as.Issuer, func(c *oauth.Config) { c.KeyRefreshInterval = time.Hour })
	as.AddClient("good", authtest.Client{Secret: "g", Audience: []string{m.url}, Scopes: []string{"mcp"}})
	if resp, body := post(t, m, as.Token(t, "good", "g", "mcp")); resp.StatusCode != 200 {
		t.Fatalf("a good token: %d %s", resp.StatusCode, body)
	}
	as.Rotate(t, false)
	wantRefused(t, m, as.Token(t, "good", "g", "mcp"), "unknown_key")
}

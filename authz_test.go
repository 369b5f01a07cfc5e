package mcpgen_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen"
	memorycomp "github.com/mcpgen/mcpgen/components/memory"
	"github.com/mcpgen/mcpgen/components/memory/memstore"
	notescomp "github.com/mcpgen/mcpgen/components/notes"
	"github.com/mcpgen/mcpgen/generated/bench"
	"github.com/mcpgen/mcpgen/generated/everything"
	"github.com/mcpgen/mcpgen/generated/memory"
	"github.com/mcpgen/mcpgen/generated/notes"
	"github.com/mcpgen/mcpgen/internal/authtest"
	"github.com/mcpgen/mcpgen/oauth"
)

// surfaceTool is what a server's surface.json publishes of a tool's
// authorization: its scope, and whether it only reads; and who may call
// it (MCP Apps visibility: ["app"] is a tool only the server's views call).
type surfaceTool struct {
	Name        string `json:"name"`
	Scope       string `json:"scope"`
	Annotations struct {
		ReadOnly bool `json:"readOnlyHint"`
	} `json:"annotations"`
	Visibility []string `json:"visibility"`
}

// exampleServer is one of the repository's generated servers, built as
// its main builds it, for an HTTP endpoint authenticated by auth.
type exampleServer struct {
	name  string
	build func(t *testing.T, opts mcpgen.Options) (*mcpgen.Server, mcpgen.HTTPOptions)
}

var exampleServers = []exampleServer{
	{"everything", func(t *testing.T, opts mcpgen.Options) (*mcpgen.Server, mcpgen.HTTPOptions) {
		return everything.New(opts), mcpgen.HTTPOptions{}
	}},
	{"notes", func(t *testing.T, opts mcpgen.Options) (*mcpgen.Server, mcpgen.HTTPOptions) {
		return notes.New(notescomp.NewStore(), opts), mcpgen.HTTPOptions{}
	}},
	{"bench", func(t *testing.T, opts mcpgen.Options) (*mcpgen.Server, mcpgen.HTTPOptions) {
		return bench.New(opts), mcpgen.HTTPOptions{}
	}},
	{"memory", func(t *testing.T, opts mcpgen.Options) (*mcpgen.Server, mcpgen.HTTPOptions) {
		graphs, err := memstore.OpenGraphs(context.Background(), filepath.Join(t.TempDir(), "m.db"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { graphs.Close() })
		store := &memorycomp.Routed{Graphs: graphs, Graph: memstore.DefaultGraph, Anonymous: "anonymous"}
		opts.Grants = store.Grants // as cmd/mcp-memory wires it
		return memory.New(store, opts), mcpgen.HTTPOptions{Partition: store.Partition}
	}},
}

// TestDeclaredScopesEnforced calls every tool of every example server
// that declares a scope (as its surface.json publishes it) over HTTP
// with OAuth, with tokens from a real authorization server: a token
// without scopes is refused with 403 naming the declared scope in
// WWW-Authenticate; a token holding the read-only tools' scopes calls
// those and is refused the others; a token holding every scope is
// refused nothing. A server's own rules (mcp-memory's graphs) may narrow
// or rename what a scope needs, never waive it.
func TestDeclaredScopesEnforced(t *testing.T) {
	as := authtest.Start(t)
	for _, ex := range exampleServers {
		t.Run(ex.name, func(t *testing.T) {
			raw, err := os.ReadFile(filepath.Join("generated", ex.name, "surface.json"))
			if err != nil {
				t.Fatal(err)
			}
			var surface struct{ Tools []surfaceTool }
			if err := json.Unmarshal(raw, &surface); err != nil {
				t.Fatal(err)
			}
			var readScopes, allScopes []string
			for _, tool := range surface.Tools {
				if tool.Scope == "" {
					continue
				}
				allScopes = append(allScopes, tool.Scope)
				if tool.Annotations.ReadOnly {
					readScopes = append(readScopes, tool.Scope)
				}
			}
			endpoint := serveWithOAuth(t, as, ex)
			tokens := map[string][]string{"none": nil, "read": readScopes, "all": allScopes}
			for who, scopes := range tokens {
				id := ex.name + "-" + who
				as.AddClient(id, authtest.Client{Secret: "s", Audience: []string{endpoint}, Scopes: scopes})
			}
			token := func(who string) string { return as.Token(t, ex.name+"-"+who, "s", tokens[who]...) }
			none, read, all := token("none"), token("read"), token("all")

			listed := 0
			for _, tool := range surface.Tools {
				call := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":%q,"arguments":{}}}`, tool.Name)
				if tool.Scope == "" {
					continue // anyone may call it; tools/list below shows it is served
				}
				listed++
				wantRefused(t, endpoint, none, call, tool.Scope, "no scope, "+tool.Name)
				if tool.Annotations.ReadOnly || slices.Contains(readScopes, tool.Scope) {
					wantAdmitted(t, endpoint, read, call, "read scopes, "+tool.Name)
				} else {
					wantRefused(t, endpoint, read, call, tool.Scope, "read scopes, "+tool.Name)
				}
				wantAdmitted(t, endpoint, all, call, "every scope, "+tool.Name)
			}
			if ex.name == "memory" && listed != 12 {
				t.Fatalf("memory's surface.json lists %d tools with a scope, want 12: the test would prove little", listed)
			}
			body := postRaw(t, endpoint, none, `{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{}}`)
			for _, tool := range surface.Tools {
				if slices.Equal(tool.Visibility, []string{"app"}) {
					continue // listed only to clients that show views (apps.go)
				}
				if !strings.Contains(body.text, `"name":"`+tool.Name+`"`) {
					t.Errorf("tools/list for a token without scopes lacks %s", tool.Name)
				}
			}
		})
	}
}

// TestMemoryResourcesAndPromptsNeedScopes: mcp-memory's resources and
// prompts declare memory:read; reading or getting them without it is
// refused like its tools, and with it admitted.
func TestMemoryResourcesAndPromptsNeedScopes(t *testing.T) {
	as := authtest.Start(t)
	endpoint := serveWithOAuth(t, as, exampleServers[len(exampleServers)-1])
	as.AddClient("nobody", authtest.Client{Secret: "s", Audience: []string{endpoint}})
	as.AddClient("reader", authtest.Client{Secret: "s", Audience: []string{endpoint}, Scopes: []string{memorycomp.ScopeRead}})
	none, read := as.Token(t, "nobody", "s"), as.Token(t, "reader", "s", memorycomp.ScopeRead)
	for _, uri := range []string{"memory://knowledge-graph", "memory://graph/entities", "memory://tasks/active",
		"memory://entities/X", "memory://entities/X/history", "memory://session/delta", "memory://changes/0"} {
		req := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":%q}}`, uri)
		wantRefused(t, endpoint, none, req, memorycomp.ScopeRead, uri)
		wantAdmitted(t, endpoint, read, req, uri)
	}
	for _, prompt := range []string{"analyze_tech_debt", "handoff_routine"} {
		req := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"prompts/get","params":{"name":%q,"arguments":{}}}`, prompt)
		wantRefused(t, endpoint, none, req, memorycomp.ScopeRead, prompt)
		wantAdmitted(t, endpoint, read, req, prompt)
	}
}

// serveWithOAuth serves ex at /mcp of a test server (and at
// memorycomp.SharedPath), authenticated by a resource server trusting as;
// it returns the endpoint URL, the tokens' audience.
func serveWithOAuth(t *testing.T, as *authtest.Server, ex exampleServer) string {
	t.Helper()
	mux := http.NewServeMux()
	hs := httptest.NewServer(mux)
	t.Cleanup(hs.Close)
	endpoint := hs.URL + "/mcp"
	rs, err := oauth.New(oauth.Config{Issuer: as.Issuer, Audience: endpoint})
	if err != nil {
		t.Fatal(err)
	}
	srv, hopts := ex.build(t, mcpgen.Options{})
	t.Cleanup(func() { srv.Close() })
	hopts.Auth = rs
	h := mcpgen.HTTPHandler(srv, hopts)
	mux.Handle("/mcp", h)
	mux.Handle(memorycomp.SharedPath, h)
	return endpoint
}

// rawAnswer is an HTTP answer to one stateless request.
type rawAnswer struct {
	status    int
	challenge string // WWW-Authenticate
	text      string
}

// postRaw sends one 2026-07-28 request (it adds the protocol _meta) with
// a bearer token.
func postRaw(t *testing.T, url, token, body string) rawAnswer {
	t.Helper()
	var msg map[string]any
	if err := json.Unmarshal([]byte(body), &msg); err != nil {
		t.Fatal(err)
	}
	params := msg["params"].(map[string]any)
	params["_meta"] = map[string]any{"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": map[string]any{}}
	b, _ := json.Marshal(msg)
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(string(b)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", msg["method"].(string))
	if name, ok := params["name"].(string); ok {
		req.Header.Set("Mcp-Name", name)
	} else if uri, ok := params["uri"].(string); ok {
		req.Header.Set("Mcp-Name", uri)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	text, _ := io.ReadAll(resp.Body)
	return rawAnswer{resp.StatusCode, resp.Header.Get("WWW-Authenticate"), string(text)}
}

var challengeScope = regexp.MustCompile(`scope="([^"]*)"`)

// wantRefused checks that body sent with token is refused with 403
// insufficient_scope asking for scope.
func wantRefused(t *testing.T, url, token, body, scope, what string) {
	t.Helper()
	a := postRaw(t, url, token, body)
	m := challengeScope.FindStringSubmatch(a.challenge)
	if a.status != http.StatusForbidden || !strings.Contains(a.challenge, `error="insufficient_scope"`) || m == nil || !slices.Contains(strings.Fields(m[1]), scope) {
		t.Errorf("%s: %d %q %s, want 403 insufficient_scope naming %s", what, a.status, a.challenge, a.text, scope)
	}
}

// wantAdmitted checks that body sent with token passes authorization:
// whatever the call answers (its arguments may be wrong), it is not a
// refusal.
func wantAdmitted(t *testing.T, url, token, body, what string) {
	t.Helper()
	if a := postRaw(t, url, token, body); a.status == http.StatusForbidden || a.status == http.StatusUnauthorized || strings.Contains(a.text, "insufficient scope") {
		t.Errorf("%s: %d %q %s, want it admitted", what, a.status, a.challenge, a.text)
	}
}

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/authtest"
)

// answer is the HTTP answer to one stateless call.
type answer struct {
	status    int
	challenge string // WWW-Authenticate
	body      string
}

// refused reports a 403 insufficient_scope whose challenge names scope.
func (a answer) refused(scope string) bool {
	return a.status == http.StatusForbidden && strings.Contains(a.challenge, `error="insufficient_scope"`) &&
		strings.Contains(a.challenge, scope)
}

// call sends one 2026-07-28 tools/call of tool with args (a JSON object)
// to path with token.
func (g *graphServer) call(t *testing.T, path, token, tool, args string) answer {
	t.Helper()
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":%q,"arguments":%s,`+
		`"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`, tool, args)
	req, _ := http.NewRequest(http.MethodPost, g.base+path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", "tools/call")
	req.Header.Set("Mcp-Name", tool)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return answer{resp.StatusCode, resp.Header.Get("WWW-Authenticate"), string(b)}
}

// admitted fails the test unless a is a result (not an authorization
// refusal, not a tool error) whose text contains want.
func admitted(t *testing.T, what string, a answer, want string) {
	t.Helper()
	if a.status != http.StatusOK || strings.Contains(a.body, `"isError":true`) || !strings.Contains(a.body, want) {
		t.Errorf("%s: %d %q %.300s, want a result with %s", what, a.status, a.challenge, a.body, want)
	}
}

const (
	readGraph = `{}`
	deleteX   = `{"entityNames":["X"]}`
)

// createArgs creates an entity named name.
func createArgs(name string) string {
	return fmt.Sprintf(`{"entities":[{"name":%q,"entityType":"t","observations":["o"]}]}`, name)
}

// TestScopesOnTheProcessGraph: with --auth-issuer, the process's graph at
// /mcp needs the declared scopes: a token without any is refused reads
// and writes (403 naming memory:read or memory:write), a reader reads
// and may not write, a writer does both.
func TestScopesOnTheProcessGraph(t *testing.T) {
	g := startAuthServer(t, filepath.Join(t.TempDir(), "m.db"), map[string]authtest.Client{
		"nobody": {}, "reader": {Scopes: []string{"memory:read"}}, "writer": {Scopes: []string{"memory:write"}},
	})
	nobody, reader, writer := g.token(t, "nobody"), g.token(t, "reader", "memory:read"), g.token(t, "writer", "memory:write")
	admitted(t, "writer creates", g.call(t, "/mcp", writer, "create_entities", createArgs("X")), `"X"`)
	if a := g.call(t, "/mcp", nobody, "read_graph", readGraph); !a.refused("memory:read") {
		t.Errorf("read_graph without scopes: %d %q %.200s, want 403 naming memory:read", a.status, a.challenge, a.body)
	}
	if a := g.call(t, "/mcp", nobody, "delete_entities", deleteX); !a.refused("memory:write") {
		t.Errorf("delete_entities without scopes: %d %q %.200s, want 403 naming memory:write", a.status, a.challenge, a.body)
	}
	if a := g.call(t, "/mcp", reader, "delete_entities", deleteX); !a.refused("memory:write") {
		t.Errorf("delete_entities by a reader: %d %q %.200s, want 403 naming memory:write", a.status, a.challenge, a.body)
	}
	admitted(t, "reader reads", g.call(t, "/mcp", reader, "read_graph", readGraph), `"X"`)
	admitted(t, "writer reads (write implies read)", g.call(t, "/mcp", writer, "read_graph", readGraph), `"X"`)
}

// TestOneGraphOneRule: with --graph team, the graph team has the same
// rule at /mcp and at /graphs/team/mcp: its own scopes or the declared
// ones, nothing else; another shared graph takes its own scopes only.
func TestOneGraphOneRule(t *testing.T) {
	g := startAuthServer(t, filepath.Join(t.TempDir(), "m.db"), map[string]authtest.Client{
		"nobody":     {},
		"teamreader": {Scopes: []string{"memory:team:read"}},
		"teamwriter": {Scopes: []string{"memory:team:write"}},
		"reader":     {Scopes: []string{"memory:read"}},
	}, "--graph", "team")
	nobody := g.token(t, "nobody")
	teamReader, teamWriter := g.token(t, "teamreader", "memory:team:read"), g.token(t, "teamwriter", "memory:team:write")
	reader := g.token(t, "reader", "memory:read")
	for _, path := range []string{"/mcp", "/graphs/team/mcp"} {
		if a := g.call(t, path, nobody, "read_graph", readGraph); a.status != http.StatusForbidden {
			t.Errorf("%s without scopes: %d %.200s, want 403", path, a.status, a.body)
		}
		if a := g.call(t, path, teamReader, "create_entities", createArgs("Y")); !a.refused("memory:") {
			t.Errorf("%s: team reader writing: %d %q, want 403", path, a.status, a.challenge)
		}
		if a := g.call(t, path, reader, "create_entities", createArgs("Y")); !a.refused("memory:write") {
			t.Errorf("%s: memory:read writing: %d %q, want 403 naming memory:write", path, a.status, a.challenge)
		}
	}
	admitted(t, "team writer at /mcp", g.call(t, "/mcp", teamWriter, "create_entities", createArgs("ViaMain")), `"ViaMain"`)
	admitted(t, "team writer at /graphs/team/mcp", g.call(t, "/graphs/team/mcp", teamWriter, "create_entities", createArgs("ViaShared")), `"ViaShared"`)
	for _, path := range []string{"/mcp", "/graphs/team/mcp"} {
		for who, tok := range map[string]string{"team reader": teamReader, "memory:read": reader} {
			a := g.call(t, path, tok, "read_graph", readGraph)
			admitted(t, who+" at "+path, a, `"ViaMain"`)
			if !strings.Contains(a.body, `"ViaShared"`) {
				t.Errorf("%s at %s reads another graph: %.300s", who, path, a.body)
			}
		}
	}
	// Another shared graph is not the process's: memory:read does not
	// reach it, its own scope does.
	if a := g.call(t, "/graphs/other/mcp", reader, "read_graph", readGraph); !a.refused("memory:other:read") {
		t.Errorf("memory:read at /graphs/other/mcp: %d %q, want 403 naming memory:other:read", a.status, a.challenge)
	}
}

// TestIdentityNamespaces: a token naming only the client svc-alice
// (introspected, no sub) is not the user svc-alice: it gets no private
// graph (hers or its own), and cannot use her legacy session; a token
// whose subject is "local" or "anonymous" is recorded in history as a
// subject vouched for by the issuer, never as the built-in authors.
func TestIdentityNamespaces(t *testing.T) {
	db := filepath.Join(t.TempDir(), "m.db")
	rw := []string{"memory:read", "memory:write"}
	g := startAuthServer(t, db, map[string]authtest.Client{
		"alice":     {Scopes: rw},                                            // JWT, sub svc-alice
		"svc-alice": {Scopes: rw, Opaque: true, NoSubject: true},             // introspected, client_id svc-alice, no sub
		"local":     {Scopes: rw, Subject: memstoreLocal},                    // sub "local"
		"anon":      {Scopes: rw, Subject: "anonymous"},                      // sub "anonymous"
		"team":      {Scopes: []string{"memory:team:write"}, Subject: "bob"}, // a shared-graph writer
	}, "--graph-per-subject")
	alice := g.token(t, "alice", rw...)
	client := g.token(t, "svc-alice", rw...)
	if strings.Count(client, ".") == 2 {
		t.Fatal("the client's token is a JWT; the test needs an introspected one")
	}
	admitted(t, "alice writes her graph", g.call(t, "/mcp", alice, "create_entities", createArgs("Diary")), `"Diary"`)
	if a := g.call(t, "/mcp", client, "read_graph", readGraph); a.status != http.StatusForbidden || strings.Contains(a.body, "Diary") {
		t.Errorf("the client svc-alice at /mcp: %d %.300s, want 403 and nothing of alice's graph", a.status, a.body)
	}

	// Her legacy session, opened at a shared graph, is not the client's.
	post := func(token, session, body string) *http.Response {
		req, _ := http.NewRequest(http.MethodPost, g.base+"/graphs/team/mcp", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Authorization", "Bearer "+token)
		if session != "" {
			req.Header.Set("Mcp-Session-Id", session)
			req.Header.Set("MCP-Protocol-Version", "2025-11-25")
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp
	}
	g.as.AddClient("alice-team", authtest.Client{Secret: "s3cret", Audience: []string{g.endpoint}, Scopes: []string{"memory:team:read"}, Subject: "svc-alice"})
	g.as.AddClient("svc-alice-team", authtest.Client{Secret: "s3cret", Audience: []string{g.endpoint}, Scopes: []string{"memory:team:read"}, Opaque: true, NoSubject: true})
	aliceTeam, clientTeam := g.token(t, "alice-team", "memory:team:read"), g.token(t, "svc-alice-team", "memory:team:read")
	resp := post(aliceTeam, "", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	session := resp.Header.Get("Mcp-Session-Id")
	if resp.StatusCode != http.StatusOK || session == "" {
		t.Fatalf("alice's initialize: %d", resp.StatusCode)
	}
	const list = `{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{}}`
	if resp := post(aliceTeam, session, list); resp.StatusCode != http.StatusOK {
		t.Errorf("alice in her session: %d", resp.StatusCode)
	}
	if resp := post(clientTeam, session, list); resp.StatusCode != http.StatusNotFound {
		t.Errorf("the client svc-alice in alice's session: %d, want 404", resp.StatusCode)
	}

	// Authors from tokens are never the built-in ones.
	bob := g.token(t, "team", "memory:team:write")
	admitted(t, "bob writes team", g.call(t, "/graphs/team/mcp", bob, "create_entities", createArgs("Plan")), `"Plan"`)
	g.as.AddClient("local-team", authtest.Client{Secret: "s3cret", Audience: []string{g.endpoint}, Scopes: []string{"memory:team:write"}, Subject: memstoreLocal})
	g.as.AddClient("anon-team", authtest.Client{Secret: "s3cret", Audience: []string{g.endpoint}, Scopes: []string{"memory:team:write"}, Subject: "anonymous"})
	for _, id := range []string{"local-team", "anon-team"} {
		tok := g.token(t, id, "memory:team:write")
		admitted(t, id+" writes team", g.call(t, "/graphs/team/mcp", tok, "add_observations", `{"observations":[{"entityName":"Plan","contents":["by `+id+`"]}]}`), `"Plan"`)
	}
	out, err := exec.Command(sharedBinary(t), "--db", db, "export", "--graph", "team", "--with-history").Output()
	if err != nil {
		t.Fatal(err)
	}
	authors := map[string]bool{}
	for _, line := range bytes.Split(bytes.TrimSpace(out), []byte("\n")) {
		var h struct {
			Type   string `json:"type"`
			Author string `json:"author"`
		}
		if json.Unmarshal(line, &h) == nil && h.Type == "history" {
			authors[h.Author] = true
		}
	}
	for _, want := range []string{g.author("bob"), g.author(memstoreLocal), g.author("anonymous")} {
		if !authors[want] {
			t.Errorf("history authors %v lack %q", authors, want)
		}
	}
	if authors[memstoreLocal] || authors["anonymous"] {
		t.Errorf("a token was recorded as a built-in author: %v", authors)
	}
}

// memstoreLocal is memstore.LocalAuthor, the author of stdio and import.
const memstoreLocal = "local"

// TestReadsCreateNoGraph: with --graph-per-subject, subjects that only
// read create no graph, so they cannot fill --max-graphs; the cap refuses
// creating a graph only, saying so, while reads of new subjects still
// answer (empty) and the graphs that exist stay writable.
func TestReadsCreateNoGraph(t *testing.T) {
	db := filepath.Join(t.TempDir(), "m.db")
	rw := []string{"memory:read", "memory:write"}
	clients := map[string]authtest.Client{}
	for i := range 5 {
		clients[fmt.Sprint("reader", i)] = authtest.Client{Scopes: rw}
	}
	clients["first"], clients["second"] = authtest.Client{Scopes: rw}, authtest.Client{Scopes: rw}
	g := startAuthServer(t, db, clients, "--graph-per-subject", "--max-graphs", "1")
	for i := range 5 {
		id := fmt.Sprint("reader", i)
		admitted(t, id+" reads", g.call(t, "/mcp", g.token(t, id, rw...), "read_graph", readGraph), `"entities":[]`)
	}
	first, second := g.token(t, "first", rw...), g.token(t, "second", rw...)
	admitted(t, "first writes", g.call(t, "/mcp", first, "create_entities", createArgs("A")), `"A"`)
	a := g.call(t, "/mcp", second, "create_entities", createArgs("B"))
	if !strings.Contains(a.body, "cannot create graph") || !strings.Contains(a.body, "limit") {
		t.Errorf("a write over the graph cap: %d %.400s, want a refusal that says creating a graph is what is refused", a.status, a.body)
	}
	admitted(t, "second still reads", g.call(t, "/mcp", second, "read_graph", readGraph), `"entities":[]`)
	admitted(t, "first still writes", g.call(t, "/mcp", first, "create_entities", createArgs("C")), `"C"`)
	out, err := exec.Command(sharedBinary(t), "--db", db, "graphs", "--json").Output()
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(out), `"owner"`); n != 1 || strings.Contains(string(out), "reader") {
		t.Errorf("graphs after five readers and one writer: %s, want the writer's graph alone", out)
	}
}

// TestUnauthenticatedPublicHTTP: --http on an address other hosts can
// reach, without authentication, is refused at start unless
// --allow-unauthenticated says so; then one line names the scopes that
// are not enforced.
func TestUnauthenticatedPublicHTTP(t *testing.T) {
	bin := sharedBinary(t)
	db := filepath.Join(t.TempDir(), "m.db")
	cmd := exec.Command(bin, "--db", db, "--http", "0.0.0.0:0")
	out, err := cmd.CombinedOutput()
	if code := cmd.ProcessState.ExitCode(); err == nil || code != 2 || !strings.Contains(string(out), "--allow-unauthenticated") {
		t.Fatalf("--http 0.0.0.0:0 without authentication: exit %d, %s; want exit 2 naming --allow-unauthenticated", code, out)
	}

	var stderr syncBuffer
	srv := exec.Command(bin, "--db", db, "--http", "0.0.0.0:0", "--allow-unauthenticated")
	srv.Stderr = &stderr
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { srv.Process.Kill(); srv.Wait() }()
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(stderr.String(), "serving Streamable HTTP") && time.Now().Before(deadline) && srv.ProcessState == nil {
		time.Sleep(20 * time.Millisecond)
	}
	var line string
	for _, l := range strings.Split(stderr.String(), "\n") {
		if strings.Contains(l, "scopes are not enforced") {
			line = l
		}
	}
	if !strings.Contains(line, "memory:read") || !strings.Contains(line, "memory:write") {
		t.Errorf("with --allow-unauthenticated: no line naming the scopes not enforced in:\n%s", stderr.String())
	}
}

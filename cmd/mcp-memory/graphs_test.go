package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen"
	"github.com/mcpgen/mcpgen/generated/memory/memoryclient"
	"github.com/mcpgen/mcpgen/internal/authtest"
)

// graphServer is mcp-memory over HTTP with OAuth and private graphs, with
// a real authorization server whose clients are the test's principals.
type graphServer struct {
	base     string // http://host:port
	as       *authtest.Server
	endpoint string
}

// startGraphServer starts the binary on db with --graph-per-subject and
// registers each principal (client id → scopes) with the authorization
// server; their subjects are "svc-" + id.
func startGraphServer(t *testing.T, db string, principals map[string][]string) *graphServer {
	t.Helper()
	clients := map[string]authtest.Client{}
	for id, scopes := range principals {
		clients[id] = authtest.Client{Scopes: scopes}
	}
	return startAuthServer(t, db, clients, "--graph-per-subject")
}

// startAuthServer starts the binary on db with OAuth and the flags args,
// and registers clients (their secret "s3cret", their audience the
// endpoint) with the authorization server.
func startAuthServer(t *testing.T, db string, clients map[string]authtest.Client, args ...string) *graphServer {
	t.Helper()
	bin := sharedBinary(t)
	as := authtest.Start(t)
	addr := freeAddr(t)
	g := &graphServer{base: "http://" + addr, as: as, endpoint: "http://" + addr + "/mcp"}
	for id, c := range clients {
		c.Secret, c.Audience = "s3cret", []string{g.endpoint}
		as.AddClient(id, c)
	}
	srv := exec.Command(bin, append([]string{"--db", db, "--http", addr, "--log-level", "warn", "--auth-audience", g.endpoint}, args...)...)
	srv.Env = append(os.Environ(), "MCP_AUTH_ISSUER="+as.Issuer, "MCP_AUTH_CLIENT_ID="+authtest.IntrospectorID, "MCP_AUTH_CLIENT_SECRET="+authtest.IntrospectorSecret)
	srv.Stderr = os.Stderr
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Process.Kill(); srv.Wait() })
	waitListening(t, addr)
	return g
}

// token gets an access token of principal id with the scopes it may have.
func (g *graphServer) token(t *testing.T, id string, scopes ...string) string {
	return g.as.Token(t, id, "s3cret", scopes...)
}

// author is the history author of the token subject sub: the
// principal's ID, naming the issuer that vouched for it.
func (g *graphServer) author(sub string) string { return g.as.Issuer + "#sub:" + sub }

// connect opens a typed client as principal id at path ("/mcp" or
// "/graphs/NAME/mcp") in the protocol revision version ("" the newest).
func (g *graphServer) connect(t *testing.T, id, path, version string, scopes ...string) *memoryclient.Client {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	c, err := mcpgen.Connect(ctx, mcpgen.HTTPTransport(g.base+path), mcpgen.ClientOptions{
		ProtocolVersion: version, Auth: mcpgen.StaticToken(g.token(t, id, scopes...))})
	if err != nil {
		t.Fatalf("connect as %s to %s: %v", id, path, err)
	}
	t.Cleanup(func() { c.Close() })
	return memoryclient.New(c)
}

// entityNames lists the entity names of a graph answer.
func entityNames(es []memoryclient.Entity) []string {
	var out []string
	for _, e := range es {
		out = append(out, e.Name)
	}
	return out
}

// TestGraphsUnderOAuth serves two principals their private graphs and a
// shared graph to a reader and two writers, with tokens from a real
// authorization server, and checks that nothing of one graph shows in
// another through any tool, resource, completion, change feed or search,
// in both protocol eras; that the shared graph's scopes are enforced with
// a step-up challenge; and that every change names its author.
func TestGraphsUnderOAuth(t *testing.T) {
	eachStore(t, func(t *testing.T, newDB newDBFunc) {
		g := startGraphServer(t, newDB(t, "graphs"), map[string][]string{
			"alice": {"memory:read", "memory:write"}, "bob": {"memory:read", "memory:write"},
			"reader":  {"memory:team:read"},
			"writer":  {"memory:team:read", "memory:team:write"},
			"writer2": {"memory:team:write"},
		})
		ctx := context.Background()
		for _, version := range []string{"", "2025-11-25"} {
			era := "2026-07-28"
			if version != "" {
				era = version
			}
			t.Run(era, func(t *testing.T) {
				checkGraphIsolation(ctx, t, g, version)
			})
		}
	})
}

func checkGraphIsolation(ctx context.Context, t *testing.T, g *graphServer, version string) {
	suffix := "-" + strings.ReplaceAll(version, "-", "")
	alice := g.connect(t, "alice", "/mcp", version, "memory:read", "memory:write")
	bob := g.connect(t, "bob", "/mcp", version, "memory:read", "memory:write")
	mustCall := func(what string, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	for who, c := range map[string]*memoryclient.Client{"alice": alice, "bob": bob} {
		_, err := c.CreateEntities(ctx, memoryclient.CreateEntities{Entities: []memoryclient.Entity{
			{Name: "Secret-" + who + suffix, EntityType: "diary", Observations: []string{"private note of " + who}}}})
		mustCall("create_entities as "+who, err)
		_, err = c.CreateRelations(ctx, memoryclient.CreateRelations{Relations: []memoryclient.Relation{
			{From: "Secret-" + who + suffix, To: "Topic" + suffix, RelationType: "about"}}})
		mustCall("create_relations as "+who, err)
		_, err = c.CreateTask(ctx, memoryclient.CreateTask{Title: "task of " + who, Entities: []string{"Secret-" + who + suffix}})
		mustCall("create_task as "+who, err)
	}
	bobsSecret := "Secret-bob" + suffix

	// Alice sees her graph and nothing of Bob's, whatever she asks.
	gr, err := alice.ReadGraph(ctx, memoryclient.ReadGraph{})
	mustCall("read_graph", err)
	if n := entityNames(gr.Entities); slices.Contains(n, bobsSecret) || !slices.Contains(n, "Secret-alice"+suffix) {
		t.Errorf("alice's read_graph: %v", n)
	}
	for _, r := range gr.Relations {
		if r.From == bobsSecret {
			t.Errorf("alice's read_graph has bob's relation %+v", r)
		}
	}
	found, err := alice.SearchNodes(ctx, memoryclient.SearchNodes{Query: "private note"})
	mustCall("search_nodes", err)
	if n := entityNames(found.Entities); slices.Contains(n, bobsSecret) {
		t.Errorf("alice's search finds %v", n)
	}
	opened, err := alice.OpenNodes(ctx, memoryclient.OpenNodes{Names: []string{bobsSecret}})
	mustCall("open_nodes", err)
	if len(opened.Entities) != 0 || len(opened.Relations) != 0 {
		t.Errorf("alice opens bob's entity: %+v", opened)
	}
	tasks, err := alice.ListTasks(ctx, memoryclient.ListTasks{All: true})
	mustCall("list_tasks", err)
	for _, tk := range tasks.Tasks {
		if tk.Title == "task of bob" {
			t.Errorf("alice lists bob's task %+v", tk)
		}
	}
	kg, err := alice.ReadKnowledgeGraph(ctx)
	mustCall("memory://knowledge-graph", err)
	if slices.Contains(entityNames(kg.Entities), bobsSecret) {
		t.Errorf("alice's memory://knowledge-graph: %v", entityNames(kg.Entities))
	}
	if _, err := alice.ReadEntity(ctx, bobsSecret); err == nil {
		t.Errorf("alice reads memory://entities/%s", bobsSecret)
	}
	if _, err := alice.ReadEntityHistory(ctx, bobsSecret); err == nil {
		t.Errorf("alice reads bob's entity history")
	}
	comp, err := alice.Untyped().Complete(ctx, mcpgen.CompletionRef{Type: "ref/resource", URI: "memory://entities/{name}"}, "name", "Secret", nil)
	mustCall("completion/complete", err)
	if slices.Contains(comp.Values, bobsSecret) || !slices.Contains(comp.Values, "Secret-alice"+suffix) {
		t.Errorf("alice's completion offers %v", comp.Values)
	}
	feed, err := alice.ReadChanges(ctx, "0")
	mustCall("memory://changes/0", err)
	for _, c := range feed.Changes {
		if c.Subject == bobsSecret || c.Subject == "task of bob" || c.Author != g.author("svc-alice") {
			t.Errorf("alice's change feed has %+v", c)
		}
	}
	active, err := alice.ReadActiveTasks(ctx)
	mustCall("memory://tasks/active", err)
	for _, tk := range active.Tasks {
		if tk.Title == "task of bob" {
			t.Errorf("alice's memory://tasks/active has bob's task")
		}
	}
	// Deleting a name of Bob's in her graph changes nothing of his.
	_, err = alice.DeleteEntities(ctx, memoryclient.DeleteEntities{EntityNames: []string{bobsSecret}})
	mustCall("delete_entities", err)
	if got, err := bob.OpenNodes(ctx, memoryclient.OpenNodes{Names: []string{bobsSecret}}); err != nil || len(got.Entities) != 1 {
		t.Errorf("bob's entity after alice deleted its name in her graph: %+v %v", got, err)
	}

	// The shared graph: writers write, the reader reads, each change names
	// its author.
	writer := g.connect(t, "writer", "/graphs/team/mcp", version, "memory:team:read", "memory:team:write")
	writer2 := g.connect(t, "writer2", "/graphs/team/mcp", version, "memory:team:write")
	reader := g.connect(t, "reader", "/graphs/team/mcp", version, "memory:team:read")
	plan := "Plan" + suffix
	_, err = writer.CreateEntities(ctx, memoryclient.CreateEntities{Entities: []memoryclient.Entity{{Name: plan, EntityType: "doc", Observations: []string{"v1"}}}})
	mustCall("create_entities as writer", err)
	_, err = writer2.AddObservations(ctx, memoryclient.AddObservations{Observations: []memoryclient.ObservationAdd{{EntityName: plan, Contents: []string{"v2"}}}})
	mustCall("add_observations as writer2", err)
	shared, err := reader.ReadGraph(ctx, memoryclient.ReadGraph{})
	mustCall("read_graph as reader", err)
	if n := entityNames(shared.Entities); !slices.Contains(n, plan) || slices.Contains(n, "Secret-alice"+suffix) || slices.Contains(n, bobsSecret) {
		t.Errorf("the shared graph holds %v", n)
	}
	_, err = reader.CreateEntities(ctx, memoryclient.CreateEntities{Entities: []memoryclient.Entity{{Name: "Vandalism", EntityType: "x"}}})
	if err == nil || !strings.Contains(err.Error(), "403") {
		t.Errorf("reader's create_entities: %v, want 403", err)
	}
	h, err := reader.ReadEntityHistory(ctx, plan)
	mustCall("memory://entities/{name}/history", err)
	if len(h.Changes) != 2 || h.Changes[0].Kind != "entity_created" || h.Changes[0].Author != g.author("svc-writer") ||
		h.Changes[1].Kind != "observation_added" || h.Changes[1].Author != g.author("svc-writer2") || h.Changes[1].Detail != "v2" {
		t.Errorf("history of %s: %+v", plan, h.Changes)
	}
	teamFeed, err := reader.ReadChanges(ctx, "0")
	mustCall("the shared graph's feed", err)
	for _, c := range teamFeed.Changes {
		if c.Author != g.author("svc-writer") && c.Author != g.author("svc-writer2") {
			t.Errorf("shared feed change by %q: %+v", c.Author, c)
		}
	}
	// The private graphs did not receive the shared graph's entity.
	if got, _ := alice.OpenNodes(ctx, memoryclient.OpenNodes{Names: []string{plan}}); len(got.Entities) != 0 {
		t.Errorf("alice's graph has the shared entity")
	}
}

// TestSharedGraphRefusals checks the HTTP answers at the edges: anonymous
// callers, a caller without the graph's scopes, a reader writing (403
// naming the scope to step up to), a session used on another graph's
// path, and a graph name no graph can have.
func TestSharedGraphRefusals(t *testing.T) {
	db := filepath.Join(t.TempDir(), "m.db")
	g := startGraphServer(t, db, map[string][]string{
		"alice": nil, "reader": {"memory:team:read"}, "writer": {"memory:team:write"}})
	post := func(path, token, session, body string) *http.Response {
		t.Helper()
		req, _ := http.NewRequest(http.MethodPost, g.base+path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		if session != "" {
			req.Header.Set("Mcp-Session-Id", session)
			req.Header.Set("MCP-Protocol-Version", "2025-11-25")
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { resp.Body.Close() })
		return resp
	}
	const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	const write = `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"create_entities","arguments":{"entities":[{"name":"X","entityType":"t","observations":[]}]}}}`

	if resp := post("/mcp", "", "", initialize); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("anonymous initialize: %d, want 401", resp.StatusCode)
	}
	alice := g.token(t, "alice")
	if resp := post("/graphs/team/mcp", alice, "", initialize); resp.StatusCode != http.StatusForbidden ||
		!strings.Contains(resp.Header.Get("WWW-Authenticate"), `memory:team:read`) {
		t.Errorf("alice at /graphs/team/mcp: %d %q, want 403 naming memory:team:read", resp.StatusCode, resp.Header.Get("WWW-Authenticate"))
	}
	if resp := post("/graphs/no:such/mcp", alice, "", initialize); resp.StatusCode != http.StatusNotFound {
		t.Errorf("a graph name no graph can have: %d, want 404", resp.StatusCode)
	}
	reader := g.token(t, "reader", "memory:team:read")
	resp := post("/graphs/team/mcp", reader, "", initialize)
	session := resp.Header.Get("Mcp-Session-Id")
	if resp.StatusCode != http.StatusOK || session == "" {
		t.Fatalf("reader's initialize: %d", resp.StatusCode)
	}
	post("/graphs/team/mcp", reader, session, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	// The team graph does not exist yet: the reader reads it empty, and
	// reading does not create it (mcp-memory graphs does not list it).
	resp = post("/graphs/team/mcp", reader, session, `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"read_graph","arguments":{}}}`)
	if body, _ := io.ReadAll(resp.Body); resp.StatusCode != http.StatusOK || !strings.Contains(string(body), `"structuredContent":{"entities":[],"relations":[]}`) {
		t.Errorf("reader's read_graph of a graph no one wrote: %d %s", resp.StatusCode, body)
	}
	if out, err := exec.Command(sharedBinary(t), "--db", db, "graphs").CombinedOutput(); err != nil || strings.Contains(string(out), "team") {
		t.Errorf("graphs after a read of team: %s (%v); want no team", out, err)
	}
	if resp := post("/graphs/team/mcp", reader, session, write); resp.StatusCode != http.StatusForbidden ||
		!strings.Contains(resp.Header.Get("WWW-Authenticate"), `memory:team:write`) {
		t.Errorf("reader writing: %d %q, want 403 naming memory:team:write", resp.StatusCode, resp.Header.Get("WWW-Authenticate"))
	}
	// The reader's session belongs to the team graph: at /mcp (the
	// reader's private graph) it does not exist.
	if resp := post("/mcp", reader, session, write); resp.StatusCode != http.StatusNotFound {
		t.Errorf("the team session used at /mcp: %d, want 404", resp.StatusCode)
	}
	writer := g.token(t, "writer", "memory:team:write")
	if resp := post("/graphs/team/mcp", writer, "", strings.Replace(initialize, `"id":1`, `"id":3`, 1)); resp.StatusCode != http.StatusOK {
		t.Errorf("writer (write implies read): %d", resp.StatusCode)
	}
}

// TestGraphCommands: import and export take --graph, export
// --with-history adds the audit trail, graphs lists every graph with its
// size, and a process serving --graph works on that graph only.
func TestGraphCommands(t *testing.T) {
	eachStore(t, func(t *testing.T, newDB newDBFunc) {
		bin := sharedBinary(t)
		db := newDB(t, "cmds")
		dir := t.TempDir()
		file := filepath.Join(dir, "in.jsonl")
		const content = `{"type":"entity","name":"A","entityType":"t","observations":["x"]}` + "\n" +
			`{"type":"relation","from":"A","to":"B","relationType":"r"}`
		if err := os.WriteFile(file, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		run := func(args ...string) (string, string) {
			t.Helper()
			cmd := exec.Command(bin, append([]string{"--db", db, "--log-level", "warn"}, args...)...)
			var out, errb bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &errb
			if err := cmd.Run(); err != nil {
				t.Fatalf("mcp-memory %v: %v\n%s", args, err, errb.String())
			}
			return out.String(), errb.String()
		}
		run("import", "--graph", "team", file)
		run("--graph", "ops", "import", file)
		if out, _ := run("export"); out != "" {
			t.Errorf("the default graph after importing into others: %q", out)
		}
		if out, _ := run("export", "--graph", "team"); out != content {
			t.Errorf("export --graph team:\n%s\nwant\n%s", out, content)
		}
		out, _ := run("export", "--graph", "ops", "--with-history")
		lines := strings.Split(out, "\n")
		if len(lines) != 5 || lines[0]+"\n"+lines[1] != content {
			t.Fatalf("export --with-history:\n%s", out)
		}
		var h struct{ Type, Entity, Kind, Author string }
		if err := json.Unmarshal([]byte(lines[2]), &h); err != nil || h.Type != "history" || h.Entity != "A" || h.Kind != "entity_created" || h.Author != "local" {
			t.Errorf("first history line %s: %+v %v", lines[2], h, err)
		}
		// The audit trail moves with an export with history.
		hist := filepath.Join(dir, "ops.jsonl")
		if err := os.WriteFile(hist, []byte(out), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, msg := run("import", "--graph", "moved", hist); !strings.Contains(msg, "1 entity, 1 relation in ") || !strings.Contains(msg, ", with 3 changes of their history") {
			t.Errorf("import of an export with history: %s", msg)
		}
		// Exporting a graph that does not exist exports an empty graph and
		// does not create it (the list below holds four graphs).
		if out, _ := run("export", "--graph", "nosuch"); out != "" {
			t.Errorf("export --graph nosuch: %q", out)
		}
		list, _ := run("graphs", "--json")
		var got []string
		for _, l := range strings.Split(strings.TrimSpace(list), "\n") {
			var gi struct {
				Name                              string
				Entities, Relations, Observations int
			}
			if err := json.Unmarshal([]byte(l), &gi); err != nil {
				t.Fatalf("graphs --json line %q: %v", l, err)
			}
			got = append(got, l)
			if gi.Name != "default" && (gi.Entities != 1 || gi.Relations != 1 || gi.Observations != 1) {
				t.Errorf("graphs: %s", l)
			}
		}
		if len(got) != 4 || !strings.Contains(got[0], `"name":"default"`) || !strings.Contains(got[1], `"name":"moved"`) || !strings.Contains(got[2], `"name":"ops"`) {
			t.Errorf("graphs --json:\n%s", list)
		}
		if table, _ := run("graphs"); !strings.Contains(table, "GRAPH") || !strings.Contains(table, "team") {
			t.Errorf("graphs:\n%s", table)
		}

		// A process on --graph team sees team's entity, and its writes stay there.
		s := startRawStdio(t, exec.Command(bin, "--db", db, "--graph", "team", "--log-level", "warn"), legacyVersion)
		if o := toolResult(t, s.call(t, "tools/call", `{"name":"read_graph","arguments":{}}`)); !strings.Contains(o.Text, `"A"`) {
			t.Errorf("read_graph on --graph team: %s", o.Text)
		}
		if o := toolResult(t, s.call(t, "tools/call", `{"name":"create_entities","arguments":{"entities":[{"name":"C","entityType":"t","observations":[]}]}}`)); o.IsError {
			t.Fatalf("create_entities: %s", o.Text)
		}
		if o := toolResult(t, s.call(t, "resources/read", `{"uri":"memory://entities/C/history"}`)); o.IsError {
			t.Errorf("history: %s", o.Text)
		}
		if out, _ := run("export", "--graph", "ops"); strings.Contains(out, `"C"`) {
			t.Errorf("ops got team's write: %s", out)
		}
	})
}

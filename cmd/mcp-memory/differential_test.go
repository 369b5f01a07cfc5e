package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ent, rel, add and del build tool arguments.
func ent(name, typ string, obs ...string) map[string]any {
	if obs == nil {
		obs = []string{}
	}
	return map[string]any{"name": name, "entityType": typ, "observations": obs}
}

func rel(from, to, typ string) map[string]any {
	return map[string]any{"from": from, "to": to, "relationType": typ}
}

func add(name string, contents ...string) map[string]any {
	if contents == nil {
		contents = []string{}
	}
	return map[string]any{"entityName": name, "contents": contents}
}

func del(name string, obs ...string) map[string]any {
	if obs == nil {
		obs = []string{}
	}
	return map[string]any{"entityName": name, "observations": obs}
}

func list(key string, items []map[string]any) map[string]any {
	if items == nil {
		items = []map[string]any{}
	}
	return map[string]any{key: items}
}

func entities(es ...map[string]any) map[string]any     { return list("entities", es) }
func relations(rs ...map[string]any) map[string]any    { return list("relations", rs) }
func observations(as ...map[string]any) map[string]any { return list("observations", as) }
func deletions(ds ...map[string]any) map[string]any    { return list("deletions", ds) }
func names(key string, ns ...string) map[string]any {
	if ns == nil {
		ns = []string{}
	}
	return map[string]any{key: ns}
}
func query(q string) map[string]any { return map[string]any{"query": q} }

// step is one call of the scripted session. Unless batchDup is set, the
// reference and ours must give the same structuredContent (or both fail,
// see wantErr) and the same read_graph and memory://knowledge-graph
// afterwards, exactly: the
// reference keeps entities, observations and relations in insertion order
// and every query answers in that order, which we reproduce.
type step struct {
	tool string
	args map[string]any
	// batchDup marks a call that repeats an entity name, an observation or
	// a relation within itself: the documented difference (README,
	// memstore package doc). The reference stores the repeats, we store
	// them once; the test asserts exactly that.
	batchDup bool
	// wantErr: both servers must fail and leave the graph unchanged.
	wantErr bool
	// sameMessage: and with the same message (tool errors of the store,
	// not argument validation, whose wording differs).
	sameMessage bool
}

// script is a session of about 80 calls covering every tool, duplicates
// within and across calls, dangling relations, a failing add_observations,
// deletions and Unicode-heavy searches.
var script = []step{
	{tool: "search_nodes", args: query("")},
	{tool: "open_nodes", args: names("names", "Alice")},
	{tool: "create_entities", args: entities(
		ent("Alice", "person", "likes Go", "lives in Zürich"),
		ent("Bob", "person"),
		ent("École Polytechnique", "organization", "founded 1794"),
		ent("Hauptstraße 5", "address", "STRAẞE in capitals"),
		ent("ΟΔΟΣ", "greek", "Η ΟΔΟΣ ΕΙΝΑΙ ΜΑΚΡΙΑ"),
		ent("🧠 brain", "emoji", "مرحبا بالعالم", "שלום עולם", "\u202Eevil override"),
		ent("İstanbul", "city"),
	)},
	// Duplicates across calls: existing names are skipped, even with other
	// types and observations.
	{tool: "create_entities", args: entities(ent("Alice", "robot", "different"), ent("Carol", "person", "new here"))},
	{tool: "create_entities", args: entities(ent("Bob", "person"))},
	{tool: "create_entities", args: entities()},
	{tool: "create_entities", args: entities(ent("", ""), ent("nul\x00name", "ctl\ttype", "line\nbreak", `"quoted" \ back`, "\u2028sep\u2029"))},
	{tool: "create_entities", args: entities(ent("", "again"))},
	// Relations, also between entities that do not exist.
	{tool: "create_relations", args: relations(
		rel("Alice", "Bob", "knows"),
		rel("Alice", "École Polytechnique", "studied_at"),
		rel("Bob", "Carol", "knows"),
		rel("Carol", "Ghost", "haunted_by"),
		rel("Ghost", "Alice", "watches"),
		rel("", "🧠 brain", "σ"),
	)},
	{tool: "create_relations", args: relations(
		rel("Alice", "Bob", "knows"), // exists
		rel("Alice", "Bob", "KNOWS"), // case differs: new
		rel("Bob", "Alice", "knows"), // direction differs: new
	)},
	{tool: "create_relations", args: relations(rel("Alice", "Bob", "knows"))},
	{tool: "create_relations", args: relations()},
	// Observations: existing ones are skipped.
	{tool: "add_observations", args: observations(add("Alice", "likes Go", "writes Rust"), add("Bob", "plays chess"))},
	{tool: "add_observations", args: observations(add("Carol", "a1"), add("Carol", "a1", "a2"))},
	{tool: "add_observations", args: observations(add("", "empty-named"), add("İstanbul"))},
	// A missing entity fails the whole call on both, changing nothing.
	{tool: "add_observations", args: observations(add("Alice", "must not stick"), add("Nobody", "x")), wantErr: true, sameMessage: true},
	{tool: "add_observations", args: observations(add("alice", "wrong case")), wantErr: true, sameMessage: true},
	// Invalid arguments fail on both (with different wording).
	{tool: "create_entities", args: map[string]any{"entities": nil}, wantErr: true},
	{tool: "create_entities", args: entities(map[string]any{"name": "NoType", "observations": []string{}}), wantErr: true},
	{tool: "create_relations", args: relations(map[string]any{"from": "Alice", "to": 7, "relationType": "r"}), wantErr: true},
	{tool: "add_observations", args: observations()},
	// Names are compared exactly: case, normalization and spaces matter.
	{tool: "create_entities", args: entities(ent("alice", "person"), ent("Alice ", "person"), ent("e\u0301cole", "nfd"), ent("école", "nfc"))},
	{tool: "add_observations", args: observations(add("alice", "lower-case alice"))},
	{tool: "search_nodes", args: query("ALICE")},
	{tool: "search_nodes", args: query("école")},
	// Searches: JavaScript toLowerCase semantics.
	{tool: "search_nodes", args: query("ÉCOLE")},
	{tool: "search_nodes", args: query("école poly")},
	{tool: "search_nodes", args: query("straße")},
	{tool: "search_nodes", args: query("STRASSE")},
	{tool: "search_nodes", args: query("HAUPTSTRAẞE")},
	{tool: "search_nodes", args: query("ΟΔΟΣ")},
	{tool: "search_nodes", args: query("οδοσ")},
	{tool: "search_nodes", args: query("οδος ει")},
	{tool: "search_nodes", args: query("Σ")},
	{tool: "search_nodes", args: query("İSTANBUL")},
	{tool: "search_nodes", args: query("istanbul")},
	{tool: "search_nodes", args: query("🧠")},
	{tool: "search_nodes", args: query("مرحبا")},
	{tool: "search_nodes", args: query("PERSON")},
	{tool: "search_nodes", args: query("go")},
	{tool: "search_nodes", args: query("o")},
	{tool: "search_nodes", args: query("bob\nperson")},
	{tool: "search_nodes", args: query("\x00")},
	{tool: "search_nodes", args: query("\u2028SEP")},
	{tool: "search_nodes", args: query("nothing matches this")},
	// Characters that mean something to SQL LIKE or FTS5 queries.
	{tool: "search_nodes", args: query(`"quoted" \`)},
	{tool: "search_nodes", args: query("e*")},
	{tool: "search_nodes", args: query("%")},
	{tool: "search_nodes", args: query("_")},
	{tool: "search_nodes", args: query("likes OR NOT")},
	{tool: "search_nodes", args: query("name:")},
	{tool: "search_nodes", args: query("^lik")},
	{tool: "search_nodes", args: query("'")},
	{tool: "search_nodes", args: query("   ")},
	{tool: "search_nodes", args: query("E\nB")},
	{tool: "search_nodes", args: query("")},
	{tool: "open_nodes", args: names("names", "İstanbul", "Nobody", "Alice", "Alice")},
	{tool: "open_nodes", args: names("names")},
	{tool: "open_nodes", args: names("names", "Ghost")},
	{tool: "open_nodes", args: names("names", "", "nul\x00name")},
	// Deletions; missing things are ignored.
	{tool: "delete_observations", args: deletions(del("Alice", "writes Rust", "never existed"), del("Nobody", "x"), del("Carol"))},
	{tool: "delete_observations", args: deletions()},
	{tool: "delete_relations", args: relations(rel("Alice", "Bob", "KNOWS"), rel("No", "Such", "relation"))},
	{tool: "delete_relations", args: relations(rel("Alice", "Bob", "KNOWS"))},
	{tool: "delete_entities", args: names("entityNames", "Bob", "Nobody")},
	{tool: "delete_entities", args: names("entityNames", "Ghost")}, // no such entity, but its relations go
	{tool: "delete_entities", args: names("entityNames")},
	{tool: "search_nodes", args: query("")},
	// Re-created entities and relations go to the end.
	{tool: "create_entities", args: entities(ent("Bob", "person", "is back"))},
	{tool: "create_relations", args: relations(rel("Alice", "Bob", "knows"))},
	{tool: "add_observations", args: observations(add("Alice", "writes Rust"))},
	{tool: "open_nodes", args: names("names", "Bob", "Alice")},
	// The documented batch-duplicate differences, each followed by a call
	// that removes the duplicates on the reference, so that the graphs
	// agree again.
	{tool: "create_entities", args: entities(ent("Dup", "first", "one"), ent("Dup", "second", "two")), batchDup: true},
	{tool: "delete_entities", args: names("entityNames", "Dup")},
	{tool: "create_entities", args: entities(ent("Obs", "t", "same", "other", "same")), batchDup: true},
	{tool: "delete_observations", args: deletions(del("Obs", "same"))},
	{tool: "add_observations", args: observations(add("Obs", "rep", "rep", "other")), batchDup: true},
	{tool: "delete_observations", args: deletions(del("Obs", "rep"))},
	{tool: "create_relations", args: relations(rel("Obs", "Alice", "r"), rel("Obs", "Alice", "r")), batchDup: true},
	{tool: "delete_relations", args: relations(rel("Obs", "Alice", "r"))},
	{tool: "delete_entities", args: names("entityNames", "", "nul\x00name", "Obs")},
	{tool: "read_graph", args: map[string]any{}},
}

// TestDifferentialReference replays the script against the reference
// server (node, stdio) and against ours (stdio, as a legacy and as a
// stateless client), comparing every result and the whole graph after
// every step, then the reference's memory file with our export; on both
// stores.
func TestDifferentialReference(t *testing.T) { eachStore(t, testDifferentialReference) }

func testDifferentialReference(t *testing.T, newDB newDBFunc) {
	ref := reference(t)
	bin := sharedBinary(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	dir := t.TempDir()
	memFile := filepath.Join(dir, "memory.jsonl")
	refSession := connect(ctx, t, &mcp.CommandTransport{Command: ref.command(memFile)}, legacyVersion)
	type server struct {
		name string
		db   string
		s    *mcp.ClientSession
	}
	var ours []server
	for _, version := range []string{legacyVersion, ""} {
		db := newDB(t, fmt.Sprintf("ours%d", len(ours)))
		name := "ours/" + version
		if version == "" {
			name = "ours/stateless"
		}
		ours = append(ours, server{name, db, connect(ctx, t, &mcp.CommandTransport{Command: exec.Command(bin, "--db", db, "--log-level", "warn")}, version)})
	}
	read := func(s *mcp.ClientSession) outcome { return callTool(ctx, s, "read_graph", map[string]any{}) }
	// The reference's one resource is the graph as JSON text.
	resource := func(s *mcp.ClientSession) string {
		r, err := s.ReadResource(ctx, &mcp.ReadResourceParams{URI: "memory://knowledge-graph"})
		if err != nil {
			t.Fatalf("read memory://knowledge-graph: %v", err)
		}
		if len(r.Contents) != 1 || r.Contents[0].MIMEType != "application/json" {
			t.Fatalf("memory://knowledge-graph: %+v", r.Contents)
		}
		return canon([]byte(r.Contents[0].Text))
	}

	before := read(refSession)
	for i, st := range script {
		what := fmt.Sprintf("step %d %s %s", i, st.tool, mustJSON(st.args))
		want := callTool(ctx, refSession, st.tool, st.args)
		if strings.HasPrefix(want.Text, "protocol error") {
			t.Fatalf("%s: reference: %s", what, want.Text)
		}
		if want.IsError != st.wantErr {
			t.Fatalf("%s: the reference answered %s; the script expects error=%v", what, want, st.wantErr)
		}
		wantGraph := read(refSession)
		wantResource := resource(refSession)
		if st.wantErr && canon(wantGraph.Structured) != canon(before.Structured) {
			t.Fatalf("%s: the failing call changed the reference's graph", what)
		}
		for _, o := range ours {
			got := callTool(ctx, o.s, st.tool, st.args)
			gotGraph := read(o.s)
			if got := resource(o.s); !st.batchDup && got != wantResource {
				t.Errorf("%s: %s: memory://knowledge-graph differs:\n got  %s\n want %s", what, o.name, got, wantResource)
			}
			switch {
			case st.wantErr:
				if !got.IsError || (st.sameMessage && got.Text != want.Text) {
					t.Errorf("%s: %s: got %s, want the reference's %s", what, o.name, got, want)
				}
				if canon(gotGraph.Structured) != canon(before.Structured) {
					t.Errorf("%s: %s: the failing call changed the graph:\n got  %s\n want %s", what, o.name, gotGraph.Structured, before.Structured)
				}
			case st.batchDup:
				assertBatchDup(t, what+": "+o.name, want, got, wantGraph, gotGraph)
			default:
				if got.IsError || canon(got.Structured) != canon(want.Structured) {
					t.Errorf("%s: %s:\n got  %s\n want %s", what, o.name, got, want)
				}
				// The text block is what a model reads: byte for byte the reference's.
				if got.Text != want.Text {
					t.Errorf("%s: %s: text content differs:\n got  %q\n want %q", what, o.name, got.Text, want.Text)
				}
				if canon(gotGraph.Structured) != canon(wantGraph.Structured) {
					t.Errorf("%s: %s: read_graph differs:\n got  %s\n want %s", what, o.name, gotGraph.Structured, wantGraph.Structured)
				}
			}
		}
		if t.Failed() {
			t.FailNow()
		}
		before = wantGraph
	}

	// After the duplicates were cleaned up, the files agree byte for byte:
	// the reference's memory.jsonl and our export of the same history.
	refSession.Close()
	for _, o := range ours {
		o.s.Close()
	}
	want, err := os.ReadFile(memFile)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range ours {
		got, err := exec.Command(bin, "--db", o.db, "export").Output()
		if err != nil {
			t.Fatalf("%s: export: %v", o.name, err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: export differs from the reference's memory.jsonl:\n got  %q\n want %q", o.name, got, want)
		}
	}
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	if len(b) > 200 {
		return string(b[:200]) + "…"
	}
	return string(b)
}

// assertBatchDup checks the documented difference for a call that repeats
// something within itself: the reference's result and graph, with repeats
// dropped (first occurrence kept), are exactly ours, and the reference did
// store a repeat (so the step tests what it claims to).
func assertBatchDup(t *testing.T, what string, want, got, wantGraph, gotGraph outcome) {
	t.Helper()
	if want.IsError || got.IsError {
		t.Errorf("%s: unexpected error: reference %s, ours %s", what, want, got)
		return
	}
	dedupedResult, n1 := dedupeJSON(t, want.Structured)
	dedupedGraph, n2 := dedupeJSON(t, wantGraph.Structured)
	if n1 == 0 || n2 == 0 {
		t.Errorf("%s: the reference no longer stores repeats within a call (result %s, graph %s); update the documented differences", what, want, wantGraph.Structured)
	}
	if canon(got.Structured) != canon(dedupedResult) {
		t.Errorf("%s: result is not the reference's without repeats:\n got  %s\n want %s", what, got.Structured, dedupedResult)
	}
	if canon(gotGraph.Structured) != canon(dedupedGraph) {
		t.Errorf("%s: read_graph is not the reference's without repeats:\n got  %s\n want %s", what, gotGraph.Structured, dedupedGraph)
	}
}

// dedupeJSON drops, from a graph or a tool result, entities whose name
// appeared before, repeated observations of one entity, repeated added
// observations and repeated relations; it returns the result and how many
// items it dropped.
func dedupeJSON(t *testing.T, raw []byte) ([]byte, int) {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
	dropped := 0
	uniqStrings := func(list []any) []any {
		var out []any
		for _, s := range list {
			if slices.Contains(out, s) {
				dropped++
				continue
			}
			out = append(out, s)
		}
		if out == nil {
			out = []any{}
		}
		return out
	}
	if es, ok := v["entities"].([]any); ok {
		seen := map[any]bool{}
		var out []any
		for _, e := range es {
			m := e.(map[string]any)
			if seen[m["name"]] {
				dropped++
				continue
			}
			seen[m["name"]] = true
			m["observations"] = uniqStrings(m["observations"].([]any))
			out = append(out, m)
		}
		if out == nil {
			out = []any{}
		}
		v["entities"] = out
	}
	if rs, ok := v["relations"].([]any); ok {
		var out []any
		keys := map[string]bool{}
		for _, r := range rs {
			k := mustJSON(r)
			if keys[k] {
				dropped++
				continue
			}
			keys[k] = true
			out = append(out, r)
		}
		if out == nil {
			out = []any{}
		}
		v["relations"] = out
	}
	if rs, ok := v["results"].([]any); ok {
		for _, r := range rs {
			m := r.(map[string]any)
			m["addedObservations"] = uniqStrings(m["addedObservations"].([]any))
		}
	}
	b, _ := json.Marshal(v)
	return b, dropped
}

// TestToolsListMatchesReference compares tools/list: ours offers every
// reference tool with the same title, description, the four annotation
// hints, and input and output schemas of the same shape (types,
// properties, items, required fields, descriptions); our only extra tools
// are the task tools.
func TestToolsListMatchesReference(t *testing.T) {
	ref := reference(t)
	bin := sharedBinary(t)
	dir := t.TempDir()
	r := startRawStdio(t, ref.command(filepath.Join(dir, "memory.jsonl")), legacyVersion)
	o := startRawStdio(t, exec.Command(bin, "--db", filepath.Join(dir, "memory.db"), "--log-level", "warn"), legacyVersion)
	type tool struct {
		Name         string                     `json:"name"`
		Title        string                     `json:"title"`
		Description  string                     `json:"description"`
		Annotations  map[string]json.RawMessage `json:"annotations"`
		InputSchema  json.RawMessage            `json:"inputSchema"`
		OutputSchema json.RawMessage            `json:"outputSchema"`
	}
	list := func(c *rawStdio) map[string]tool {
		resp := c.call(t, "tools/list", `{}`)
		if resp.Error != nil {
			t.Fatalf("tools/list: %s", resp.Error)
		}
		var res struct {
			Tools      []tool `json:"tools"`
			NextCursor string `json:"nextCursor"`
		}
		if err := json.Unmarshal(resp.Result, &res); err != nil {
			t.Fatal(err)
		}
		if res.NextCursor != "" {
			t.Fatalf("tools/list is paginated; this test reads one page")
		}
		m := map[string]tool{}
		for _, tl := range res.Tools {
			m[tl.Name] = tl
		}
		return m
	}
	// The reference's one resource is offered alike.
	resources := func(c *rawStdio) string {
		resp := c.call(t, "resources/list", `{}`)
		var res struct {
			Resources []map[string]any `json:"resources"`
		}
		if err := json.Unmarshal(resp.Result, &res); err != nil || resp.Error != nil {
			t.Fatalf("resources/list: %s %s", resp.Result, resp.Error)
		}
		for _, r := range res.Resources {
			if r["uri"] == "memory://knowledge-graph" {
				delete(r, "description") // worded differently
				return mustJSON(r)
			}
		}
		return "missing"
	}
	if g, w := resources(o), resources(r); g != w {
		t.Errorf("resource memory://knowledge-graph: got %s, want %s", g, w)
	}

	want, got := list(r), list(o)
	if len(want) != 9 {
		t.Fatalf("the reference lists %d tools, want 9: %v", len(want), keys(want))
	}
	var extra []string
	for name := range got {
		if _, ok := want[name]; !ok {
			extra = append(extra, name)
		}
	}
	sort.Strings(extra)
	if !slices.Equal(extra, []string{"create_task", "list_tasks", "update_task"}) {
		t.Errorf("our extra tools are %v, want the three task tools", extra)
	}
	for _, name := range keys(want) {
		w, g := want[name], got[name]
		if g.Name == "" {
			t.Errorf("%s: missing from our tools/list", name)
			continue
		}
		if g.Title != w.Title || g.Description != w.Description {
			t.Errorf("%s: title/description %q/%q, want %q/%q", name, g.Title, g.Description, w.Title, w.Description)
		}
		for _, hint := range []string{"readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"} {
			if string(g.Annotations[hint]) != string(w.Annotations[hint]) {
				t.Errorf("%s: %s = %s, want %s", name, hint, g.Annotations[hint], w.Annotations[hint])
			}
		}
		for _, s := range []struct {
			what      string
			got, want json.RawMessage
		}{{"inputSchema", g.InputSchema, w.InputSchema}, {"outputSchema", g.OutputSchema, w.OutputSchema}} {
			gs, ws := schemaShape(t, s.got), schemaShape(t, s.want)
			if gs != ws {
				t.Errorf("%s: %s shape differs:\n got  %s\n want %s", name, s.what, gs, ws)
			}
		}
	}
}

func keys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// schemaShape reduces a JSON Schema to what a client relies on: type,
// properties, items, sorted required, description. The dialect ($schema:
// draft-07 for the reference, 2020-12 for us) and additionalProperties
// (see TestExtraArgumentProperties) are left out.
func schemaShape(t *testing.T, raw json.RawMessage) string {
	t.Helper()
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("schema %s: %v", raw, err)
	}
	var shape func(any) any
	shape = func(v any) any {
		m, ok := v.(map[string]any)
		if !ok {
			return v
		}
		out := map[string]any{}
		for _, k := range []string{"type", "description"} {
			if x, ok := m[k]; ok {
				out[k] = x
			}
		}
		if props, ok := m["properties"].(map[string]any); ok {
			p := map[string]any{}
			for k, x := range props {
				p[k] = shape(x)
			}
			out["properties"] = p
		}
		if items, ok := m["items"]; ok {
			out["items"] = shape(items)
		}
		if req, ok := m["required"].([]any); ok {
			var r []string
			for _, x := range req {
				r = append(r, x.(string))
			}
			sort.Strings(r)
			out["required"] = r
		}
		return out
	}
	b, _ := json.Marshal(shape(v))
	return string(b)
}

// TestExtraArgumentProperties pins down an undocumented difference: the
// reference (zod objects) silently drops argument properties it does not
// know, while our schemas have additionalProperties false and refuse the
// call with a message naming the property, changing nothing.
func TestExtraArgumentProperties(t *testing.T) {
	ref := reference(t)
	bin := sharedBinary(t)
	dir := t.TempDir()
	r := startRawStdio(t, ref.command(filepath.Join(dir, "memory.jsonl")), legacyVersion)
	o := startRawStdio(t, exec.Command(bin, "--db", filepath.Join(dir, "memory.db"), "--log-level", "warn"), legacyVersion)
	for _, args := range []string{
		`{"entities":[{"name":"A","entityType":"t","observations":[],"id":1}]}`,
		`{"entities":[{"name":"B","entityType":"t","observations":[]}],"dryRun":true}`,
	} {
		params := `{"name":"create_entities","arguments":` + args + `}`
		want := toolResult(t, r.call(t, "tools/call", params))
		if want.IsError || !strings.Contains(string(want.Structured), `"observations":[]}`) || strings.Contains(string(want.Structured), "id") {
			t.Errorf("reference %s: %s (expected the unknown property dropped)", args, want)
		}
		got := toolResult(t, o.call(t, "tools/call", params))
		if !got.IsError || !strings.Contains(got.Text, "additional property") {
			t.Errorf("ours %s: %s (expected a tool error naming the additional property)", args, got)
		}
	}
	g := toolResult(t, o.call(t, "tools/call", `{"name":"read_graph","arguments":{}}`))
	if canon(g.Structured) != canon([]byte(`{"entities":[],"relations":[]}`)) {
		t.Errorf("refused calls changed our graph: %s", g.Structured)
	}
}

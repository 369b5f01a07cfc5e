package mcpgen_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen"
	"github.com/mcpgen/mcpgen/components/memory/memstore"
	component "github.com/mcpgen/mcpgen/components/notes"
	"github.com/mcpgen/mcpgen/generated/everything"
	"github.com/mcpgen/mcpgen/generated/everything/everythingclient"
	"github.com/mcpgen/mcpgen/generated/memory"
	"github.com/mcpgen/mcpgen/generated/memory/memoryclient"
	"github.com/mcpgen/mcpgen/generated/notes"
	"github.com/mcpgen/mcpgen/generated/notes/notesclient"
	"github.com/mcpgen/mcpgen/internal/testutil/serverproc"
)

// TestTypedClientInMemory drives the notes server through its generated
// typed client over an in-memory connection, in both eras: the default
// (2026-07-28, server/discover) and the legacy handshake that
// ProtocolVersion 2025-11-25 forces.
func TestTypedClientInMemory(t *testing.T) {
	for _, version := range []string{"", "2025-11-25"} {
		name := version
		if name == "" {
			name = "default"
		}
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			srv := notes.New(component.NewStore(), mcpgen.Options{})
			defer srv.Close()
			conn, err := mcpgen.Connect(ctx, mcpgen.InMemoryTransport(srv), mcpgen.ClientOptions{ProtocolVersion: version})
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			if want := map[string]string{"": mcpgen.LatestVersion, "2025-11-25": "2025-11-25"}[version]; conn.ProtocolVersion() != want {
				t.Errorf("protocol %s, want %s", conn.ProtocolVersion(), want)
			}
			c := notesclient.New(conn)
			if err := c.CheckSurface(ctx); err != nil {
				t.Fatalf("CheckSurface against the server it was generated from: %v", err)
			}

			saved, err := c.AddNote(ctx, notesclient.AddNote{ID: "groceries", Text: "eggs, flour"})
			if err != nil || saved != (notesclient.Saved{ID: "groceries", Count: 1}) {
				t.Errorf("AddNote = %+v, %v", saved, err)
			}
			// A template variable holding reserved characters is one
			// variable: it is percent-encoded on the way.
			if _, err := c.AddNote(ctx, notesclient.AddNote{ID: "a-b", Text: "dash"}); err != nil {
				t.Fatal(err)
			}
			text, err := c.ReadNote(ctx, "groceries")
			if err != nil || text != "eggs, flour" {
				t.Errorf("ReadNote = %q, %v", text, err)
			}
			if _, err := c.ReadNote(ctx, "no/such note"); err == nil {
				t.Error("ReadNote of a missing note succeeded")
			}
			prompt, err := c.GetSummarize(ctx, notesclient.Summarize{ID: "groceries"})
			if err != nil || len(prompt.Messages) != 1 || !strings.Contains(prompt.Messages[0].Content.Text, "eggs, flour") {
				t.Errorf("GetSummarize = %+v, %v", prompt, err)
			}

			// The tool's own refusal (its input breaks the schema) is a
			// ToolCallError or a protocol error, never a success.
			_, err = c.AddNote(ctx, notesclient.AddNote{ID: "Not An ID", Text: "x"})
			var tce *mcpgen.ToolCallError
			var pe *mcpgen.ProtocolError
			if !errors.As(err, &tce) && !errors.As(err, &pe) {
				t.Errorf("AddNote with a bad id: %v (%T), want a *ToolCallError or *ProtocolError", err, err)
			}
		})
	}
}

// TestCheckSurfaceDifferences checks that CheckSurface names each
// difference: a missing tool, a changed input property, an output schema
// the client did not expect; documentation keywords do not count.
func TestCheckSurfaceDifferences(t *testing.T) {
	ctx := context.Background()
	srv := notes.New(component.NewStore(), mcpgen.Options{})
	defer srv.Close()
	conn, err := mcpgen.Connect(ctx, mcpgen.InMemoryTransport(srv), mcpgen.ClientOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	tools, err := conn.ListTools(ctx)
	if err != nil || len(tools) != 1 {
		t.Fatalf("ListTools = %v, %v", tools, err)
	}
	in, out := tools[0].InputSchema, tools[0].OutputSchema
	same := []mcpgen.SurfaceTool{{Name: "add_note", InputSchema: in, OutputSchema: out}}
	if err := mcpgen.CheckSurface(ctx, conn, same); err != nil {
		t.Errorf("same surface: %v", err)
	}
	redescribed := []mcpgen.SurfaceTool{{Name: "add_note", InputSchema: []byte(strings.Replace(string(in), "The note's text.", "Other words.", 1)), OutputSchema: out}}
	if err := mcpgen.CheckSurface(ctx, conn, redescribed); err != nil {
		t.Errorf("a changed description counted as a difference: %v", err)
	}
	changed := []mcpgen.SurfaceTool{
		{Name: "add_note", InputSchema: []byte(strings.Replace(string(in), `"minLength":1`, `"minLength":2`, 1))},
		{Name: "remove_note", InputSchema: []byte(`{"type":"object"}`)},
	}
	if string(changed[0].InputSchema) == string(in) {
		t.Fatalf("the test's edit did not apply to %s", in)
	}
	err = mcpgen.CheckSurface(ctx, conn, changed)
	var se *mcpgen.SurfaceError
	if !errors.As(err, &se) {
		t.Fatalf("CheckSurface = %v, want a *SurfaceError", err)
	}
	want := []string{
		"tool add_note: input schema at /properties/text/minLength: the client has 2, the server 1",
		"tool add_note: the server declares an output schema; the client expects none",
		"tool remove_note: the server does not offer it",
	}
	if strings.Join(se.Differences, "\n") != strings.Join(want, "\n") {
		t.Errorf("differences:\n%s\nwant:\n%s", strings.Join(se.Differences, "\n"), strings.Join(want, "\n"))
	}
}

// TestExpandTemplate checks the escaping of template variables.
func TestExpandTemplate(t *testing.T) {
	for _, c := range []struct {
		tpl  string
		vars map[string]string
		want string
	}{
		{"notes://{id}", map[string]string{"id": "a b/c?d"}, "notes://a%20b%2Fc%3Fd"},
		{"files://{+path}", map[string]string{"path": "dir/a b.txt"}, "files://dir/a%20b.txt"},
		{"x://{a}-{b}", map[string]string{"a": "é", "b": "~._-"}, "x://%C3%A9-~._-"},
		{"x://{missing}/{?q}", nil, "x:///{?q}"},
	} {
		if got := mcpgen.ExpandTemplate(c.tpl, c.vars); got != c.want {
			t.Errorf("ExpandTemplate(%q, %v) = %q, want %q", c.tpl, c.vars, got, c.want)
		}
	}
}

// TestTypedClientProgram runs testdata/memoryclient, the README's example
// of a typed client, against mcp-memory over stdio and over HTTP.
func TestTypedClientProgram(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs mcp-memory; skipped with -short")
	}
	bin := t.TempDir()
	build := exec.Command("go", "build", "-o", bin, "./cmd/mcp-memory", "./testdata/memoryclient")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	server, client := filepath.Join(bin, "mcp-memory"), filepath.Join(bin, "memoryclient")
	want := "2 entities, 1 relations\nAda (person): [wrote the first program]\n"

	t.Run("stdio", func(t *testing.T) {
		cmd := exec.Command(client, "stdio", server, "--db", filepath.Join(t.TempDir(), "graph.db"))
		var stderr strings.Builder
		cmd.Stderr = &stderr // the server's log too
		out, err := cmd.Output()
		if err != nil || string(out) != want {
			t.Errorf("memoryclient stdio: %v\n%s\nwant:\n%s\nstderr:\n%s", err, out, want, stderr.String())
		}
	})
	t.Run("http", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		endpoint := serverproc.HTTP(ctx, t, server, "--http", "127.0.0.1:0", "--db", filepath.Join(t.TempDir(), "graph.db"))
		out, err := exec.CommandContext(ctx, client, "http", endpoint).CombinedOutput()
		if err != nil || string(out) != want {
			t.Errorf("memoryclient http: %v\n%s\nwant:\n%s", err, out, want)
		}
	})
}

// TestReadmeTypedClientExample checks that the README's typed client
// example is testdata/memoryclient's main, which TestTypedClientProgram runs.
func TestReadmeTypedClientExample(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile("testdata/memoryclient/main.go")
	if err != nil {
		t.Fatal(err)
	}
	_, main, ok := strings.Cut(string(src), "\nfunc main() {")
	if !ok {
		t.Fatal("testdata/memoryclient/main.go has no func main")
	}
	_, block, ok := strings.Cut(string(readme), "<!-- example: testdata/memoryclient/main.go -->\n```go\n")
	if !ok {
		t.Fatal("README.md has no typed client example block")
	}
	block, _, _ = strings.Cut(block, "```")
	if !strings.Contains(block, "func main() {"+main) {
		t.Errorf("README.md's typed client example is not testdata/memoryclient/main.go's func main; copy it again:\n%s", "func main() {"+main)
	}
}

// TestTypedClientResultKinds drives the everything server's typed client
// in memory: a text result, content blocks, a tool error, a blob resource
// and a JSON resource template, and CheckSurface over all its tools.
func TestTypedClientResultKinds(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	srv := everything.New(mcpgen.Options{})
	defer srv.Close()
	conn, err := mcpgen.Connect(ctx, mcpgen.InMemoryTransport(srv), mcpgen.ClientOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	c := everythingclient.New(conn)
	if err := c.CheckSurface(ctx); err != nil {
		t.Errorf("CheckSurface: %v", err)
	}
	if got, err := c.Echo(ctx, everythingclient.Echo{Message: "hi"}); err != nil || got != "hi" {
		t.Errorf("Echo = %q, %v", got, err)
	}
	blocks, err := c.ImageContent(ctx, everythingclient.ImageContent{})
	if err != nil || len(blocks) != 1 || blocks[0].Type != "image" || blocks[0].Data == "" {
		t.Errorf("ImageContent = %+v, %v", blocks, err)
	}
	_, err = c.ErrorHandling(ctx, everythingclient.ErrorHandling{})
	var tce *mcpgen.ToolCallError
	if !errors.As(err, &tce) || tce.Tool != "test_error_handling" {
		t.Errorf("ErrorHandling: %v (%T), want a *mcpgen.ToolCallError", err, err)
	}
	png, err := c.ReadStaticBinary(ctx)
	if err != nil || !strings.HasPrefix(string(png), "\x89PNG") {
		t.Errorf("ReadStaticBinary = %q, %v", png, err)
	}
	rec, err := c.ReadTemplateData(ctx, "abc")
	if err != nil || rec.ID != "abc" {
		t.Errorf("ReadTemplateData = %+v, %v", rec, err)
	}
}

// TestTypedMemoryClient writes and reads a graph and a task through the
// memory server's typed client in memory, on a SQLite store in a
// temporary directory: copied types nested from another package
// (memstore.Entity, memstore.Graph as MemstoreGraph, whose fields Graph,
// which embeds it, holds flat),
// a named string type with its constants, time.Time, templates.
func TestTypedMemoryClient(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	store, err := memstore.Open(filepath.Join(t.TempDir(), "graph.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	srv := memory.New(store, mcpgen.Options{})
	defer srv.Close()
	for _, version := range []string{"", "2025-11-25"} {
		conn, err := mcpgen.Connect(ctx, mcpgen.InMemoryTransport(srv), mcpgen.ClientOptions{ProtocolVersion: version})
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		c := memoryclient.New(conn)
		if err := c.CheckSurface(ctx); err != nil {
			t.Fatalf("CheckSurface: %v", err)
		}
		name := "Ada" + version
		created, err := c.CreateEntities(ctx, memoryclient.CreateEntities{Entities: []memoryclient.Entity{
			{Name: name, EntityType: "person", Observations: []string{"wrote the first program"}},
		}})
		if err != nil || len(created.Entities) != 1 || created.Entities[0].Name != name {
			t.Fatalf("CreateEntities = %+v, %v", created, err)
		}
		graph, err := c.OpenNodes(ctx, memoryclient.OpenNodes{Names: []string{name}})
		if err != nil || len(graph.Entities) != 1 || graph.Entities[0].Observations[0] != "wrote the first program" {
			t.Errorf("OpenNodes = %+v, %v", graph, err)
		}
		one, err := c.ReadEntity(ctx, name)
		if err != nil || len(one.Entities) != 1 || one.Entities[0].EntityType != "person" {
			t.Errorf("ReadEntity = %+v, %v", one, err)
		}
		task, err := c.CreateTask(ctx, memoryclient.CreateTask{Title: "review " + name, Entities: []string{name}})
		if err != nil || task.Task.Status != memoryclient.TaskOpen || task.Task.CreatedAt.IsZero() {
			t.Errorf("CreateTask = %+v, %v", task, err)
		}
		if _, err := c.ReadEntity(ctx, "nobody"); err == nil {
			t.Error("ReadEntity of a missing entity succeeded")
		}
	}
}

package mcpgen_test

import (
	"context"
	"go/parser"
	"go/token"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen"
	notescomp "github.com/mcpgen/mcpgen/components/notes"
	"github.com/mcpgen/mcpgen/generated/everything"
	"github.com/mcpgen/mcpgen/generated/notes"
)

// Two generated servers on one listener at different paths: the Go SDK
// client reaches each in both eras, each with its own tools and sessions.
func TestServersShareOneMux(t *testing.T) {
	notesSrv := notes.New(notescomp.NewStore(), mcpgen.Options{})
	fixture := everything.New(mcpgen.Options{})
	mux := http.NewServeMux()
	mux.Handle("/notes/mcp", mcpgen.HTTPHandler(notesSrv, mcpgen.HTTPOptions{}))
	mux.Handle("/fixture/mcp", mcpgen.HTTPHandler(fixture, mcpgen.HTTPOptions{}))
	hs := httptest.NewServer(mux)
	t.Cleanup(func() {
		notesSrv.Close()
		fixture.Close()
		hs.Close()
	})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	for _, version := range []string{"2025-11-25", "2026-07-28"} {
		for _, c := range []struct{ path, server, tool, notTool string }{
			{"/notes/mcp", "notes", "add_note", "test_simple_text"},
			{"/fixture/mcp", "everything", "test_simple_text", "add_note"},
		} {
			client := mcp.NewClient(&mcp.Implementation{Name: "mux-test", Version: "1.0.0"}, nil)
			s, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: hs.URL + c.path, MaxRetries: -1}, &mcp.ClientSessionOptions{ProtocolVersion: version})
			if err != nil {
				t.Fatalf("%s %s: connect: %v", version, c.path, err)
			}
			if got := s.InitializeResult().ServerInfo.Name; got != c.server {
				t.Errorf("%s %s: server %q, want %q", version, c.path, got, c.server)
			}
			tools, err := s.ListTools(ctx, nil)
			if err != nil {
				t.Fatalf("%s %s: list tools: %v", version, c.path, err)
			}
			var names []string
			for _, tool := range tools.Tools {
				names = append(names, tool.Name)
			}
			if !slices.Contains(names, c.tool) || slices.Contains(names, c.notTool) {
				t.Errorf("%s %s: tools %v, want %s and not %s", version, c.path, names, c.tool, c.notTool)
			}
			s.Close()
		}
	}
}

// Components and generated code are what users copy and what their
// modules contain: they may import only the public API.
func TestComponentsImportOnlyPublicPackages(t *testing.T) {
	files := 0
	for _, dir := range []string{"components", "generated"} {
		err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") {
				return err
			}
			files++
			f, err := parser.ParseFile(token.NewFileSet(), p, nil, parser.ImportsOnly)
			if err != nil {
				return err
			}
			for _, imp := range f.Imports {
				if strings.HasPrefix(imp.Path.Value, `"github.com/mcpgen/mcpgen/internal`) {
					t.Errorf("%s imports the internal package %s; use the public packages (the root package github.com/mcpgen/mcpgen, pgdsn, ...)", p, imp.Path.Value)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if files < 10 {
		t.Fatalf("found only %d Go files under components/ and generated/", files)
	}
}

package mcpgen_test

// The code of docs/testing.md: the page shows this file's code, and
// TestTestingDocShowsThisFile checks that it shows it as it is, so that
// what the page teaches compiles and passes.

import (
	"context"
	"errors"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen"
	notescomp "github.com/mcpgen/mcpgen/components/notes"
	"github.com/mcpgen/mcpgen/generated/notes"
	"github.com/mcpgen/mcpgen/generated/notes/notesclient"
)

// newNotesClient serves a notes server in this process, over the
// in-memory transport, and returns its typed client.
func newNotesClient(t *testing.T) *notesclient.Client {
	t.Helper()
	srv := notes.New(notescomp.NewStore(), mcpgen.Options{})
	t.Cleanup(srv.Close)
	conn, err := mcpgen.Connect(context.Background(), mcpgen.InMemoryTransport(srv), mcpgen.ClientOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return notesclient.New(conn)
}

func TestAddNote(t *testing.T) {
	ctx := context.Background()
	c := newNotesClient(t)
	tests := []struct {
		name    string
		in      notesclient.AddNote
		want    notesclient.Saved
		wantErr string // a tool error's text contains it
	}{
		{"first note", notesclient.AddNote{ID: "groceries", Text: "eggs"}, notesclient.Saved{ID: "groceries", Count: 1}, ""},
		{"second note", notesclient.AddNote{ID: "todo", Text: "call Bob"}, notesclient.Saved{ID: "todo", Count: 2}, ""},
		{"same id replaces", notesclient.AddNote{ID: "todo", Text: "call Ann"}, notesclient.Saved{ID: "todo", Count: 2}, ""},
		{"id breaks the pattern", notesclient.AddNote{ID: "To Do", Text: "x"}, notesclient.Saved{}, "/params/arguments/id"},
		{"empty text", notesclient.AddNote{ID: "empty"}, notesclient.Saved{}, "/params/arguments/text"},
	}
	for _, tt := range tests { // in order: the rows share one store
		t.Run(tt.name, func(t *testing.T) {
			got, err := c.AddNote(ctx, tt.in)
			if tt.wantErr != "" {
				var te *mcpgen.ToolCallError // the tool answered isError: true
				if !errors.As(err, &te) || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("AddNote(%+v) = %v, want a tool error naming %s", tt.in, err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("AddNote(%+v) = %+v, %v; want %+v", tt.in, got, err, tt.want)
			}
		})
	}

	text, err := c.ReadNote(ctx, "todo") // the resource template notes://{id}
	if err != nil || text != "call Ann" {
		t.Errorf("ReadNote(todo) = %q, %v", text, err)
	}
	var pe *mcpgen.ProtocolError // a JSON-RPC error: here, resource not found
	if _, err := c.ReadNote(ctx, "nothing"); !errors.As(err, &pe) {
		t.Errorf("ReadNote(nothing) = %v, want a protocol error", err)
	}
	if err := c.CheckSurface(ctx); err != nil { // the client matches the server
		t.Error(err)
	}
}

// TestTestingDocShowsThisFile: every Go block of docs/testing.md is a
// piece of this file, word for word.
func TestTestingDocShowsThisFile(t *testing.T) {
	page, err := os.ReadFile("docs/testing.md")
	if err != nil {
		t.Fatal(err)
	}
	self, err := os.ReadFile("testing_doc_test.go")
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```go\n(.*?)```").FindAllSubmatch(page, -1)
	if len(blocks) < 2 {
		t.Fatalf("docs/testing.md has %d Go blocks, want the helper and the test", len(blocks))
	}
	for _, b := range blocks {
		if !strings.Contains(string(self), string(b[1])) {
			t.Errorf("docs/testing.md shows code that testing_doc_test.go does not hold; copy the file's code into the page:\n%s", b[1])
		}
	}
}

// Command gosdkmain is the go-sdk counterpart of ../../../testdata/lightmain
// for footprint_test.go: one tool with a typed input and a structured
// result (the notes server's add_note), registered with mcp.AddTool and
// served over stdio, as the go-sdk documentation writes a server.
//
// It is not built by ./... (testdata is ignored); footprint_test.go names
// it.
package main

import (
	"context"
	"log"
	"os"
	"os/signal"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// AddNote is add_note's input.
type AddNote struct {
	ID   string `json:"id" jsonschema:"the identifier: letters, digits and dashes"`
	Text string `json:"text" jsonschema:"the note's text"`
}

// Saved is add_note's result.
type Saved struct {
	ID    string `json:"id" jsonschema:"the note's identifier"`
	Count int    `json:"count" jsonschema:"how many notes the store holds now"`
}

func main() {
	var (
		mu    sync.Mutex
		notes = map[string]string{}
	)
	s := mcp.NewServer(&mcp.Implementation{Name: "notes", Title: "Notes", Version: "1.0.0"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "add_note", Title: "Add note", Description: "Stores a note under an identifier."},
		func(_ context.Context, _ *mcp.CallToolRequest, in AddNote) (*mcp.CallToolResult, Saved, error) {
			mu.Lock()
			defer mu.Unlock()
			notes[in.ID] = in.Text
			return nil, Saved{ID: in.ID, Count: len(notes)}, nil
		})

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := s.Run(ctx, &mcp.StdioTransport{}); err != nil && ctx.Err() == nil {
		log.Fatal(err)
	}
}

// Package notes is a small example server: a tool with a dependency and a
// structured result, a resource template with completion, and a prompt. It
// imports only the public package github.com/mcpgen/mcpgen, as a team's
// own module would; the root package's examples serve it, and the
// external-module test builds it in a module of its own.
//
//mcp:server name=notes title="Notes" version=1.0.0
package notes

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/mcpgen/mcpgen"
)

// Store keeps the notes in memory; the generated New takes it as a
// dependency.
type Store struct {
	mu    sync.Mutex
	notes map[string]string
}

// NewStore returns an empty store.
func NewStore() *Store { return &Store{notes: map[string]string{}} }

// Saved is what add_note returns.
type Saved struct {
	// The note's identifier.
	ID string `json:"id"`
	// How many notes the store holds now.
	Count int `json:"count"`
}

// AddNote stores a note under an identifier.
//
//mcp:tool name=add_note title="Add note" idempotent destructive=false
type AddNote struct {
	// The identifier: letters, digits and dashes.
	ID string `json:"id" jsonschema:"pattern=^[a-z0-9-]+$"`
	// The note's text.
	Text string `json:"text" jsonschema:"minLength=1"`
}

// Call stores the note.
func (in AddNote) Call(ctx context.Context, req *mcpgen.Request, s *Store) (Saved, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.notes[in.ID] = in.Text
	_ = req.Log(ctx, "info", "notes", "saved "+in.ID)
	return Saved{ID: in.ID, Count: len(s.notes)}, nil
}

// Note is one note, by identifier.
//
//mcp:resource name=note uri=notes://{id} mime=text/plain
type Note struct {
	ID string `json:"id"`
}

// Read returns the note's text.
func (n Note) Read(ctx context.Context, s *Store) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	text, ok := s.notes[n.ID]
	if !ok {
		return "", fmt.Errorf("note %s: %w", n.ID, mcpgen.ErrResourceNotFound)
	}
	return text, nil
}

// Complete offers the identifiers that start with what was typed.
func (Note) Complete(ctx context.Context, c mcpgen.CompleteRequest, s *Store) ([]string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var ids []string
	for id := range s.notes {
		if strings.HasPrefix(id, c.Value) {
			ids = append(ids, id)
		}
	}
	sort.Strings(ids)
	return ids, nil
}

// Summarize asks the model to summarise one note.
//
//mcp:prompt name=summarize title="Summarize a note"
type Summarize struct {
	// The identifier of the note.
	ID string `json:"id"`
}

// Get builds the prompt from the note's text.
func (p Summarize) Get(ctx context.Context, s *Store) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	text, ok := s.notes[p.ID]
	if !ok {
		return "", fmt.Errorf("%w: no note %q", mcpgen.ErrInvalidParams, p.ID)
	}
	return "Summarize this note in one sentence:\n\n" + text, nil
}

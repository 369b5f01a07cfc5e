// Package options is a golden case for the directive options: names,
// titles, descriptions, icons, scopes, annotation hints, cache hints and
// MIME types, and the server's own options with quoted values.
//
//mcp:server name=options title="Options \"showcase\"" version=2.3.4 instructions="Search before you fetch.\nBe brief."
package options

import (
	"context"
	"time"

	"github.com/mcpgen/mcpgen"
)

// SearchDocs finds documents.
//
//mcp:tool name=search title="Search documents" readonly openworld scope=docs:read icon=https://example.com/search.png icon=https://example.com/search.svg?v=2
type SearchDocs struct {
	// Words to look for.
	Query string `json:"query" jsonschema:"minLength=2,example=golang,example=mcp"`
	// Maximum number of hits.
	Limit int `json:"limit,omitempty" jsonschema:"minimum=1,maximum=50,default=10"`
	// Only documents changed after this time.
	Since time.Time `json:"since,omitzero" jsonschema:"format=date-time"`
	// Sort order.
	Order string `json:"order,omitempty" jsonschema:"enum=relevance,enum=date"`
	// Tags every hit must carry.
	Tags []string `json:"tags,omitempty" jsonschema:"minItems=1,maxItems=5"`
	// Contact for follow-ups.
	Email string `json:"email,omitempty" jsonschema:"format=email,pattern=@example\\.com$"`
}

// Call searches.
func (in SearchDocs) Call(ctx context.Context) (string, error) { return "no hits for " + in.Query, nil }

// Purge deletes everything: every hint left to its default.
//
//mcp:tool scope=admin
type Purge struct{}

// Call purges.
func (Purge) Call(ctx context.Context) (string, error) { return "purged", nil }

// Rename renames a document: hints given explicitly.
//
//mcp:tool destructive=false idempotent=true openworld=false
type Rename struct {
	From string `json:"from"`
	To   string `json:"to"`
}

// Call renames.
func (in Rename) Call(ctx context.Context) (string, error) { return in.From + " -> " + in.To, nil }

// Touch is read-only but not idempotent.
//
//mcp:tool readonly idempotent=false description="Marks a document as seen (overrides the doc comment)."
type Touch struct{}

// Call touches.
func (Touch) Call(ctx context.Context) (string, error) { return "seen", nil }

// Status is the live service status, cached publicly for a minute.
//
//mcp:resource uri=status://now mime=application/json ttl=60000 cache=public title="Live status" scope=ops icon="data:image/svg+xml;base64,PHN2Zy8+"
type Status struct{}

// Read returns the status document.
func (Status) Read(ctx context.Context) (string, error) { return `{"ok":true}`, nil }

// Profile is a user profile, private to the caller.
//
//mcp:resource name=user-profile uri=profiles://{user} ttl=0 cache=private mime=text/plain
type Profile struct {
	User string `json:"user"`
}

// Read returns the profile.
func (p Profile) Read(ctx context.Context) (string, error) { return "profile of " + p.User, nil }

// Complete offers users.
func (Profile) Complete(ctx context.Context, c mcpgen.CompleteRequest) ([]string, error) {
	return []string{"ada", "bob"}, nil
}

// Standup drafts a stand-up note.
//
//mcp:prompt name=standup title="Daily stand-up" scope=team icon=https://example.com/standup.webp
type Standup struct {
	// What was done yesterday.
	Yesterday string `json:"yesterday"`
}

// Get drafts it.
func (p Standup) Get(ctx context.Context) (string, error) { return "Yesterday: " + p.Yesterday, nil }

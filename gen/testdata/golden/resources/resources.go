// Package resources is a golden case: fixed-URI resources of every result
// kind (text, JSON, blob, raw) and URI templates, one with completion.
//
//mcp:server name=resources
package resources

import (
	"context"
	"sort"
	"strings"

	"github.com/mcpgen/mcpgen"
)

// Readme is the project's read-me: a fixed URI with a text result.
//
//mcp:resource uri=docs://readme mime=text/markdown
type Readme struct{}

// Read returns the text.
func (Readme) Read(ctx context.Context) (string, error) { return "# Read me\n", nil }

// Settings is the application's configuration as JSON.
//
//mcp:resource uri=config://app
type Settings struct{}

// AppConfig is what Settings reads.
type AppConfig struct {
	Name    string   `json:"name"`
	Debug   bool     `json:"debug"`
	Plugins []string `json:"plugins,omitempty"`
}

// Read returns the configuration.
func (Settings) Read(ctx context.Context) (AppConfig, error) {
	return AppConfig{Name: "demo", Plugins: []string{"a", "b"}}, nil
}

// Logo is the logo picture: a blob result.
//
//mcp:resource uri=images://logo.png mime=image/png
type Logo struct{}

// Read returns the bytes.
func (Logo) Read(ctx context.Context) ([]byte, error) { return []byte{0x89, 'P', 'N', 'G'}, nil }

// Bundle is several documents at once: a raw result.
//
//mcp:resource uri=bundle://all
type Bundle struct{}

// Read builds the contents itself.
func (*Bundle) Read(ctx context.Context) (*mcpgen.ReadResourceResult, error) {
	one, two := "one", "two"
	return &mcpgen.ReadResourceResult{Contents: []mcpgen.ResourceContents{
		{URI: "bundle://all/1", MimeType: "text/plain", Text: &one},
		{URI: "bundle://all/2", MimeType: "text/plain", Text: &two},
	}}, nil
}

var notes = map[string]map[string]string{
	"work": {"plan.md": "ship it", "2026/q1.md": "first quarter"},
	"home": {"list.txt": "milk"},
}

// Note is one note of a folder: a template whose variables bind to the
// fields Folder ({folder}) and Path ({+path}, may hold slashes).
//
//mcp:resource uri=notes://{folder}/{+path} mime=text/plain
type Note struct {
	Folder string `json:"folder"`
	Path   string `json:"path"`
}

// Read returns the note or the not-found error.
func (n Note) Read(ctx context.Context) (string, error) {
	text, ok := notes[n.Folder][n.Path]
	if !ok {
		return "", mcpgen.ErrResourceNotFound
	}
	return text, nil
}

// Complete offers folder names, and paths of the folder already chosen.
func (n Note) Complete(ctx context.Context, c mcpgen.CompleteRequest) ([]string, error) {
	var out []string
	switch c.Argument {
	case "folder":
		for f := range notes {
			out = append(out, f)
		}
	case "path":
		for p := range notes[c.Context["folder"]] {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	var match []string
	for _, v := range out {
		if strings.HasPrefix(v, c.Value) {
			match = append(match, v)
		}
	}
	return match, nil
}

// Account is a user account as JSON: a template without completion, bound
// to a field whose Go name differs from the variable.
//
//mcp:resource uri=accounts://{account_id}
type Account struct {
	ID string `json:"account_id"`
}

// AccountInfo is what Account reads.
type AccountInfo struct {
	ID    string `json:"id"`
	Admin bool   `json:"admin"`
}

// Read returns the account.
func (a Account) Read(ctx context.Context) (*AccountInfo, error) {
	return &AccountInfo{ID: a.ID, Admin: a.ID == "root"}, nil
}

package everything

import (
	"context"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/mcpgen/mcpgen"
)

// This file holds the resources and the resource template.

// A fixed text.
//
//mcp:resource uri=test://static-text mime=text/plain ttl=60000 cache=public title="Static text"
type StaticText struct{}

// Read returns the text.
func (StaticText) Read(context.Context) (string, error) {
	return "The static text resource of the conformance fixture server.", nil
}

// A fixed binary resource: a one-pixel PNG image.
//
//mcp:resource uri=test://static-binary mime=image/png ttl=60000 cache=public title="Static binary"
type StaticBinary struct{}

// Read returns the image bytes.
func (StaticBinary) Read(context.Context) ([]byte, error) { return pixelPNG, nil }

// A resource to subscribe to; its text tells when it was read.
//
//mcp:resource uri=test://watched-resource mime=text/plain cache=private title="Watched resource"
type WatchedResource struct{}

// Read returns the text.
func (WatchedResource) Read(context.Context) (string, error) {
	return "Watched resource, read at " + time.Now().UTC().Format(time.RFC3339), nil
}

// A JSON record for any identifier made of letters, digits, _ and -.
//
//mcp:resource uri=test://template/{id}/data ttl=60000 cache=public title="Data by identifier"
type TemplateData struct {
	ID string `json:"id"`
}

// Record is the content of a template resource.
type Record struct {
	ID     string `json:"id"`
	Source string `json:"source"`
	Text   string `json:"text"`
}

var recordID = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// Read returns the record, or not-found for an identifier out of range.
func (r TemplateData) Read(context.Context) (Record, error) {
	if !recordID.MatchString(r.ID) {
		return Record{}, mcpgen.ErrResourceNotFound
	}
	return Record{ID: r.ID, Source: "test://template/{id}/data", Text: "Record number " + r.ID}, nil
}

// sampleIDs are identifiers offered by completion.
var sampleIDs = []string{"1", "2", "3", "42", "123", "alpha", "beta"}

// Complete offers identifiers starting with what was typed.
func (TemplateData) Complete(_ context.Context, c mcpgen.CompleteRequest) ([]string, error) {
	return withPrefix(sampleIDs, c.Value), nil
}

// withPrefix returns the candidates that start with prefix, sorted.
func withPrefix(candidates []string, prefix string) []string {
	out := []string{}
	for _, c := range candidates {
		if strings.HasPrefix(c, prefix) {
			out = append(out, c)
		}
	}
	sort.Strings(out)
	return out
}

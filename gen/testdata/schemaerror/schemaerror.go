// Package schemaerror passes the checker, but a type describes itself with
// an empty JSON Schema, which would accept anything: the schema stage
// reports it at the tool.
//
//mcp:server
package schemaerror

import (
	"context"

	"github.com/invopop/jsonschema"
)

// Loose is a type whose JSONSchema method says nothing.
type Loose struct{ V string }

// JSONSchema describes Loose as the empty schema.
func (Loose) JSONSchema() *jsonschema.Schema { return &jsonschema.Schema{} }

// Accept takes a Loose argument.
//
//mcp:tool readonly
type Accept struct { // want `tool accept: schema at /properties/loose came out empty`
	Loose Loose `json:"loose"`
}

// Call accepts.
func (Accept) Call(context.Context) (string, error) { return "", nil }

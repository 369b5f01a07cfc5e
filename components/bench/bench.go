// Package bench is the benchmark server: the tools the load generator in
// bench/ calls on every target (this server, the peer SDKs and a raw
// JSON-RPC handler), so that all of them answer the same requests with the
// same bytes of content.
//
//   - echo returns its message as one text block: the smallest useful call;
//   - ingest takes a batch of knowledge-graph entities and counts them: a
//     nested input to validate and decode, and a structured result;
//   - noop_01 .. noop_48 take nothing and do nothing; they are there so that
//     tools/list has 50 tools to encode, as a real server might.
//
//mcp:server name=bench title="Benchmark server" version=0.1.0
package bench

import "context"

// Return the message it is given.
//
//mcp:tool readonly
type Echo struct {
	// The message to echo back.
	Message string `json:"message"`
}

// Call returns the message.
func (in Echo) Call(context.Context) (string, error) { return in.Message, nil }

// Count a batch of knowledge-graph entities and their observations.
//
//mcp:tool idempotent
type Ingest struct {
	// The entities to ingest.
	Entities []Entity `json:"entities" jsonschema:"minItems=1"`
}

// Entity is one knowledge-graph entity, shaped like mcp-memory's.
type Entity struct {
	// The name of the entity.
	Name string `json:"name"`
	// The type of the entity.
	EntityType string `json:"entityType"`
	// Observations about the entity.
	Observations []string `json:"observations"`
}

// Counts is what ingest saw.
type Counts struct {
	// The number of entities.
	Count int `json:"count"`
	// The number of observations over all entities.
	Observations int `json:"observations"`
}

// Call counts the entities and observations.
func (in Ingest) Call(context.Context) (Counts, error) {
	c := Counts{Count: len(in.Entities)}
	for _, e := range in.Entities {
		c.Observations += len(e.Observations)
	}
	return c, nil
}

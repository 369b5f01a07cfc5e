// Package tools holds what the benchmark servers in bench/ share: the input
// and output types of the benchmark tools (the same shapes as
// components/bench), their descriptions, and the names of the filler tools.
// Each peer server registers them the way its own library recommends.
package tools

import (
	_ "embed"
	"fmt"
	"strings"
)

// ListJSON is the tools array of mcp-bench's tools/list, which the raw
// target sends as is (the smoke test in bench/ checks they agree; refresh it
// with UPDATE_RAW_LIST=1 go test -run Smoke).
var ListJSON = strings.TrimSpace(listJSON)

//go:embed list.json
var listJSON string

// Descriptions of the tools, as components/bench gives them.
const (
	EchoDescription   = "Return the message it is given."
	IngestDescription = "Count a batch of knowledge-graph entities and their observations."
	NoopDescription   = "Do nothing (filler tool, so that tools/list has 50 tools)."
)

// NoopCount is the number of filler tools, noop_01 .. noop_48.
const NoopCount = 48

// NoopName returns the name of filler tool i (1-based).
func NoopName(i int) string { return fmt.Sprintf("noop_%02d", i) }

// Names returns the 50 tool names in the order tools/list gives them.
func Names() []string {
	names := []string{"echo", "ingest"}
	for i := 1; i <= NoopCount; i++ {
		names = append(names, NoopName(i))
	}
	return names
}

// EchoIn is the input of echo.
type EchoIn struct {
	Message string `json:"message" jsonschema:"The message to echo back."`
}

// IngestIn is the input of ingest.
type IngestIn struct {
	Entities []Entity `json:"entities" jsonschema:"The entities to ingest."`
}

// Entity is one knowledge-graph entity.
type Entity struct {
	Name         string   `json:"name" jsonschema:"The name of the entity."`
	EntityType   string   `json:"entityType" jsonschema:"The type of the entity."`
	Observations []string `json:"observations" jsonschema:"Observations about the entity."`
}

// Counts is the output of ingest.
type Counts struct {
	Count        int `json:"count" jsonschema:"The number of entities."`
	Observations int `json:"observations" jsonschema:"The number of observations over all entities."`
}

// Count is ingest's work.
func Count(in IngestIn) Counts {
	c := Counts{Count: len(in.Entities)}
	for _, e := range in.Entities {
		c.Observations += len(e.Observations)
	}
	return c
}

// NoopIn is the (empty) input of the filler tools.
type NoopIn struct{}

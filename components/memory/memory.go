// Package memory is a knowledge-graph memory for agents: entities with
// observations, relations between them, and tasks linked to entities. Its
// tools are a drop-in for the reference server @modelcontextprotocol/server-memory
// (same names, argument shapes, titles, hints and results); the resources,
// prompts and task tools are ours. It publishes one Agent Skill
// (skills/tidy-knowledge-graph): how an agent keeps the graph tidy, and
// one view of the MCP Apps extension (ui/explorer.html, a single-file
// HTML bundle): hosts that show views show the results of read_graph,
// search_nodes and open_nodes in the graph explorer.
//
//mcp:server name=memory title="Knowledge graph memory" version=0.1.0 description="Knowledge-graph memory for agents: entities, observations and relations, on SQLite or PostgreSQL" instructions="A persistent knowledge graph: record entities, their observations and relations with the tools; read memory://knowledge-graph for the whole graph and memory://session/delta for what changed."
//mcp:skill root=skills
//mcp:view uri=ui://memory/explorer.html file=ui/explorer.html title="Knowledge graph explorer" description="Browse the entities and relations a read_graph, search_nodes or open_nodes call returned."
package memory

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mcpgen/mcpgen"
	"github.com/mcpgen/mcpgen/components/memory/memstore"
)

// Resource URIs whose contents change when the graph or the tasks change.
const (
	uriGraph    = "memory://knowledge-graph"
	uriEntities = "memory://graph/entities"
	uriTasks    = "memory://tasks/active"
	uriDelta    = "memory://session/delta"
)

// graphChanged tells subscribers that the graph resources changed.
func graphChanged(req *mcpgen.Request) {
	req.ResourceUpdated(uriGraph)
	req.ResourceUpdated(uriEntities)
	req.ResourceUpdated(uriDelta)
}

// tasksChanged tells subscribers that the task resources changed.
func tasksChanged(req *mcpgen.Request) {
	req.ResourceUpdated(uriTasks)
	req.ResourceUpdated(uriDelta)
}

// Done is the result of the delete tools, as the reference server gives it.
type Done struct {
	Success bool   `json:"success"`
	Message string `json:"message"`
}

// ContentText is the text block the reference gives: the message alone.
func (d Done) ContentText() string { return d.Message }

// pretty renders v as JavaScript's JSON.stringify(v, null, 2) does, so that
// text content matches the reference server's byte for byte: two-space
// indentation, no escaping of <, > and &, nor of U+2028 and U+2029.
func pretty(v any) string {
	if s, ok := prettyFast(v); ok {
		return s
	}
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return fmt.Sprintf("%v", v)
	}
	s := strings.TrimSuffix(b.String(), "\n")
	return strings.NewReplacer(`\u2028`, "\u2028", `\u2029`, "\u2029").Replace(s)
}

// completeEntity offers entity names starting with what was typed.
func completeEntity(ctx context.Context, store memstore.Store, prefix string) ([]string, error) {
	return store.EntityNames(ctx, prefix, 100)
}

// errInvalidArgument makes a prompt argument error a JSON-RPC invalid
// params error rather than an internal one.
var errInvalidArgument = mcpgen.ErrInvalidParams

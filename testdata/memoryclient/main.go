// Command memoryclient writes a small knowledge graph into mcp-memory and
// reads it back, through the generated typed client alone:
//
//	memoryclient stdio mcp-memory --db /tmp/graph.db   # starts the server
//	memoryclient http http://127.0.0.1:8080/mcp        # a running server
//
// It is the README's example of a typed client. It is not built by ./...
// (testdata is ignored); deps_test.go lists its dependencies (no SQLite, no
// PostgreSQL: the client links none of the server's store) and
// typedclient_test.go runs it against mcp-memory over stdio and HTTP.
package main

import (
	"context"
	"fmt"
	"log"
	"os"

	"github.com/mcpgen/mcpgen"
	"github.com/mcpgen/mcpgen/generated/memory/memoryclient"
)

func main() {
	if len(os.Args) < 3 {
		log.Fatal("usage: memoryclient stdio COMMAND [ARGS...] | memoryclient http URL")
	}
	var t mcpgen.ClientTransport
	if os.Args[1] == "stdio" {
		t = mcpgen.CommandTransport(os.Args[2], os.Args[3:]...)
	} else {
		t = mcpgen.HTTPTransport(os.Args[2])
	}
	ctx := context.Background()
	conn, err := mcpgen.Connect(ctx, t, mcpgen.ClientOptions{})
	if err != nil {
		log.Fatal(err)
	}
	defer conn.Close()
	memory := memoryclient.New(conn)
	if err := memory.CheckSurface(ctx); err != nil {
		log.Fatal(err) // a server of another version
	}

	// Write: two entities and a relation between them.
	_, err = memory.CreateEntities(ctx, memoryclient.CreateEntities{Entities: []memoryclient.Entity{
		{Name: "Ada", EntityType: "person", Observations: []string{"wrote the first program"}},
		{Name: "Analytical Engine", EntityType: "machine", Observations: []string{}},
	}})
	if err != nil {
		log.Fatal(err)
	}
	_, err = memory.CreateRelations(ctx, memoryclient.CreateRelations{Relations: []memoryclient.Relation{
		{From: "Ada", To: "Analytical Engine", RelationType: "programmed"},
	}})
	if err != nil {
		log.Fatal(err)
	}

	// Read: the whole graph (a tool), and one entity (a resource template).
	graph, err := memory.ReadGraph(ctx, memoryclient.ReadGraph{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d entities, %d relations\n", len(graph.Entities), len(graph.Relations))
	ada, err := memory.ReadEntity(ctx, "Ada")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s (%s): %v\n", ada.Entities[0].Name, ada.Entities[0].EntityType, ada.Entities[0].Observations)
}

package mcpgen_test

import (
	"testing"

	"github.com/mcpgen/mcpgen"
	"github.com/mcpgen/mcpgen/internal/eventsql/storetest"
)

func TestMemoryEventStore(t *testing.T) {
	storetest.Run(t, func(*testing.T) mcpgen.EventStore { return &mcpgen.MemoryEventStore{} })
}

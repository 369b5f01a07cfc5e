package eventstore_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/mcpgen/mcpgen"
	"github.com/mcpgen/mcpgen/eventstore"
	"github.com/mcpgen/mcpgen/internal/eventsql/storetest"
)

func open(t testing.TB, path string) eventstore.Store {
	t.Helper()
	s, err := eventstore.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestSQLiteEventStore(t *testing.T) {
	storetest.Run(t, func(t *testing.T) mcpgen.EventStore {
		s := open(t, filepath.Join(t.TempDir(), "events.db"))
		t.Cleanup(func() { s.Close() })
		return s
	})
}

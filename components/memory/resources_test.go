package memory

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen"
	"github.com/mcpgen/mcpgen/components/memory/memstore"
)

// TestResourceClientMistakes: the resources answered a client's mistakes
// with an uncoded error, which the runtime turns into -32603 and logs at
// ERROR as its own failure: memory://changes/0 once history was pruned
// (the starting cursor the template's description gives), a cursor ahead
// of the newest change, and an entity name longer than any entity can
// have. Cursor 0 now answers from the oldest change kept; the others are
// invalid params (-32602) naming what to send instead.
func TestResourceClientMistakes(t *testing.T) {
	ctx := context.Background()
	store, err := memstore.Open(filepath.Join(t.TempDir(), "m.db"), memstore.WithChangeRetention(5))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	for i := range 8 {
		if _, err := store.CreateEntities(ctx, []memstore.Entity{{Name: fmt.Sprint("e", i), EntityType: "t"}}); err != nil {
			t.Fatal(err)
		}
	}

	d, err := Changes{Since: "0"}.Read(ctx, store)
	if err != nil {
		t.Fatalf("changes/0 after pruning: %v", err)
	}
	if len(d.Changes) != 5 || d.Changes[0].Seq != 4 || d.Next != 8 || !strings.Contains(d.Note, "pruned") {
		t.Fatalf("changes/0 after pruning: %+v", d)
	}

	invalid := func(name string, err error, hint string) {
		t.Helper()
		// The runtime answers with the code of the ProtocolError in the
		// chain and the whole error's text; without one, -32603.
		var pe *mcpgen.ProtocolError
		if !errors.As(err, &pe) || pe.Code != mcpgen.CodeInvalidParams {
			t.Errorf("%s: %v, want invalid params (%d)", name, err, mcpgen.CodeInvalidParams)
			return
		}
		if !strings.Contains(err.Error(), hint) {
			t.Errorf("%s: message %q does not say %q", name, err, hint)
		}
	}
	_, err = Changes{Since: "1"}.Read(ctx, store) // changes 2 and 3 were pruned
	invalid("changes/1", err, "memory://changes/0")
	_, err = Changes{Since: "99"}.Read(ctx, store)
	invalid("changes/99", err, "memory://changes/8")
	_, err = Changes{Since: "soon"}.Read(ctx, store)
	invalid("changes/soon", err, "memory://changes/0")
	_, err = Entity{Name: strings.Repeat("x", 5000)}.Read(ctx, store)
	invalid("entities/<5000 bytes>", err, "at most 4096 bytes")

	// An entity that could exist but does not is still not found.
	if _, err := (Entity{Name: "nobody"}).Read(ctx, store); !errors.Is(err, mcpgen.ErrResourceNotFound) {
		t.Errorf("entities/nobody: %v", err)
	}
}

package memory

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen"
	"github.com/mcpgen/mcpgen/components/memory/memstore"
)

// grownStore is a store holding n entities, each with obs observations
// of about obsLen bytes (the first plain ASCII, copied as it is; the
// others with quotes, a backslash, a tab and non-ASCII text, all escaped
// twice in the text block), and a relation from each entity to the one
// before.
func grownStore(t *testing.T, n, obs, obsLen int) *memstore.SQLite {
	t.Helper()
	ctx := context.Background()
	store, err := memstore.Open(filepath.Join(t.TempDir(), "m.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	name := func(i int) string { return fmt.Sprintf("entity %d \"é\"", i) }
	pad := strings.Repeat("x", max(0, obsLen-40))
	const batch = 2000
	for start := 0; start < n; start += batch {
		var ents []memstore.Entity
		var rels []memstore.Relation
		for i := start; i < min(n, start+batch); i++ {
			e := memstore.Entity{Name: name(i), EntityType: "thing\\kind"}
			for j := range obs {
				o := fmt.Sprintf("fact %d\tof %d: ✓ <%s>", j, i, pad)
				if j == 0 {
					o = fmt.Sprintf("fact %d of %d: %s", j, i, pad)
				}
				e.Observations = append(e.Observations, o)
			}
			ents = append(ents, e)
			if i > 0 {
				rels = append(rels, memstore.Relation{From: name(i), To: name(i - 1), RelationType: "follows"})
			}
		}
		if _, err := store.CreateEntities(ctx, ents); err != nil {
			t.Fatal(err)
		}
		if _, err := store.CreateRelations(ctx, rels); err != nil {
			t.Fatal(err)
		}
	}
	return store
}

// bodyBytes reads a streamed body back.
func bodyBytes(t *testing.T, b mcpgen.Body) []byte {
	t.Helper()
	var buf bytes.Buffer
	if n, err := b.WriteTo(&buf); err != nil || n != b.Len() {
		t.Fatalf("body: %d of %d bytes: %v", n, b.Len(), err)
	}
	return buf.Bytes()
}

// spillFiles counts the process's open spill files (Linux; -1 elsewhere).
func spillFiles(t *testing.T) int {
	t.Helper()
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return -1
	}
	n := 0
	for _, fd := range fds {
		if link, err := os.Readlink(filepath.Join("/proc/self/fd", fd.Name())); err == nil && strings.Contains(link, "mcpgen-spill-") {
			n++
		}
	}
	return n
}

// TestReadGraphStreamed: read_graph's streamed text block and
// structuredContent, spilled to files, are byte for byte the renderings
// of the graph held in memory (the reference's text, pretty_test.go), and
// memory://knowledge-graph streams the same text; releasing them closes
// their files.
func TestReadGraphStreamed(t *testing.T) {
	ctx := context.Background()
	store := grownStore(t, 6000, 3, 60)
	full, err := store.ReadGraph(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := renderGraph(full)

	for _, inFiles := range []bool{false, true} {
		testReadGraphStreamed(t, store, full, want, inFiles)
	}
}

// testReadGraphStreamed checks read_graph and the resource against the
// graph full and its rendering want, with answers held in memory or
// (inFiles) with a smaller spillMemory, in files.
func testReadGraphStreamed(t *testing.T, store memstore.Store, full memstore.Graph, want Graph, inFiles bool) {
	t.Helper()
	ctx := context.Background()
	if inFiles {
		defer func(n int) { spillMemory = n }(spillMemory)
		spillMemory = 1 << 20
	}
	g, err := ReadGraph{}.Call(ctx, store)
	if err != nil {
		t.Fatal(err)
	}
	if g.r.textOut.Spilled() != inFiles || g.r.jsOut.Spilled() != inFiles {
		t.Fatalf("renderings of %d and %d bytes in files: %v and %v; want %v", g.r.textOut.Len(), g.r.jsOut.Len(), g.r.textOut.Spilled(), g.r.jsOut.Spilled(), inFiles)
	}
	text, js := bodyBytes(t, g.StreamedText()), bodyBytes(t, g.StreamedJSON())
	if !bytes.Equal(text, want.EncodedText()) {
		t.Fatalf("streamed text block (%d bytes) differs from the held rendering (%d bytes)", len(text), len(want.EncodedText()))
	}
	if !bytes.Equal(js, want.EncodedJSON()) {
		t.Fatalf("streamed structuredContent (%d bytes) differs from the held rendering (%d bytes)", len(js), len(want.EncodedJSON()))
	}
	// The structuredContent has the output schema's shape, and nothing
	// more.
	dec := json.NewDecoder(bytes.NewReader(js))
	dec.DisallowUnknownFields()
	var back memstore.Graph
	if err := dec.Decode(&back); err != nil || len(back.Entities) != 6000 || len(back.Relations) != 5999 {
		t.Fatalf("structuredContent: %d entities, %d relations, %v", len(back.Entities), len(back.Relations), err)
	}

	kg, err := KnowledgeGraph{}.Read(ctx, store)
	if err != nil {
		t.Fatal(err)
	}
	if kg.StreamedJSON() != nil || !bytes.Equal(bodyBytes(t, kg.StreamedText()), text) {
		t.Fatal("memory://knowledge-graph: want read_graph's text block alone")
	}
	// Through the runtime's helpers: a streamed resource, and a
	// materialised copy for an encoder other than the runtime's.
	if _, err := mcpgen.ResourceJSON("memory://knowledge-graph", "application/json", kg, nil); err != nil {
		t.Fatal(err)
	}
	var fromText memstore.Graph
	if b, err := json.Marshal(kg); err != nil || json.Unmarshal(b, &fromText) != nil || !reflect.DeepEqual(fromText, full) {
		t.Fatalf("json.Marshal of the resource's graph: %.100s, %v; want the graph", b, err)
	}

	if n := spillFiles(t); n >= 0 && inFiles && n != 3 {
		t.Fatalf("%d spill files open, want 3 (read_graph's two, the resource's one)", n)
	} else if n > 0 && !inFiles {
		t.Fatalf("%d spill files open for answers held in memory", n)
	}
	g.Release()
	kg.Release()
	if n := spillFiles(t); n > 0 {
		t.Fatalf("%d spill files still open once released", n)
	}
}

// brokenStore fails its graph walk after `after` entities, as a store
// whose connection drops mid-read does.
type brokenStore struct {
	memstore.Store
	after int
}

var errBroken = errors.New("the store's connection dropped")

func (s brokenStore) WalkGraph(ctx context.Context, entity func(memstore.Entity) error, relation func(memstore.Relation) error) error {
	n := 0
	return s.Store.WalkGraph(ctx, func(e memstore.Entity) error {
		if n++; n > s.after {
			return errBroken
		}
		return entity(e)
	}, relation)
}

// TestReadGraphStoreFailsMidWalk: a store failing after part of the
// graph was rendered (into files) fails the call with its error before
// anything is sent: the tool answers an error result, not a part of the
// graph, and the files are closed.
func TestReadGraphStoreFailsMidWalk(t *testing.T) {
	ctx := context.Background()
	store := grownStore(t, 6000, 3, 60)
	for _, after := range []int{0, 5000} {
		g, err := ReadGraph{}.Call(ctx, brokenStore{store, after})
		if !errors.Is(err, errBroken) {
			t.Fatalf("after %d entities: %v, want the store's error", after, err)
		}
		res, err := mcpgen.StructuredResult(g, err)
		if err != nil || !res.IsError || len(res.Content) != 1 || !strings.Contains(res.Content[0].Text, errBroken.Error()) {
			t.Fatalf("after %d entities: %+v, %v; want an error result naming the store's error", after, res, err)
		}
		if _, err := (KnowledgeGraph{}).Read(ctx, brokenStore{store, after}); !errors.Is(err, errBroken) {
			t.Fatalf("resource, after %d entities: %v, want the store's error", after, err)
		}
		if n := spillFiles(t); n > 0 {
			t.Fatalf("after %d entities: %d spill files left open", after, n)
		}
	}
}

// peakStore measures the live heap every 1,000 entities of a walk.
type peakStore struct {
	memstore.Store
	peak *uint64
}

func (s peakStore) WalkGraph(ctx context.Context, entity func(memstore.Entity) error, relation func(memstore.Relation) error) error {
	n := 0
	var ms runtime.MemStats
	measure := func() {
		runtime.GC()
		runtime.ReadMemStats(&ms)
		*s.peak = max(*s.peak, ms.HeapAlloc)
	}
	err := s.Store.WalkGraph(ctx, func(e memstore.Entity) error {
		if n++; n%1000 == 0 {
			measure()
		}
		return entity(e)
	}, relation)
	measure()
	return err
}

// TestReadGraphHeapBounded: rendering a graph of about 30 MB (text block
// and structuredContent) grows the live heap by a few buffers and what
// the two spills hold before they move to files (spillMemory each), not
// by the graph: the live heap is measured after a collection every 1,000
// entities of the walk. (A rendering held in memory grows it by the
// whole 30 MB.)
func TestReadGraphHeapBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("grows a graph of 20,000 entities")
	}
	ctx := context.Background()
	store := grownStore(t, 20_000, 3, 220)
	// A walk loads the store's in-memory mirror of the graph (memstore's
	// mirror.go), which stays: load it before the baseline.
	nop := func(memstore.Entity) error { return nil }
	if err := store.WalkGraph(ctx, nop, func(memstore.Relation) error { return nil }); err != nil {
		t.Fatal(err)
	}
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	base, peak := ms.HeapAlloc, uint64(0)
	g, err := ReadGraph{}.Call(ctx, peakStore{store, &peak})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Release()
	size := g.StreamedText().Len() + g.StreamedJSON().Len()
	bound := 2*spillMemory + 4<<20 // both spills' memory, and the buffers
	if size < 25<<20 {
		t.Fatalf("the graph renders to %d bytes; the test wants more than 25 MB", size)
	}
	growth := int64(peak) - int64(base)
	t.Logf("live heap growth %d bytes while rendering %d", growth, size)
	if growth > int64(bound) {
		t.Fatalf("the live heap grew by %d bytes while rendering %d bytes; want at most %d", growth, size, bound)
	}
}

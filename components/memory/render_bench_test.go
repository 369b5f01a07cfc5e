package memory

import (
	"context"
	"fmt"
	"testing"

	"github.com/mcpgen/mcpgen/components/memory/memstore"
)

// sliceStore hands out a graph held in memory, as the mirror does.
type sliceStore struct {
	memstore.Store
	g memstore.Graph
}

func (s sliceStore) WalkGraph(ctx context.Context, entity func(memstore.Entity) error, relation func(memstore.Relation) error) error {
	for _, e := range s.g.Entities {
		if err := entity(e); err != nil {
			return err
		}
	}
	for _, r := range s.g.Relations {
		if err := relation(r); err != nil {
			return err
		}
	}
	return nil
}

// BenchmarkStreamGraph renders read_graph's answer (both forms, into
// spills) for 10,000 entities shaped like the bench suite's (two
// observations each, a relation to the previous one) handed out from
// memory: the renderer's and the spills' cost, without the store's.
func BenchmarkStreamGraph(b *testing.B) {
	var g memstore.Graph
	name := func(i int) string { return fmt.Sprintf("amber-%d-birch", i) }
	for i := range 10_000 {
		g.Entities = append(g.Entities, memstore.Entity{Name: name(i), EntityType: "person",
			Observations: []string{fmt.Sprintf("created by the benchmark as number %d", i), fmt.Sprintf("tag t%03d", i%997)}})
		if i > 0 {
			g.Relations = append(g.Relations, memstore.Relation{From: name(i), To: name(i - 1), RelationType: "follows"})
		}
	}
	store := sliceStore{g: g}
	b.ReportAllocs()
	for b.Loop() {
		res, err := ReadGraph{}.Call(context.Background(), store)
		if err != nil {
			b.Fatal(err)
		}
		b.SetBytes(res.StreamedText().Len() + res.StreamedJSON().Len())
		res.Release()
	}
}

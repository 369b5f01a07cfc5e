package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/mcpgen/mcpgen/components/memory/memstore"
	"github.com/mcpgen/mcpgen/generated/memory/memoryclient"
)

// TestEventsFollowGraphReadAccess: events belong to the graph they
// happened in. A caller that may read only the process's graph polls it
// and finds nothing of the shared graph team's changes, and cannot reach
// team's endpoint at all; team's reader finds them there, named by graph,
// entity, type and change, and filters them by entity type.
func TestEventsFollowGraphReadAccess(t *testing.T) {
	db := filepath.Join(t.TempDir(), "memory.db")
	d := startEvents(t, db, 1, map[string][]string{
		"teamwriter": {"memory:team:write"},
		"teamreader": {"memory:team:read"},
		"outsider":   {"memory:read"},
	})
	ctx := context.Background()
	team := "http://" + d.procs[0].addr + "/graphs/team/mcp"
	reader, err := d.connectAs(t, team, "teamreader", "memory:team:read")
	if err != nil {
		t.Fatal(err)
	}
	outsider, err := d.connectAs(t, d.url(0), "outsider", "memory:read")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.connectAs(t, team, "outsider", "memory:read"); err == nil {
		t.Error("a caller without memory:team:read reached team's endpoint")
	}
	from, err := reader.PollEntityChanged(ctx, memoryclient.EntityFilter{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	outFrom, err := outsider.PollEntityChanged(ctx, memoryclient.EntityFilter{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	writer, err := d.connectAs(t, team, "teamwriter", "memory:team:write")
	if err != nil {
		t.Fatal(err)
	}
	createEntity(t, writer, "Ada", "person")
	createEntity(t, writer, "Paris", "place")
	if _, err := writer.AddObservations(ctx, memoryclient.AddObservations{Observations: []memoryclient.ObservationAdd{{EntityName: "Ada", Contents: []string{"wrote the first program"}}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := writer.DeleteEntities(ctx, memoryclient.DeleteEntities{EntityNames: []string{"Paris", "Nowhere"}}); err != nil {
		t.Fatal(err)
	}

	page, err := outsider.PollEntityChanged(ctx, memoryclient.EntityFilter{}, &outFrom.Cursor)
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Events) != 0 {
		t.Errorf("the process graph's reader got team's events: %+v", page.Events)
	}
	page, err = reader.PollEntityChanged(ctx, memoryclient.EntityFilter{}, &from.Cursor)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range page.Events {
		got = append(got, e.Data.Graph+"/"+e.Data.Entity+"/"+e.Data.EntityType+"/"+e.Data.Change)
	}
	want := "team/Ada/person/created,team/Paris/place/created,team/Ada/person/observations_added,team/Paris/place/deleted"
	if strings.Join(got, ",") != want {
		t.Errorf("team's events:\n%s\nwant\n%s", strings.Join(got, ","), want)
	}
	page, err = reader.PollEntityChanged(ctx, memoryclient.EntityFilter{EntityType: "place"}, &from.Cursor)
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Events) != 2 || page.Events[0].Data.Entity != "Paris" {
		t.Errorf("filtered by type place: %+v", page.Events)
	}
}

// TestEventsOfChangesCommittedBeforeACrash: a change and its events are
// not one commit (the graph's change feed is the change's; the events
// are recorded from it), so a process killed between the two must not
// lose the events: the next start records them, once. An import is not
// told entity by entity, and writers racing over one graph record each
// change's event once.
func TestEventsOfChangesCommittedBeforeACrash(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "memory.db")
	d := startEvents(t, db, 1)
	ctx := context.Background()
	c := d.client(t, 0)
	createEntity(t, c, "Before", "thing") // told by the running server
	from, err := c.PollEntityChanged(ctx, memoryclient.EntityFilter{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	relFrom, err := c.PollRelationChanged(ctx, memoryclient.RelationFilter{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	d.procs[0].kill9()

	// Changes committed while no server recorded their events: what a
	// kill between the store's commit and the event store's leaves.
	graphs, err := memstore.OpenGraphs(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	s, release, err := graphs.Use(ctx, memstore.DefaultGraph)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.CreateEntities(ctx, []memstore.Entity{{Name: "Ada", EntityType: "person"}, {Name: "Lyon", EntityType: "place"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AddObservations(ctx, []memstore.ObservationAdd{{EntityName: "Ada", Contents: []string{"wrote the first program", "lived in London"}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.CreateRelations(ctx, []memstore.Relation{{From: "Ada", To: "Lyon", RelationType: "visited"}}); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteRelations(ctx, []memstore.Relation{{From: "Ada", To: "Nowhere", RelationType: "visited"}}); err != nil {
		t.Fatal(err) // removes nothing: no event
	}
	if err := s.DeleteEntities(ctx, []string{"Lyon"}); err != nil {
		t.Fatal(err) // and its relation with it
	}
	release()
	if err := graphs.Close(); err != nil {
		t.Fatal(err)
	}

	wantEntities := "Ada/person/created/[],Lyon/place/created/[],Ada/person/observations_added/[wrote the first program lived in London],Lyon/place/deleted/[]"
	wantRelations := "Ada-visited->Lyon/added,Ada-visited->Lyon/removed"
	check := func(round string) {
		t.Helper()
		c := d.client(t, 0)
		page, err := c.PollEntityChanged(ctx, memoryclient.EntityFilter{}, &from.Cursor)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, e := range page.Events {
			got = append(got, fmt.Sprintf("%s/%s/%s/%v", e.Data.Entity, e.Data.EntityType, e.Data.Change, e.Data.Observations))
		}
		if strings.Join(got, ",") != wantEntities {
			t.Errorf("%s: entity events\n%s\nwant\n%s", round, strings.Join(got, ","), wantEntities)
		}
		rels, err := c.PollRelationChanged(ctx, memoryclient.RelationFilter{}, &relFrom.Cursor)
		if err != nil {
			t.Fatal(err)
		}
		got = got[:0]
		for _, e := range rels.Events {
			got = append(got, fmt.Sprintf("%s-%s->%s/%s", e.Data.From, e.Data.RelationType, e.Data.To, e.Data.Change))
		}
		if strings.Join(got, ",") != wantRelations {
			t.Errorf("%s: relation events\n%s\nwant\n%s", round, strings.Join(got, ","), wantRelations)
		}
	}
	d.procs[0].start()
	check("after the restart")
	d.procs[0].kill9()
	d.procs[0].start()
	check("after a second restart") // recorded once, not at every start

	// An import adds no events; the changes after it do.
	d.procs[0].kill9()
	jsonl := filepath.Join(dir, "import.jsonl")
	if err := os.WriteFile(jsonl, []byte(`{"type":"entity","name":"Imported","entityType":"thing","observations":[]}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(sharedBinary(t), "--db", db, "import", jsonl).CombinedOutput(); err != nil {
		t.Fatalf("import: %v\n%s", err, out)
	}
	d.procs[0].start()
	c = d.client(t, 0)
	at, err := c.PollEntityChanged(ctx, memoryclient.EntityFilter{}, &from.Cursor)
	if err != nil {
		t.Fatal(err)
	}

	// Writers racing over one graph: each change told once.
	const writers, each = 6, 10
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				if _, err := c.CreateEntities(ctx, memoryclient.CreateEntities{Entities: []memoryclient.Entity{{Name: fmt.Sprintf("w%d-%d", w, i), EntityType: "race"}}}); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	seen := map[string]int{}
	cursor := at.Cursor
	for range 20 {
		page, err := c.PollEntityChanged(ctx, memoryclient.EntityFilter{}, &cursor)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range page.Events {
			seen[e.Data.Entity+"/"+e.Data.Change]++
		}
		cursor = page.Cursor
		if len(page.Events) == 0 {
			break
		}
	}
	if seen["Imported/created"] != 0 {
		t.Error("the imported entity was told as created")
	}
	for w := range writers {
		for i := range each {
			if n := seen[fmt.Sprintf("w%d-%d/created", w, i)]; n != 1 {
				t.Errorf("w%d-%d created told %d times", w, i, n)
			}
		}
	}
}

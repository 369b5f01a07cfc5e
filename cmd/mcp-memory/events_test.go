package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

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

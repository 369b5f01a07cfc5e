package memstore

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// The shared rules on their own, without a store: the store suite checks
// them again through both backends.

func TestPlanEntityDeletes(t *testing.T) {
	ents := map[string]storedEntity{"a": {id: 1, entityType: "person"}, "b": {id: 2, entityType: "thing"}}
	rels := []storedRelation{
		{3, Relation{"a", "b", "knows"}},
		{4, Relation{"ghost", "a", "haunts"}}, // dangling: no entity ghost
		{5, Relation{"b", "b", "self"}},
		{6, Relation{"c", "d", "other"}},
	}
	var got []string
	for _, d := range planEntityDeletes([]string{"b", "a", "b", "ghost"}, ents, rels) {
		step := d.name + ":"
		if d.found {
			step += fmt.Sprintf("entity %d %s", d.entity.id, d.entity.entityType)
		}
		for _, r := range d.relations {
			step += fmt.Sprintf(" rel %d", r.id)
		}
		got = append(got, step)
	}
	want := []string{"b:entity 2 thing rel 3 rel 5", "a:entity 1 person rel 4", "ghost:"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestPlanObservationAdds(t *testing.T) {
	stored := map[string][]storedObservation{"a": {{10, "x"}}, "b": nil}
	ids := map[string]int64{"a": 1, "b": 2}
	lookups := 0
	lookup := func(name string) (int64, []storedObservation, bool, error) {
		lookups++
		obs, ok := stored[name]
		return ids[name], obs, ok, nil
	}
	res, fresh, err := planObservationAdds([]ObservationAdd{
		{EntityName: "a", Contents: []string{"x", "y", "y"}},
		{EntityName: "b", Contents: []string{"z"}},
		{EntityName: "a", Contents: []string{"y", "w"}},
	}, lookup)
	if err != nil {
		t.Fatal(err)
	}
	wantRes := []AddedObservations{{"a", []string{"y"}}, {"b", []string{"z"}}, {"a", []string{"w"}}}
	wantFresh := []newObservation{{1, "y"}, {2, "z"}, {1, "w"}}
	if !reflect.DeepEqual(res, wantRes) || !reflect.DeepEqual(fresh, wantFresh) || lookups != 2 {
		t.Errorf("got %v, %v after %d look-ups; want %v, %v after 2", res, fresh, lookups, wantRes, wantFresh)
	}
	_, _, err = planObservationAdds([]ObservationAdd{{EntityName: "a"}, {EntityName: "nobody"}, {EntityName: "nobody2"}}, lookup)
	var nf *EntityNotFoundError
	if !errors.As(err, &nf) || nf.Name != "nobody" {
		t.Errorf("missing entity: got %v, want the EntityNotFoundError of nobody", err)
	}
	res, _, _ = planObservationAdds([]ObservationAdd{{EntityName: "a", Contents: []string{"x"}}}, lookup)
	if res[0].AddedObservations == nil {
		t.Error("nothing added must be an empty list, not nil (it is encoded as [])")
	}
}

func TestObservationsToDelete(t *testing.T) {
	stored := []storedObservation{{1, "p"}, {2, "q"}, {3, "r"}}
	gone, kept, deleted := observationsToDelete(stored, []string{"r", "zz", "p", "r"})
	if !reflect.DeepEqual(gone, []storedObservation{{1, "p"}, {3, "r"}}) || !reflect.DeepEqual(kept, []storedObservation{{2, "q"}}) ||
		!reflect.DeepEqual(deleted, []string{"r", "p"}) {
		t.Errorf("got gone %v, kept %v, deleted %q", gone, kept, deleted)
	}
}

func TestNewEntitiesAndRelations(t *testing.T) {
	got := newEntities([]Entity{
		{Name: "a", EntityType: "t", Observations: []string{"o", "o"}},
		{Name: "old", EntityType: "t"},
		{Name: "a", EntityType: "other"},
	}, func(name string) bool { return name == "old" })
	want := []Entity{{Name: "a", EntityType: "t", Observations: []string{"o"}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("newEntities: got %v, want %v", got, want)
	}
	asked := 0
	rels, err := newRelations([]Relation{{"a", "b", "r"}, {"a", "b", "old"}, {"a", "b", "r"}}, func(r Relation) (bool, error) {
		asked++
		return r.RelationType == "old", nil
	})
	if err != nil || !reflect.DeepEqual(rels, []Relation{{"a", "b", "r"}}) || asked != 2 {
		t.Errorf("newRelations: got %v, %v after %d questions", rels, err, asked)
	}
}

func TestPlanImport(t *testing.T) {
	e := func(name string) jsonlItem { return jsonlItem{entity: &Entity{Name: name}} }
	r := func(typ string) jsonlItem { return jsonlItem{relation: &Relation{"a", "b", typ}} }
	items := []jsonlItem{e("a"), e("old"), e("a"), r("new"), r("old"), r("new"), e("b")}
	accepted, stats, err := planImport(items, 2, func(name string) (bool, error) { return name == "old", nil },
		func(rel Relation) (bool, error) { return rel.RelationType == "old", nil })
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, it := range accepted {
		if it.entity != nil {
			got = append(got, "e:"+it.entity.Name)
		} else {
			got = append(got, "r:"+it.relation.RelationType)
		}
	}
	// Repeated relations within the file are kept (the reference's file
	// round-trips); repeated entity names are not.
	if want := []string{"e:a", "r:new", "r:new", "e:b"}; !reflect.DeepEqual(got, want) {
		t.Errorf("accepted %q, want %q", got, want)
	}
	if want := (ImportStats{Entities: 2, Relations: 2, SkippedEntities: 2, SkippedRelations: 1, IgnoredLines: 2}); stats != want {
		t.Errorf("stats %+v, want %+v", stats, want)
	}
}

func TestApplyTaskUpdate(t *testing.T) {
	cur := Task{ID: 1, Title: "t", Status: TaskOpen, Notes: "n", Entities: []string{"a"}}
	done, same := TaskDone, "t"
	next, detail, ents := applyTaskUpdate(cur, TaskUpdate{Title: &same, Status: &done, Entities: &[]string{"b", "b"}}, 5)
	if detail != "status open -> done; entities" || !ents || !reflect.DeepEqual(next.Entities, []string{"b"}) || next.UpdatedAt.UnixNano() != 5 {
		t.Errorf("got %+v, %q, %v", next, detail, ents)
	}
	next, detail, ents = applyTaskUpdate(cur, TaskUpdate{Title: &same, Entities: &[]string{"a"}}, 5)
	if detail != "" || ents || !reflect.DeepEqual(next, cur) {
		t.Errorf("no change: got %+v, %q, %v; want cur, \"\", false", next, detail, ents)
	}
}

func TestTaskListQuery(t *testing.T) {
	f := TaskFilter{ActiveOnly: true, Status: TaskBlocked, Entity: "e", Limit: 3}
	var args []any
	q := taskListQuery(f, "memory_tasks", "memory_task_entities", func(v any) string {
		args = append(args, v)
		return fmt.Sprintf("$%d", len(args))
	}, strings.ToUpper)
	want := `SELECT ` + taskColumns + ` FROM memory_tasks WHERE 1 = 1 AND status <> 'done' AND status = $1` +
		` AND id IN (SELECT task_id FROM memory_task_entities WHERE entity_name = $2) ORDER BY id LIMIT $3`
	if q != want || !reflect.DeepEqual(args, []any{"blocked", "E", 3}) {
		t.Errorf("got %s %v\nwant %s", q, args, want)
	}
}

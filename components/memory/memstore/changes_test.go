package memstore

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

func summarize(cs []Change) string {
	var out []string
	for _, c := range cs {
		s := fmt.Sprintf("%d %s %s", c.Seq, c.Kind, c.Subject)
		if c.Detail != "" {
			s += " [" + c.Detail + "]"
		}
		if c.Relation != nil {
			s += fmt.Sprintf(" {%s %s %s}", c.Relation.From, c.Relation.RelationType, c.Relation.To)
		}
		if c.TaskID != 0 {
			s += fmt.Sprintf(" #%d", c.TaskID)
		}
		out = append(out, s)
	}
	return strings.Join(out, "\n")
}

func testChangeFeed(t *testing.T) {
	s, _ := openTest(t)
	if h := must[int64](t)(s.Head(bg)); h != 0 {
		t.Fatalf("empty head %d", h)
	}
	cs, next, err := s.Changes(bg, 0, 0)
	if err != nil || len(cs) != 0 || next != 0 || cs == nil {
		t.Fatalf("empty feed: %v %d %v", cs, next, err)
	}
	start := time.Now().Add(-time.Second)

	must[[]Entity](t)(s.CreateEntities(bg, []Entity{{"A", "person", []string{"x"}}, {"B", "org", nil}}))
	must[[]Entity](t)(s.CreateEntities(bg, []Entity{{"A", "dup", nil}})) // no change
	must[[]Relation](t)(s.CreateRelations(bg, []Relation{{"A", "B", "works_at"}, {"B", "A", "employs"}}))
	must[[]AddedObservations](t)(s.AddObservations(bg, []ObservationAdd{{"A", []string{"x", "y"}}}))
	mustNil(t, s.DeleteObservations(bg, []ObservationDelete{{"A", []string{"x", "nope"}}}))
	mustNil(t, s.DeleteRelations(bg, []Relation{{"B", "A", "employs"}, {"B", "A", "nope"}}))
	task := must[Task](t)(s.CreateTask(bg, NewTask{Title: "T", Entities: []string{"A"}}))
	must[Task](t)(s.UpdateTask(bg, task.ID, TaskUpdate{Status: ptr(TaskDone), Notes: ptr("n")}))
	mustNil(t, s.DeleteEntities(bg, []string{"B", "Ghost"}))

	want := fmt.Sprintf(`1 entity_created A [person]
2 entity_created B [org]
3 relation_created A {A works_at B}
4 relation_created B {B employs A}
5 observation_added A [y]
6 observation_deleted A [x]
7 relation_deleted B {B employs A}
8 task_created T [open] #%[1]d
9 task_updated T [status open -> done; notes] #%[1]d
10 entity_deleted B [org]
11 relation_deleted A {A works_at B}`, task.ID)
	all, next, err := s.Changes(bg, 0, 0)
	if err != nil || next != 11 {
		t.Fatalf("Changes: next %d err %v", next, err)
	}
	if got := summarize(all); got != want {
		t.Fatalf("feed:\n%s\nwant:\n%s", got, want)
	}
	for _, c := range all {
		if c.At.Before(start) || c.At.After(time.Now().Add(time.Second)) {
			t.Fatalf("time %v", c.At)
		}
	}
	if h := must[int64](t)(s.Head(bg)); h != 11 {
		t.Fatalf("head %d", h)
	}

	// Paging.
	var paged []Change
	cursor := int64(0)
	for {
		page, next, err := s.Changes(bg, cursor, 4)
		if err != nil {
			t.Fatal(err)
		}
		if len(page) == 0 {
			if next != cursor {
				t.Fatalf("empty page moved cursor")
			}
			break
		}
		if len(page) > 4 || next != page[len(page)-1].Seq {
			t.Fatalf("page %v next %d", page, next)
		}
		paged = append(paged, page...)
		cursor = next
	}
	if summarize(paged) != want {
		t.Fatalf("paged feed differs")
	}
	cs, next, err = s.Changes(bg, 9, 100)
	if err != nil || len(cs) != 2 || next != 11 {
		t.Fatalf("since 9: %v %d %v", cs, next, err)
	}

	// Bad cursors.
	if _, _, err := s.Changes(bg, 12, 10); !errors.Is(err, ErrInvalid) {
		t.Fatalf("ahead cursor: %v", err)
	}
	if _, _, err := s.Changes(bg, -1, 10); !errors.Is(err, ErrInvalid) {
		t.Fatalf("negative cursor: %v", err)
	}
}

func testChangeFeedLongDetailIsCut(t *testing.T) {
	s, _ := openTest(t)
	long := strings.Repeat("é", MaxChangeDetailBytes) // 2 bytes each
	must[[]Entity](t)(s.CreateEntities(bg, []Entity{{"A", "t", nil}}))
	must[[]AddedObservations](t)(s.AddObservations(bg, []ObservationAdd{{"A", []string{long}}}))
	cs, _, err := s.Changes(bg, 1, 10)
	mustNil(t, err)
	d := cs[0].Detail
	if len(d) > MaxChangeDetailBytes || !strings.HasSuffix(d, "…") || !strings.HasPrefix(long, strings.TrimSuffix(d, "…")) {
		t.Fatalf("detail %d bytes %q...", len(d), d[:20])
	}
	// The observation itself is stored in full.
	if g := readGraph(t, s); g.Entities[0].Observations[0] != long {
		t.Fatal("observation was cut")
	}
}

func testChangeFeedRetention(t *testing.T) {
	s, path := openTest(t, WithChangeRetention(5))
	for i := range 8 {
		must[[]Entity](t)(s.CreateEntities(bg, []Entity{{fmt.Sprint(i), "t", nil}}))
	}
	if h := must[int64](t)(s.Head(bg)); h != 8 {
		t.Fatalf("head %d", h)
	}
	// Changes 1..3 are gone: cursors 1 and 2 have lost history.
	for _, since := range []int64{1, 2} {
		if _, _, err := s.Changes(bg, since, 10); !errors.Is(err, ErrHistoryPruned) {
			t.Fatalf("since %d: %v", since, err)
		}
	}
	cs, next, err := s.Changes(bg, 3, 10)
	if err != nil || len(cs) != 5 || cs[0].Seq != 4 || next != 8 {
		t.Fatalf("since 3: %v %d %v", summarize(cs), next, err)
	}
	// The starting cursor 0 always works: it answers from the oldest kept.
	cs, next, err = s.Changes(bg, 0, 10)
	if err != nil || len(cs) != 5 || cs[0].Seq != 4 || next != 8 {
		t.Fatalf("since 0 after pruning: %v %d %v", summarize(cs), next, err)
	}
	// A batch larger than the retention keeps only its newest changes, and
	// sequence numbers are never reused, even across reopen.
	ents := make([]Entity, 12)
	for i := range ents {
		ents[i] = Entity{Name: fmt.Sprint("b", i)}
	}
	must[[]Entity](t)(s.CreateEntities(bg, ents))
	s.Close()
	s2 := reopenTest(t, path, WithChangeRetention(5))
	if h := must[int64](t)(s2.Head(bg)); h != 20 {
		t.Fatalf("head %d", h)
	}
	cs, _, err = s2.Changes(bg, 15, 10)
	if err != nil || len(cs) != 5 || cs[0].Subject != "b7" {
		t.Fatalf("%v %v", summarize(cs), err)
	}
	mustNil(t, s2.DeleteEntities(bg, []string{"b11"}))
	if cs, _, err := s2.Changes(bg, 20, 10); err != nil || len(cs) != 1 || cs[0].Seq != 21 {
		t.Fatalf("%v %v", summarize(cs), err)
	}
}

func testFailedWriteRecordsNoChange(t *testing.T) {
	s, _ := openTest(t)
	must[[]Entity](t)(s.CreateEntities(bg, []Entity{{"A", "t", nil}}))
	_, err := s.AddObservations(bg, []ObservationAdd{{"A", []string{"new"}}, {"missing", []string{"x"}}})
	if !errors.Is(err, ErrNotFound) {
		t.Fatal(err)
	}
	cs, next, err := s.Changes(bg, 0, 10)
	if err != nil || len(cs) != 1 || next != 1 {
		t.Fatalf("%v %d %v", summarize(cs), next, err)
	}
}

package memstore

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
)

func ptr[T any](v T) *T { return &v }

func testTasks(t *testing.T) {
	s, _ := openTest(t)
	a := must[Task](t)(s.CreateTask(bg, NewTask{Title: "Write report", Notes: "due friday", Entities: []string{"Alice", "ACME", "Alice"}}))
	if a.ID == 0 || a.Status != TaskOpen || fmt.Sprint(a.Entities) != "[Alice ACME]" || a.CreatedAt.IsZero() || !a.CreatedAt.Equal(a.UpdatedAt) {
		t.Fatalf("created %+v", a)
	}
	b := must[Task](t)(s.CreateTask(bg, NewTask{Title: "Call Bob", Status: TaskBlocked}))
	c := must[Task](t)(s.CreateTask(bg, NewTask{Title: "Old", Status: TaskDone, Entities: []string{"ACME"}}))
	if !(a.ID < b.ID && b.ID < c.ID) {
		t.Fatalf("ids %d %d %d", a.ID, b.ID, c.ID)
	}

	got := must[Task](t)(s.GetTask(bg, a.ID))
	if got.Title != a.Title || got.Notes != a.Notes || fmt.Sprint(got.Entities) != fmt.Sprint(a.Entities) || !got.CreatedAt.Equal(a.CreatedAt) {
		t.Fatalf("get %+v want %+v", got, a)
	}

	// Partial update: only status changes.
	up := must[Task](t)(s.UpdateTask(bg, a.ID, TaskUpdate{Status: ptr(TaskInProgress)}))
	if up.Status != TaskInProgress || up.Title != "Write report" || up.Notes != "due friday" || fmt.Sprint(up.Entities) != "[Alice ACME]" {
		t.Fatalf("updated %+v", up)
	}
	if up.UpdatedAt.Before(a.UpdatedAt) || !up.CreatedAt.Equal(a.CreatedAt) {
		t.Fatalf("times %+v", up)
	}
	// Replace title, notes and entities.
	up = must[Task](t)(s.UpdateTask(bg, a.ID, TaskUpdate{Title: ptr("Write final report"), Notes: ptr(""), Entities: &[]string{"Bob"}}))
	if up.Title != "Write final report" || up.Notes != "" || fmt.Sprint(up.Entities) != "[Bob]" || up.Status != TaskInProgress {
		t.Fatalf("updated %+v", up)
	}
	if got := must[Task](t)(s.GetTask(bg, a.ID)); fmt.Sprint(got) != fmt.Sprint(up) {
		t.Fatalf("stored %+v\nreturned %+v", got, up)
	}
	// A no-op update records nothing.
	head := must[int64](t)(s.Head(bg))
	same := must[Task](t)(s.UpdateTask(bg, a.ID, TaskUpdate{Status: ptr(TaskInProgress), Entities: &[]string{"Bob"}}))
	if !same.UpdatedAt.Equal(up.UpdatedAt) || must[int64](t)(s.Head(bg)) != head {
		t.Fatalf("no-op update changed something")
	}

	list := func(f TaskFilter) string {
		var ids []string
		for _, t := range must[[]Task](t)(s.ListTasks(bg, f)) {
			ids = append(ids, t.Title)
		}
		return strings.Join(ids, "|")
	}
	if got := list(TaskFilter{}); got != "Write final report|Call Bob|Old" {
		t.Fatalf("all: %s", got)
	}
	if got := list(TaskFilter{ActiveOnly: true}); got != "Write final report|Call Bob" {
		t.Fatalf("active: %s", got)
	}
	if got := list(TaskFilter{Status: TaskDone}); got != "Old" {
		t.Fatalf("done: %s", got)
	}
	if got := list(TaskFilter{Entity: "ACME"}); got != "Old" {
		t.Fatalf("entity: %s", got)
	}
	if got := list(TaskFilter{Entity: "ACME", ActiveOnly: true}); got != "" {
		t.Fatalf("entity active: %s", got)
	}
	if got := list(TaskFilter{Limit: 1}); got != "Write final report" {
		t.Fatalf("limit: %s", got)
	}
	ts := must[[]Task](t)(s.ListTasks(bg, TaskFilter{Status: TaskBlocked}))
	b2, _ := json.Marshal(ts)
	if !strings.Contains(string(b2), `"entities":[]`) || !strings.Contains(string(b2), `"status":"blocked"`) {
		t.Fatalf("json %s", b2)
	}
}

func testTaskErrors(t *testing.T) {
	s, _ := openTest(t)
	a := must[Task](t)(s.CreateTask(bg, NewTask{Title: "x"}))
	cases := []struct {
		err    error
		target error
	}{
		{second(s.CreateTask(bg, NewTask{})), ErrInvalid},
		{second(s.CreateTask(bg, NewTask{Title: "x", Status: "later"})), ErrInvalid},
		{second(s.CreateTask(bg, NewTask{Title: strings.Repeat("t", MaxNameBytes+1)})), ErrLimit},
		{second(s.CreateTask(bg, NewTask{Title: "x", Notes: strings.Repeat("n", MaxObservationBytes+1)})), ErrLimit},
		{second(s.CreateTask(bg, NewTask{Title: "x", Entities: make([]string, MaxBatch+1)})), ErrLimit},
		{second(s.UpdateTask(bg, a.ID, TaskUpdate{Status: ptr(TaskStatus("nope"))})), ErrInvalid},
		{second(s.UpdateTask(bg, a.ID, TaskUpdate{Title: ptr("")})), ErrInvalid},
		{second(s.UpdateTask(bg, 999, TaskUpdate{Title: ptr("y")})), ErrNotFound},
		{second(s.GetTask(bg, 999)), ErrNotFound},
		{second(s.ListTasks(bg, TaskFilter{Status: "weird"})), ErrInvalid},
	}
	for i, c := range cases {
		if !errors.Is(c.err, c.target) {
			t.Errorf("case %d: err = %v, want %v", i, c.err, c.target)
		}
	}
	if n := len(must[[]Task](t)(s.ListTasks(bg, TaskFilter{}))); n != 1 {
		t.Fatalf("%d tasks", n)
	}
}

func second[T any](_ T, err error) error { return err }

package memstore

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// The task calls' rules, shared by the stores: what a new task, an update
// and a list filter may hold, what an update changes and how the change
// feed describes it, which tasks a filter selects in which order, and how
// stored columns become a Task.

func validateTaskTitle(title string) error {
	if title == "" {
		return fmt.Errorf("%w: task title is empty", ErrInvalid)
	}
	return checkName("title", title)
}

func validateTaskStatus(s TaskStatus) error {
	if !s.Valid() {
		return fmt.Errorf("%w: task status %q is not one of open, in_progress, blocked, done", ErrInvalid, s)
	}
	return nil
}

// prepareNewTask defaults an empty status to open and checks the task.
func prepareNewTask(nt NewTask) (NewTask, error) {
	if nt.Status == "" {
		nt.Status = TaskOpen
	}
	if err := validateTaskTitle(nt.Title); err != nil {
		return nt, err
	}
	if err := validateTaskStatus(nt.Status); err != nil {
		return nt, err
	}
	if err := checkObservation("notes", nt.Notes); err != nil {
		return nt, err
	}
	return nt, validateNames("entities", nt.Entities)
}

// createdTask is the task CreateTask stores and returns: nt (prepared)
// with id, its entities without repeats, created and updated at now (Unix
// nanoseconds).
func createdTask(id int64, nt NewTask, now int64) Task {
	at := time.Unix(0, now).UTC()
	return Task{ID: id, Title: nt.Title, Status: nt.Status, Notes: nt.Notes, Entities: dedupe(nt.Entities), CreatedAt: at, UpdatedAt: at}
}

// validateTaskUpdate checks the fields an update sets, as every store does
// before it opens a transaction.
func validateTaskUpdate(u TaskUpdate) error {
	if u.Title != nil {
		if err := validateTaskTitle(*u.Title); err != nil {
			return err
		}
	}
	if u.Status != nil {
		if err := validateTaskStatus(*u.Status); err != nil {
			return err
		}
	}
	if u.Notes != nil {
		if err := checkObservation("notes", *u.Notes); err != nil {
			return err
		}
	}
	if u.Entities != nil {
		return validateNames("entities", *u.Entities)
	}
	return nil
}

// applyTaskUpdate returns cur with u applied at now (Unix nanoseconds),
// the detail of its task_updated change ("" when nothing changed: then
// next is cur, UpdatedAt kept, and no change is recorded) and whether the
// linked entities changed.
func applyTaskUpdate(cur Task, u TaskUpdate, now int64) (next Task, detail string, entsChanged bool) {
	next = cur
	var what []string
	if u.Title != nil && *u.Title != cur.Title {
		next.Title = *u.Title
		what = append(what, "title")
	}
	if u.Status != nil && *u.Status != cur.Status {
		next.Status = *u.Status
		what = append(what, fmt.Sprintf("status %s -> %s", cur.Status, *u.Status))
	}
	if u.Notes != nil && *u.Notes != cur.Notes {
		next.Notes = *u.Notes
		what = append(what, "notes")
	}
	if u.Entities != nil {
		if ents := dedupe(*u.Entities); !slices.Equal(ents, cur.Entities) {
			next.Entities = ents
			entsChanged = true
			what = append(what, "entities")
		}
	}
	if len(what) == 0 {
		return cur, "", false
	}
	next.UpdatedAt = time.Unix(0, now).UTC()
	return next, strings.Join(what, "; "), entsChanged
}

// validateTaskFilter checks a ListTasks filter, as every store does.
func validateTaskFilter(f TaskFilter) error {
	if f.Status != "" {
		if err := validateTaskStatus(f.Status); err != nil {
			return err
		}
	}
	return checkName("entity", f.Entity)
}

// taskColumns are the columns taskFromColumns reads, in order.
const taskColumns = `id, title, status, notes, created_at, updated_at`

// taskListQuery is the query of ListTasks for f: the tasks f selects
// (ActiveOnly: not done; Status; linked to Entity), by id, at most f.Limit
// of them (all when 0). tasks and links are the backend's tables of tasks
// and of their entity links; arg adds an argument and returns its
// placeholder; enc encodes a name as the links table stores it.
func taskListQuery(f TaskFilter, tasks, links string, arg func(any) string, enc func(string) string) string {
	q := `SELECT ` + taskColumns + ` FROM ` + tasks + ` WHERE 1 = 1`
	if f.ActiveOnly {
		q += ` AND status <> 'done'`
	}
	if f.Status != "" {
		q += ` AND status = ` + arg(string(f.Status))
	}
	if f.Entity != "" {
		q += ` AND id IN (SELECT task_id FROM ` + links + ` WHERE entity_name = ` + arg(enc(f.Entity)) + `)`
	}
	q += ` ORDER BY id`
	if f.Limit > 0 {
		q += ` LIMIT ` + arg(f.Limit)
	}
	return q
}

// taskFromColumns is the task stored with these column values (the
// strings decoded), without its entities (an empty list).
func taskFromColumns(id int64, title, status, notes string, created, updated int64) Task {
	return Task{
		ID: id, Title: title, Status: TaskStatus(status), Notes: notes, Entities: []string{},
		CreatedAt: time.Unix(0, created).UTC(), UpdatedAt: time.Unix(0, updated).UTC(),
	}
}

// taskLinks returns a function that appends an entity name to the linked
// entities of the task with that id among tasks (rows of the links table
// ordered by task and position).
func taskLinks(tasks []Task) func(id int64, name string) {
	pos := make(map[int64]int, len(tasks))
	for i, t := range tasks {
		pos[t.ID] = i
	}
	return func(id int64, name string) {
		if i, ok := pos[id]; ok {
			tasks[i].Entities = append(tasks[i].Entities, name)
		}
	}
}

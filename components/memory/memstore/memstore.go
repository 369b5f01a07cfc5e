// Package memstore is the storage layer of mcp-memory, a knowledge-graph
// memory MCP server that is a drop-in replacement for the reference server
// @modelcontextprotocol/server-memory.
//
// The graph operations (CreateEntities ... OpenNodes) reproduce the
// reference's semantics and JSON shapes; tasks and the change feed are our
// extensions. Store is the backend-neutral contract; SQLite (see Open) and
// Postgres (see OpenPostgres, for replicas sharing one graph) implement it.
//
// Deliberate differences from the reference, all of which only show when a
// single call contains duplicates:
//   - CreateEntities skips an entity whose name already appeared earlier in
//     the same batch (the reference would store both);
//   - CreateEntities and AddObservations store an observation only once per
//     entity even when the batch repeats it (the reference stores repeats);
//   - CreateRelations skips a triple repeated within the batch.
//
// Import still preserves repeated observations and relations found in a
// reference memory file so that Export reproduces the file byte for byte.
package memstore

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"time"
)

// Entity is a node of the knowledge graph. The JSON names are the
// reference server's.
type Entity struct {
	// The name of the entity
	Name string `json:"name"`
	// The type of the entity
	EntityType string `json:"entityType"`
	// An array of observation contents associated with the entity
	Observations []string `json:"observations" jsonschema:"nullable=false"`
}

// MarshalJSON encodes e with observations as [] rather than null, as the
// reference always does.
func (e Entity) MarshalJSON() ([]byte, error) {
	type plain Entity
	p := plain(e)
	if p.Observations == nil {
		p.Observations = []string{}
	}
	return json.Marshal(p)
}

// JSONSchema tells mcpgen that MarshalJSON writes the fields of Entity as
// they are (only a nil slice becomes []), so its schema is theirs.
func (Entity) JSONSchema() reflect.Type {
	type plain Entity
	return reflect.TypeFor[plain]()
}

// Relation is a directed, typed edge between two entity names. Like the
// reference, its ends need not name existing entities.
type Relation struct {
	// The name of the entity where the relation starts
	From string `json:"from"`
	// The name of the entity where the relation ends
	To string `json:"to"`
	// The type of the relation
	RelationType string `json:"relationType"`
}

// Graph is a set of entities and relations, both in insertion order.
type Graph struct {
	Entities  []Entity   `json:"entities" jsonschema:"nullable=false"`
	Relations []Relation `json:"relations" jsonschema:"nullable=false"`
}

// MarshalJSON encodes g with empty arrays rather than null.
func (g Graph) MarshalJSON() ([]byte, error) {
	type plain Graph
	p := plain(g)
	if p.Entities == nil {
		p.Entities = []Entity{}
	}
	if p.Relations == nil {
		p.Relations = []Relation{}
	}
	return json.Marshal(p)
}

// JSONSchema tells mcpgen that MarshalJSON writes the fields of Graph as
// they are (only a nil slice becomes []), so its schema is theirs.
func (Graph) JSONSchema() reflect.Type {
	type plain Graph
	return reflect.TypeFor[plain]()
}

// ObservationAdd asks AddObservations to add Contents to the entity named
// EntityName.
type ObservationAdd struct {
	// The name of the entity to add the observations to
	EntityName string `json:"entityName"`
	// An array of observation contents to add
	Contents []string `json:"contents" jsonschema:"nullable=false"`
}

// AddedObservations reports which observations AddObservations actually
// added to one entity (those not already present).
type AddedObservations struct {
	EntityName        string   `json:"entityName"`
	AddedObservations []string `json:"addedObservations" jsonschema:"nullable=false"`
}

// MarshalJSON encodes a with addedObservations as [] rather than null.
func (a AddedObservations) MarshalJSON() ([]byte, error) {
	type plain AddedObservations
	p := plain(a)
	if p.AddedObservations == nil {
		p.AddedObservations = []string{}
	}
	return json.Marshal(p)
}

// JSONSchema tells mcpgen that MarshalJSON writes the fields of AddedObservations as
// they are (only a nil slice becomes []), so its schema is theirs.
func (AddedObservations) JSONSchema() reflect.Type {
	type plain AddedObservations
	return reflect.TypeFor[plain]()
}

// ObservationDelete asks DeleteObservations to remove Observations from the
// entity named EntityName.
type ObservationDelete struct {
	// The name of the entity containing the observations
	EntityName string `json:"entityName"`
	// An array of observations to delete
	Observations []string `json:"observations" jsonschema:"nullable=false"`
}

// ImportStats summarizes what Import did.
type ImportStats struct {
	Entities         int `json:"entities"`         // entities added
	Relations        int `json:"relations"`        // relations added
	SkippedEntities  int `json:"skippedEntities"`  // entity lines whose name already existed
	SkippedRelations int `json:"skippedRelations"` // relation lines already in the store before the import
	IgnoredLines     int `json:"ignoredLines"`     // object lines of another "type", ignored like the reference does
	History          int `json:"history"`          // history lines (of an export with history) added to the audit trail
}

// Store is the storage contract of the memory server. Every mutating method
// is atomic: when it returns an error nothing at all has changed. Methods are
// safe for concurrent use.
type Store interface {
	// CreateEntities stores the entities whose names do not exist yet and
	// returns exactly those, as stored. Existing names, and names repeated
	// within the batch, are skipped.
	CreateEntities(ctx context.Context, entities []Entity) ([]Entity, error)
	// CreateRelations stores the relations whose exact (from, to,
	// relationType) triple does not exist yet and returns those.
	CreateRelations(ctx context.Context, relations []Relation) ([]Relation, error)
	// AddObservations appends to each named entity the contents it does not
	// already have, returning one result per request item in order. If any
	// entity does not exist it returns an *EntityNotFoundError and changes
	// nothing.
	AddObservations(ctx context.Context, adds []ObservationAdd) ([]AddedObservations, error)
	// DeleteEntities removes the named entities and every relation whose
	// from or to is one of the names; unknown names are ignored.
	DeleteEntities(ctx context.Context, names []string) error
	// DeleteObservations removes every occurrence of the listed observations
	// from the named entities; unknown entities and observations are ignored.
	DeleteObservations(ctx context.Context, deletions []ObservationDelete) error
	// DeleteRelations removes relations matching the given triples exactly.
	DeleteRelations(ctx context.Context, relations []Relation) error
	// ReadGraph returns the whole graph in insertion order.
	ReadGraph(ctx context.Context) (Graph, error)
	// WalkGraph hands the whole graph to entity (every entity, in
	// insertion order) and then to relation (every relation, in insertion
	// order), from one consistent snapshot, without holding it in memory:
	// the way to render a large graph in one pass. The Observations slice
	// passed to entity is reused after entity returns. An error from
	// either function stops the walk and is returned as is.
	WalkGraph(ctx context.Context, entity func(Entity) error, relation func(Relation) error) error
	// SearchNodes returns the entities whose name, type or any observation
	// contains query case-insensitively (JavaScript toLowerCase semantics),
	// and the relations with at least one end among them.
	SearchNodes(ctx context.Context, query string) (Graph, error)
	// OpenNodes returns the existing entities among names, in graph order,
	// and the relations with at least one end among them.
	OpenNodes(ctx context.Context, names []string) (Graph, error)
	// EntityNames returns up to limit entity names starting with prefix,
	// compared case-insensitively, sorted, for argument completion.
	EntityNames(ctx context.Context, prefix string, limit int) ([]string, error)

	// CreateTask stores a new task and returns it with its ID and times.
	CreateTask(ctx context.Context, t NewTask) (Task, error)
	// UpdateTask applies the non-nil fields of u to task id.
	UpdateTask(ctx context.Context, id int64, u TaskUpdate) (Task, error)
	// GetTask returns task id, or an error wrapping ErrNotFound.
	GetTask(ctx context.Context, id int64) (Task, error)
	// ListTasks returns the tasks matching f, oldest first.
	ListTasks(ctx context.Context, f TaskFilter) ([]Task, error)

	// Changes returns up to limit changes with Seq > since, oldest first, and
	// the cursor to pass next time. Since 0 starts from the oldest change
	// kept; a later cursor whose following changes were pruned is an error
	// wrapping ErrHistoryPruned, one ahead of Head an error wrapping
	// ErrInvalid.
	Changes(ctx context.Context, since int64, limit int) ([]Change, int64, error)
	// Head returns the Seq of the newest change (0 when there is none), the
	// cursor meaning "now".
	Head(ctx context.Context) (int64, error)
	// History returns the changes to the entity named name (its creation,
	// observations, relations touching it, deletion), oldest first, with
	// author and time: the newest limit of them (limit <= 0 or above
	// MaxHistoryPage means MaxHistoryPage). It outlives the entity and the
	// change feed's retention (see WithHistoryRetention).
	History(ctx context.Context, name string, limit int) ([]Change, error)
	// WalkHistory hands every kept history row to fn, oldest first, with
	// the entity whose history it is: the way to export the audit trail.
	WalkHistory(ctx context.Context, fn func(entity string, c Change) error) error

	// Import adds the contents of a reference memory.jsonl file.
	Import(ctx context.Context, r io.Reader) (ImportStats, error)
	// Export writes the graph in the reference's memory.jsonl format.
	Export(ctx context.Context, w io.Writer) error

	// Close releases the store; it must not be used afterwards.
	Close() error
}

// Limits on input sizes. Exceeding one yields an error wrapping ErrLimit that
// names the field, its size and the limit, so the MCP layer can report it as
// a tool error.
const (
	// MaxNameBytes bounds entity names, entity types, relation ends and
	// types, and task titles and linked entity names.
	MaxNameBytes = 4 << 10
	// MaxObservationBytes bounds one observation, task notes and a search
	// query.
	MaxObservationBytes = 1 << 20
	// MaxBatch bounds the number of items in one call: entities, relations,
	// observation requests, deletions, names, or a task's linked entities.
	MaxBatch = 10_000
	// MaxBatchStrings bounds the total number of observation strings in one
	// call (summed over all items).
	MaxBatchStrings = 100_000
	// MaxChangesPage bounds the number of changes returned by one Changes
	// call.
	MaxChangesPage = 1_000
	// MaxChangeDetailBytes bounds Change.Detail; longer details (typically
	// observations) are cut at a character boundary and end in "…".
	MaxChangeDetailBytes = 1 << 10
	// MaxHistoryPage bounds the number of changes one History call returns.
	MaxHistoryPage = 1_000
)

// Sentinel errors, to be tested with errors.Is.
var (
	// ErrLimit means an input exceeded one of the Max* limits.
	ErrLimit = errors.New("memstore: limit exceeded")
	// ErrInvalid means an input was malformed (invalid UTF-8, unknown task
	// status, empty task title, bad cursor, unparsable import line).
	ErrInvalid = errors.New("memstore: invalid input")
	// ErrNotFound means a named entity or a task does not exist.
	ErrNotFound = errors.New("memstore: not found")
	// ErrHistoryPruned means the changes following the requested cursor were
	// discarded by the retention policy; re-read the graph and continue
	// from Head (cursor 0, the oldest kept, never has this error).
	ErrHistoryPruned = errors.New("memstore: change history pruned")
	// ErrUnavailable means the database cannot be reached, or the store
	// cannot take the work now (closed, every open graph in use): the
	// caller may retry. Its Unavailable method says so to the mcpgen
	// runtime, which answers such a call as unavailable (HTTP 503 with
	// Retry-After) rather than as a failed tool call.
	ErrUnavailable error = unavailableError{}
)

// unavailableError is the type of ErrUnavailable.
type unavailableError struct{}

func (unavailableError) Error() string { return "service unavailable" }

// Unavailable reports true: see ErrUnavailable.
func (unavailableError) Unavailable() bool { return true }

// EntityNotFoundError is returned by AddObservations when an entity does not
// exist. Its message is the reference server's, word for word.
type EntityNotFoundError struct {
	Name string
}

// Error returns "Entity with name <name> not found".
func (e *EntityNotFoundError) Error() string {
	return "Entity with name " + e.Name + " not found"
}

// Is makes errors.Is(err, ErrNotFound) true.
func (e *EntityNotFoundError) Is(target error) bool { return target == ErrNotFound }

// TaskStatus is the state of a task.
type TaskStatus string

// Task statuses. Every status except TaskDone counts as active.
const (
	TaskOpen       TaskStatus = "open"
	TaskInProgress TaskStatus = "in_progress"
	TaskBlocked    TaskStatus = "blocked"
	TaskDone       TaskStatus = "done"
)

// Valid reports whether s is one of the four known statuses.
func (s TaskStatus) Valid() bool {
	switch s {
	case TaskOpen, TaskInProgress, TaskBlocked, TaskDone:
		return true
	}
	return false
}

// Task is a unit of work linked to entities of the graph (our extension).
// Linked entity names are kept even if the entity is later deleted.
type Task struct {
	ID        int64      `json:"id"`
	Title     string     `json:"title"`
	Status    TaskStatus `json:"status"`
	Notes     string     `json:"notes"`
	Entities  []string   `json:"entities"`
	CreatedAt time.Time  `json:"createdAt"`
	UpdatedAt time.Time  `json:"updatedAt"`
}

// MarshalJSON encodes t with entities as [] rather than null.
func (t Task) MarshalJSON() ([]byte, error) {
	type plain Task
	p := plain(t)
	if p.Entities == nil {
		p.Entities = []string{}
	}
	return json.Marshal(p)
}

// JSONSchema tells mcpgen that MarshalJSON writes the fields of Task as
// they are (only a nil slice becomes []), so its schema is theirs.
func (Task) JSONSchema() reflect.Type {
	type plain Task
	return reflect.TypeFor[plain]()
}

// NewTask describes a task to create. Title is required; an empty Status
// means TaskOpen. Repeated entity names are stored once.
type NewTask struct {
	Title    string     `json:"title"`
	Status   TaskStatus `json:"status,omitempty"`
	Notes    string     `json:"notes,omitempty"`
	Entities []string   `json:"entities,omitempty"`
}

// TaskUpdate is a partial update: nil fields are left unchanged. Entities,
// when non-nil, replaces the whole list.
type TaskUpdate struct {
	Title    *string     `json:"title,omitempty"`
	Status   *TaskStatus `json:"status,omitempty"`
	Notes    *string     `json:"notes,omitempty"`
	Entities *[]string   `json:"entities,omitempty"`
}

// TaskFilter selects tasks for ListTasks. Zero values mean "any".
type TaskFilter struct {
	ActiveOnly bool       `json:"activeOnly,omitempty"` // status != done
	Status     TaskStatus `json:"status,omitempty"`     // exact status
	Entity     string     `json:"entity,omitempty"`     // linked to this entity name
	Limit      int        `json:"limit,omitempty"`      // at most this many (0: no limit)
}

// ChangeKind says what a Change did.
type ChangeKind string

// Change kinds recorded in the feed.
const (
	ChangeEntityCreated      ChangeKind = "entity_created"
	ChangeEntityDeleted      ChangeKind = "entity_deleted"
	ChangeObservationAdded   ChangeKind = "observation_added"
	ChangeObservationDeleted ChangeKind = "observation_deleted"
	ChangeRelationCreated    ChangeKind = "relation_created"
	ChangeRelationDeleted    ChangeKind = "relation_deleted"
	ChangeTaskCreated        ChangeKind = "task_created"
	ChangeTaskUpdated        ChangeKind = "task_updated"
)

// Change is one entry of the change feed, which answers "what changed since
// cursor X", and of an entity's history. Seq increases by one per change
// and is never reused. Author is who made it: the subject of the principal
// that asked (see WithAuthor), or LocalAuthor.
//
// Subject is the entity name for entity and observation changes, the
// relation's From for relation changes and the task title for task changes.
// Detail is the entity type (entity_*), the observation text
// (observation_*, cut to MaxChangeDetailBytes), the initial status
// (task_created) or a summary of the changed fields (task_updated).
// Deleting an entity also records relation_deleted for each relation removed
// with it; entity_created stands for the entity and its initial
// observations. Import records entity_created and relation_created like the
// create calls.
type Change struct {
	Seq      int64      `json:"seq"`
	Kind     ChangeKind `json:"kind"`
	Subject  string     `json:"subject"`
	Detail   string     `json:"detail,omitempty"`
	Relation *Relation  `json:"relation,omitempty"`
	TaskID   int64      `json:"taskId,omitempty"`
	Author   string     `json:"author"`
	At       time.Time  `json:"at"`
}

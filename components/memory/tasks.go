package memory

import (
	"context"

	"github.com/mcpgen/mcpgen"
	"github.com/mcpgen/mcpgen/components/memory/memstore"
)

// Create a task (a unit of work to track), optionally linked to entities of the graph. Its status starts as open unless given.
//
//mcp:tool name=create_task title="Create Task" destructive=false scope=memory:write
type CreateTask struct {
	// What is to be done.
	Title string `json:"title" jsonschema:"minLength=1"`
	// open, in_progress, blocked or done (default open).
	Status string `json:"status,omitempty" jsonschema:"enum=open,enum=in_progress,enum=blocked,enum=done"`
	// Free-form notes.
	Notes string `json:"notes,omitempty"`
	// Names of entities the task concerns.
	Entities []string `json:"entities,omitempty"`
}

// TaskResult wraps one task.
type TaskResult struct {
	Task memstore.Task `json:"task"`
}

// Call creates the task.
func (in CreateTask) Call(ctx context.Context, req *mcpgen.Request, store memstore.Store) (TaskResult, error) {
	t, err := store.CreateTask(ctx, memstore.NewTask{Title: in.Title, Status: memstore.TaskStatus(in.Status), Notes: in.Notes, Entities: in.Entities})
	if err != nil {
		return TaskResult{}, err
	}
	tasksChanged(req)
	return TaskResult{Task: t}, nil
}

// Update a task: change its title, status (open, in_progress, blocked, done), notes or linked entities. Fields left out stay as they are.
//
//mcp:tool name=update_task title="Update Task" destructive=false idempotent scope=memory:write
type UpdateTask struct {
	// The task's id, as create_task or list_tasks gave it.
	ID int64 `json:"id" jsonschema:"minimum=1"`
	// New title.
	Title *string `json:"title,omitempty" jsonschema:"minLength=1"`
	// New status.
	Status *string `json:"status,omitempty" jsonschema:"enum=open,enum=in_progress,enum=blocked,enum=done"`
	// New notes (replaces the old ones).
	Notes *string `json:"notes,omitempty"`
	// New linked entities (replaces the old list).
	Entities *[]string `json:"entities,omitempty"`
}

// Call applies the update.
func (in UpdateTask) Call(ctx context.Context, req *mcpgen.Request, store memstore.Store) (TaskResult, error) {
	u := memstore.TaskUpdate{Title: in.Title, Notes: in.Notes, Entities: in.Entities}
	if in.Status != nil {
		s := memstore.TaskStatus(*in.Status)
		u.Status = &s
	}
	t, err := store.UpdateTask(ctx, in.ID, u)
	if err != nil {
		return TaskResult{}, err
	}
	tasksChanged(req)
	return TaskResult{Task: t}, nil
}

// List tasks, newest first: by default the active ones (not done); filter by status or by a linked entity.
//
//mcp:tool name=list_tasks title="List Tasks" readonly scope=memory:read
type ListTasks struct {
	// Only tasks with this status.
	Status string `json:"status,omitempty" jsonschema:"enum=open,enum=in_progress,enum=blocked,enum=done"`
	// Include done tasks too (ignored when status is given).
	All bool `json:"all,omitempty"`
	// Only tasks linked to this entity.
	Entity string `json:"entity,omitempty"`
}

// TaskList is a list of tasks.
type TaskList struct {
	Tasks []memstore.Task `json:"tasks"`
}

// Call lists the tasks.
func (in ListTasks) Call(ctx context.Context, store memstore.Store) (TaskList, error) {
	tasks, err := store.ListTasks(ctx, memstore.TaskFilter{ActiveOnly: !in.All && in.Status == "", Status: memstore.TaskStatus(in.Status), Entity: in.Entity})
	if tasks == nil {
		tasks = []memstore.Task{}
	}
	return TaskList{Tasks: tasks}, err
}

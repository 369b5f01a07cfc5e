package mcpgen

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
)

// TaskStatus is a task's state as the server reported it: its id, its
// status ("working", "input_required", "completed", "failed" or
// "cancelled"), what the server said about it, when it was created and
// last changed, how long the server keeps it and how often to poll it,
// and in 2026-07-28 the questions it waits on.
type TaskStatus struct {
	// TaskID is the task's id, which the server chose.
	TaskID string
	// Status is "working", "input_required", "completed", "failed" or
	// "cancelled".
	Status string
	// StatusMessage is what the server said about the status, if
	// anything.
	StatusMessage string
	// CreatedAt is when the task was created, as the server wrote it
	// (ISO 8601).
	CreatedAt string
	// LastUpdatedAt is when its status last changed, as the server wrote
	// it.
	LastUpdatedAt string
	// TTL is how long the server keeps the task; 0 when it keeps it
	// without a limit or did not say.
	TTL time.Duration
	// PollInterval is how often the server asks to be polled; 0 when it
	// did not say.
	PollInterval time.Duration
	// InputRequests are the questions the task waits on, by key, as
	// sent (2026-07-28, status input_required).
	InputRequests map[string]json.RawMessage
}

// Terminal reports whether the task ended: completed, failed or cancelled.
func (s *TaskStatus) Terminal() bool { return terminal(s.Status) }

// decodeTaskStatus reads a task in either era's spelling (ttlMs and
// pollIntervalMs, or ttl and pollInterval).
func decodeTaskStatus(raw json.RawMessage) (*TaskStatus, error) {
	var t struct {
		TaskID         string                     `json:"taskId"`
		Status         string                     `json:"status"`
		StatusMessage  string                     `json:"statusMessage"`
		CreatedAt      string                     `json:"createdAt"`
		LastUpdatedAt  string                     `json:"lastUpdatedAt"`
		TTLMs          *int64                     `json:"ttlMs"`
		TTL            *int64                     `json:"ttl"`
		PollIntervalMs *int64                     `json:"pollIntervalMs"`
		PollInterval   *int64                     `json:"pollInterval"`
		InputRequests  map[string]json.RawMessage `json:"inputRequests"`
	}
	if err := json.Unmarshal(raw, &t); err != nil {
		return nil, fmt.Errorf("decode task: %w: %w", ErrUnexpectedResult, err)
	}
	if t.TaskID == "" || t.Status == "" {
		return nil, fmt.Errorf("decode task: %w: no taskId or status", ErrUnexpectedResult)
	}
	ms := func(ps ...*int64) time.Duration {
		for _, p := range ps {
			if p != nil && *p > 0 {
				return time.Duration(*p) * time.Millisecond
			}
		}
		return 0
	}
	return &TaskStatus{
		TaskID: t.TaskID, Status: t.Status, StatusMessage: t.StatusMessage,
		CreatedAt: t.CreatedAt, LastUpdatedAt: t.LastUpdatedAt,
		TTL: ms(t.TTLMs, t.TTL), PollInterval: ms(t.PollIntervalMs, t.PollInterval),
		InputRequests: t.InputRequests,
	}, nil
}

// Task is a tool call the server runs as a task, started by
// [Client.StartToolTask]: follow it with Get, wait for its result with
// Result, stop it with Cancel, or subscribe to its status with
// [Client.Listen] (ListenFilter.TaskIDs).
//
// Tasks work in both eras: the io.modelcontextprotocol/tasks extension of
// 2026-07-28 (tools/call answered with resultType "task"; tasks/get,
// tasks/update, tasks/cancel; notifications/tasks on a listen stream) and
// the tasks of 2025-11-25 (tools/call with params.task answered with a
// CreateTaskResult; tasks/get, tasks/result, tasks/cancel;
// notifications/tasks/status).
type Task struct {
	c       *Client
	tool    string
	started TaskStatus
	// result is the tool's result when the server ran the call at once
	// instead of as a task (a tool that does not run as one).
	result json.RawMessage
}

// ID is the task's id; "" when the server ran the call at once.
func (t *Task) ID() string { return t.started.TaskID }

// Started is the task's state when the server created it; for a call the
// server ran at once, status "completed" and no id.
func (t *Task) Started() TaskStatus { return t.started }

// Get asks the server for the task's state (tasks/get).
func (t *Task) Get(ctx context.Context) (*TaskStatus, error) {
	if t.result != nil {
		st := t.started
		return &st, nil
	}
	return t.c.GetTask(ctx, t.ID())
}

// Result waits for the task to end and returns the tool's result; see
// [Client.TaskResult]. A failure the tool reports is a [*ToolCallError]
// naming the tool, as with [Client.CallTool].
func (t *Task) Result(ctx context.Context) (*CallToolResult, error) {
	raw := t.result
	if raw == nil {
		var err error
		if raw, err = t.c.taskResult(ctx, t.ID()); err != nil {
			return nil, fmt.Errorf("tools/call %s: %w", t.tool, err)
		}
	}
	return decodeToolResult(t.tool, raw)
}

// Cancel asks the server to stop the task (tasks/cancel).
func (t *Task) Cancel(ctx context.Context) error {
	if t.result != nil {
		return nil
	}
	return t.c.CancelTask(ctx, t.ID())
}

// StartToolTask calls a tool as a task: the server answers at once with a
// task, runs the tool in the background, and [Task.Result] waits for its
// result. In 2026-07-28 the client declares the tasks extension on every
// request, and the server decides: a tool marked task=optional or
// task=required runs as a task; another runs at once, and the returned
// Task holds its result. In a legacy session (2025-11-25) the call asks
// for a task (params.task), which a server that declares
// tasks.requests.tools.call may grant; one that does not declare it is
// not asked, and the call fails. Questions the server asks before it
// creates the task (input_required) are answered as [Client.CallTool]
// does.
func (c *Client) StartToolTask(ctx context.Context, name string, args any) (*Task, error) {
	params, o, err := c.toolCall(name, args)
	if err != nil {
		return nil, err
	}
	if c.legacy {
		if !c.serverTasks() {
			return nil, fmt.Errorf("tools/call %s: the server does not run tool calls as tasks (its capabilities lack tasks.requests.tools.call)", name)
		}
		params["task"] = map[string]any{}
	}
	raw, _, err := c.rounds(ctx, o, params, false, nil)
	if err != nil {
		return nil, fmt.Errorf("tools/call %s: %w", name, err)
	}
	t := &Task{c: c, tool: name}
	var head struct {
		ResultType string          `json:"resultType"`
		Task       json.RawMessage `json:"task"`
	}
	if err := json.Unmarshal(raw, &head); err != nil {
		return nil, fmt.Errorf("tools/call %s: decode result: %w: %w", name, ErrUnexpectedResult, err)
	}
	var view json.RawMessage
	switch {
	case !c.legacy && head.ResultType == resultTask:
		view = raw
	case c.legacy && len(head.Task) > 0 && string(head.Task) != "null":
		view = head.Task
	default:
		t.result = raw
		t.started = TaskStatus{Status: "completed"}
		return t, nil
	}
	st, err := decodeTaskStatus(view)
	if err != nil {
		return nil, fmt.Errorf("tools/call %s: %w", name, err)
	}
	t.started = *st
	return t, nil
}

// serverTasks reports whether a legacy server declared task-augmented
// tools/call (tasks.requests.tools.call).
func (c *Client) serverTasks() bool {
	var caps struct {
		Tasks struct {
			Requests struct {
				Tools struct {
					Call json.RawMessage `json:"call"`
				} `json:"tools"`
			} `json:"requests"`
		} `json:"tasks"`
	}
	_ = json.Unmarshal(c.serverCaps, &caps)
	return len(caps.Tasks.Requests.Tools.Call) > 0 && string(caps.Tasks.Requests.Tools.Call) != "null"
}

// GetTask asks the server for the state of the task id (tasks/get).
func (c *Client) GetTask(ctx context.Context, id string) (*TaskStatus, error) {
	raw, err := c.call(ctx, "tasks/get", map[string]any{"taskId": id}, id)
	if err != nil {
		return nil, fmt.Errorf("tasks/get %s: %w", id, err)
	}
	st, err := decodeTaskStatus(raw)
	if err != nil {
		return nil, fmt.Errorf("tasks/get %s: %w", id, err)
	}
	return st, nil
}

// TaskResult waits for the task id to end and returns the result of the
// tool call it ran. In 2026-07-28 it polls tasks/get at the interval the
// server asks for (within 20 ms and 5 s), answering the task's questions
// with the handlers of [ClientOptions] (tasks/update); in 2025-11-25 it
// sends tasks/result, which the server answers when the task ends. A
// failed or cancelled task is an error; a failure the tool reports comes
// back as the result and a [*ToolCallError]. When ctx ends first the task
// goes on: cancel it with [Client.CancelTask].
func (c *Client) TaskResult(ctx context.Context, id string) (*CallToolResult, error) {
	raw, err := c.taskResult(ctx, id)
	if err != nil {
		return nil, err
	}
	return decodeToolResult("task "+id, raw)
}

func (c *Client) taskResult(ctx context.Context, id string) (json.RawMessage, error) {
	if c.legacy {
		raw, err := c.call(ctx, "tasks/result", map[string]any{"taskId": id}, id)
		if err != nil {
			return nil, fmt.Errorf("tasks/result %s: %w", id, err)
		}
		return raw, nil
	}
	view, err := c.call(ctx, "tasks/get", map[string]any{"taskId": id}, id)
	if err != nil {
		return nil, fmt.Errorf("tasks/get %s: %w", id, err)
	}
	return c.followTask(ctx, id, view, false)
}

// CancelTask asks the server to stop the task id (tasks/cancel).
func (c *Client) CancelTask(ctx context.Context, id string) error {
	if _, err := c.call(ctx, "tasks/cancel", map[string]any{"taskId": id}, id); err != nil {
		return fmt.Errorf("tasks/cancel %s: %w", id, err)
	}
	return nil
}

// TypedTask is a [Task] whose result decodes into Out, as [CallToolAs]
// decodes a call's: what [StartToolTaskAs] returns, and generated typed
// clients for the tools that run as tasks.
type TypedTask[Out any] struct {
	*Task
}

// Result waits for the task to end and returns the tool's result decoded
// into Out; see [Task.Result] and [CallToolAs].
func (t TypedTask[Out]) Result(ctx context.Context) (Out, error) {
	res, err := t.Task.Result(ctx)
	if err != nil {
		var out Out
		return out, err
	}
	return resultAs[Out](t.tool, res)
}

// StartToolTaskAs starts a call of the tool name as a task, as
// [Client.StartToolTask] does, and returns it typed: its Result decodes
// into Out. Generated typed clients call it for the tools marked
// task=optional or task=required.
func StartToolTaskAs[Out any](ctx context.Context, c *Client, name string, in any) (TypedTask[Out], error) {
	t, err := c.StartToolTask(ctx, name, in)
	return TypedTask[Out]{t}, err
}

package everything

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/mcpgen/mcpgen"
)

// This file holds the fixtures of the tasks extension scenarios
// (io.modelcontextprotocol/tasks). A tool marked task= runs in the
// background when the client declares the extension on the request: the
// client gets a task handle at once, polls tasks/get, answers questions
// with tasks/update and may tasks/cancel. Other clients call task=optional
// tools synchronously and are refused task=required ones.

// Greet someone by name. Never runs as a task.
//
//mcp:tool readonly
type Greet struct {
	// Who to greet.
	Name string `json:"name"`
}

// Call greets.
func (in Greet) Call(context.Context) (string, error) {
	return fmt.Sprintf("Hello, %s!", in.Name), nil
}

// Work for the given number of seconds, reporting progress each second. Runs as a task for clients that support tasks, and can be cancelled.
//
//mcp:tool readonly task=optional
type SlowCompute struct {
	// How long to work, in seconds.
	Seconds float64 `json:"seconds" jsonschema:"minimum=0,maximum=3600"`
	// A label for the result.
	Label string `json:"label,omitempty"`
}

// Call works, then reports how long it took.
func (in SlowCompute) Call(ctx context.Context, req *mcpgen.Request) (string, error) {
	total := time.Duration(in.Seconds * float64(time.Second))
	start := time.Now()
	for done := time.Duration(0); done < total; {
		step := min(time.Second, total-done)
		if err := pause(ctx, step); err != nil {
			return "", err
		}
		done += step
		if err := req.Progress(ctx, done.Seconds(), total.Seconds(), ""); err != nil {
			return "", err
		}
	}
	label := in.Label
	if label == "" {
		label = "computation"
	}
	return fmt.Sprintf("Finished %s after %s (took %s).", label, plural(in.Seconds, "second"), time.Since(start).Round(time.Millisecond)), nil
}

// Work for a second, then fail with a tool error: the task ends completed with isError set. Only runs as a task.
//
//mcp:tool readonly task=required
type FailingJob struct{}

// Call fails after a second.
func (FailingJob) Call(ctx context.Context) (string, error) {
	if err := pause(ctx, time.Second); err != nil {
		return "", err
	}
	return "", errors.New("the job failed on purpose after one second")
}

// Work briefly, then fail with a JSON-RPC error: as a task it ends failed, carrying the error.
//
//mcp:tool readonly task=optional
type ProtocolErrorJob struct{}

// Call fails with an internal error.
func (ProtocolErrorJob) Call(ctx context.Context) (string, error) {
	if err := pause(ctx, 300*time.Millisecond); err != nil {
		return "", err
	}
	return "", mcpgen.Errorf(mcpgen.CodeInternalError, "the job hit an internal error on purpose")
}

// Delete a file once the user confirms (nothing is really deleted). As a task it waits in input_required for the answer.
//
//mcp:tool destructive idempotent task=optional
type ConfirmDelete struct {
	// The file to delete.
	Filename string `json:"filename" jsonschema:"minLength=1"`
}

// Call asks, then reports what it did.
func (in ConfirmDelete) Call(ctx context.Context, req *mcpgen.Request) (string, error) {
	a, err := elicit(ctx, req, "confirm_delete", fmt.Sprintf("Delete %s?", in.Filename),
		newForm(map[string]any{"confirm": boolean("Delete the file")}, "confirm"))
	if err != nil {
		return "", err
	}
	if a.accepted() && a.Content["confirm"] == true {
		return fmt.Sprintf("Deleted %s.", in.Filename), nil
	}
	return fmt.Sprintf("Kept %s: the deletion was not confirmed.", in.Filename), nil
}

// Ask two questions at the same time. As a task both wait in input_required together, and each can be answered on its own.
//
//mcp:tool readonly task=optional
type MultiInput struct{}

// Call asks both questions and reports the answers.
func (MultiInput) Call(ctx context.Context, req *mcpgen.Request) (string, error) {
	part := func(n int) question {
		return elicitQuestion(fmt.Sprintf("part_%d", n), fmt.Sprintf("Details for part %d", n), newForm(map[string]any{
			"name":    str("A name for this part"),
			"confirm": boolean("Confirm this part"),
		}, "name"))
	}
	got, err := askAll(ctx, req, part(1), part(2))
	if err != nil {
		return "", err
	}
	var names [2]string
	for i := range names {
		key := fmt.Sprintf("part_%d", i+1)
		a, err := parseElicit(key, got[key])
		if err != nil {
			return "", err
		}
		names[i] = a.field("name")
	}
	return fmt.Sprintf("Received both parts: %s and %s.", names[0], names[1]), nil
}

// Ask the user's name with an input_required round trip, then greet them from a task. Only runs as a task.
//
//mcp:tool name=test_tool_with_task readonly task=required
type ToolWithTask struct{}

// Prepare asks for the name before the task is created. What the user
// answered is judged by Call, inside the task.
func (ToolWithTask) Prepare(ctx context.Context, req *mcpgen.Request) error {
	_, err := askUserName(ctx, req)
	return err
}

// Call greets the user from the task.
func (ToolWithTask) Call(ctx context.Context, req *mcpgen.Request) (string, error) {
	name, err := askName(ctx, req)
	if err != nil {
		return "", err
	}
	if err := pause(ctx, 200*time.Millisecond); err != nil {
		return "", err
	}
	return fmt.Sprintf("Hello, %s! This greeting comes from a task.", name), nil
}

// askName asks for the user's name (key user_name); the answer given to
// Prepare is still there when the task asks again. Declining is a tool
// error.
func askName(ctx context.Context, req *mcpgen.Request) (string, error) {
	a, err := askUserName(ctx, req)
	if err != nil {
		return "", err
	}
	if !a.accepted() || a.field("name") == "" {
		return "", errors.New("no name was given")
	}
	return a.field("name"), nil
}

// plural formats a count with a noun: 1 second, 2 seconds.
func plural(n float64, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%g %ss", n, noun)
}

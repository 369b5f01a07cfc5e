package mcpgen_test

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/mcpgen/mcpgen"
	notescomp "github.com/mcpgen/mcpgen/components/notes"
	"github.com/mcpgen/mcpgen/generated/everything"
	"github.com/mcpgen/mcpgen/generated/notes"
)

// A client of the notes server, in the same process: Connect agrees on a
// revision, CallTool calls, CallToolAs decodes the structured result, and
// errors come apart as tool failures and protocol errors.
func Example_client() {
	srv := notes.New(notescomp.NewStore(), mcpgen.Options{})
	defer srv.Close()
	ctx := context.Background()

	c, err := mcpgen.Connect(ctx, mcpgen.InMemoryTransport(srv), mcpgen.ClientOptions{})
	if err != nil {
		fmt.Println("connect:", err)
		return
	}
	defer c.Close()
	fmt.Println("server:", c.ServerInfo().Name, "revision:", c.ProtocolVersion())

	saved, err := mcpgen.CallToolAs[struct {
		ID    string `json:"id"`
		Count int    `json:"count"`
	}](ctx, c, "add_note", map[string]any{"id": "groceries", "text": "eggs"})
	fmt.Printf("saved: %+v %v\n", saved, err)

	res, err := c.ReadResource(ctx, "notes://groceries")
	if err == nil {
		fmt.Println("read:", *res.Contents[0].Text)
	}

	_, err = c.CallTool(ctx, "no_such_tool", nil)
	var te *mcpgen.ToolCallError
	var pe *mcpgen.ProtocolError
	switch {
	case errors.As(err, &te):
		fmt.Println("the tool failed:", te.Result.Content[0].Text)
	case errors.As(err, &pe):
		fmt.Println("protocol error:", pe.Code)
	}
	// Output:
	// server: notes revision: 2026-07-28
	// saved: {ID:groceries Count:1} <nil>
	// read: eggs
	// protocol error: -32602
}

// Logs and pages: SetLogLevel asks the server for its log messages (in
// 2026-07-28 every request carries the level), OnLog receives them, and
// the everything server's prompts come one page at a time, then through
// the iterator.
func ExampleClient_SetLogLevel() {
	srv := everything.New(mcpgen.Options{PageSize: 2})
	defer srv.Close()
	ctx := context.Background()
	c, err := mcpgen.Connect(ctx, mcpgen.InMemoryTransport(srv), mcpgen.ClientOptions{
		OnLog: func(m mcpgen.LogMessage) { fmt.Printf("log %s %s: %s\n", m.Level, m.Logger, m.Data) },
	})
	if err != nil {
		fmt.Println("connect:", err)
		return
	}
	defer c.Close()

	if err := c.SetLogLevel(ctx, "info"); err != nil {
		fmt.Println("set level:", err)
		return
	}
	if _, err := c.CallTool(ctx, "test_logging_tool", nil); err != nil {
		fmt.Println("call:", err)
	}

	for cursor, page := "", 1; ; page++ {
		prompts, next, err := c.ListPromptsPage(ctx, cursor)
		if err != nil {
			fmt.Println("page:", err)
			return
		}
		fmt.Println("page", page, "holds", len(prompts), "prompts; more:", next != "")
		if next == "" {
			break
		}
		cursor = next
	}
	n := 0
	for _, err := range c.Prompts(ctx) {
		if err != nil {
			fmt.Println("list:", err)
			return
		}
		n++
	}
	fmt.Println("the iterator gave", n, "prompts")
	// Output:
	// log info test_logging_tool: "test_logging_tool was called"
	// page 1 holds 2 prompts; more: true
	// page 2 holds 2 prompts; more: true
	// page 3 holds 1 prompts; more: false
	// the iterator gave 5 prompts
}

// A task-augmented call: the everything server runs slow_compute as a
// task for a 2026-07-28 client; StartToolTask returns the task at once,
// and Result waits for the tool's result.
func ExampleClient_StartToolTask() {
	srv := everything.New(mcpgen.Options{Tasks: true})
	defer srv.Close()
	ctx := context.Background()
	c, err := mcpgen.Connect(ctx, mcpgen.InMemoryTransport(srv), mcpgen.ClientOptions{})
	if err != nil {
		fmt.Println("connect:", err)
		return
	}
	defer c.Close()

	task, err := c.StartToolTask(ctx, "slow_compute", map[string]any{"seconds": 0, "label": "the sum"})
	if err != nil {
		fmt.Println("start:", err)
		return
	}
	fmt.Println("started:", task.Started().Status, "with an id:", task.ID() != "")
	res, err := task.Result(ctx)
	if err != nil {
		fmt.Println("result:", err)
		return
	}
	text, _, _ := strings.Cut(res.Content[0].Text, " (")
	fmt.Println("result:", text)
	// Output:
	// started: working with an id: true
	// result: Finished the sum after 0 seconds
}

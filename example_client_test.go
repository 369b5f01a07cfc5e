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
	"github.com/mcpgen/mcpgen/generated/notes/notesclient"
)

// Most examples of this file serve components/notes through its generated
// package, generated/notes: a tool add_note with a *Store dependency and a
// structured result, a resource template notes://{id} with completion,
// and a prompt summarize. Those of logs, pages and tasks serve the
// conformance fixture, generated/everything.

// connectNotes starts a notes server holding the given notes and connects
// a client to it in the same process.
func connectNotes(ctx context.Context, texts map[string]string) (*mcpgen.Client, func(), error) {
	srv := notes.New(notescomp.NewStore(), mcpgen.Options{})
	c, err := mcpgen.Connect(ctx, mcpgen.InMemoryTransport(srv), mcpgen.ClientOptions{})
	if err != nil {
		srv.Close()
		return nil, nil, err
	}
	for id, text := range texts {
		if _, err := c.CallTool(ctx, "add_note", map[string]string{"id": id, "text": text}); err != nil {
			c.Close()
			srv.Close()
			return nil, nil, err
		}
	}
	return c, func() { c.Close(); srv.Close() }, nil
}

// A client of the notes server, in the same process: Connect agrees on a
// revision with the server, then the client calls tools, reads resources
// and gets prompts.
func ExampleConnect() {
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

	tools, err := c.ListTools(ctx)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, t := range tools {
		fmt.Println("tool:", t.Name, "-", t.Description)
	}
	// Output:
	// server: notes revision: 2026-07-28
	// tool: add_note - Stores a note under an identifier.
}

// A test of a server with the in-memory transport: the server runs in the
// test's process, with no network and no subprocess, and the test talks to
// it as any client would. In a test function (TestAddNote(t
// *testing.T)) the prints would be t.Fatal and t.Errorf calls.
func ExampleInMemoryTransport() {
	ctx := context.Background()
	srv := notes.New(notescomp.NewStore(), mcpgen.Options{})
	defer srv.Close()
	c, err := mcpgen.Connect(ctx, mcpgen.InMemoryTransport(srv), mcpgen.ClientOptions{})
	if err != nil {
		fmt.Println("connect:", err) // t.Fatal(err)
		return
	}
	defer c.Close()

	for i, id := range []string{"groceries", "chores"} {
		saved, err := notesclient.New(c).AddNote(ctx, notesclient.AddNote{ID: id, Text: "something"})
		if err != nil || saved.Count != i+1 {
			fmt.Printf("AddNote(%s) = %+v, %v; want count %d\n", id, saved, err, i+1) // t.Errorf(...)
		}
	}
	_, err = notesclient.New(c).AddNote(ctx, notesclient.AddNote{ID: "Not An ID", Text: "x"})
	var te *mcpgen.ToolCallError
	if !errors.As(err, &te) {
		fmt.Println("an invalid id was not refused as the tool's failure:", err) // t.Errorf(...)
	}
	fmt.Println("ok")
	// Output:
	// ok
}

// The typed client mcpgen generates for every server
// (generated/notes/notesclient): one method per tool, resource template
// and prompt, taking and returning copies of the components' types.
// CheckSurface refuses a server whose tools differ from the ones the
// client was generated from.
func Example_typedClient() {
	ctx := context.Background()
	conn, done, err := connectNotes(ctx, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer done()

	c := notesclient.New(conn)
	if err := c.CheckSurface(ctx); err != nil {
		fmt.Println(err)
		return
	}
	saved, err := c.AddNote(ctx, notesclient.AddNote{ID: "groceries", Text: "eggs"})
	fmt.Printf("%+v %v\n", saved, err)
	text, err := c.ReadNote(ctx, "groceries")
	fmt.Println(text, err)
	// Output:
	// {ID:groceries Count:1} <nil>
	// eggs <nil>
}

// CallToolAs decodes a tool's structured result into any Go value whose
// JSON form matches its output schema.
func ExampleCallToolAs() {
	ctx := context.Background()
	c, done, err := connectNotes(ctx, map[string]string{"chores": "dishes"})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer done()

	type saved struct {
		ID    string `json:"id"`
		Count int    `json:"count"`
	}
	s, err := mcpgen.CallToolAs[saved](ctx, c, "add_note", map[string]string{"id": "groceries", "text": "eggs"})
	fmt.Printf("%+v %v\n", s, err)
	// Output:
	// {ID:groceries Count:2} <nil>
}

// A failing tool is not a failing call: the client returns the tool's
// result and a *ToolCallError; a request the server refused (here an
// unknown tool) is a *ProtocolError.
func ExampleToolCallError() {
	ctx := context.Background()
	c, done, err := connectNotes(ctx, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer done()

	for _, name := range []string{"add_note", "no_such_tool"} {
		_, err := c.CallTool(ctx, name, map[string]string{"id": "x", "text": "y"})
		var te *mcpgen.ToolCallError
		var pe *mcpgen.ProtocolError
		switch {
		case err == nil:
			fmt.Println(name + ": ok")
		case errors.As(err, &te):
			fmt.Println(name+": the tool failed:", te.Result.Content[0].Text)
		case errors.As(err, &pe):
			fmt.Println(name+": refused:", pe.Code, pe.Message)
		}
	}
	// Output:
	// add_note: ok
	// no_such_tool: refused: -32602 invalid params: unknown tool "no_such_tool"
}

// Reading a resource of a template: the URI binds the template's variable
// to the component's field (Note.ID).
func ExampleClient_ReadResource() {
	ctx := context.Background()
	c, done, err := connectNotes(ctx, map[string]string{"groceries": "eggs"})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer done()

	templates, err := c.ListResourceTemplates(ctx)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("template:", templates[0].URITemplate)
	res, err := c.ReadResource(ctx, mcpgen.ExpandTemplate(templates[0].URITemplate, map[string]string{"id": "groceries"}))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Contents[0].MimeType, *res.Contents[0].Text)
	// Output:
	// template: notes://{id}
	// text/plain eggs
}

// A prompt: its component's fields are its arguments.
func ExampleClient_GetPrompt() {
	ctx := context.Background()
	c, done, err := connectNotes(ctx, map[string]string{"groceries": "eggs"})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer done()

	p, err := c.GetPrompt(ctx, "summarize", map[string]string{"id": "groceries"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p.Description)
	fmt.Printf("%s: %q\n", p.Messages[0].Role, p.Messages[0].Content.Text)
	// Output:
	// Asks the model to summarise one note.
	// user: "Summarize this note in one sentence:\n\neggs"
}

// Completion: the notes template's Complete method offers the identifiers
// that start with what the user typed.
func ExampleClient_Complete() {
	ctx := context.Background()
	c, done, err := connectNotes(ctx, map[string]string{"groceries": "eggs", "garden": "roses", "chores": "dishes"})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer done()

	ref := mcpgen.CompletionRef{Type: "ref/resource", URI: "notes://{id}"}
	got, err := c.Complete(ctx, ref, "id", "g", nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(got.Values)
	// Output:
	// [garden groceries]
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

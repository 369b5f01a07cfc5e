// Command caller calls the notes server through its generated typed
// client, importing nothing of the server but that package:
//
//	caller VERSION stdio SERVER-BINARY
//	caller VERSION http URL
//
// VERSION is a protocol revision, or "default" to let the client choose.
// It adds a note, reads it back through the resource template, gets the
// summarize prompt and prints what it got; the external-module test runs
// it, and then checks that a change to the component's Saved.Count field
// breaks its compilation.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/mcpgen/mcpgen"

	"example.com/notes/generated/notes/notesclient"
)

func main() {
	if err := run(context.Background(), os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "caller:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string) error {
	if len(args) != 3 {
		return errors.New("usage: caller VERSION stdio|http SERVER")
	}
	opts := mcpgen.ClientOptions{ProtocolVersion: args[0]}
	if args[0] == "default" {
		opts.ProtocolVersion = ""
	}
	t := mcpgen.HTTPTransport(args[2])
	if args[1] == "stdio" {
		t = mcpgen.CommandTransport(args[2])
	}
	conn, err := mcpgen.Connect(ctx, t, opts)
	if err != nil {
		return err
	}
	defer conn.Close()
	notes := notesclient.New(conn)
	if err := notes.CheckSurface(ctx); err != nil {
		return err
	}

	saved, err := notes.AddNote(ctx, notesclient.AddNote{ID: "groceries", Text: "eggs, flour"})
	if err != nil {
		return err
	}
	var count int = saved.Count // stops compiling when Count changes type
	text, err := notes.ReadNote(ctx, saved.ID)
	if err != nil {
		return err
	}
	prompt, err := notes.GetSummarize(ctx, notesclient.Summarize{ID: saved.ID})
	if err != nil {
		return err
	}
	_, err = notes.AddNote(ctx, notesclient.AddNote{ID: "Not An ID", Text: "x"})
	var toolErr *mcpgen.ToolCallError
	var protoErr *mcpgen.ProtocolError
	refused := errors.As(err, &toolErr) || errors.As(err, &protoErr)

	fmt.Printf("protocol %s\n", conn.ProtocolVersion())
	fmt.Printf("saved %s, %d note(s)\n", saved.ID, count)
	fmt.Printf("note %q\n", text)
	fmt.Printf("prompt: %d message(s), mentions the note: %v\n", len(prompt.Messages), len(prompt.Messages) == 1 && strings.Contains(prompt.Messages[0].Content.Text, text))
	fmt.Printf("bad id refused: %v\n", refused)
	return nil
}

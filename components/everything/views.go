package everything

import (
	"context"
	"errors"
	"strings"
)

// This file holds what the view ui/about.html (MCP Apps) calls: a tool
// offered to the server's views only. Hosts that show views list it, and
// let the view call it; the model is never offered it, and clients that
// show no views are not told it exists.

// Greeting is what app_greet answers.
type Greeting struct {
	// The greeting, for the view to show.
	Greeting string `json:"greeting"`
}

// Greet someone by name, for the about view: only the server's views call it.
//
//mcp:tool name=app_greet readonly view=ui://everything/about.html visibility=app
type AppGreet struct {
	// The name to greet.
	Name string `json:"name" jsonschema:"minLength=1,maxLength=100"`
}

// Call greets.
func (in AppGreet) Call(context.Context) (Greeting, error) {
	name := strings.TrimSpace(in.Name)
	if name == "" {
		return Greeting{}, errors.New("a name of spaces greets no one")
	}
	return Greeting{Greeting: "Hello, " + name + ", from the about view!"}, nil
}

// Package prompts is a golden case: prompts with required and optional
// arguments, each result kind, and completion.
//
//mcp:server name=prompts
package prompts

import (
	"context"
	"fmt"
	"strings"

	"github.com/mcpgen/mcpgen"
)

// Review asks the model to review a piece of code.
//
//mcp:prompt
type Review struct {
	// The code to review.
	Code string `json:"code"`
	// Language of the code; guessed when absent.
	Language string  `json:"language,omitempty"`
	Focus    *string `json:"focus"` // What to pay attention to.
	Strict   string  `json:"strict,omitzero"`
	Ignored  string  `json:"-"`
	internal string
}

// Get renders the request as one user message.
func (p Review) Get(ctx context.Context) (string, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "Review this %s code", orDefault(p.Language, "unknown"))
	if p.Focus != nil {
		fmt.Fprintf(&b, ", focusing on %s", *p.Focus)
	}
	fmt.Fprintf(&b, ":\n%s", p.Code)
	_ = p.internal
	return b.String(), nil
}

// Complete offers languages.
func (Review) Complete(ctx context.Context, c mcpgen.CompleteRequest) ([]string, error) {
	if c.Argument != "language" {
		return nil, nil
	}
	var out []string
	for _, l := range []string{"go", "python", "rust", "typescript"} {
		if strings.HasPrefix(l, c.Value) {
			out = append(out, l)
		}
	}
	return out, nil
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

// Translate sets up a translation as a conversation.
//
//mcp:prompt name=translate-text title="Translate text"
type Translate struct {
	// Text to translate.
	Text string `json:"text"`
	// Target language.
	Target string `json:"target"`
}

// Get returns the messages.
func (p *Translate) Get(ctx context.Context) ([]mcpgen.PromptMessage, error) {
	return []mcpgen.PromptMessage{
		{Role: "user", Content: mcpgen.TextContent("Translate into " + p.Target + ":")},
		{Role: "assistant", Content: mcpgen.TextContent("Send the text.")},
		{Role: "user", Content: mcpgen.TextContent(p.Text)},
	}, nil
}

// Greeting builds its whole result itself and takes no arguments.
//
//mcp:prompt
type Greeting struct{}

// Get returns the result.
func (Greeting) Get(ctx context.Context) (*mcpgen.GetPromptResult, error) {
	return &mcpgen.GetPromptResult{
		Description: "A friendly greeting",
		Messages:    []mcpgen.PromptMessage{{Role: "user", Content: mcpgen.TextContent("Say hello.")}},
	}, nil
}

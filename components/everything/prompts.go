package everything

import (
	"context"
	"fmt"

	"github.com/mcpgen/mcpgen"
)

// This file holds the prompts (test_input_required_result_prompt is in
// inputrequired.go) and their completion.

// A prompt without arguments: one user message.
//
//mcp:prompt name=test_simple_prompt
type SimplePrompt struct{}

// Get returns the message.
func (SimplePrompt) Get(context.Context) (string, error) {
	return "A simple prompt without arguments, for testing.", nil
}

// A prompt built from two required arguments; both offer completions.
//
//mcp:prompt name=test_prompt_with_arguments
type PromptWithArguments struct {
	// The first value to put in the prompt.
	Arg1 string `json:"arg1"`
	// The second value to put in the prompt.
	Arg2 string `json:"arg2"`
}

// Get returns one message quoting both arguments.
func (p PromptWithArguments) Get(context.Context) (string, error) {
	return fmt.Sprintf("A prompt built from its arguments: arg1=%q, arg2=%q.", p.Arg1, p.Arg2), nil
}

// argumentSuggestions are the completions offered for arg1 and arg2.
var argumentSuggestions = map[string][]string{
	"arg1": {"alpha", "beta", "gamma"},
	"arg2": {"one", "two", "three"},
}

// Complete offers suggestions starting with what was typed.
func (PromptWithArguments) Complete(_ context.Context, c mcpgen.CompleteRequest) ([]string, error) {
	return withPrefix(argumentSuggestions[c.Argument], c.Value), nil
}

// A prompt that embeds the resource it is given.
//
//mcp:prompt name=test_prompt_with_embedded_resource
type PromptWithEmbeddedResource struct {
	// The URI of the resource to embed.
	ResourceURI string `json:"resourceUri"`
}

// Get returns the embedded resource and an instruction about it.
func (p PromptWithEmbeddedResource) Get(context.Context) ([]mcpgen.PromptMessage, error) {
	return []mcpgen.PromptMessage{
		{Role: "user", Content: embedded(p.ResourceURI, "text/plain", "Content of the resource embedded in the prompt.")},
		{Role: "user", Content: mcpgen.TextContent("Summarise the resource above.")},
	}, nil
}

// A prompt that shows an image and asks about it.
//
//mcp:prompt name=test_prompt_with_image
type PromptWithImage struct{}

// Get returns the image and a question about it.
func (PromptWithImage) Get(context.Context) ([]mcpgen.PromptMessage, error) {
	return []mcpgen.PromptMessage{
		{Role: "user", Content: mcpgen.Content{Type: "image", Data: pixelPNG64, MimeType: "image/png"}},
		{Role: "user", Content: mcpgen.TextContent("What colour is the image above?")},
	}, nil
}

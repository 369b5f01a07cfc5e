package everything

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/mcpgen/mcpgen"
)

// This file holds the tools that ask the client for something during the
// call: a legacy session gets a server-to-client request, a 2026-07-28
// client an input_required result to answer and retry.

// Ask the client's model to answer a prompt (sampling) and return its reply.
//
//mcp:tool name=test_sampling readonly openworld
type Sampling struct {
	// The prompt to send to the client's model.
	Prompt string `json:"prompt"`
}

// Call samples the client's model.
func (in Sampling) Call(ctx context.Context, req *mcpgen.Request) (string, error) {
	text, err := sample(ctx, req, "reply", in.Prompt, 100)
	if err != nil {
		return "", err
	}
	return "LLM response: " + text, nil
}

// Ask the user for a user name and an email address (elicitation), then report the answer.
//
//mcp:tool name=test_elicitation readonly
type Elicitation struct {
	// The message shown to the user with the form.
	Message string `json:"message"`
}

// Call shows the form and reports what the user did.
func (in Elicitation) Call(ctx context.Context, req *mcpgen.Request) (string, error) {
	a, err := elicit(ctx, req, "user_info", in.Message, newForm(map[string]any{
		"username": str("Your user name"),
		"email":    map[string]any{"type": "string", "format": "email", "description": "Your email address"},
	}, "username", "email"))
	if err != nil {
		return "", err
	}
	return describeAnswer(a), nil
}

// Ask the user to fill in a form whose every field has a default value (SEP-1034): a string, an integer, a number, an enum and a boolean.
//
//mcp:tool name=test_elicitation_sep1034_defaults readonly
type ElicitationDefaults struct{}

// Call shows the form and reports what the user did.
func (ElicitationDefaults) Call(ctx context.Context, req *mcpgen.Request) (string, error) {
	a, err := elicit(ctx, req, "profile", "Check the profile, the defaults are filled in", newForm(map[string]any{
		"name":     map[string]any{"type": "string", "description": "Full name", "default": "John Doe"},
		"age":      map[string]any{"type": "integer", "description": "Age in years", "minimum": 0, "default": 30},
		"score":    map[string]any{"type": "number", "description": "Score", "minimum": 0, "maximum": 100, "default": 95.5},
		"status":   map[string]any{"type": "string", "description": "Account status", "enum": []string{"active", "inactive", "pending"}, "default": "active"},
		"verified": map[string]any{"type": "boolean", "description": "Whether the account is verified", "default": true},
	}))
	if err != nil {
		return "", err
	}
	return describeAnswer(a), nil
}

// Ask the user to fill in a form with every enum style of SEP-1330: untitled and titled single choice, legacy enumNames, untitled and titled multiple choice.
//
//mcp:tool name=test_elicitation_sep1330_enums readonly
type ElicitationEnums struct{}

// Call shows the form and reports what the user did.
func (ElicitationEnums) Call(ctx context.Context, req *mcpgen.Request) (string, error) {
	titled := func(prefix string, titles ...string) []map[string]string {
		out := make([]map[string]string, len(titles))
		for i, t := range titles {
			out[i] = map[string]string{"const": fmt.Sprintf("%s%d", prefix, i+1), "title": t}
		}
		return out
	}
	a, err := elicit(ctx, req, "choices", "Pick some options", newForm(map[string]any{
		"untitledSingle": map[string]any{
			"type": "string", "description": "One option, values only",
			"enum": []string{"option1", "option2", "option3"},
		},
		"titledSingle": map[string]any{
			"type": "string", "description": "One option, with titles",
			"oneOf": titled("value", "Value one", "Value two", "Value three"),
		},
		"legacyEnum": map[string]any{
			"type": "string", "description": "One option, titled the pre-SEP-1330 way",
			"enum": []string{"opt1", "opt2", "opt3"}, "enumNames": []string{"First", "Second", "Third"},
		},
		"untitledMulti": map[string]any{
			"type": "array", "description": "Several options, values only", "minItems": 1, "maxItems": 3,
			"items": map[string]any{"type": "string", "enum": []string{"option1", "option2", "option3"}},
		},
		"titledMulti": map[string]any{
			"type": "array", "description": "Several options, with titles", "minItems": 1, "maxItems": 3,
			"items": map[string]any{"anyOf": titled("value", "Value one", "Value two", "Value three")},
		},
	}))
	if err != nil {
		return "", err
	}
	return describeAnswer(a), nil
}

// describeAnswer summarises an elicitation answer for the tool result.
func describeAnswer(a elicitAnswer) string {
	if !a.accepted() {
		return fmt.Sprintf("The user chose %q; nothing was submitted.", a.Action)
	}
	keys := make([]string, 0, len(a.Content))
	for k := range a.Content {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s=%v", k, a.Content[k])
	}
	return "The user submitted: " + strings.Join(parts, ", ")
}

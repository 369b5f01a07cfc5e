package everything

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mcpgen/mcpgen"
)

// This file holds the fixtures of the input-required-result-* scenarios
// (2026-07-28 multi round-trip requests). Each asks through Ask like any
// handler: the first call answers input_required, the client retries with
// inputResponses and the signed requestState, and the runtime hands the
// answers back to Ask. They work in legacy sessions too, as plain
// server-to-client requests.

// nameForm asks for a name.
var nameForm = newForm(map[string]any{"name": str("Your name")}, "name")

// askUserName shows nameForm under the key user_name.
func askUserName(ctx context.Context, req *mcpgen.Request) (elicitAnswer, error) {
	return elicit(ctx, req, "user_name", "What is your name?", nameForm)
}

// okForm asks for a yes/no confirmation.
var okForm = newForm(map[string]any{"ok": boolean("Whether to go ahead")}, "ok")

// Ask the user's name (input request user_name), then greet them.
//
//mcp:tool name=test_input_required_result_elicitation readonly
type InputRequiredElicitation struct{}

// Call asks for the name.
func (InputRequiredElicitation) Call(ctx context.Context, req *mcpgen.Request) (string, error) {
	a, err := askUserName(ctx, req)
	if err != nil {
		return "", err
	}
	if !a.accepted() {
		return describeAnswer(a), nil
	}
	return fmt.Sprintf("Hello, %s!", a.field("name")), nil
}

// Ask the client's model a question (input request capital_question) and return its reply.
//
//mcp:tool name=test_input_required_result_sampling readonly openworld
type InputRequiredSampling struct{}

// Call samples the client's model.
func (InputRequiredSampling) Call(ctx context.Context, req *mcpgen.Request) (string, error) {
	text, err := sample(ctx, req, "capital_question", "What is the capital of France?", 50)
	if err != nil {
		return "", err
	}
	return "The model answered: " + text, nil
}

// Ask for the client's roots (input request client_roots) and list them.
//
//mcp:tool name=test_input_required_result_list_roots readonly
type InputRequiredListRoots struct{}

// Call lists the roots.
func (InputRequiredListRoots) Call(ctx context.Context, req *mcpgen.Request) (string, error) {
	q := rootsQuestion("client_roots")
	raw, err := req.Ask(ctx, q.key, q.method, q.params)
	if err != nil {
		return "", err
	}
	roots, err := parseRoots(q.key, raw)
	if err != nil {
		return "", err
	}
	return describeRoots(roots), nil
}

// Ask for a confirmation (input request confirm); the retry must carry the requestState the server issued.
//
//mcp:tool name=test_input_required_result_request_state readonly
type InputRequiredRequestState struct{}

// Call asks for the confirmation.
func (InputRequiredRequestState) Call(ctx context.Context, req *mcpgen.Request) (string, error) {
	a, err := elicit(ctx, req, "confirm", "Please confirm", okForm)
	if err != nil {
		return "", err
	}
	return "state-ok: the requestState checked out. " + describeAnswer(a), nil
}

// Ask three things in one round: the user's name (user_name), a greeting from the client's model (greeting) and the client's roots (client_roots).
//
//mcp:tool name=test_input_required_result_multiple_inputs readonly openworld
type InputRequiredMultipleInputs struct{}

// Call asks the three questions at once.
func (InputRequiredMultipleInputs) Call(ctx context.Context, req *mcpgen.Request) (string, error) {
	got, err := askAll(ctx, req,
		elicitQuestion("user_name", "What is your name?", nameForm),
		sampleQuestion("greeting", "Write a one-line greeting.", 50),
		rootsQuestion("client_roots"),
	)
	if err != nil {
		return "", err
	}
	name, err := parseElicit("user_name", got["user_name"])
	if err != nil {
		return "", err
	}
	greeting, err := parseSample("greeting", got["greeting"])
	if err != nil {
		return "", err
	}
	roots, err := parseRoots("client_roots", got["client_roots"])
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("Name: %s\nGreeting: %s\n%s", name.field("name"), greeting, describeRoots(roots)), nil
}

// Ask two questions in two rounds: a name (step1), then a favourite colour (step2).
//
//mcp:tool name=test_input_required_result_multi_round readonly
type InputRequiredMultiRound struct{}

// Call asks one question after the other.
func (InputRequiredMultiRound) Call(ctx context.Context, req *mcpgen.Request) (string, error) {
	name, err := elicit(ctx, req, "step1", "Step 1: what is your name?", nameForm)
	if err != nil {
		return "", err
	}
	color, err := elicit(ctx, req, "step2", "Step 2: what is your favourite colour?",
		newForm(map[string]any{"color": str("A colour")}, "color"))
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%s likes %s.", name.field("name"), color.field("color")), nil
}

// Ask for a confirmation (input request confirm); a retry with an altered requestState is refused.
//
//mcp:tool name=test_input_required_result_tampered_state readonly
type InputRequiredTamperedState struct{}

// Call asks for the confirmation.
func (InputRequiredTamperedState) Call(ctx context.Context, req *mcpgen.Request) (string, error) {
	a, err := elicit(ctx, req, "confirm", "Please confirm", okForm)
	if err != nil {
		return "", err
	}
	return "The requestState was intact. " + describeAnswer(a), nil
}

// Ask the client only what its declared capabilities allow: a name if it can elicit, a model reply if it can sample, its roots if it has roots.
//
//mcp:tool name=test_input_required_result_capabilities readonly openworld
type InputRequiredCapabilities struct{}

// Call asks every question the client can answer.
func (InputRequiredCapabilities) Call(ctx context.Context, req *mcpgen.Request) (string, error) {
	var caps map[string]json.RawMessage
	_ = json.Unmarshal(req.ClientCaps, &caps)
	var qs []question
	if _, ok := caps["elicitation"]; ok {
		qs = append(qs, elicitQuestion("user_name", "What is your name?", nameForm))
	}
	if _, ok := caps["sampling"]; ok {
		qs = append(qs, sampleQuestion("greeting", "Write a one-line greeting.", 50))
	}
	if _, ok := caps["roots"]; ok {
		qs = append(qs, rootsQuestion("client_roots"))
	}
	if len(qs) == 0 {
		return "The client declared no capability to ask it anything with.", nil
	}
	got, err := askAll(ctx, req, qs...)
	if err != nil {
		return "", err
	}
	keys := make([]string, 0, len(got))
	for _, q := range qs {
		keys = append(keys, q.key)
	}
	return "The client answered: " + strings.Join(keys, ", "), nil
}

// A prompt that first asks the user for context (input request user_context), then builds its message around it.
//
//mcp:prompt name=test_input_required_result_prompt
type InputRequiredPrompt struct{}

// Get asks for the context and builds the prompt around it.
func (InputRequiredPrompt) Get(ctx context.Context, req *mcpgen.Request) ([]mcpgen.PromptMessage, error) {
	a, err := elicit(ctx, req, "user_context", "What context should the prompt use?",
		newForm(map[string]any{"context": str("Context for the prompt")}, "context"))
	if err != nil {
		return nil, err
	}
	topic := a.field("context")
	if !a.accepted() || topic == "" {
		topic = "(none given)"
	}
	return []mcpgen.PromptMessage{{Role: "user", Content: mcpgen.TextContent("Answer with this context in mind: " + topic)}}, nil
}

// describeRoots lists roots one per line.
func describeRoots(roots []root) string {
	if len(roots) == 0 {
		return "The client has no roots."
	}
	lines := []string{fmt.Sprintf("The client has %d root(s):", len(roots))}
	for _, r := range roots {
		lines = append(lines, fmt.Sprintf("- %s %s", r.URI, r.Name))
	}
	return strings.Join(lines, "\n")
}

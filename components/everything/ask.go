package everything

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mcpgen/mcpgen"
)

// This file builds the server-to-client requests the components make
// through [mcpgen.Request.Ask]: elicitation/create, sampling/createMessage
// and roots/list, and parses the answers. Ask serves both eras, so every
// helper returns Ask's error unchanged: in the stateless era that is the
// *mcpgen.InputRequiredError the runtime turns into input_required.

// Methods of the server-to-client requests.
const (
	methodElicit = "elicitation/create"
	methodSample = "sampling/createMessage"
	methodRoots  = "roots/list"
)

// form is the requestedSchema of a form elicitation: an object with flat,
// primitive properties.
type form struct {
	Type       string         `json:"type"`
	Properties map[string]any `json:"properties"`
	Required   []string       `json:"required,omitempty"`
}

// newForm returns a form schema with the given properties; required names
// the ones the user must fill in.
func newForm(props map[string]any, required ...string) form {
	return form{Type: "object", Properties: props, Required: required}
}

// str is a string property of a form.
func str(description string) map[string]any {
	return map[string]any{"type": "string", "description": description}
}

// boolean is a boolean property of a form.
func boolean(description string) map[string]any {
	return map[string]any{"type": "boolean", "description": description}
}

// elicitParams are the params of a form-mode elicitation/create.
type elicitParams struct {
	Message         string `json:"message"`
	RequestedSchema form   `json:"requestedSchema"`
}

// elicitAnswer is the client's answer to elicitation/create.
type elicitAnswer struct {
	Action  string         `json:"action"` // accept, decline or cancel
	Content map[string]any `json:"content,omitempty"`
}

// accepted reports whether the user submitted the form.
func (a elicitAnswer) accepted() bool { return a.Action == "accept" }

// field returns a submitted value as text ("" when absent).
func (a elicitAnswer) field(name string) string {
	v, ok := a.Content[name]
	if !ok || v == nil {
		return ""
	}
	if s, ok := v.(string); ok {
		return s
	}
	return fmt.Sprint(v)
}

// elicitQuestion is the question of an elicitation, for [askAll].
func elicitQuestion(key, message string, schema form) question {
	return question{key: key, method: methodElicit, params: elicitParams{Message: message, RequestedSchema: schema}}
}

// elicit asks the user to fill in a form.
func elicit(ctx context.Context, req *mcpgen.Request, key, message string, schema form) (elicitAnswer, error) {
	raw, err := req.Ask(ctx, key, methodElicit, elicitParams{Message: message, RequestedSchema: schema})
	if err != nil {
		return elicitAnswer{}, err
	}
	return parseElicit(key, raw)
}

func parseElicit(key string, raw json.RawMessage) (elicitAnswer, error) {
	var a elicitAnswer
	if err := json.Unmarshal(raw, &a); err != nil || a.Action == "" {
		return a, fmt.Errorf("the answer to %q is not an elicitation result: %s", key, raw)
	}
	return a, nil
}

// samplingMessage is one message of a sampling request.
type samplingMessage struct {
	Role    string         `json:"role"`
	Content mcpgen.Content `json:"content"`
}

// samplingParams are the params of sampling/createMessage.
type samplingParams struct {
	Messages  []samplingMessage `json:"messages"`
	MaxTokens int               `json:"maxTokens"`
}

// sampleQuestion asks the client's model to answer prompt, for [askAll].
func sampleQuestion(key, prompt string, maxTokens int) question {
	return question{key: key, method: methodSample, params: samplingParams{
		Messages:  []samplingMessage{{Role: "user", Content: mcpgen.TextContent(prompt)}},
		MaxTokens: maxTokens,
	}}
}

// sample asks the client's model to answer prompt and returns the text of
// its reply.
func sample(ctx context.Context, req *mcpgen.Request, key, prompt string, maxTokens int) (string, error) {
	q := sampleQuestion(key, prompt, maxTokens)
	raw, err := req.Ask(ctx, q.key, q.method, q.params)
	if err != nil {
		return "", err
	}
	return parseSample(key, raw)
}

// parseSample extracts the text of a sampling result, whose content is one
// block or (since 2025-11-25) an array of blocks.
func parseSample(key string, raw json.RawMessage) (string, error) {
	var res struct {
		Content json.RawMessage `json:"content"`
	}
	if err := json.Unmarshal(raw, &res); err != nil || len(res.Content) == 0 {
		return "", fmt.Errorf("the answer to %q is not a sampling result: %s", key, raw)
	}
	var blocks []mcpgen.Content
	if err := json.Unmarshal(res.Content, &blocks); err != nil {
		var one mcpgen.Content
		if err := json.Unmarshal(res.Content, &one); err != nil {
			return "", fmt.Errorf("the answer to %q has unreadable content: %s", key, res.Content)
		}
		blocks = []mcpgen.Content{one}
	}
	var texts []string
	for _, b := range blocks {
		if b.Type == "text" {
			texts = append(texts, b.Text)
		}
	}
	return strings.Join(texts, "\n"), nil
}

// rootsQuestion asks for the client's roots, for [askAll].
func rootsQuestion(key string) question {
	return question{key: key, method: methodRoots, params: map[string]any{}}
}

// root is one entry of a roots/list result.
type root struct {
	URI  string `json:"uri"`
	Name string `json:"name,omitempty"`
}

// parseRoots reads a roots/list result.
func parseRoots(key string, raw json.RawMessage) ([]root, error) {
	var res struct {
		Roots []root `json:"roots"`
	}
	if err := json.Unmarshal(raw, &res); err != nil || res.Roots == nil {
		return nil, fmt.Errorf("the answer to %q is not a roots/list result: %s", key, raw)
	}
	return res.Roots, nil
}

// question is one server-to-client request of a round.
type question struct {
	key    string
	method string
	params any
}

// askAll asks several questions at once and returns the answers by key
// (mcpgen.Request.AskAll: one input_required round, all outstanding in a
// task, or one after the other in a legacy session).
func askAll(ctx context.Context, req *mcpgen.Request, qs ...question) (map[string]json.RawMessage, error) {
	all := make([]mcpgen.Question, len(qs))
	for i, q := range qs {
		all[i] = mcpgen.Question{Key: q.key, Method: q.method, Params: q.params}
	}
	return req.AskAll(ctx, all...)
}

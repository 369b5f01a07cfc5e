package mcpgen

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
)

// This file builds the hand-written server.Definition that the transcript
// tests and the benchmarks serve: a few components of each kind, written the
// way generated adapters are (DecodeArguments, TextResult, StructuredResult,
// ...), so that the runtime is exercised through the same helpers as in
// production.

// fixture is one test server's components and the hooks tests use to
// steer them.
type fixture struct {
	// gate blocks slow_report until release_tasks closes it, so that a
	// transcript sees a task in the "working" state deterministically.
	gate     chan struct{}
	gateOnce sync.Once
}

func newFixture() *fixture { return &fixture{gate: make(chan struct{})} }

// features selects components by name; nil means all of a kind.
type features struct {
	tools, resources, prompts []string
}

func pick[T any](all []T, names []string, name func(T) string) []T {
	if names == nil {
		return all
	}
	var out []T
	for _, n := range names {
		i := slices.IndexFunc(all, func(x T) bool { return name(x) == n })
		if i < 0 {
			panic(fmt.Sprintf("fixture: no component %q", n))
		}
		out = append(out, all[i])
	}
	return out
}

// definition returns the fixture's Definition, restricted to f.
func (fx *fixture) definition(f features) Definition {
	var tools []Tool
	for _, t := range fx.tools() {
		tools = append(tools, t)
	}
	resources := fx.resources()
	templates := fx.templates()
	if f.resources != nil {
		var rs []Resource
		var ts []Template
		for _, n := range f.resources {
			if i := slices.IndexFunc(resources, func(r Resource) bool { return r.Info.Name == n }); i >= 0 {
				rs = append(rs, resources[i])
				continue
			}
			i := slices.IndexFunc(templates, func(t Template) bool { return t.Info.Name == n })
			if i < 0 {
				panic(fmt.Sprintf("fixture: no resource or template %q", n))
			}
			ts = append(ts, templates[i])
		}
		resources, templates = rs, ts
	}
	return Definition{
		Name:         "transcript-fixture",
		Title:        "Transcript fixture",
		Version:      "1.2.3",
		Instructions: "A fixture server for protocol transcripts.",
		Tools:        pick(tools, f.tools, func(t Tool) string { return t.Info.Name }),
		Resources:    resources,
		Templates:    templates,
		Prompts:      pick(fx.prompts(), f.prompts, func(p Prompt) string { return p.Info.Name }),
	}
}

func schema(s string) json.RawMessage { return json.RawMessage(s) }

type echoIn struct {
	Text string `json:"text"`
}

type weatherIn struct {
	City string `json:"city"`
	// Days is narrower than the schema (which does not declare it), so a
	// large value fails in DecodeArguments, not in schema validation.
	Days int8 `json:"days"`
}

type weatherOut struct {
	City       string  `json:"city"`
	TempC      float64 `json:"tempC"`
	Conditions string  `json:"conditions"`
}

type uriIn struct {
	URI string `json:"uri"`
}

// elicitAnswer is an ElicitResult as a tool reads it.
type elicitAnswer struct {
	Action  string            `json:"action"`
	Content map[string]string `json:"content"`
}

func (fx *fixture) tools() []Tool {
	return []Tool{
		{
			Info: ToolInfo{
				Name: "ask_name", Description: "Asks the user for their name (elicitation), then greets them.",
				InputSchema: schema(`{"type":"object","properties":{}}`),
			},
			Call: func(ctx context.Context, req *Request, _ json.RawMessage) (*CallToolResult, error) {
				raw, err := req.Ask(ctx, "name", "elicitation/create", map[string]any{
					"mode":    "form",
					"message": "What is your name?",
					"requestedSchema": map[string]any{
						"type":       "object",
						"properties": map[string]any{"name": map[string]any{"type": "string"}},
						"required":   []string{"name"},
					},
				})
				if err != nil {
					return ToolError(err)
				}
				var a elicitAnswer
				if err := json.Unmarshal(raw, &a); err != nil {
					return ToolError(fmt.Errorf("the answer is not an elicitation result: %s", raw))
				}
				if a.Action != "accept" {
					return TextResult("No name given ("+a.Action+").", nil)
				}
				return TextResult("Hello, "+a.Content["name"]+"!", nil)
			},
		},
		{
			Info: ToolInfo{
				Name: "bad_output", Description: "Declares an outputSchema and breaks it.",
				InputSchema:  schema(`{"type":"object"}`),
				OutputSchema: schema(`{"type":"object","properties":{"count":{"type":"integer"}},"required":["count"]}`),
			},
			Call: func(context.Context, *Request, json.RawMessage) (*CallToolResult, error) {
				return StructuredResult(map[string]any{"count": "many"}, nil)
			},
		},
		{
			Info: ToolInfo{
				Name: "crash", Description: "Panics.", InputSchema: schema(`{"type":"object"}`),
			},
			Call: func(context.Context, *Request, json.RawMessage) (*CallToolResult, error) {
				panic("crash tool called")
			},
		},
		{
			Info: ToolInfo{
				Name: "echo", Title: "Echo", Description: "Returns its text.",
				InputSchema: schema(`{"type":"object","properties":{"text":{"type":"string","maxLength":64}},"required":["text"],"additionalProperties":false}`),
				Annotations: &ToolAnnotations{ReadOnlyHint: Bool(true)},
			},
			Call: func(_ context.Context, _ *Request, args json.RawMessage) (*CallToolResult, error) {
				in, err := DecodeArguments[echoIn](args)
				if err != nil {
					return nil, err
				}
				return TextResult(in.Text, nil)
			},
		},
		{
			Info: ToolInfo{
				Name: "fail", Description: "Always fails as a tool (isError).", InputSchema: schema(`{"type":"object"}`),
			},
			Call: func(context.Context, *Request, json.RawMessage) (*CallToolResult, error) {
				return TextResult("", errors.New("the weather service is unavailable"))
			},
		},
		{
			Info: ToolInfo{
				Name: "log_steps", Description: "Logs at debug, info and warning.", InputSchema: schema(`{"type":"object"}`),
			},
			Call: func(ctx context.Context, req *Request, _ json.RawMessage) (*CallToolResult, error) {
				for _, l := range []struct{ level, msg string }{
					{"debug", "starting"}, {"info", "working"}, {"warning", "almost out of quota"},
				} {
					if err := req.Log(ctx, l.level, "steps", map[string]string{"step": l.msg}); err != nil {
						return nil, err
					}
				}
				return TextResult("logged", nil)
			},
		},
		{
			Info: ToolInfo{
				Name: "notify_change", Description: "Reports that a resource and the tool list changed.",
				InputSchema: schema(`{"type":"object","properties":{"uri":{"type":"string"}},"required":["uri"]}`),
			},
			Call: func(_ context.Context, req *Request, args json.RawMessage) (*CallToolResult, error) {
				in, err := DecodeArguments[uriIn](args)
				if err != nil {
					return nil, err
				}
				req.ResourceUpdated(in.URI)
				req.ListChanged("tools")
				return TextResult("notified", nil)
			},
		},
		{
			Info: ToolInfo{
				Name: "progress", Description: "Reports progress three times.", InputSchema: schema(`{"type":"object"}`),
			},
			Call: func(ctx context.Context, req *Request, _ json.RawMessage) (*CallToolResult, error) {
				for i := 1; i <= 3; i++ {
					if err := req.Progress(ctx, float64(i), 3, fmt.Sprintf("step %d of 3", i)); err != nil {
						return nil, err
					}
				}
				return TextResult("done", nil)
			},
		},
		{
			Info: ToolInfo{
				Name: "release_tasks", Description: "Lets slow_report finish and waits until every task is terminal.",
				InputSchema: schema(`{"type":"object"}`),
			},
			Call: func(ctx context.Context, req *Request, _ json.RawMessage) (*CallToolResult, error) {
				fx.gateOnce.Do(func() { close(fx.gate) })
				if err := WaitTasksTerminal(ctx, req); err != nil {
					return nil, err
				}
				return TextResult("released", nil)
			},
		},
		{
			Info: ToolInfo{
				Name: "sign_in", Description: "Sends the user to a URL (URL-mode elicitation).",
				InputSchema: schema(`{"type":"object"}`),
			},
			Call: func(ctx context.Context, req *Request, _ json.RawMessage) (*CallToolResult, error) {
				raw, err := req.Ask(ctx, "login", "elicitation/create", map[string]any{
					"mode": "url", "message": "Sign in to continue.", "url": "https://example.com/login",
				})
				if err != nil {
					return ToolError(err)
				}
				var a elicitAnswer
				_ = json.Unmarshal(raw, &a)
				return TextResult("sign-in: "+a.Action, nil)
			},
		},
		{
			Info: ToolInfo{
				Name: "slow_report", Description: "A task tool: waits until released.",
				InputSchema: schema(`{"type":"object","properties":{"topic":{"type":"string"}},"required":["topic"]}`),
			},
			Task: "optional",
			Call: func(ctx context.Context, _ *Request, args json.RawMessage) (*CallToolResult, error) {
				in, err := DecodeArguments[struct {
					Topic string `json:"topic"`
				}](args)
				if err != nil {
					return nil, err
				}
				select {
				case <-fx.gate:
				case <-ctx.Done():
					return nil, ctx.Err()
				}
				return TextResult("report on "+in.Topic, nil)
			},
		},
		{
			Info: ToolInfo{
				Name: "weather", Description: "Structured weather for a city.",
				InputSchema:  schema(`{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}`),
				OutputSchema: schema(`{"type":"object","properties":{"city":{"type":"string"},"tempC":{"type":"number"},"conditions":{"type":"string"}},"required":["city","tempC","conditions"]}`),
			},
			Call: func(_ context.Context, _ *Request, args json.RawMessage) (*CallToolResult, error) {
				in, err := DecodeArguments[weatherIn](args)
				if err != nil {
					return nil, err
				}
				return StructuredResult(weatherOut{City: in.City, TempC: 22.5, Conditions: "Partly cloudy"}, nil)
			},
		},
	}
}

func (fx *fixture) resources() []Resource {
	return []Resource{{
		Info:  ResourceInfo{URI: "test://info", Name: "info", Title: "Info", MimeType: "text/plain"},
		Cache: Cache{TTLMs: 60000, Scope: "public"},
		Read: func(context.Context, *Request) (*ReadResourceResult, error) {
			return ResourceText("test://info", "text/plain", "MCP transcript fixture", nil)
		},
	}}
}

var itemIDs = []string{"apple", "apricot", "banana"}

func (fx *fixture) templates() []Template {
	return []Template{{
		Info: TemplateInfo{URITemplate: "test://items/{id}", Name: "item", MimeType: "application/json"},
		Read: func(_ context.Context, _ *Request, uri string, vars map[string]string) (*ReadResourceResult, error) {
			if !slices.Contains(itemIDs, vars["id"]) {
				return nil, ErrResourceNotFound
			}
			return ResourceJSON(uri, "application/json", map[string]string{"id": vars["id"]}, nil)
		},
		Complete: func(_ context.Context, _ *Request, c CompleteRequest) ([]string, error) {
			return prefixed(itemIDs, c.Value), nil
		},
	}}
}

func (fx *fixture) prompts() []Prompt {
	return []Prompt{{
		Info: PromptInfo{
			Name: "review", Description: "Review some code.",
			Arguments: []PromptArgument{
				{Name: "code", Description: "The code to review.", Required: true},
				{Name: "language", Description: "Its language."},
			},
		},
		Get: func(_ context.Context, _ *Request, args map[string]string) (*GetPromptResult, error) {
			lang := args["language"]
			if lang == "" {
				lang = "unknown"
			}
			return PromptText("Code review", fmt.Sprintf("Review this %s code:\n%s", lang, args["code"]), nil)
		},
		Complete: func(_ context.Context, _ *Request, c CompleteRequest) ([]string, error) {
			if c.Argument != "language" {
				return nil, nil
			}
			return prefixed([]string{"go", "haskell", "python", "rust"}, c.Value), nil
		},
	}}
}

func prefixed(all []string, prefix string) []string {
	var out []string
	for _, v := range all {
		if strings.HasPrefix(v, prefix) {
			out = append(out, v)
		}
	}
	return out
}

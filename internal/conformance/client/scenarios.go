// The core client scenarios: connect, list, call, answer the server's
// questions, mirror headers, keep schemas as they came.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen"
)

func init() {
	scenarios["initialize"] = listTools
	// The server serves tools/list alone: listing is the whole test
	// (the client must not fetch the network $ref it holds).
	scenarios["json-schema-ref-no-deref"] = listTools
	scenarios["tools_call"] = func(ctx context.Context, url string, _ json.RawMessage) error {
		return callOne(ctx, url, "add_numbers", map[string]any{"a": 2, "b": 3})
	}
	scenarios["elicitation-sep1034-client-defaults"] = func(ctx context.Context, url string, _ json.RawMessage) error {
		return callOne(ctx, url, "test_client_elicitation_defaults", nil)
	}
	scenarios["json-schema-2020-12-preservation"] = echoSchema
}

// handlers are the answers this client gives to the server's questions:
// it accepts every elicitation (the runtime fills in the schema's
// defaults), samples a fixed answer, and offers one root.
func handlers() mcpgen.ClientOptions {
	return mcpgen.ClientOptions{
		Elicit: func(ctx context.Context, req *mcpgen.ElicitRequest) (*mcpgen.ElicitResult, error) {
			return &mcpgen.ElicitResult{Action: "accept", Content: sampleObject(req.RequestedSchema, false)}, nil
		},
		Sample: func(ctx context.Context, req *mcpgen.CreateMessageRequest) (*mcpgen.CreateMessageResult, error) {
			return &mcpgen.CreateMessageResult{Role: "assistant", Content: mcpgen.TextContent("sampled answer"), Model: "conformance-model", StopReason: "endTurn"}, nil
		},
		Roots: func(ctx context.Context) ([]mcpgen.Root, error) {
			return []mcpgen.Root{{URI: "file:///tmp/conformance", Name: "conformance"}}, nil
		},
	}
}

// listTools connects and lists the tools.
func listTools(ctx context.Context, url string, _ json.RawMessage) error {
	c, err := connect(ctx, url, handlers())
	if err != nil {
		return err
	}
	defer c.Close()
	_, err = c.ListTools(ctx)
	return err
}

// callOne connects, lists the tools and calls one of them.
func callOne(ctx context.Context, url, tool string, args any) error {
	c, err := connect(ctx, url, handlers())
	if err != nil {
		return err
	}
	defer c.Close()
	if _, err := c.ListTools(ctx); err != nil {
		return err
	}
	_, err = c.CallTool(ctx, tool, args)
	return err
}

// echoSchema sends the input schema of the tool that has one with
// $schema back through json_schema_echo, exactly as it was listed.
func echoSchema(ctx context.Context, url string, _ json.RawMessage) error {
	c, err := connect(ctx, url, handlers())
	if err != nil {
		return err
	}
	defer c.Close()
	tools, err := c.ListTools(ctx)
	if err != nil {
		return err
	}
	for _, t := range tools {
		if t.Name != "json_schema_echo" && strings.Contains(string(t.InputSchema), `"$schema"`) {
			_, err := c.CallTool(ctx, "json_schema_echo", map[string]any{"schema": t.InputSchema})
			return err
		}
	}
	return errors.New("no tool with a $schema in its input schema")
}

// scenarioContext is the MCP_CONFORMANCE_CONTEXT fields the default
// scenario reads.
type scenarioContext struct {
	ToolCalls []struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"toolCalls"`
}

// exerciseAll is the default scenario: connect, then use everything the
// server offers: call the tools the context names (or every tool, with
// arguments made up from its schema), read every resource, get every
// prompt. Every call is made even when one fails; the first failure is
// returned.
func exerciseAll(ctx context.Context, url string, cctx json.RawMessage) error {
	var sc scenarioContext
	_ = json.Unmarshal(cctx, &sc)
	c, err := connect(ctx, url, handlers())
	if err != nil {
		return err
	}
	defer c.Close()
	var errs []error
	note := func(err error) {
		if err != nil {
			errs = append(errs, err)
		}
	}
	tools, err := c.ListTools(ctx)
	note(err)
	if len(sc.ToolCalls) > 0 {
		for _, call := range sc.ToolCalls {
			_, err := c.CallTool(ctx, call.Name, call.Arguments)
			note(ignoreToolError(err))
		}
	} else {
		for _, t := range tools {
			_, err := c.CallTool(ctx, t.Name, sampleObject(t.InputSchema, true))
			note(ignoreToolError(err))
		}
	}
	caps := serverCaps(c)
	if caps["resources"] {
		rs, err := c.ListResources(ctx)
		note(err)
		for _, r := range rs {
			_, err := c.ReadResource(ctx, r.URI)
			note(err)
		}
	}
	if caps["prompts"] {
		ps, err := c.ListPrompts(ctx)
		note(err)
		for _, p := range ps {
			args := map[string]string{}
			for _, a := range p.Arguments {
				args[a.Name] = "test"
			}
			_, err := c.GetPrompt(ctx, p.Name, args)
			note(err)
		}
	}
	return errors.Join(errs...)
}

// ignoreToolError drops a tool's own failure: the call was made.
func ignoreToolError(err error) error {
	var te *mcpgen.ToolCallError
	if errors.As(err, &te) {
		return nil
	}
	return err
}

// serverCaps reports which top-level capabilities the server declared.
func serverCaps(c *mcpgen.Client) map[string]bool {
	var caps map[string]json.RawMessage
	_ = json.Unmarshal(c.ServerCapabilities(), &caps)
	out := map[string]bool{}
	for k := range caps {
		out[k] = true
	}
	return out
}

// sampleObject makes up a value for an object schema: its defaults, the
// first enum value, or a plain value of the property's type; only the
// required properties unless all is set.
func sampleObject(schema json.RawMessage, required bool) map[string]any {
	var s struct {
		Properties map[string]json.RawMessage `json:"properties"`
		Required   []string                   `json:"required"`
	}
	if json.Unmarshal(schema, &s) != nil {
		return map[string]any{}
	}
	out := map[string]any{}
	for name, p := range s.Properties {
		if required && !slices.Contains(s.Required, name) {
			continue
		}
		if v, ok := sampleValue(p); ok {
			out[name] = v
		}
	}
	return out
}

func sampleValue(schema json.RawMessage) (any, bool) {
	var p struct {
		Type    any             `json:"type"`
		Default json.RawMessage `json:"default"`
		Enum    []any           `json:"enum"`
	}
	if json.Unmarshal(schema, &p) != nil {
		return nil, false
	}
	if len(p.Default) > 0 {
		var v any
		if json.Unmarshal(p.Default, &v) == nil {
			return v, true
		}
	}
	if len(p.Enum) > 0 {
		return p.Enum[0], true
	}
	switch fmt.Sprint(p.Type) {
	case "string":
		return "test", true
	case "integer", "number":
		return 1, true
	case "boolean":
		return true, true
	case "object":
		return sampleObject(schema, true), true
	case "array":
		return []any{}, true
	}
	return nil, false
}

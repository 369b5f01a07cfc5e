package mcpgen

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
)

// ToolCallError is a tool's own failure: the server ran the tool and it
// answered with isError set. It is a normal outcome the model may read
// and act on, unlike a [*ProtocolError], which says the request itself
// failed (unknown tool, invalid arguments, a server fault).
//
//	res, err := c.CallTool(ctx, "divide", map[string]any{"a": 1, "b": 0})
//	var te *mcpgen.ToolCallError
//	if errors.As(err, &te) {
//		// te.Result holds what the tool said; res is the same result
//	}
type ToolCallError struct {
	// Tool is the name of the tool that failed.
	Tool string
	// Result is the tool's answer, whose content says what went wrong.
	Result *CallToolResult
}

// Error is "tool <name>: <text of the content>".
func (e *ToolCallError) Error() string {
	var parts []string
	if e.Result != nil {
		for _, c := range e.Result.Content {
			if c.Type == "text" && c.Text != "" {
				parts = append(parts, c.Text)
			}
		}
	}
	if len(parts) == 0 {
		return "tool " + e.Tool + ": failed"
	}
	return "tool " + e.Tool + ": " + strings.Join(parts, "\n")
}

// ListTools lists every tool the server offers, following every page (at
// most ClientOptions.MaxPages of MaxListBytes together). Over
// HTTP in the stateless era, a tool whose x-mcp-header annotations break
// the rules of the transport is left out, as the revision requires.
// [Client.ListToolsPage] lists one page, [Client.Tools] iterates.
func (c *Client) ListTools(ctx context.Context) ([]ToolInfo, error) {
	return listAll(ctx, c, "tools/list", "tools", c.keepTools)
}

// ListResources lists every resource, following every page.
func (c *Client) ListResources(ctx context.Context) ([]ResourceInfo, error) {
	return listAll[ResourceInfo](ctx, c, "resources/list", "resources", nil)
}

// ListResourceTemplates lists every resource template, following every page.
func (c *Client) ListResourceTemplates(ctx context.Context) ([]TemplateInfo, error) {
	return listAll[TemplateInfo](ctx, c, "resources/templates/list", "resourceTemplates", nil)
}

// ListPrompts lists every prompt, following every page.
func (c *Client) ListPrompts(ctx context.Context) ([]PromptInfo, error) {
	return listAll[PromptInfo](ctx, c, "prompts/list", "prompts", nil)
}

// CallTool calls a tool with args (any value that encodes to a JSON
// object, or nil) and returns its result. When the tool failed (isError)
// it returns the result and a [*ToolCallError]; a JSON-RPC error comes
// back as a [*ProtocolError]. In the stateless era, questions the server
// asks (input_required) are answered with the handlers of [ClientOptions]
// and the call retried; a tool the server runs as a task is followed to
// its result.
func (c *Client) CallTool(ctx context.Context, name string, args any) (*CallToolResult, error) {
	params, o, err := c.toolCall(name, args)
	if err != nil {
		return nil, err
	}
	var a toolAnswer
	raw, whole, err := c.rounds(ctx, o, params, true, a.decode)
	if err != nil {
		return nil, fmt.Errorf("tools/call %s: %w", name, err)
	}
	if !whole {
		return decodeToolResult(name, raw)
	}
	res := &a.CallToolResult
	if res.IsError {
		return res, &ToolCallError{Tool: name, Result: res}
	}
	return res, nil
}

// toolAnswer is a tools/call result decoded whole: the CallToolResult and
// the members of its head that are not part of it.
type toolAnswer struct {
	CallToolResult
	InputRequests map[string]json.RawMessage `json:"inputRequests"`
	RequestState  *string                    `json:"requestState"`
	TaskID        string                     `json:"taskId"`
}

// decode is a decodeWhole for a: a plain result read by hand
// (scanToolResult), any other by json.Unmarshal.
func (a *toolAnswer) decode(raw json.RawMessage) (resultHead, bool) {
	*a = toolAnswer{}
	var p plainResult
	if scanToolResult(raw, &p) {
		a.ResultType, a.Content, a.StructuredContent, a.IsError, a.Meta = p.resultType, p.content, p.structuredContent, p.isError, p.meta
		return resultHead{ResultType: a.ResultType}, true
	}
	if json.Unmarshal(raw, a) != nil {
		return resultHead{}, false
	}
	return resultHead{ResultType: a.ResultType, InputRequests: a.InputRequests, RequestState: a.RequestState, TaskID: a.TaskID}, true
}

// toolCall builds the params and the request of a tools/call: the
// arguments encoded, and over stateless HTTP their Mcp-Param-* headers.
func (c *Client) toolCall(name string, args any) (map[string]any, *outgoing, error) {
	var rawArgs json.RawMessage
	if args != nil {
		b, err := json.Marshal(args)
		if err != nil {
			return nil, nil, fmt.Errorf("tools/call %s: encode arguments: %w", name, err)
		}
		if string(b) != "null" {
			rawArgs = emptyNilSlices(args, b)
		}
	}
	params := map[string]any{"name": name}
	if rawArgs != nil {
		params["arguments"] = encodedJSON(rawArgs)
	}
	o := &outgoing{method: "tools/call", name: name}
	if c.mirrorsHeaders() {
		h, err := c.paramHeaders(name, rawArgs)
		if err != nil {
			return nil, nil, fmt.Errorf("tools/call %s: %w", name, err)
		}
		o.header = h
	}
	return params, o, nil
}

// decodeToolResult decodes the result of a call to tool: a result with
// isError comes back with a [*ToolCallError].
func decodeToolResult(tool string, raw json.RawMessage) (*CallToolResult, error) {
	var res CallToolResult
	if err := json.Unmarshal(raw, &res); err != nil {
		return nil, fmt.Errorf("tools/call %s: decode result: %w: %w", tool, ErrUnexpectedResult, err)
	}
	if res.IsError {
		return &res, &ToolCallError{Tool: tool, Result: &res}
	}
	return &res, nil
}

// CallToolAs calls a tool and decodes its result into Out: the
// structuredContent for a struct, map or slice; the text content when Out
// is string; the content blocks themselves when Out is []Content. A tool
// failure is a [*ToolCallError], a protocol failure a [*ProtocolError], a
// result that does not decode into Out wraps [ErrUnexpectedResult] and the
// decoder's error. Generated typed clients call it.
func CallToolAs[Out any](ctx context.Context, c *Client, name string, in any) (Out, error) {
	var out Out
	params, o, err := c.toolCall(name, in)
	if err != nil {
		return out, err
	}
	var a typedAnswer[Out]
	raw, whole, err := c.rounds(ctx, o, params, true, a.decode)
	if err != nil {
		return out, fmt.Errorf("tools/call %s: %w", name, err)
	}
	if whole {
		if out, ok := a.value(); ok {
			return out, nil
		}
	}
	// A failure, or a result that did not decode into Out as it stands
	// (no structuredContent, or not of Out's shape): decoded again, for
	// the text fallback and errors of resultAs.
	res, err := decodeToolResult(name, raw)
	if err != nil {
		return out, err
	}
	return resultAs[Out](name, res)
}

// typedAnswer is a tools/call result decoded whole for [CallToolAs]: its
// head and content blocks, and the structuredContent straight into Out,
// so that the result is read once.
type typedAnswer[Out any] struct {
	toolHead
	StructuredContent *Out `json:"structuredContent"`
}

// toolHead is the part of a tools/call result that [CallToolAs] reads
// whatever Out is.
type toolHead struct {
	ResultType    string                     `json:"resultType"`
	InputRequests map[string]json.RawMessage `json:"inputRequests"`
	RequestState  *string                    `json:"requestState"`
	TaskID        string                     `json:"taskId"`
	Content       []Content                  `json:"content"`
	IsError       bool                       `json:"isError"`
}

// textOut reports whether Out is read from the content blocks (string,
// []Content) rather than from the structuredContent.
func (a *typedAnswer[Out]) textOut() bool {
	switch any(a.StructuredContent).(type) {
	case *string, *[]Content:
		return true
	}
	return false
}

// decode is a decodeWhole for a: a text Out skips the structuredContent.
// A plain result is read by hand (scanToolResult), the structuredContent
// alone going through json.Unmarshal; any other by json.Unmarshal whole.
func (a *typedAnswer[Out]) decode(raw json.RawMessage) (resultHead, bool) {
	*a = typedAnswer[Out]{}
	var p plainResult
	if scanToolResult(raw, &p) {
		a.ResultType, a.Content, a.IsError = p.resultType, p.content, p.isError
		if !a.textOut() && len(p.structuredContent) > 0 && string(p.structuredContent) != "null" {
			a.StructuredContent = new(Out)
			if json.Unmarshal(p.structuredContent, a.StructuredContent) != nil {
				return resultHead{}, false
			}
		}
		return resultHead{ResultType: a.ResultType}, true
	}
	var err error
	if a.textOut() {
		err = json.Unmarshal(raw, &a.toolHead)
	} else {
		err = json.Unmarshal(raw, a)
	}
	if err != nil {
		return resultHead{}, false
	}
	return resultHead{ResultType: a.ResultType, InputRequests: a.InputRequests, RequestState: a.RequestState, TaskID: a.TaskID}, true
}

// value is the result as Out, as resultAs makes it; false for a failure
// or a structured Out without structuredContent, which resultAs handles.
func (a *typedAnswer[Out]) value() (Out, bool) {
	var out Out
	if a.IsError {
		return out, false
	}
	switch p := any(&out).(type) {
	case *string:
		*p = contentText(a.Content)
		return out, true
	case *[]Content:
		*p = a.Content
		return out, true
	}
	if a.StructuredContent == nil {
		return out, false
	}
	return *a.StructuredContent, true
}

// contentText is the text of the text blocks among content, joined.
func contentText(content []Content) string {
	text, blocks := "", 0
	for _, ct := range content {
		if ct.Type == "text" {
			text, blocks = ct.Text, blocks+1
		}
	}
	if blocks < 2 {
		return text // the common case, without a copy
	}
	var b strings.Builder
	for _, ct := range content {
		if ct.Type == "text" {
			b.WriteString(ct.Text)
		}
	}
	return b.String()
}

// resultAs decodes the result of a call to the tool name into Out, as
// [CallToolAs] says.
func resultAs[Out any](name string, res *CallToolResult) (Out, error) {
	var out Out
	switch p := any(&out).(type) {
	case *string:
		*p = contentText(res.Content)
		return out, nil
	case *[]Content:
		*p = res.Content
		return out, nil
	}
	data := res.StructuredContent
	if len(data) == 0 {
		// A server that predates structured output sends the JSON as text.
		for _, ct := range res.Content {
			if ct.Type == "text" {
				data = json.RawMessage(ct.Text)
				break
			}
		}
	}
	if len(data) == 0 {
		return out, fmt.Errorf("tools/call %s: %w: the result has no structuredContent to decode into %T", name, ErrUnexpectedResult, out)
	}
	if err := json.Unmarshal(data, &out); err != nil {
		return out, fmt.Errorf("tools/call %s: decode structuredContent into %T: %w: %w", name, out, ErrUnexpectedResult, err)
	}
	return out, nil
}

// ReadResource reads the resource at uri.
func (c *Client) ReadResource(ctx context.Context, uri string) (*ReadResourceResult, error) {
	raw, err := c.roundTrips(ctx, &outgoing{method: "resources/read", name: uri}, map[string]any{"uri": uri})
	if err != nil {
		return nil, fmt.Errorf("resources/read %s: %w", uri, err)
	}
	var res ReadResourceResult
	if err := json.Unmarshal(raw, &res); err != nil {
		return nil, fmt.Errorf("resources/read %s: decode result: %w: %w", uri, ErrUnexpectedResult, err)
	}
	return &res, nil
}

// GetPrompt renders the prompt name with its string arguments.
func (c *Client) GetPrompt(ctx context.Context, name string, args map[string]string) (*GetPromptResult, error) {
	params := map[string]any{"name": name}
	if args != nil {
		params["arguments"] = args
	}
	raw, err := c.roundTrips(ctx, &outgoing{method: "prompts/get", name: name}, params)
	if err != nil {
		return nil, fmt.Errorf("prompts/get %s: %w", name, err)
	}
	var res GetPromptResult
	if err := json.Unmarshal(raw, &res); err != nil {
		return nil, fmt.Errorf("prompts/get %s: decode result: %w: %w", name, ErrUnexpectedResult, err)
	}
	return &res, nil
}

// CompletionRef names what completion/complete completes: a prompt's
// argument (Type "ref/prompt", Name) or a resource template's variable
// (Type "ref/resource", URI).
type CompletionRef struct {
	// Type is "ref/prompt" or "ref/resource".
	Type string `json:"type"`
	// Name is the prompt's name, for "ref/prompt".
	Name string `json:"name,omitempty"`
	// URI is the resource template's URI template, for "ref/resource".
	URI string `json:"uri,omitempty"`
}

// Completion is the answer of completion/complete: candidate values, and
// how many there are in all when the server knows.
type Completion struct {
	// Values are the candidate values.
	Values []string `json:"values"`
	// Total is how many candidates there are in all; 0 when the server
	// does not say.
	Total int `json:"total,omitempty"`
	// HasMore says that there are more candidates than Values holds.
	HasMore bool `json:"hasMore,omitempty"`
}

// Complete asks the server to complete the argument arg of ref from the
// partial value; context holds the arguments already chosen (may be nil).
func (c *Client) Complete(ctx context.Context, ref CompletionRef, arg, value string, context map[string]string) (*Completion, error) {
	params := map[string]any{"ref": ref, "argument": map[string]string{"name": arg, "value": value}}
	if len(context) > 0 {
		params["context"] = map[string]any{"arguments": context}
	}
	raw, err := c.call(ctx, "completion/complete", params, "")
	if err != nil {
		return nil, fmt.Errorf("completion/complete: %w", err)
	}
	var res struct {
		Completion Completion `json:"completion"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		return nil, fmt.Errorf("completion/complete: decode result: %w: %w", ErrUnexpectedResult, err)
	}
	return &res.Completion, nil
}

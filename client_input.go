package mcpgen

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"time"
)

// This file answers the server's questions: server-to-client requests in
// a legacy session, input_required results in the stateless era, and the
// questions of a task; and it follows a task to its result.

// ElicitRequest is the server asking the user for input
// (elicitation/create): in form mode a message and the JSON Schema of the
// answer; in url mode a URL for the user to visit.
type ElicitRequest struct {
	// Mode is "form" (or empty) or "url".
	Mode string `json:"mode,omitempty"`
	// Message is what to show the user.
	Message string `json:"message"`
	// RequestedSchema is the JSON Schema of the answer in form mode: an
	// object of primitive properties.
	RequestedSchema json.RawMessage `json:"requestedSchema,omitempty"`
	// URL is the page the user is to visit in url mode.
	URL string `json:"url,omitempty"`
	// ElicitationID identifies a url-mode elicitation, which the server
	// names again when it is complete.
	ElicitationID string `json:"elicitationId,omitempty"`
	// Meta is the request's _meta object.
	Meta json.RawMessage `json:"_meta,omitempty"`
}

// ElicitResult is the user's answer: Action "accept" (with Content, the
// values of the requested schema's properties), "decline" or "cancel".
// When accepting, properties the answer leaves out that have a default in
// the requested schema are filled in with it.
type ElicitResult struct {
	// Action is what the user did: "accept", "decline" or "cancel".
	Action string `json:"action"`
	// Content holds the answer's values, by property, when accepting.
	Content map[string]any `json:"content,omitempty"`
	// Meta is the result's _meta object.
	Meta json.RawMessage `json:"_meta,omitempty"`
}

// SamplingMessage is one message of a sampling request. Content is one
// content block or, since 2025-11-25, an array of them; see Blocks.
type SamplingMessage struct {
	// Role is who speaks: "user" or "assistant".
	Role string `json:"role"`
	// Content is one content block or an array of them, as sent.
	Content json.RawMessage `json:"content"`
	// Meta is the message's _meta object.
	Meta json.RawMessage `json:"_meta,omitempty"`
}

// Blocks decodes the message's content as a list of blocks, whether it
// was sent as one block or as an array.
func (m *SamplingMessage) Blocks() ([]Content, error) {
	if len(m.Content) > 0 && m.Content[0] == '[' {
		var bs []Content
		err := json.Unmarshal(m.Content, &bs)
		return bs, err
	}
	var b Content
	if err := json.Unmarshal(m.Content, &b); err != nil {
		return nil, err
	}
	return []Content{b}, nil
}

// CreateMessageRequest is the server asking the client's model for a
// completion (sampling/createMessage).
type CreateMessageRequest struct {
	// Messages are the conversation to continue.
	Messages []SamplingMessage `json:"messages"`
	// ModelPreferences are the server's hints for choosing a model
	// (names, and the priorities of cost, speed and intelligence), as
	// sent.
	ModelPreferences json.RawMessage `json:"modelPreferences,omitempty"`
	// SystemPrompt is the system prompt the server asks for; the client
	// may change or ignore it.
	SystemPrompt string `json:"systemPrompt,omitempty"`
	// IncludeContext asks for context from MCP servers: "none",
	// "thisServer" or "allServers".
	IncludeContext string `json:"includeContext,omitempty"`
	// Temperature is the sampling temperature asked for; nil leaves it to
	// the client.
	Temperature *float64 `json:"temperature,omitempty"`
	// MaxTokens is the most tokens the completion may have.
	MaxTokens int `json:"maxTokens"`
	// StopSequences end the completion where they occur.
	StopSequences []string `json:"stopSequences,omitempty"`
	// Metadata is for the model provider, passed through as sent.
	Metadata json.RawMessage `json:"metadata,omitempty"`
	// Tools are the tools the model may call (since 2025-11-25), as
	// sent.
	Tools json.RawMessage `json:"tools,omitempty"`
	// ToolChoice says how the model may use Tools, as sent.
	ToolChoice json.RawMessage `json:"toolChoice,omitempty"`
	// Meta is the request's _meta object.
	Meta json.RawMessage `json:"_meta,omitempty"`
}

// CreateMessageResult is the model's answer to a sampling request.
type CreateMessageResult struct {
	// Role is who speaks in Content, normally "assistant".
	Role string `json:"role"`
	// Content is what the model wrote.
	Content Content `json:"content"`
	// Model names the model that wrote it.
	Model string `json:"model"`
	// StopReason says why the model stopped: "endTurn", "stopSequence",
	// "maxTokens", "toolUse" or another reason of the client's.
	StopReason string `json:"stopReason,omitempty"`
	// Meta is the result's _meta object.
	Meta json.RawMessage `json:"_meta,omitempty"`
}

// Root is a directory or file the client lets the server work in
// (roots/list).
type Root struct {
	// URI is the root's address, a file:// URI.
	URI string `json:"uri"`
	// Name is the root's name shown to people.
	Name string `json:"name,omitempty"`
	// Meta is the root's _meta object.
	Meta json.RawMessage `json:"_meta,omitempty"`
}

// errBusy refuses a request of the server while maxServerRequests others
// are being answered.
var errBusy = Errorf(CodeInternalError, "the client is answering %d requests of the server already", maxServerRequests)

// serverRequest answers the request m the server sent on a connection or
// stream, by handing the response to reply. A request one of the
// options' handlers answers runs on a goroutine of its own under ctx,
// while fewer than maxServerRequests do; past that it is refused at once,
// on the caller's goroutine (the one reading the connection), as is
// anything no handler answers (ping, a question without a handler), so
// that a server sending requests without end is answered as fast as it
// takes the answers and never makes the client start a goroutine each.
// ctx ends with what the request belongs to: the call whose answer
// carried it, or the connection; the handlers are told through it.
func (c *Client) serverRequest(ctx context.Context, m *wireMessage, reply func(context.Context, map[string]any)) {
	if !c.handles(m.Method) {
		// ping, or a question without a handler: answered at once.
		v, err := c.answer(ctx, m.Method, m.Params)
		reply(ctx, responseTo(m.ID, v, err))
		return
	}
	select {
	case c.asking <- struct{}{}:
	default:
		reply(ctx, responseTo(m.ID, nil, errBusy))
		return
	}
	go func() {
		defer func() { <-c.asking }()
		v, err := c.answer(ctx, m.Method, m.Params)
		reply(ctx, responseTo(m.ID, v, err))
	}()
}

// handles reports whether a handler of the options answers method.
func (c *Client) handles(method string) bool {
	switch method {
	case "elicitation/create":
		return c.opts.Elicit != nil
	case "sampling/createMessage":
		return c.opts.Sample != nil
	case "roots/list":
		return c.opts.Roots != nil
	}
	return false
}

// answer runs the handler for one server-to-client request and returns
// its result.
func (c *Client) answer(ctx context.Context, method string, params json.RawMessage) (any, error) {
	switch method {
	case "ping":
		return struct{}{}, nil
	case "elicitation/create":
		if c.opts.Elicit == nil {
			break
		}
		var req ElicitRequest
		if err := json.Unmarshal(params, &req); err != nil {
			return nil, fmt.Errorf("%w: elicitation/create: %v", ErrInvalidParams, err)
		}
		res, err := c.opts.Elicit(ctx, &req)
		if err != nil {
			return nil, err
		}
		if res == nil {
			res = &ElicitResult{Action: "cancel"}
		}
		if res.Action == "accept" {
			res.Content = withDefaults(req.RequestedSchema, res.Content)
		}
		return res, nil
	case "sampling/createMessage":
		if c.opts.Sample == nil {
			break
		}
		var req CreateMessageRequest
		if err := json.Unmarshal(params, &req); err != nil {
			return nil, fmt.Errorf("%w: sampling/createMessage: %v", ErrInvalidParams, err)
		}
		res, err := c.opts.Sample(ctx, &req)
		if err != nil {
			return nil, err
		}
		if res == nil {
			return nil, fmt.Errorf("%w: the sampling handler returned no result", ErrInternal)
		}
		return res, nil
	case "roots/list":
		if c.opts.Roots == nil {
			break
		}
		roots, err := c.opts.Roots(ctx)
		if err != nil {
			return nil, err
		}
		if roots == nil {
			roots = []Root{}
		}
		return map[string]any{"roots": roots}, nil
	}
	return nil, fmt.Errorf("%w: %s (this client has no handler for it)", ErrMethodNotFound, method)
}

// withDefaults adds to content the default of every top-level property of
// schema that content leaves out (SEP-1034).
func withDefaults(schema json.RawMessage, content map[string]any) map[string]any {
	var s struct {
		Properties map[string]struct {
			Default json.RawMessage `json:"default"`
		} `json:"properties"`
	}
	if json.Unmarshal(schema, &s) != nil {
		return content
	}
	for name, p := range s.Properties {
		if len(p.Default) == 0 {
			continue
		}
		if _, ok := content[name]; ok {
			continue
		}
		var v any
		if json.Unmarshal(p.Default, &v) == nil {
			if content == nil {
				content = map[string]any{}
			}
			content[name] = v
		}
	}
	return content
}

// answerAll answers the input requests of an input_required result or a
// task, by key: at most maxInputRequests of them, else none.
func (c *Client) answerAll(ctx context.Context, reqs map[string]json.RawMessage) (map[string]json.RawMessage, error) {
	if len(reqs) > maxInputRequests {
		return nil, fmt.Errorf("%w: the server asked %d questions at once (this client answers at most %d)", ErrUnexpectedResult, len(reqs), maxInputRequests)
	}
	out := make(map[string]json.RawMessage, len(reqs))
	for key, raw := range reqs {
		var r struct {
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
		}
		if err := json.Unmarshal(raw, &r); err != nil {
			return nil, fmt.Errorf("input request %q: %w", key, err)
		}
		v, err := c.answer(ctx, r.Method, r.Params)
		if err != nil {
			return nil, fmt.Errorf("input request %q (%s): %w", key, r.Method, err)
		}
		b, err := json.Marshal(v)
		if err != nil {
			return nil, fmt.Errorf("input request %q (%s): encode answer: %w", key, r.Method, err)
		}
		out[key] = b
	}
	return out, nil
}

// roundTrips sends a request that may need several rounds in the
// stateless era: while the server answers input_required, the questions
// are answered and the request sent again with the answers and the
// server's requestState (at most maxInputRounds times); a task result is
// followed to the task's end.
func (c *Client) roundTrips(ctx context.Context, o *outgoing, base map[string]any) (json.RawMessage, error) {
	raw, _, err := c.rounds(ctx, o, base, true, nil)
	return raw, err
}

// resultHead is what a stateless result says about the request: done
// ("complete", or no resultType at all), waiting for answers to its
// questions (input_required), or running as a task.
type resultHead struct {
	ResultType    string                     `json:"resultType"`
	InputRequests map[string]json.RawMessage `json:"inputRequests"`
	RequestState  *string                    `json:"requestState"`
	TaskID        string                     `json:"taskId"`
}

// decodeWhole decodes a result into the caller's value, the members of
// its head included, and returns the head; false when the result does
// not decode into that value, which leaves the caller to decode it again
// its own way (and so to report the error as it always did).
type decodeWhole func(raw json.RawMessage) (resultHead, bool)

// rounds is roundTrips; with follow false a task result is returned as
// it is instead of followed. With whole set, each result is decoded by
// whole, and rounds reports whether the result it returns was: the
// result is then read once, its head and the caller's value in one pass.
func (c *Client) rounds(ctx context.Context, o *outgoing, base map[string]any, follow bool, whole decodeWhole) (json.RawMessage, bool, error) {
	params := base // callWith does not change it: a copy is made only to add answers
	first := *o
	for round := 0; ; round++ {
		*o = first // each round numbered and encoded afresh
		raw, err := c.callWith(ctx, o, params)
		if err != nil {
			return raw, false, err
		}
		var head resultHead
		decoded := false
		if whole != nil {
			head, decoded = whole(raw)
		}
		if c.legacy {
			return raw, decoded, nil
		}
		if !decoded {
			head = resultHead{}
			if err := json.Unmarshal(raw, &head); err != nil {
				return nil, false, fmt.Errorf("decode result: %w: %w", ErrUnexpectedResult, err)
			}
		}
		switch head.ResultType {
		case resultInputRequired:
		case resultTask:
			if !follow {
				return raw, decoded, nil
			}
			raw, err := c.followTask(ctx, head.TaskID, raw, true)
			return raw, false, err
		default:
			return raw, decoded, nil
		}
		if round+1 == maxInputRounds {
			return nil, false, fmt.Errorf("the server asked for input %d times without completing the request", maxInputRounds)
		}
		params = maps.Clone(base)
		if params == nil {
			params = map[string]any{}
		}
		if len(head.InputRequests) > 0 {
			answers, err := c.answerAll(ctx, head.InputRequests)
			if err != nil {
				return nil, false, err
			}
			params["inputResponses"] = answers
		}
		if head.RequestState != nil {
			params["requestState"] = *head.RequestState
		}
	}
}

// Task polling bounds.
const (
	minTaskPoll = 20 * time.Millisecond
	maxTaskPoll = 5 * time.Second
)

// followTask polls the task id (tasks/get) until it ends, answering its
// questions (tasks/update) in at most maxInputRounds rounds, and returns
// the result of the call it runs. Over HTTP the task id travels in
// Mcp-Name as the tasks extension says. When ctx ends first, or the task
// asks too often, the task is cancelled (tasks/cancel) if cancel is set.
func (c *Client) followTask(ctx context.Context, id string, first json.RawMessage, cancel bool) (json.RawMessage, error) {
	if id == "" {
		return nil, fmt.Errorf("the server answered with a task but no taskId")
	}
	view := first
	answered := map[string]bool{}
	rounds := 0
	for {
		var t struct {
			Status         string                     `json:"status"`
			StatusMessage  string                     `json:"statusMessage"`
			PollIntervalMs int64                      `json:"pollIntervalMs"`
			InputRequests  map[string]json.RawMessage `json:"inputRequests"`
			Result         json.RawMessage            `json:"result"`
			Error          *ProtocolError             `json:"error"`
		}
		if err := json.Unmarshal(view, &t); err != nil {
			return nil, fmt.Errorf("task %s: decode: %w: %w", id, ErrUnexpectedResult, err)
		}
		switch t.Status {
		case "completed":
			if len(t.Result) > 0 {
				return t.Result, nil
			}
		case "failed":
			if t.Error != nil {
				return nil, fmt.Errorf("task %s: %w", id, t.Error)
			}
			return nil, fmt.Errorf("task %s failed: %s", id, t.StatusMessage)
		case "cancelled":
			return nil, fmt.Errorf("task %s was cancelled: %s", id, t.StatusMessage)
		case "input_required":
			pending := map[string]json.RawMessage{}
			for k, v := range t.InputRequests {
				if !answered[k] {
					pending[k] = v
				}
			}
			if len(pending) > 0 {
				if rounds++; rounds > maxInputRounds {
					if cancel {
						c.cancelTask(ctx, id)
					}
					return nil, fmt.Errorf("task %s: the server asked for input %d times without completing the task", id, maxInputRounds)
				}
				answers, err := c.answerAll(ctx, pending)
				if err != nil {
					return nil, fmt.Errorf("task %s: %w", id, err)
				}
				if _, err := c.call(ctx, "tasks/update", map[string]any{"taskId": id, "inputResponses": answers}, id); err != nil {
					return nil, fmt.Errorf("task %s: tasks/update: %w", id, err)
				}
				for k := range pending {
					answered[k] = true
				}
			}
		}
		wait := min(max(time.Duration(t.PollIntervalMs)*time.Millisecond, minTaskPoll), maxTaskPoll)
		select {
		case <-ctx.Done():
			if cancel {
				c.cancelTask(ctx, id)
			}
			return nil, ctx.Err()
		case <-time.After(wait):
		}
		var err error
		if view, err = c.call(ctx, "tasks/get", map[string]any{"taskId": id}, id); err != nil {
			if ctx.Err() != nil && cancel {
				// ctx ended while the poll was on its way (or as it
				// left: the select above may pick the timer then).
				c.cancelTask(ctx, id)
			}
			return nil, fmt.Errorf("task %s: tasks/get: %w", id, err)
		}
	}
}

// cancelTask sends tasks/cancel for a task the caller gave up on, within
// 5 s of ctx ending.
func (c *Client) cancelTask(ctx context.Context, id string) {
	cctx, stop := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer stop()
	_, _ = c.call(cctx, "tasks/cancel", map[string]any{"taskId": id}, id)
}

// Progress is one progress notification of a call: how far it got, of
// what total (0 when unknown), and what it is doing.
type Progress struct {
	// Progress is how far the call got; it grows with every
	// notification.
	Progress float64
	// Total is what Progress counts up to; 0 when unknown.
	Total float64
	// Message says what the call is doing, if the server said.
	Message string
}

type progressKey struct{}

// WithProgress returns a context under which calls ask the server for
// progress notifications (a progressToken in the request's _meta) and pass
// each to fn. fn runs on the connection's reading goroutine: it must not
// block.
func WithProgress(ctx context.Context, fn func(Progress)) context.Context {
	return context.WithValue(ctx, progressKey{}, fn)
}

func progressOf(ctx context.Context) func(Progress) {
	fn, _ := ctx.Value(progressKey{}).(func(Progress))
	return fn
}

package mcpgen

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"go.uber.org/zap"

	"github.com/mcpgen/mcpgen/internal/cluster"
	"github.com/mcpgen/mcpgen/internal/jsonrpc"
	"github.com/mcpgen/mcpgen/internal/jsonschema"
	"github.com/mcpgen/mcpgen/internal/skills"
)

// route is one entry of the method map: the handler and the era it belongs to.
type route struct {
	handle     func(s *Server, ctx context.Context, req *Request, p *params, raw json.RawMessage) (any, error)
	legacyOnly bool
	modernOnly bool
	enabled    func(s *Server) bool // nil: always; otherwise gated by a capability
}

// routes maps every MCP method the runtime serves to its handler.
var routes map[string]route

func init() {
	routes = map[string]route{
		"initialize":                {handle: initialize, legacyOnly: true},
		"notifications/initialized": {handle: initialized, legacyOnly: true},
		"ping":                      {handle: empty, legacyOnly: true},
		"logging/setLevel":          {handle: setLevel, legacyOnly: true},
		"resources/subscribe":       {handle: subscribe, legacyOnly: true, enabled: hasResources},
		"resources/unsubscribe":     {handle: unsubscribe, legacyOnly: true, enabled: hasResources},
		"server/discover":           {handle: (*Server).serverDiscover, modernOnly: true},
		"subscriptions/listen":      {handle: listen, modernOnly: true},
		"tools/list":                {handle: listPage, enabled: hasTools},
		"tools/call":                {handle: (*Server).callTool, enabled: hasTools},
		"resources/list":            {handle: listPage, enabled: hasResources},
		"resources/templates/list":  {handle: listPage, enabled: hasResources},
		"resources/read":            {handle: (*Server).readResource, enabled: hasResources},
		"prompts/list":              {handle: listPage, enabled: hasPrompts},
		"prompts/get":               {handle: (*Server).getPrompt, enabled: hasPrompts},
		"completion/complete":       {handle: (*Server).complete, enabled: hasCompletions},
		"skills/list":               {handle: listSkills, enabled: hasSkills},
		"skills/get":                {handle: getSkill, enabled: hasSkills},
		"resources/directory/read":  {handle: readDirectory, enabled: hasSkills},
		"tasks/get":                 {handle: taskGet, modernOnly: true, enabled: hasTasks},
		"tasks/update":              {handle: taskUpdate, modernOnly: true, enabled: hasTasks},
		"tasks/cancel":              {handle: taskCancel, modernOnly: true, enabled: hasTasks},
		"events/list":               {handle: eventsList, enabled: hasEvents},
		"events/poll":               {handle: eventsPoll, enabled: hasEvents},
		"events/stream":             {handle: eventsStream, enabled: hasEvents},
		"events/subscribe":          {handle: eventsSubscribe, enabled: hasEvents},
		"events/unsubscribe":        {handle: eventsUnsubscribe, enabled: hasEvents},
		// Cancellation is carried out by the transport, which knows the
		// requests in flight; the core passes it to the other replicas.
		"notifications/cancelled":          {handle: cancelled},
		"notifications/roots/list_changed": {handle: empty, legacyOnly: true},
		"notifications/progress":           {handle: empty},
	}
}

// The handlers of the features' methods: each hands the request to the
// feature that serves it.

func listen(s *Server, ctx context.Context, req *Request, _ *params, raw json.RawMessage) (any, error) {
	return s.notes.listen(ctx, req, raw)
}

func taskGet(s *Server, ctx context.Context, req *Request, _ *params, raw json.RawMessage) (any, error) {
	return s.tasks.get(ctx, req, raw)
}

func taskUpdate(s *Server, ctx context.Context, req *Request, _ *params, raw json.RawMessage) (any, error) {
	return s.tasks.update(ctx, req, raw)
}

func taskCancel(s *Server, ctx context.Context, req *Request, _ *params, raw json.RawMessage) (any, error) {
	return s.tasks.cancel(ctx, req, raw)
}

// listSkills answers skills/list: pages built once, each entry whole.
func listSkills(s *Server, _ context.Context, req *Request, p *params, _ json.RawMessage) (any, error) {
	return s.lists.page("skills/list", p.Cursor, req.Modern())
}

func getSkill(s *Server, _ context.Context, _ *Request, p *params, _ json.RawMessage) (any, error) {
	return s.skills.get(p)
}

func readDirectory(s *Server, ctx context.Context, req *Request, p *params, _ json.RawMessage) (any, error) {
	return s.skills.readDirectory(ctx, req, p)
}

func hasTools(s *Server) bool { return len(s.tools) > 0 }
func hasResources(s *Server) bool {
	return len(s.resources) > 0 || len(s.templates) > 0 || s.apps.hasViews()
}
func hasPrompts(s *Server) bool     { return len(s.prompts) > 0 }
func hasTasks(s *Server) bool       { return s.tasks != nil }
func hasCompletions(s *Server) bool { return s.completions }

// offersCompletions reports whether any prompt or template can complete
// its arguments; build computes it once.
func (s *Server) offersCompletions() bool {
	for _, p := range s.prompts {
		if p.Complete != nil {
			return true
		}
	}
	for _, t := range s.templates {
		if t.Complete != nil {
			return true
		}
	}
	return false
}

func empty(*Server, context.Context, *Request, *params, json.RawMessage) (any, error) {
	return json.RawMessage(`{}`), nil
}

// decode unmarshals raw params into v with an invalid-params error that
// says where, what was expected and what was found.
func decode(raw json.RawMessage, v any) error {
	if len(raw) == 0 {
		return nil
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return jsonrpc.DecodeError(jsonrpc.ErrInvalidParams, raw, "/params", err)
	}
	return nil
}

func (s *Server) buildCapabilities() {
	caps := map[string]any{}
	if hasTools(s) {
		caps["tools"] = map[string]any{"listChanged": true}
	}
	if hasResources(s) {
		caps["resources"] = map[string]any{"subscribe": true, "listChanged": true}
	}
	if hasPrompts(s) {
		caps["prompts"] = map[string]any{"listChanged": true}
	}
	if hasCompletions(s) {
		caps["completions"] = map[string]any{}
	}
	caps["logging"] = map[string]any{}
	exts := map[string]any{}
	if hasSkills(s) {
		// Declared in both eras: initialize for legacy clients,
		// server/discover for stateless ones.
		exts[skills.Extension] = map[string]any{"directoryRead": true}
		caps["extensions"] = exts
	}
	if s.apps != nil {
		// To every client, so that a host learns it may opt in (apps.go).
		exts[UIExtension] = map[string]any{}
		caps["extensions"] = exts
	}
	if s.events != nil {
		// Both places: the AI SDK's client checks the top-level
		// capability, the design sketch declares the extension.
		caps["events"] = map[string]any{"listChanged": false}
		exts[EventsExtension] = map[string]any{}
		caps["extensions"] = exts
	}
	s.legacyCaps, _ = json.Marshal(caps)
	if s.tasks != nil {
		exts[tasksExtension] = map[string]any{}
		caps["extensions"] = exts
	}
	s.modernCaps, _ = json.Marshal(caps)
	s.discover, _ = json.Marshal(struct {
		ResultType        string          `json:"resultType"`
		SupportedVersions []string        `json:"supportedVersions"`
		Capabilities      json.RawMessage `json:"capabilities"`
		Instructions      string          `json:"instructions,omitempty"`
		TTLMs             int64           `json:"ttlMs"`
		CacheScope        string          `json:"cacheScope"`
		Meta              map[string]any  `json:"_meta"`
	}{resultComplete, versions, s.modernCaps, s.def.Instructions,
		s.opts.ListCache.TTLMs, s.opts.ListCache.Scope, map[string]any{metaServerInfo: s.serverInfo}})
}

// initialize answers the legacy handshake: it negotiates a legacy revision
// (never 2026-07-28, which has no handshake) and opens a session.
func initialize(s *Server, ctx context.Context, req *Request, _ *params, raw json.RawMessage) (any, error) {
	version, err := s.sessions.initialize(ctx, req, raw)
	if err != nil {
		return nil, err
	}
	res := map[string]any{
		"protocolVersion": version,
		"capabilities":    s.legacyCaps,
		"serverInfo":      s.serverInfo,
	}
	if s.def.Instructions != "" {
		res["instructions"] = s.def.Instructions
	}
	return res, nil
}

func initialized(s *Server, ctx context.Context, req *Request, _ *params, _ json.RawMessage) (any, error) {
	return nil, s.sessions.change(ctx, req.Session, cluster.SessionUpdate{Initialized: true})
}

func setLevel(s *Server, ctx context.Context, req *Request, _ *params, raw json.RawMessage) (any, error) {
	var p struct {
		Level string `json:"level"`
	}
	if err := decode(raw, &p); err != nil {
		return nil, err
	}
	if !validLogLevel(p.Level) {
		return nil, fmt.Errorf("%w: unknown log level %q", jsonrpc.ErrInvalidParams, p.Level)
	}
	return json.RawMessage(`{}`), s.sessions.change(ctx, req.Session, cluster.SessionUpdate{LogLevel: p.Level})
}

func (s *Server) serverDiscover(context.Context, *Request, *params, json.RawMessage) (any, error) {
	return s.discover, nil
}

func listPage(s *Server, _ context.Context, req *Request, p *params, _ json.RawMessage) (any, error) {
	return s.lists.page(s.apps.listMethod(req), p.Cursor, req.Modern())
}

// callTool validates the arguments against the input schema, runs the
// generated adapter and checks structured output against the output schema.
func (s *Server) callTool(ctx context.Context, req *Request, p *params, _ json.RawMessage) (any, error) {
	t, ok := s.tools[p.Name]
	if !ok || hiddenTool(req, &t.Tool) {
		return nil, fmt.Errorf("%w: unknown tool %q", jsonrpc.ErrInvalidParams, p.Name)
	}
	req.served(t.Tool.Info.Name)
	if err := s.permit(ctx, req, t.Scope); err != nil {
		return nil, err
	}
	args := p.Arguments
	if len(args) == 0 || string(args) == "null" {
		args = json.RawMessage(`{}`)
	}
	if err := t.input.ValidateAll(args, maxArgumentErrors); err != nil {
		// Argument values that break the schema are a tool execution error
		// (SEP-1303), so the model can correct itself.
		return &CallToolResult{
			Content: []Content{TextContent(fmt.Sprintf("invalid arguments for tool %s: %s", t.Tool.Info.Name, argumentError(err)))},
			IsError: true,
		}, nil
	}
	if err := req.restoreInput(s, p); err != nil {
		return nil, err
	}
	if t.Task != "" && s.tasks != nil && req.Modern() {
		switch {
		case req.wantsTask():
			if t.Prepare != nil {
				if err := t.Prepare(ctx, req, args); err != nil {
					return s.inputRequired(req, p, err)
				}
			}
			return s.tasks.start(req, func(ctx context.Context, treq *Request) (*CallToolResult, error) {
				return s.runTool(ctx, treq, t, args)
			})
		case t.Task == "required":
			return nil, missingTasksCapability()
		}
	}
	res, err := s.runTool(ctx, req, t, args)
	if err != nil {
		return s.inputRequired(req, p, err)
	}
	return res, nil
}

// maxArgumentErrors bounds the schema violations one invalid call
// reports: enough for a model to fix its arguments in one go, not so many
// that a huge bad array fills the answer.
const maxArgumentErrors = 10

// argumentError states the schema violations with the JSON Pointer of
// each offending value in the request, as every other params error does,
// separated by "; ".
func argumentError(err error) string {
	var ves jsonschema.ValidationErrors
	if errors.As(err, &ves) {
		msgs := make([]string, len(ves))
		for i, ve := range ves {
			msgs[i] = "/params/arguments" + ve.Path + ": " + ve.Message
		}
		s := strings.Join(msgs, "; ")
		if len(ves) == maxArgumentErrors {
			s += fmt.Sprintf(" (the first %d violations; there may be more)", maxArgumentErrors)
		}
		return s
	}
	var ve *jsonschema.ValidationError
	if errors.As(err, &ve) {
		return "/params/arguments" + ve.Path + ": " + ve.Message
	}
	var ie *jsonschema.InputError
	if errors.As(err, &ie) {
		return "/params/arguments: " + ie.Unwrap().Error() + ": " + ie.Msg
	}
	return err.Error()
}

// validJSON is the check of a structuredContent without an output schema.
func validJSON(b []byte) error {
	if !json.Valid(b) {
		return errors.New("not JSON")
	}
	return nil
}

// fillNullArrays sends a nil slice of a result as [], as the output
// schema promises (the generator describes a slice of a result as an
// array, never null: single-type clients refuse a list of types), where
// encoding/json wrote null; a text block that repeats the JSON is
// changed the same way. A result that needs no change is not copied.
func fillNullArrays(res *CallToolResult, output *jsonschema.Schema) {
	filled, changed := output.FillNullArrays(res.StructuredContent)
	if !changed {
		return
	}
	for i := range res.Content {
		if c := &res.Content[i]; plainText(c) && c.EncodedText() == nil && c.Text == string(res.StructuredContent) {
			c.Text = string(filled)
		}
	}
	res.StructuredContent = filled
}

// runTool calls the tool's adapter and checks its structured output.
func (s *Server) runTool(ctx context.Context, req *Request, t *compiledTool, args json.RawMessage) (res *CallToolResult, err error) {
	defer func() {
		// Tasks run on their own goroutine, outside dispatch's recover.
		if p := recover(); p != nil {
			s.tel.log.Error("tool panicked", zap.String("tool", t.Tool.Info.Name), zap.Any("panic", p), zap.Stack("stack"))
			res, err = nil, fmt.Errorf("%w: tool %s failed unexpectedly", jsonrpc.ErrInternal, t.Tool.Info.Name)
		}
	}()
	res, err = t.Call(withRequest(ctx, req), req, args) // a task's request, on its own goroutine
	if err != nil {
		s.tel.event(EventToolFailed, "tool", t.Tool.Info.Name)
		return nil, err
	}
	if res.IsError {
		s.tel.event(EventToolFailed, "tool", t.Tool.Info.Name)
		return res, nil
	}
	if res.streamed != nil {
		// Written from its bodies later; checked when small (see
		// Body and maxCheckedStream).
		check := validJSON
		if t.output != nil && !t.Tool.OutputTrusted {
			check = t.output.Validate
		}
		if err := checkStreamed(res, check); err != nil {
			res.Release()
			return nil, fmt.Errorf("%w: tool %s returned a streamed structuredContent that fails its check: %v", jsonrpc.ErrInternal, t.Tool.Info.Name, err)
		}
	} else if t.output == nil {
		if len(res.StructuredContent) > 0 && !json.Valid(res.StructuredContent) {
			return nil, fmt.Errorf("%w: tool %s returned structuredContent that is not JSON", jsonrpc.ErrInternal, t.Tool.Info.Name)
		}
	} else {
		if len(res.StructuredContent) == 0 {
			return nil, fmt.Errorf("%w: tool %s returned no structuredContent although it declares an outputSchema", jsonrpc.ErrInternal, t.Tool.Info.Name)
		}
		fillNullArrays(res, t.output)
		if t.Tool.OutputTrusted {
			// Proven by the generator: the result type cannot break the schema.
		} else if err := t.output.Validate(res.StructuredContent); err != nil {
			return nil, fmt.Errorf("%w: tool %s returned structuredContent that breaks its outputSchema: %v", jsonrpc.ErrInternal, t.Tool.Info.Name, err)
		}
	}
	s.tel.event(EventToolSuccess, "tool", t.Tool.Info.Name)
	return res, nil
}

func (s *Server) readResource(ctx context.Context, req *Request, p *params, _ json.RawMessage) (any, error) {
	if p.URI == "" {
		return nil, fmt.Errorf("%w: uri is required", jsonrpc.ErrInvalidParams)
	}
	if err := req.restoreInput(s, p); err != nil {
		return nil, err
	}
	var (
		res   *ReadResourceResult
		err   error
		cache Cache
	)
	if r, ok := s.resources[p.URI]; ok {
		req.served(r.Info.URI)
		if err := s.permit(ctx, req, r.Scope); err != nil {
			return nil, err
		}
		res, err = r.Read(ctx, req)
		cache = r.Cache
	} else if v := s.apps.view(req, p.URI); v != nil {
		req.served(v.URI)
		res, cache = v.read(), v.cache
	} else if t, vars := s.matchTemplate(p.URI); t != nil {
		req.served(t.Template.Info.URITemplate)
		if err := s.permit(ctx, req, t.Scope); err != nil {
			return nil, err
		}
		res, err = t.Read(ctx, req, p.URI, vars)
		cache = t.Cache
	} else {
		return nil, resourceNotFound(req, p.URI)
	}
	if err != nil {
		return s.inputRequired(req, p, err)
	}
	if req.Modern() && len(p.InputResponses) == 0 && p.RequestState == "" {
		return cached{res, cache}, nil
	}
	return res, nil
}

// resourceNotFound is -32602 in 2026-07-28 and -32002 before it.
func resourceNotFound(req *Request, uri string) error {
	code := int64(jsonrpc.CodeInvalidParams)
	if !req.Modern() {
		code = jsonrpc.CodeResourceNotFound
	}
	return (&jsonrpc.Error{Code: code, Message: fmt.Sprintf("Resource not found: %s", uri)}).WithData(map[string]string{"uri": uri})
}

// ErrResourceNotFound is returned by a resource handler (a template whose
// variables name nothing) to answer with the era's not-found error.
var ErrResourceNotFound = errors.New("resource not found")

// cached wraps a read result with its 2026-07-28 cache hints.
type cached struct {
	*ReadResourceResult
	c Cache
}

func (c cached) MarshalJSON() ([]byte, error) {
	scope := c.c.Scope
	if scope == "" {
		scope = "private"
	}
	return json.Marshal(struct {
		*ReadResourceResult
		TTLMs      int64  `json:"ttlMs"`
		CacheScope string `json:"cacheScope"`
	}{c.ReadResourceResult, c.c.TTLMs, scope})
}

func (s *Server) getPrompt(ctx context.Context, req *Request, p *params, raw json.RawMessage) (any, error) {
	pr, ok := s.prompts[p.Name]
	if !ok {
		return nil, fmt.Errorf("%w: unknown prompt %q", jsonrpc.ErrInvalidParams, p.Name)
	}
	req.served(pr.Info.Name)
	if err := s.permit(ctx, req, pr.Scope); err != nil {
		return nil, err
	}
	var args map[string]string
	if len(p.Arguments) > 0 && string(p.Arguments) != "null" {
		if err := json.Unmarshal(p.Arguments, &args); err != nil {
			return nil, jsonrpc.DecodeError(jsonrpc.ErrInvalidParams, p.Arguments, "/params/arguments", err)
		}
	}
	for _, a := range pr.Info.Arguments {
		if _, ok := args[a.Name]; a.Required && !ok {
			return nil, fmt.Errorf("%w: prompt %s: missing required argument %q", jsonrpc.ErrInvalidParams, pr.Info.Name, a.Name)
		}
	}
	if err := req.restoreInput(s, p); err != nil {
		return nil, err
	}
	res, err := pr.Get(ctx, req, args)
	if err != nil {
		return s.inputRequired(req, p, err)
	}
	return res, nil
}

type completeParams struct {
	Ref struct {
		Type string `json:"type"`
		Name string `json:"name"`
		URI  string `json:"uri"`
	} `json:"ref"`
	Argument struct {
		Name  string `json:"name"`
		Value string `json:"value"`
	} `json:"argument"`
	Context struct {
		Arguments map[string]string `json:"arguments"`
	} `json:"context"`
}

func (s *Server) complete(ctx context.Context, req *Request, _ *params, raw json.RawMessage) (any, error) {
	var cp completeParams
	if err := decode(raw, &cp); err != nil {
		return nil, err
	}
	var h CompleteHandler
	scope := "" // completing needs what using the prompt or resource needs
	switch cp.Ref.Type {
	case "ref/prompt":
		pr, ok := s.prompts[cp.Ref.Name]
		if !ok {
			return nil, fmt.Errorf("%w: unknown prompt %q", jsonrpc.ErrInvalidParams, cp.Ref.Name)
		}
		h, scope = pr.Complete, pr.Scope
	case "ref/resource":
		for _, t := range s.templates {
			if t.Template.Info.URITemplate == cp.Ref.URI {
				h, scope = t.Complete, t.Scope
			}
		}
		if h == nil {
			if _, ok := s.resources[cp.Ref.URI]; !ok && !s.knownTemplate(cp.Ref.URI) {
				return nil, fmt.Errorf("%w: unknown resource template %q", jsonrpc.ErrInvalidParams, cp.Ref.URI)
			}
		}
	default:
		return nil, fmt.Errorf("%w: ref.type must be ref/prompt or ref/resource", jsonrpc.ErrInvalidParams)
	}
	if err := s.permit(ctx, req, scope); err != nil {
		return nil, err
	}
	values := []string{}
	if h != nil {
		got, err := h(ctx, req, CompleteRequest{Argument: cp.Argument.Name, Value: cp.Argument.Value, Context: cp.Context.Arguments})
		if err != nil {
			return nil, err
		}
		values = append(values, got...)
	}
	total, more := len(values), false
	if len(values) > 100 {
		values, more = values[:100], true
	}
	return map[string]any{"completion": map[string]any{"values": values, "total": total, "hasMore": more}}, nil
}

func (s *Server) knownTemplate(uri string) bool {
	for _, t := range s.templates {
		if t.Template.Info.URITemplate == uri {
			return true
		}
	}
	return false
}

func subscribe(s *Server, ctx context.Context, req *Request, p *params, _ json.RawMessage) (any, error) {
	if p.URI == "" {
		return nil, fmt.Errorf("%w: uri is required", jsonrpc.ErrInvalidParams)
	}
	if err := s.permit(ctx, req, s.resourceScope(p.URI)); err != nil {
		return nil, err
	}
	return json.RawMessage(`{}`), s.sessions.change(ctx, req.Session, cluster.SessionUpdate{Subscribe: p.URI})
}

// resourceScope is the scope reading uri needs: its resource's, else
// that of the template it matches; "" for none or an unknown URI.
func (s *Server) resourceScope(uri string) string {
	if r, ok := s.resources[uri]; ok {
		return r.Scope
	}
	if t, _ := s.matchTemplate(uri); t != nil {
		return t.Scope
	}
	return ""
}

func unsubscribe(s *Server, ctx context.Context, req *Request, p *params, _ json.RawMessage) (any, error) {
	return json.RawMessage(`{}`), s.sessions.change(ctx, req.Session, cluster.SessionUpdate{Unsubscribe: p.URI})
}

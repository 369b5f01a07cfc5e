package mcpgen_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen"
	notescomp "github.com/mcpgen/mcpgen/components/notes"
	"github.com/mcpgen/mcpgen/generated/everything"
	"github.com/mcpgen/mcpgen/generated/notes"
)

// The examples of this file declare their servers by hand, with the
// [mcpgen.Definition] a generated package's New builds from annotated
// components; the examples in example_client_test.go serve
// components/notes through its generated package instead.

// greetInput is the arguments of the greet tool, and greetInputSchema
// their JSON Schema (mcpgen derives it from the struct).
type greetInput struct {
	Name string `json:"name"`
}

var greetInputSchema = json.RawMessage(`{"type":"object","properties":{"name":{"type":"string","minLength":1}},"required":["name"]}`)

// greeting is the greet tool's structured result.
type greeting struct {
	Text string `json:"text"`
}

// greetServer is a server with one tool, declared as a generated package
// declares it: the tools/list entry, and a handler that decodes the
// arguments, calls the component and encodes its result.
func greetServer() *mcpgen.Server {
	return mcpgen.New(mcpgen.Definition{
		Name:    "greeter",
		Version: "1.0.0",
		Tools: []mcpgen.Tool{{
			Info: mcpgen.ToolInfo{
				Name:        "greet",
				Description: "Greets someone by name.",
				InputSchema: greetInputSchema,
			},
			Call: func(ctx context.Context, req *mcpgen.Request, args json.RawMessage) (*mcpgen.CallToolResult, error) {
				in, err := mcpgen.DecodeArguments[greetInput](args)
				if err != nil {
					return nil, err
				}
				return mcpgen.StructuredResult(greeting{Text: "Hello, " + in.Name + "!"}, nil)
			},
		}},
	}, mcpgen.Options{})
}

// A server with one tool, called by a client in the same process. The
// runtime checks the arguments against the input schema before the
// handler runs, and tells the model what was wrong with them.
func ExampleNew() {
	srv := greetServer()
	defer srv.Close()
	ctx := context.Background()

	c, err := mcpgen.Connect(ctx, mcpgen.InMemoryTransport(srv), mcpgen.ClientOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer c.Close()

	g, err := mcpgen.CallToolAs[greeting](ctx, c, "greet", greetInput{Name: "Ada"})
	fmt.Println(g.Text, err)

	_, err = c.CallTool(ctx, "greet", greetInput{Name: ""})
	var te *mcpgen.ToolCallError
	if errors.As(err, &te) {
		fmt.Println(te.Result.Content[0].Text)
	}
	// Output:
	// Hello, Ada! <nil>
	// invalid arguments for tool greet: /params/arguments/name: must be at least 1 characters long
}

// A resource template: every URI that matches notes://{id} is read by one
// handler, which receives the template's variables. A note that does not
// exist is the protocol's resource-not-found error, which the client
// returns as a *ProtocolError.
func ExampleTemplate() {
	texts := map[string]string{"groceries": "eggs, milk"}
	srv := mcpgen.New(mcpgen.Definition{
		Name: "notes",
		Templates: []mcpgen.Template{{
			Info: mcpgen.TemplateInfo{Name: "note", URITemplate: "notes://{id}", MimeType: "text/plain"},
			Read: func(ctx context.Context, req *mcpgen.Request, uri string, vars map[string]string) (*mcpgen.ReadResourceResult, error) {
				text, ok := texts[vars["id"]]
				if !ok {
					return nil, fmt.Errorf("note %s: %w", vars["id"], mcpgen.ErrResourceNotFound)
				}
				return mcpgen.ResourceText(uri, "text/plain", text, nil)
			},
		}},
	}, mcpgen.Options{})
	defer srv.Close()
	ctx := context.Background()
	c, err := mcpgen.Connect(ctx, mcpgen.InMemoryTransport(srv), mcpgen.ClientOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer c.Close()

	uri := mcpgen.ExpandTemplate("notes://{id}", map[string]string{"id": "groceries"})
	res, err := c.ReadResource(ctx, uri)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Contents[0].URI, *res.Contents[0].Text)

	_, err = c.ReadResource(ctx, "notes://missing")
	var pe *mcpgen.ProtocolError
	if errors.As(err, &pe) {
		fmt.Println(pe.Code, pe.Message)
	}
	// Output:
	// notes://groceries eggs, milk
	// -32602 Resource not found: notes://missing
}

// A long tool reports its progress through its *Request; a client that
// wants it passes a function with WithProgress. Progress goes only to a
// client that asked for it, so the tool need not check.
func ExampleRequest_Progress() {
	srv := mcpgen.New(mcpgen.Definition{
		Name: "worker",
		Tools: []mcpgen.Tool{{
			Info: mcpgen.ToolInfo{Name: "import", InputSchema: json.RawMessage(`{"type":"object"}`)},
			Call: func(ctx context.Context, req *mcpgen.Request, args json.RawMessage) (*mcpgen.CallToolResult, error) {
				for done := 1; done <= 3; done++ {
					if err := req.Progress(ctx, float64(done), 3, fmt.Sprintf("file %d of 3", done)); err != nil {
						return nil, err
					}
				}
				return mcpgen.TextResult("imported 3 files", nil)
			},
		}},
	}, mcpgen.Options{})
	defer srv.Close()
	ctx := context.Background()
	c, err := mcpgen.Connect(ctx, mcpgen.InMemoryTransport(srv), mcpgen.ClientOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer c.Close()

	var mu sync.Mutex
	var seen []string
	ctx = mcpgen.WithProgress(ctx, func(p mcpgen.Progress) {
		mu.Lock()
		defer mu.Unlock()
		seen = append(seen, fmt.Sprintf("%v/%v %s", p.Progress, p.Total, p.Message))
	})
	res, err := c.CallTool(ctx, "import", nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	mu.Lock()
	fmt.Println(strings.Join(seen, "; "))
	mu.Unlock()
	fmt.Println(res.Content[0].Text)
	// Output:
	// 1/3 file 1 of 3; 2/3 file 2 of 3; 3/3 file 3 of 3
	// imported 3 files
}

// Elicitation: a tool asks the user a question through the client. The
// same code serves both eras: a legacy session sends the request and waits
// for the answer; a 2026-07-28 call ends with input_required and the
// client retries it with the answer, which Ask then returns. The client
// answers with its Elicit handler (a real one asks the user).
func ExampleRequest_Ask() {
	srv := mcpgen.New(mcpgen.Definition{
		Name: "shop",
		Tools: []mcpgen.Tool{{
			Info: mcpgen.ToolInfo{Name: "order", InputSchema: json.RawMessage(`{"type":"object"}`)},
			Call: func(ctx context.Context, req *mcpgen.Request, args json.RawMessage) (*mcpgen.CallToolResult, error) {
				answer, err := req.Ask(ctx, "size", "elicitation/create", mcpgen.ElicitRequest{
					Message:         "Which size?",
					RequestedSchema: json.RawMessage(`{"type":"object","properties":{"size":{"type":"string","enum":["S","M","L"]}},"required":["size"]}`),
				})
				if err != nil {
					return nil, err // an *InputRequiredError must be returned as it is
				}
				var r mcpgen.ElicitResult
				if err := json.Unmarshal(answer, &r); err != nil {
					return nil, err
				}
				if r.Action != "accept" {
					return mcpgen.TextResult("no order", nil)
				}
				return mcpgen.TextResult(fmt.Sprintf("ordered size %v", r.Content["size"]), nil)
			},
		}},
	}, mcpgen.Options{})
	defer srv.Close()
	ctx := context.Background()

	for _, version := range []string{"2026-07-28", "2025-11-25"} {
		c, err := mcpgen.Connect(ctx, mcpgen.InMemoryTransport(srv), mcpgen.ClientOptions{
			ProtocolVersion: version,
			Elicit: func(ctx context.Context, req *mcpgen.ElicitRequest) (*mcpgen.ElicitResult, error) {
				return &mcpgen.ElicitResult{Action: "accept", Content: map[string]any{"size": "M"}}, nil
			},
		})
		if err != nil {
			fmt.Println(err)
			return
		}
		res, err := c.CallTool(ctx, "order", nil)
		if err != nil {
			fmt.Println(err)
		} else {
			fmt.Println(version+":", res.Content[0].Text)
		}
		c.Close()
	}
	// Output:
	// 2026-07-28: ordered size M
	// 2025-11-25: ordered size M
}

// Errors: an ordinary error of a tool is the tool's failure, a result with
// isError that the model reads (the client returns it as a
// *ToolCallError); a *ProtocolError, or an error wrapping a sentinel such
// as ErrInvalidParams, says the request was wrong and is a JSON-RPC error.
func ExampleProtocolError() {
	divide := func(ctx context.Context, req *mcpgen.Request, args json.RawMessage) (*mcpgen.CallToolResult, error) {
		in, err := mcpgen.DecodeArguments[struct{ A, B float64 }](args)
		if err != nil {
			return nil, err
		}
		switch {
		case in.B == 0:
			return mcpgen.TextResult("", errors.New("cannot divide by zero"))
		case in.B < 0:
			return mcpgen.TextResult("", fmt.Errorf("%w: b must be positive", mcpgen.ErrInvalidParams))
		}
		return mcpgen.TextResult(fmt.Sprint(in.A/in.B), nil)
	}
	srv := mcpgen.New(mcpgen.Definition{
		Name: "calculator",
		Tools: []mcpgen.Tool{{
			Info: mcpgen.ToolInfo{Name: "divide", InputSchema: json.RawMessage(`{"type":"object","properties":{"A":{"type":"number"},"B":{"type":"number"}}}`)},
			Call: divide,
		}},
	}, mcpgen.Options{})
	defer srv.Close()
	ctx := context.Background()
	c, err := mcpgen.Connect(ctx, mcpgen.InMemoryTransport(srv), mcpgen.ClientOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer c.Close()

	for _, b := range []float64{4, 0, -1} {
		res, err := c.CallTool(ctx, "divide", map[string]float64{"A": 2, "B": b})
		var te *mcpgen.ToolCallError
		var pe *mcpgen.ProtocolError
		switch {
		case err == nil:
			fmt.Println("result:", res.Content[0].Text)
		case errors.As(err, &te):
			fmt.Println("the tool failed:", te.Result.Content[0].Text)
		case errors.As(err, &pe):
			fmt.Println("protocol error:", pe.Code, pe.Message)
		}
	}
	// Output:
	// result: 0.5
	// the tool failed: cannot divide by zero
	// protocol error: -32602 invalid params: b must be positive
}

// counter is an Observer that counts events by name.
type counter struct {
	mu     sync.Mutex
	counts map[string]int
}

func (o *counter) Event(name string, tags ...mcpgen.Tag) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.counts[name]++
}

func (o *counter) Timing(name string, d time.Duration, tags ...mcpgen.Tag) {}

// An Observer sees the runtime's events and timings as they happen, to
// feed metrics; packages metrics and tracing provide Prometheus and
// OpenTelemetry ones.
func ExampleObserver() {
	obs := &counter{counts: map[string]int{}}
	srv := mcpgen.New(mcpgen.Definition{
		Name: "greeter",
		Tools: []mcpgen.Tool{{
			Info: mcpgen.ToolInfo{Name: "greet", InputSchema: greetInputSchema},
			Call: func(ctx context.Context, req *mcpgen.Request, args json.RawMessage) (*mcpgen.CallToolResult, error) {
				return mcpgen.TextResult("Hello!", nil)
			},
		}},
	}, mcpgen.Options{Observer: obs})
	defer srv.Close()
	ctx := context.Background()
	c, err := mcpgen.Connect(ctx, mcpgen.InMemoryTransport(srv), mcpgen.ClientOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer c.Close()
	for range 3 {
		if _, err := c.CallTool(ctx, "greet", greetInput{Name: "Ada"}); err != nil {
			fmt.Println(err)
		}
	}
	obs.mu.Lock()
	defer obs.mu.Unlock()
	fmt.Println(mcpgen.EventToolSuccess, obs.counts[mcpgen.EventToolSuccess])
	// Output:
	// mcp.tool.execution_success 3
}

// tokens is an Authenticator that knows its callers by bearer token. It
// is also a ScopeChallenger: a call to a component whose scope the caller
// lacks is refused with 403 and a challenge naming the scope, as OAuth's
// step-up authorization does. Package oauth provides a real OAuth 2.1
// resource server.
type tokens map[string]mcpgen.Principal

func (t tokens) Authenticate(r *http.Request) (mcpgen.Principal, error) {
	p, ok := t[strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")]
	if !ok {
		return mcpgen.Principal{}, &mcpgen.AuthError{Reason: "invalid_token", Description: "unknown token"}
	}
	return p, nil
}

func (t tokens) InsufficientScope(p mcpgen.Principal, scope string) *mcpgen.AuthError {
	return &mcpgen.AuthError{
		Status:      http.StatusForbidden,
		Header:      http.Header{"Www-Authenticate": {`Bearer error="insufficient_scope", scope="` + scope + `"`}},
		Reason:      "insufficient_scope",
		Description: "this needs scope " + scope,
	}
}

// HTTP with authentication: HTTPOptions.Auth establishes the caller of
// every request, and a component's scope is then enforced; handlers read
// the caller as Request.Auth. The client passes its credentials with
// ClientOptions.Auth; a refusal comes back as an *HTTPStatusError, and a
// missing scope also as an *InsufficientScopeError.
func ExampleHTTPOptions_auth() {
	srv := mcpgen.New(mcpgen.Definition{
		Name: "admin",
		Tools: []mcpgen.Tool{{
			Info:  mcpgen.ToolInfo{Name: "whoami", InputSchema: json.RawMessage(`{"type":"object"}`)},
			Scope: "admin:read",
			Call: func(ctx context.Context, req *mcpgen.Request, args json.RawMessage) (*mcpgen.CallToolResult, error) {
				return mcpgen.TextResult("you are "+req.Auth.Subject, nil)
			},
		}},
	}, mcpgen.Options{})
	auth := tokens{
		"token-ada": {Subject: "ada", Scopes: []string{"admin:read"}},
		"token-bob": {Subject: "bob"},
	}
	hs := httptest.NewServer(mcpgen.HTTPHandler(srv, mcpgen.HTTPOptions{Auth: auth}))
	defer hs.Close()
	hs.Config.RegisterOnShutdown(srv.Close)
	ctx := context.Background()

	for _, token := range []string{"token-ada", "token-bob", "stolen"} {
		c, err := mcpgen.Connect(ctx, mcpgen.HTTPTransport(hs.URL), mcpgen.ClientOptions{Auth: mcpgen.StaticToken(token)})
		if err != nil {
			var he *mcpgen.HTTPStatusError
			if errors.As(err, &he) {
				fmt.Println(token+": refused with", he.StatusCode)
			}
			continue
		}
		res, err := c.CallTool(ctx, "whoami", nil)
		var ise *mcpgen.InsufficientScopeError
		switch {
		case err == nil:
			fmt.Println(token+":", res.Content[0].Text)
		case errors.As(err, &ise):
			fmt.Println(token+": needs scope", ise.Scope)
		default:
			fmt.Println(token+":", err)
		}
		c.Close()
	}
	// Output:
	// token-ada: you are ada
	// token-bob: needs scope admin:read
	// stolen: refused with 401
}

// Serving over stdio: a legacy client's initialize handshake, then a call
// in its session, as the JSON-RPC lines a client writes to the server's
// stdin. A real main passes os.Stdin and os.Stdout (or uses Main).
func ExampleServeStdio() {
	srv := notes.New(notescomp.NewStore(), mcpgen.Options{})
	defer srv.Close()
	in := strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"example","version":"1.0.0"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"prompts/list"}
`)
	var out strings.Builder
	if err := mcpgen.ServeStdio(context.Background(), srv, in, &out); err != nil {
		fmt.Println(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	fmt.Println(len(lines), "responses; the second:")
	fmt.Println(lines[1])
	// Output:
	// 2 responses; the second:
	// {"jsonrpc":"2.0","id":2,"result":{"prompts":[{"name":"summarize","title":"Summarize a note","description":"Asks the model to summarise one note.","arguments":[{"name":"id","description":"The identifier of the note.","required":true}]}]}}
}

// Two servers on one listener, each at its own path of the same mux, and
// a client of each.
func ExampleHTTPHandler() {
	notesSrv := notes.New(notescomp.NewStore(), mcpgen.Options{})
	fixture := everything.New(mcpgen.Options{})
	mux := http.NewServeMux()
	mux.Handle("/notes/mcp", mcpgen.HTTPHandler(notesSrv, mcpgen.HTTPOptions{}))
	mux.Handle("/fixture/mcp", mcpgen.HTTPHandler(fixture, mcpgen.HTTPOptions{}))
	hs := httptest.NewServer(mux)
	defer hs.Close()
	hs.Config.RegisterOnShutdown(notesSrv.Close)
	hs.Config.RegisterOnShutdown(fixture.Close)
	ctx := context.Background()

	for _, path := range []string{"/notes/mcp", "/fixture/mcp"} {
		c, err := mcpgen.Connect(ctx, mcpgen.HTTPTransport(hs.URL+path), mcpgen.ClientOptions{})
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(path, c.ServerInfo().Name, c.ProtocolVersion())
		c.Close()
	}
	// Output:
	// /notes/mcp notes 2026-07-28
	// /fixture/mcp everything 2026-07-28
}

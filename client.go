package mcpgen

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"runtime/debug"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// ClientTransport is how a [Client] reaches a server: a child process
// speaking stdio ([CommandTransport]), a Streamable HTTP endpoint
// ([HTTPTransport]) or a [Server] in the same process
// ([InMemoryTransport]). It is sealed: only those constructors make one.
// A transport value is used by one [Connect]; make a new one per client.
type ClientTransport interface {
	// dial opens the connection for c. The connection delivers the
	// server's notifications and requests to c.
	dial(ctx context.Context, c *Client) (clientConn, error)
}

// clientConn is an open connection to a server. call and notify may be
// used by any number of goroutines at once; close ends the connection and
// makes calls in progress return an error.
type clientConn interface {
	// call sends one request and returns its result, a *ProtocolError for
	// a JSON-RPC error, or a transport error. When ctx ends first it
	// returns ctx.Err() after telling the server (stdio:
	// notifications/cancelled; HTTP: the request's stream is closed).
	call(ctx context.Context, r *outgoing) (json.RawMessage, error)
	// notify sends a notification.
	notify(ctx context.Context, method string, params json.RawMessage) error
	// started tells the transport which revision the client speaks from
	// now on, after the handshake (HTTP: the MCP-Protocol-Version header,
	// and in a legacy session the GET stream for the server's messages).
	started(version string, legacy bool)
	close() error
}

// outgoing is one request to send.
type outgoing struct {
	id     int64
	method string
	params json.RawMessage
	// name is params.name or params.uri, which HTTP mirrors in Mcp-Name.
	name string
	// header holds the Mcp-Param-* headers of a tools/call (HTTP only).
	header http.Header
}

// ClientOptions configure [Connect]. The zero value connects as
// "mcpgen-client", tries the newest protocol revision first, and declares
// no client capabilities.
type ClientOptions struct {
	// ClientInfo names the client to the server; default
	// {Name: "mcpgen-client", Version: the module's version or "dev"}.
	ClientInfo Implementation
	// ProtocolVersion picks the revision. Empty: try 2026-07-28
	// (server/discover) and fall back to the initialize handshake of the
	// newest legacy revision the server accepts. A legacy revision
	// ("2025-11-25", ...) goes straight to initialize.
	ProtocolVersion string

	// HTTPClient sends the HTTP requests (HTTP only); default: a client
	// that gives connecting and the TLS handshake 10 s each and an
	// answer's headers HeaderTimeout, but sets no bound on the body, as an
	// SSE answer may stream for as long as the call runs. Either way its
	// redirects stay on the origin of the server's URL: a redirect to
	// another scheme, host or port fails with [ErrCrossOriginRedirect].
	HTTPClient *http.Client
	// HeaderTimeout bounds the wait for the headers of each answer of the
	// default HTTP client (default 60 s), so that a server that accepts a
	// request and never answers fails it with a timeout (a net.Error
	// whose Timeout is true) instead of holding the call until its
	// context ends. A server that keeps a long call in a JSON answer must
	// answer within it, or stream (SSE). Ignored when HTTPClient is set.
	HeaderTimeout time.Duration
	// Header holds extra headers sent on every HTTP request.
	Header http.Header
	// Auth supplies credentials for HTTP requests; nil sends none.
	Auth ClientAuth

	// Elicit answers the server's questions to the user
	// (elicitation/create). It and the other handlers of the server's
	// questions, Sample and Roots, answer requests of the server (legacy
	// era) or the input requests of an input_required result
	// (2026-07-28) alike. A nil handler is a capability the client does
	// not declare, so the server does not ask.
	Elicit func(ctx context.Context, req *ElicitRequest) (*ElicitResult, error)
	// Sample answers the server's requests for a completion of the
	// client's model (sampling/createMessage); nil declares no sampling.
	Sample func(ctx context.Context, req *CreateMessageRequest) (*CreateMessageResult, error)
	// Roots answers the server's question which directories and files it
	// may work in (roots/list); nil declares no roots.
	Roots func(ctx context.Context) ([]Root, error)

	// Views declares the MCP Apps extension ([UIExtension], with
	// [ViewMimeType]): the client shows views, as a host does. Servers
	// then list the tools' links to their views (ToolInfo.UI), the views
	// among the resources and the tools offered to views only; without
	// it they answer as if they had no views.
	Views bool

	// OnNotification receives the notifications the server sends
	// (notifications/message, .../list_changed, resources/updated ...)
	// other than progress, which goes to the callback of [WithProgress],
	// and the acknowledgement of a subscription, which [Client.Listen]
	// takes.
	// It runs on the goroutine that reads the connection: it must not
	// block. Nil drops them.
	OnNotification func(method string, params json.RawMessage)
	// OnLog receives the server's log messages (notifications/message),
	// decoded, before OnNotification gets them too; [Client.SetLogLevel]
	// asks for them. Like OnNotification it runs on the goroutine that
	// reads the connection and must not block.
	OnLog func(LogMessage)

	// MaxMessageBytes bounds one message from the server (a stdio line, an
	// HTTP body, an SSE event); default 16 MiB. A larger one fails the
	// call (stdio: the connection) with [ErrMessageTooLarge].
	MaxMessageBytes int64
	// MaxPages bounds the pages one list follows (default 1000), so that
	// a server handing out cursors forever cannot make the client hold
	// what it sends: past it, the list (every List* method, CheckSurface,
	// a typed client's CheckSurface) fails with [ErrListLimit].
	MaxPages int
	// MaxListBytes bounds the bytes of one list's pages together (default
	// 32 MiB), so that huge pages cannot make the client hold what the
	// server sends either: past it, the list fails with [ErrListLimit].
	MaxListBytes int64
}

// ClientAuth supplies credentials for HTTP requests and reacts to
// refusals. Package oauthclient implements it with the MCP authorization
// flow; [StaticToken] with a fixed bearer token.
type ClientAuth interface {
	// Authorize adds credentials (usually Authorization: Bearer ...) to a
	// request about to be sent.
	Authorize(ctx context.Context, req *http.Request) error
	// Refused is told of a 401 or 403 answer to req. Returning nil means
	// "credentials were renewed, send the request again"; an error is
	// returned to the caller. The transport retries a request at most
	// maxAuthRetries times.
	Refused(ctx context.Context, req *http.Request, resp *http.Response) error
}

// StaticToken is a [ClientAuth] that sends token as a bearer token on
// every request and gives up when it is refused.
func StaticToken(token string) ClientAuth { return staticToken(token) }

type staticToken string

// Authorize sets the bearer token.
func (t staticToken) Authorize(_ context.Context, req *http.Request) error {
	req.Header.Set("Authorization", "Bearer "+string(t))
	return nil
}

// Refused gives up: a fixed token cannot be renewed.
func (t staticToken) Refused(_ context.Context, _ *http.Request, resp *http.Response) error {
	return fmt.Errorf("the server refused the token: HTTP %s", resp.Status)
}

// Client is a connection to one MCP server, made by [Connect]: its methods
// call the server's tools, resources and prompts in whichever protocol era
// the server speaks. They may be called from any number of goroutines at
// once. Close it
// when done: that ends the server process of a [CommandTransport] and the
// session of a legacy HTTP server.
type Client struct {
	opts ClientOptions
	conn clientConn

	version      string
	legacy       bool
	serverInfo   Implementation
	serverCaps   json.RawMessage
	instructions string
	caps         json.RawMessage // this client's capabilities, encoded once
	metaInfo     json.RawMessage // clientInfo, encoded once
	metaHead     []byte          // the stateless era's _meta up to clientInfo (encodeMeta)

	asking    chan struct{} // a slot per request of the server being answered
	nextID    atomic.Int64
	progress  sync.Map // progress token (string) -> func(Progress)
	toolsMu   sync.Mutex
	toolCache map[string]json.RawMessage // tool name -> input schema, from ListTools (HTTP headers)
	logLevel  atomic.Pointer[string]     // SetLogLevel's level
	subs      subscriptions              // Listen's subscriptions
	closeOnce sync.Once
	closeErr  error
}

// Client bounds of the handshake and the stateless era; the others are in
// client_bounds.go.
const (
	// maxInputRounds bounds the input_required rounds of one call.
	maxInputRounds = 16
	// maxInputRequests bounds the questions of one input_required round:
	// each may reach the application's handlers (a person asked, a model
	// sampled), so a server cannot make one call ask without end.
	maxInputRequests = 32
	// discoverTimeout bounds the server/discover probe of a server that
	// may not answer it at all (a legacy stdio server before initialize).
	discoverTimeout = 10 * time.Second
)

// Connect opens a connection to the server t reaches and agrees on a
// protocol revision: with opts.ProtocolVersion empty it sends
// server/discover (2026-07-28, stateless); a server that does not know it
// gets the initialize handshake of a legacy revision instead, and, over
// HTTP, the session it opens. The returned client follows the era chosen
// on every call; [Client.ProtocolVersion] tells which.
//
//	c, err := mcpgen.Connect(ctx, mcpgen.HTTPTransport("http://localhost:8080/mcp"), mcpgen.ClientOptions{})
//	if err != nil { ... }
//	defer c.Close()
//	res, err := c.CallTool(ctx, "add_note", map[string]any{"text": "hello"})
func Connect(ctx context.Context, t ClientTransport, opts ClientOptions) (*Client, error) {
	if t == nil {
		return nil, errors.New("mcp connect: no transport")
	}
	if opts.ClientInfo.Name == "" {
		opts.ClientInfo = Implementation{Name: "mcpgen-client", Version: moduleVersion()}
	}
	if opts.MaxMessageBytes <= 0 {
		opts.MaxMessageBytes = defaultClientMaxMessage
	}
	if opts.MaxPages <= 0 {
		opts.MaxPages = defaultMaxPages
	}
	if opts.MaxListBytes <= 0 {
		opts.MaxListBytes = defaultMaxListBytes
	}
	if opts.HeaderTimeout <= 0 {
		opts.HeaderTimeout = defaultHeaderTimeout
	}
	v := opts.ProtocolVersion
	if v != "" && !supportedVersion(v) {
		return nil, fmt.Errorf("mcp connect: protocol version %q is not one this client speaks (%v)", v, versions)
	}
	c := &Client{opts: opts, toolCache: map[string]json.RawMessage{}, asking: make(chan struct{}, maxServerRequests)}
	c.metaInfo, _ = json.Marshal(opts.ClientInfo)
	conn, err := t.dial(ctx, c)
	if err != nil {
		return nil, fmt.Errorf("mcp connect: %w", err)
	}
	c.conn = conn
	if err := c.handshake(ctx, v); err != nil {
		conn.close()
		return nil, fmt.Errorf("mcp connect: %w", err)
	}
	return c, nil
}

// moduleVersion is this module's version as the build recorded it, or "dev".
func moduleVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, d := range append([]*debug.Module{&bi.Main}, bi.Deps...) {
			if d != nil && d.Path == "github.com/mcpgen/mcpgen" && d.Version != "" && d.Version != "(devel)" {
				return d.Version
			}
		}
	}
	return "dev"
}

// handshake settles the revision: v, or the best the server offers.
func (c *Client) handshake(ctx context.Context, v string) error {
	if v != "" && !modernVersion(v) {
		return c.initialize(ctx, v)
	}
	want := v
	if want == "" {
		want = LatestVersion
	}
	err := c.discover(ctx, want)
	if err == nil {
		return nil
	}
	var pe *ProtocolError
	if errors.As(err, &pe) && pe.Code == CodeUnsupportedProtocolVersion {
		// A modern server that does not speak want: take the newest
		// revision both sides know.
		alt := pickVersion(pe.Data)
		switch {
		case alt == "":
			return fmt.Errorf("server/discover: the server speaks none of the revisions %v: %w", versions, err)
		case modernVersion(alt):
			// Also when alt is want: a server may refuse a first request
			// and take the same revision on the retry.
			return c.discover(ctx, alt)
		case !modernVersion(alt) && v == "":
			return c.initialize(ctx, alt)
		}
		return fmt.Errorf("server/discover: %w", err)
	}
	if errors.Is(err, errNotDiscover) && v == "" {
		return c.initialize(ctx, latestLegacy)
	}
	if v != "" || isModernError(err) || refused(err) || ctx.Err() != nil {
		// Asked for a modern revision, a modern server refused the
		// request for a reason of its own, or the caller is not let in:
		// no fallback.
		return fmt.Errorf("server/discover: %w", err)
	}
	// Anything else says the server predates server/discover.
	return c.initialize(ctx, latestLegacy)
}

// errNotDiscover says server/discover was answered with something other
// than a DiscoverResult.
var errNotDiscover = errors.New("the answer to server/discover lists no supportedVersions")

// CodeUnsupportedProtocolVersion is the error a 2026-07-28 server answers
// a request of a revision it does not speak with; its data lists the
// revisions it does.
const CodeUnsupportedProtocolVersion = -32022

// isModernError reports whether err is a JSON-RPC error only a 2026-07-28
// server sends (header mismatch, missing client capability, unsupported
// revision): the server is modern and falling back would not help.
func isModernError(err error) bool {
	var pe *ProtocolError
	return errors.As(err, &pe) && (pe.Code == -32020 || pe.Code == -32021 || pe.Code == -32022)
}

// pickVersion returns the newest revision of an unsupported-version
// error's data.supported that this client speaks, or "".
func pickVersion(data json.RawMessage) string {
	var d struct {
		Supported []string `json:"supported"`
	}
	_ = json.Unmarshal(data, &d)
	for _, v := range versions {
		if slices.Contains(d.Supported, v) {
			return v
		}
	}
	return ""
}

// discover probes a stateless server with server/discover in revision v.
func (c *Client) discover(ctx context.Context, v string) error {
	c.version, c.legacy = v, false
	c.caps = c.capabilities(true)
	c.encodeMeta()
	c.conn.started(v, false)
	pctx, cancel := context.WithTimeout(ctx, discoverTimeout)
	defer cancel()
	raw, err := c.call(pctx, "server/discover", nil, "")
	if err != nil {
		return err
	}
	var res struct {
		SupportedVersions []string        `json:"supportedVersions"`
		Capabilities      json.RawMessage `json:"capabilities"`
		Instructions      string          `json:"instructions"`
		Meta              struct {
			ServerInfo Implementation `json:"io.modelcontextprotocol/serverInfo"`
		} `json:"_meta"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		return fmt.Errorf("server/discover: decode result: %w", err)
	}
	if len(res.SupportedVersions) == 0 {
		// Not a DiscoverResult: a legacy server that answers any method
		// with an empty result.
		return errNotDiscover
	}
	if !slices.Contains(res.SupportedVersions, v) {
		alt := ""
		for _, s := range versions {
			if slices.Contains(res.SupportedVersions, s) {
				alt = s
				break
			}
		}
		if alt == "" {
			return fmt.Errorf("server/discover: the server speaks %v, none of %v", res.SupportedVersions, versions)
		}
		if !modernVersion(alt) {
			return c.initialize(ctx, alt)
		}
		c.version = alt
		c.conn.started(alt, false)
	}
	c.serverInfo, c.serverCaps, c.instructions = res.Meta.ServerInfo, res.Capabilities, res.Instructions
	return nil
}

// initialize runs the legacy handshake offering revision v.
func (c *Client) initialize(ctx context.Context, v string) error {
	c.version, c.legacy = v, true
	c.caps = c.capabilities(false)
	c.conn.started("", true)
	params, _ := json.Marshal(map[string]any{
		"protocolVersion": v,
		"capabilities":    c.caps,
		"clientInfo":      c.opts.ClientInfo,
	})
	raw, err := c.send(ctx, &outgoing{method: "initialize", params: params})
	if err != nil {
		return fmt.Errorf("initialize: %w", err)
	}
	var res struct {
		ProtocolVersion string          `json:"protocolVersion"`
		Capabilities    json.RawMessage `json:"capabilities"`
		ServerInfo      Implementation  `json:"serverInfo"`
		Instructions    string          `json:"instructions"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		return fmt.Errorf("initialize: decode result: %w", err)
	}
	if !slices.Contains(legacyVersions, res.ProtocolVersion) {
		return fmt.Errorf("initialize: the server chose protocol version %q, which this client does not speak", res.ProtocolVersion)
	}
	c.version = res.ProtocolVersion
	c.serverInfo, c.serverCaps, c.instructions = res.ServerInfo, res.Capabilities, res.Instructions
	c.conn.started(c.version, true)
	if err := c.conn.notify(ctx, "notifications/initialized", nil); err != nil {
		return fmt.Errorf("notifications/initialized: %w", err)
	}
	return nil
}

// capabilities encodes what this client can do: the handlers set in its
// options, and in the stateless era the extensions it follows.
func (c *Client) capabilities(modern bool) json.RawMessage {
	caps := map[string]any{}
	if c.opts.Elicit != nil {
		caps["elicitation"] = map[string]any{"form": map[string]any{}}
	}
	if c.opts.Sample != nil {
		caps["sampling"] = map[string]any{}
	}
	if c.opts.Roots != nil {
		caps["roots"] = map[string]any{}
	}
	exts := map[string]any{skillsExtension: map[string]any{}}
	if modern {
		exts[tasksExtension] = map[string]any{}
	}
	if c.opts.Views {
		exts[UIExtension] = map[string]any{"mimeTypes": []string{ViewMimeType}}
	}
	caps["extensions"] = exts
	b, _ := json.Marshal(caps)
	return b
}

// skillsExtension is the capability key of the skills extension.
const skillsExtension = "io.modelcontextprotocol/skills"

// Close ends the connection: the legacy session of an HTTP server
// (DELETE), the process of a [CommandTransport] (its stdin is closed, then
// it is killed if it has not exited after a grace period).
func (c *Client) Close() error {
	c.closeOnce.Do(func() { c.closeErr = c.conn.close() })
	return c.closeErr
}

// ProtocolVersion is the revision in use: "2026-07-28" for a stateless
// server, or the legacy revision initialize agreed on.
func (c *Client) ProtocolVersion() string { return c.version }

// ServerInfo is the server's name and version as it reported them.
func (c *Client) ServerInfo() Implementation { return c.serverInfo }

// Instructions is the server's guidance for the model, if it gave any.
func (c *Client) Instructions() string { return c.instructions }

// ServerCapabilities is the server's capabilities object as it sent it
// (initialize or server/discover).
func (c *Client) ServerCapabilities() json.RawMessage { return c.serverCaps }

// Ping checks that the server answers. A stateless (2026-07-28) server has
// no ping method: server/discover stands in for it.
func (c *Client) Ping(ctx context.Context) error {
	method := "ping"
	if !c.legacy {
		method = "server/discover"
	}
	_, err := c.call(ctx, method, nil, "")
	return err
}

// call sends method with params (a JSON object or nil), adding the
// per-request _meta of the stateless era and the caller's progress token.
// name is mirrored in Mcp-Name over HTTP.
func (c *Client) call(ctx context.Context, method string, params map[string]any, name string) (json.RawMessage, error) {
	return c.callWith(ctx, &outgoing{method: method, name: name}, params)
}

// callWith is call for a request whose transport details (headers) are
// already set on o.
func (c *Client) callWith(ctx context.Context, o *outgoing, params map[string]any) (json.RawMessage, error) {
	var level, token string
	if !c.legacy {
		var err error
		if level, err = c.requestLogLevel(ctx); err != nil {
			return nil, fmt.Errorf("%s: %w", o.method, err)
		}
	}
	if fn := progressOf(ctx); fn != nil {
		token = "p" + strconv.FormatInt(c.nextID.Add(1), 10)
		c.progress.Store(token, fn)
		defer c.progress.Delete(token)
	}
	var metaBuf [512]byte
	meta := c.appendMeta(metaBuf[:0], level, token)
	if params != nil || meta != nil {
		b, err := encodeParams(params, meta)
		if err != nil {
			return nil, fmt.Errorf("%s: encode params: %w", o.method, err)
		}
		o.params = b
	}
	return c.send(ctx, o)
}

// send numbers and sends one request (unless the caller numbered it).
func (c *Client) send(ctx context.Context, o *outgoing) (json.RawMessage, error) {
	if o.id == 0 {
		o.id = c.nextID.Add(1)
	}
	return c.conn.call(ctx, o)
}

// notification is called by the connection for every notification the
// server sends: progress goes to the call's callback; the acknowledgement
// of a subscription to [Client.Listen]; the rest to the subscriptions
// they belong to, log messages to OnLog, and all to OnNotification.
func (c *Client) notification(method string, params json.RawMessage) {
	if method == "notifications/progress" {
		var p struct {
			Token    json.RawMessage `json:"progressToken"`
			Progress float64         `json:"progress"`
			Total    float64         `json:"total"`
			Message  string          `json:"message"`
		}
		if json.Unmarshal(params, &p) == nil {
			var token string
			if json.Unmarshal(p.Token, &token) != nil {
				token = string(p.Token)
			}
			if fn, ok := c.progress.Load(token); ok {
				fn.(func(Progress))(Progress{Progress: p.Progress, Total: p.Total, Message: p.Message})
				return
			}
		}
	}
	if method == "notifications/subscriptions/acknowledged" {
		c.subs.acknowledged(params)
		return
	}
	c.subs.route(method, params)
	if method == "notifications/message" {
		c.onLog(params)
	}
	if c.opts.OnNotification != nil {
		c.opts.OnNotification(method, params)
	}
}

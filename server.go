package mcpgen

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"time"

	"go.uber.org/zap"

	"github.com/mcpgen/mcpgen/internal/cluster"
	"github.com/mcpgen/mcpgen/internal/jsonrpc"
	"github.com/mcpgen/mcpgen/internal/jsonschema"
)

// Options tune a server. The zero value is ready to use: no logging, no
// observer, no permission checks, a random signing key.
type Options struct {
	// Logger receives the runtime's logs; nil logs nothing.
	Logger *zap.Logger
	// Observer receives the runtime's events and request timings; nil
	// observes nothing, at no cost.
	Observer Observer
	// Errors receives the errors the runtime answered with, for
	// monitoring; nil does not log them.
	Errors ErrorHandler
	// Grants says which scopes stand for a component's declared scope on
	// a request (nil: the declared scope alone). Declared scopes are
	// enforced wherever the transport authenticates callers (HTTP with
	// [HTTPOptions].Auth); without authentication (stdio, HTTP without
	// Auth) every caller may use every component, and [Flags.Run] says so
	// when it starts.
	Grants Grants
	// Permission adds conditions of its own to a component's declared
	// scope, checked once the caller holds it (nil: none).
	Permission Permission

	// PageSize is the number of items per list page (default 100).
	PageSize int
	// Secret signs pagination cursors and requestState. Random per process
	// when empty, so cursors do not survive a restart.
	Secret []byte
	// ListCache is the cache hint on list and discover results (2026-07-28).
	// Default: five minutes, public, since the registry is fixed at build time.
	ListCache Cache
	// SessionIdle ends legacy sessions unused for this long (default 30 min;
	// negative disables).
	SessionIdle time.Duration
	// Tasks enables the io.modelcontextprotocol/tasks extension: a tool
	// marked as a task ([Tool].Task) runs in the background when the
	// client declares the extension on the request; the client polls
	// tasks/get, answers input requests with tasks/update and may
	// tasks/cancel.
	Tasks bool
	// Skills are Agent Skills provided by code, served under the
	// io.modelcontextprotocol/skills extension beside the definition's
	// (generated) ones, in the same entry shape.
	Skills []Skill

	// Limits bound what clients can make the server hold; the zero value
	// is every default ([Limits]).
	Limits Limits

	// Cluster shares sessions, notifications, tasks and signing keys with
	// the other replicas of a deployment; nil keeps them in this process.
	// Open one with an opt-in package (pgcluster.Open); the caller closes
	// it after the server. Unless Secret is set, the signing keys come
	// from the cluster.
	Cluster ClusterBackend

	// Events configures the events extension (io.modelcontextprotocol/events)
	// of a definition that declares events (Definition.Events): where the
	// log, the subscriptions and the outbox are kept, and webhook
	// delivery. Ignored without events.
	Events EventOptions
}

// ClusterBackend is the state that the replicas of one deployment share
// ([Options].Cluster): legacy sessions, notifications, tasks and signing
// keys. Backends come from opt-in packages (pgcluster, on PostgreSQL);
// the runtime uses them through a wider contract of its own, and New
// refuses any other implementation. Without one, sessions, tasks and keys
// stay in the process.
//
// What is shared, and how:
//   - legacy sessions: created in the backend at initialize, loaded by any
//     replica that sees their Mcp-Session-Id and cached there; changes (log
//     level, subscriptions, end) are saved and published, and the
//     replicas that cache the session reload it (or end it); a DELETE is
//     answered once every replica has confirmed the end; a session in use
//     pushes its shared expiry forward at most once a minute;
//   - notifications (resources/updated, list changes, task status): are
//     published, and every replica, the publisher too, delivers them to its
//     listeners in the order of the messages, after the session changes
//     published before them (a subscription answered on one replica holds
//     for the next change made on any);
//   - responses to the server's legacy server-to-client requests that the
//     load balancer sent to another replica: published, and the replica
//     whose handler waits delivers them;
//   - tasks: every status change is written through; tasks/get reads the
//     backend; tasks/update and tasks/cancel reach the owner by message;
//   - signing keys for cursors and requestState: from the backend.
type ClusterBackend interface {
	// ID names this replica, unique per process start.
	ID() string
	// Close releases the backend's connections; the tasks this replica
	// runs stop being renewed.
	Close() error
}

// Server serves one generated component registry: generated packages
// build its [Definition] and call [New], one Server per server. It routes
// each MCP method to its handler and holds the era logic that lets legacy
// (initialize, sessions) and stateless 2026-07-28 clients use the same
// endpoint at the same time; the transports ([ServeStdio],
// [HTTPHandler]) only carry messages. It is safe for concurrent use by
// any number of transports and requests.
type Server struct {
	def  Definition
	opts Options
	tel  *telemetry

	tools     map[string]*compiledTool
	resources map[string]*Resource
	templates []*compiledTemplate
	prompts   map[string]*Prompt
	skills    *skillIndex
	apps      *appsFeature // nil: no views and no tool linked to them
	events    *events      // nil: no events declared

	lists      *lists
	legacyCaps json.RawMessage
	modernCaps json.RawMessage
	discover   json.RawMessage
	serverInfo Implementation
	signer     signer

	sessions *sessionTable
	running  sync.WaitGroup // tasks whose handlers run (Drain)
	limits   *limiter       // nil: no per-principal limits
	pending  pending        // bytes of answers not yet written, per principal
	tasks    *taskTable
	cluster  *clusterState // nil without Options.Cluster
	notes    *notifier
	closed   chan struct{}
	// completions is whether completion/complete is served (some prompt
	// or template completes), decided once at start-up.
	completions bool
	closeOne    sync.Once
}

// Close ends open subscription streams gracefully and legacy sessions,
// and records the events a component deferred ([EventSync]). In-flight
// calls are not interrupted.
func (s *Server) Close() {
	first := false
	s.closeOne.Do(func() { close(s.closed); first = true })
	if first && s.events != nil {
		s.events.flush()
	}
	if s.cluster != nil {
		s.cluster.close()
	}
	// Only this replica's copies end: in a cluster the sessions live on.
	s.sessions.closeAll()
}

func (s *Server) closing() <-chan struct{} { return s.closed }

// Drain waits until the tasks this server runs have finished (their final
// status stored), or ctx ends. A replica being replaced calls it once its
// transports take no more requests, so that the tasks it acknowledged
// complete rather than fail with it; Flags.Run does, within
// --shutdown-grace.
func (s *Server) Drain(ctx context.Context) error {
	done := make(chan struct{})
	go func() {
		s.running.Wait()
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("tasks still running: %w", ctx.Err())
	}
}

// shuttingDown reports whether Close was called.
func (s *Server) shuttingDown() bool {
	select {
	case <-s.closed:
		return true
	default:
		return false
	}
}

type compiledTool struct {
	Tool
	input        *jsonschema.Schema
	output       *jsonschema.Schema
	headerParams map[string]string // argument -> Mcp-Param-{Name}, from x-mcp-header
}

// New builds a server from a generated definition. Every schema is compiled
// and every list answer encoded here, once; a definition that cannot be
// served is a programming error and panics with the reason.
func New(def Definition, opts Options) *Server {
	s, err := build(def, opts)
	if err != nil {
		panic(fmt.Sprintf("mcp server %q: %v", def.Name, err))
	}
	return s
}

func build(def Definition, opts Options) (*Server, error) {
	if opts.PageSize <= 0 {
		opts.PageSize = 100
	}
	if opts.ListCache == (Cache{}) {
		opts.ListCache = Cache{TTLMs: 300000, Scope: "public"}
	}
	if opts.SessionIdle == 0 {
		opts.SessionIdle = 30 * time.Minute
	}
	explicitSecret := len(opts.Secret) > 0
	opts.Limits = opts.Limits.withDefaults()
	if len(opts.Secret) == 0 {
		opts.Secret = make([]byte, 32)
		_, _ = rand.Read(opts.Secret)
	}
	s := &Server{
		def: def, opts: opts, tel: newTelemetry(opts),
		tools: map[string]*compiledTool{}, resources: map[string]*Resource{}, prompts: map[string]*Prompt{},
		signer: signer{key: opts.Secret}, closed: make(chan struct{}),
	}
	s.serverInfo = Implementation{Name: def.Name, Title: def.Title, Version: def.Version}
	if s.serverInfo.Version == "" {
		s.serverInfo.Version = buildVersion()
		s.def.ServerCard = cardWithVersion(def.ServerCard, s.serverInfo.Version)
	}
	s.sessions = newSessionTable(opts.SessionIdle, opts.Limits, s.tel)
	s.limits = newLimiter(opts.Limits)
	s.pending.max = opts.Limits.MaxPendingBytesPerPrincipal
	s.lists = &lists{size: opts.PageSize, cache: opts.ListCache, signer: &s.signer, fill: func(b *listPages) error {
		if err := b.addComponents(&s.def); err != nil {
			return err
		}
		if err := s.skills.addList(b); err != nil {
			return err
		}
		return s.apps.addLists(b, &s.def)
	}}
	var err error
	if s.skills, err = newSkillIndex(&def, opts.Skills, s.tel, s.lists); err != nil {
		return nil, err
	}
	s.def = def
	apps, err := buildApps(&def, opts.ListCache)
	if err != nil {
		return nil, err
	}
	if s.apps = apps; apps != nil {
		for _, v := range apps.views {
			s.tel.registered("view", v.URI)
		}
	}
	s.notes = &notifier{sessions: s.sessions, tel: s.tel, closing: s.closed,
		max: opts.Limits.MaxListenStreams, maxPerKey: opts.Limits.MaxListenStreamsPerPrincipal,
		authorize: func(ctx context.Context, req *Request, uri string) error {
			return s.permit(ctx, req, s.resourceScope(uri))
		},
		owned: func(context.Context, *Request, []string) []string { return nil }}
	if opts.Tasks {
		s.tasks = newTaskTable(opts.Limits, s.tel, s.notes, &s.running)
		s.notes.owned = s.tasks.ownedIDs
	}
	if opts.Cluster != nil {
		b, ok := opts.Cluster.(cluster.Backend)
		if !ok {
			return nil, fmt.Errorf("Options.Cluster is a %T, not a backend of an mcpgen cluster package such as pgcluster", opts.Cluster)
		}
		if err := s.startCluster(b, explicitSecret); err != nil {
			return nil, fmt.Errorf("cluster: %w", err)
		}
	}
	for i := range def.Tools {
		t := &compiledTool{Tool: def.Tools[i]}
		if _, dup := s.tools[t.Tool.Info.Name]; dup {
			return nil, fmt.Errorf("duplicate tool %q", t.Tool.Info.Name)
		}
		var err error
		if t.input, err = jsonschema.Compile(t.Tool.Info.InputSchema); err != nil {
			return nil, fmt.Errorf("tool %s: input schema: %w", t.Tool.Info.Name, err)
		}
		if len(t.Tool.Info.OutputSchema) > 0 {
			if t.output, err = jsonschema.Compile(t.Tool.Info.OutputSchema); err != nil {
				return nil, fmt.Errorf("tool %s: output schema: %w", t.Tool.Info.Name, err)
			}
		}
		t.headerParams = headerParams(t.Tool.Info.InputSchema)
		s.tools[t.Tool.Info.Name] = t
		s.tel.registered("tool", t.Tool.Info.Name)
	}
	for i := range def.Resources {
		r := &def.Resources[i]
		if _, dup := s.resources[r.Info.URI]; dup {
			return nil, fmt.Errorf("duplicate resource %q", r.Info.URI)
		}
		s.resources[r.Info.URI] = r
		s.tel.registered("resource", r.Info.Name)
	}
	for i := range def.Templates {
		ct, err := compileTemplate(&def.Templates[i])
		if err != nil {
			return nil, err
		}
		s.templates = append(s.templates, ct)
		s.tel.registered("template", ct.Template.Info.Name)
	}
	for i := range def.Prompts {
		p := &def.Prompts[i]
		if _, dup := s.prompts[p.Info.Name]; dup {
			return nil, fmt.Errorf("duplicate prompt %q", p.Info.Name)
		}
		s.prompts[p.Info.Name] = p
		s.tel.registered("prompt", p.Info.Name)
	}
	if len(def.Events) > 0 {
		owner := "local-" + randomHex(8)
		if s.cluster != nil {
			owner = s.cluster.b.ID()
		}
		if s.events, err = newEvents(def.Events, opts.Events, owner, s.tel, s.closed, s.permit); err != nil {
			return nil, err
		}
		s.events.start()
	}
	s.completions = s.offersCompletions()
	s.notes.serves.tools, s.notes.serves.prompts, s.notes.serves.resources, s.notes.serves.tasks = hasTools(s), hasPrompts(s), hasResources(s), s.tasks != nil
	if err := s.lists.rebuild(); err != nil {
		return nil, err
	}
	s.buildCapabilities()
	return s, nil
}

// Name returns the server's name from its definition.
func (s *Server) Name() string { return s.def.Name }

// inbound is one message handed to [Server.handle] by a transport, with
// what the transport knows about where it came from.
type inbound struct {
	Msg *jsonrpc.Message
	// Session is the legacy session the transport associated with the
	// message (stdio: the process's; HTTP: from Mcp-Session-Id), or nil.
	// Handle sets it when the message is an initialize request.
	Session *Session
	// streamPeer carries notifications and server-to-client requests back.
	peer streamPeer
	// Auth is the caller as authenticated by the transport.
	Auth Principal
	// Partition is the partition the transport put the message in
	// ([Request.Partition]).
	Partition string
	// HTTPHeaders, when set, are checked against the body for stateless
	// requests (Mcp-Method, Mcp-Name, Mcp-Param-*). Nil on stdio.
	HTTPHeaders HeaderGetter
	// LegacyVersion is the revision a legacy request without a session
	// claims (the MCP-Protocol-Version header on HTTP); empty for none.
	LegacyVersion string
	// RemoteAddr is the client's network address (HTTP: the request's
	// RemoteAddr), which tells anonymous callers apart for the
	// per-principal limits; empty on stdio.
	RemoteAddr string
	// Authenticated is set by a transport that authenticated the caller
	// (HTTP with [HTTPOptions].Auth): components' declared scopes are
	// enforced, an anonymous caller holding none of them.
	Authenticated bool

	observed *RequestInfo // set by Handle when a RequestObserver follows the request
}

// HeaderGetter reads HTTP request headers (http.Header satisfies it).
type HeaderGetter interface {
	// Get returns the first value of the header key, or "".
	Get(key string) string
	// Values returns every value of the header key.
	Values(key string) []string
}

// params is the part of every request's params that the router reads
// before dispatch; the rest stays raw for the handler.
type params struct {
	Meta           requestMeta                `json:"_meta"`
	Name           string                     `json:"name"`
	URI            string                     `json:"uri"`
	Cursor         *string                    `json:"cursor"`
	Arguments      json.RawMessage            `json:"arguments"`
	InputResponses map[string]json.RawMessage `json:"inputResponses"`
	RequestState   string                     `json:"requestState"`
	Task           json.RawMessage            `json:"task"`
}

// requestMeta holds the reserved _meta keys the router reads, as slices of
// the body; Raw keeps the whole object for [Request.Meta].
type requestMeta struct {
	Raw                json.RawMessage
	ProtocolVersion    json.RawMessage
	ClientCapabilities json.RawMessage
	ClientInfo         json.RawMessage
	LogLevel           json.RawMessage
	ProgressToken      json.RawMessage
}

// UnmarshalJSON decodes the known keys, matched exactly (encoding/json
// would match struct fields in any case), and keeps the raw object. The
// request path normally takes params.decodeFast instead.
func (m *requestMeta) UnmarshalJSON(b []byte) error {
	var all map[string]json.RawMessage
	if err := json.Unmarshal(b, &all); err != nil {
		return fmt.Errorf("%w: /params/_meta: expected object, got %s", jsonrpc.ErrInvalidParams, jsonrpc.Found(b))
	}
	*m = requestMeta{
		Raw:                b,
		ProtocolVersion:    all[metaProtocolVersion],
		ClientCapabilities: all[metaClientCapabilities],
		ClientInfo:         all[metaClientInfo],
		LogLevel:           all[metaLogLevel],
		ProgressToken:      all[metaProgressToken],
	}
	return nil
}

// handle serves one incoming message and returns the response to send, or
// nil when there is none (notifications, responses to our own requests),
// and its outcome: whether and why it was refused, for the transport to
// render. Transports decode messages and call handle; they hold no
// protocol state of their own. handle never panics on bad input; a panicking handler becomes
// -32603.
//
// A request's concurrency slot and the bytes of its answer stay counted
// against its principal until the transport has written the answer (or
// dropped it) and called Done: writing to a client that reads slowly, or
// not at all, is part of the work.
func (s *Server) handle(ctx context.Context, in *inbound) (*jsonrpc.Message, outcome) {
	m := in.Msg
	if !m.IsRequest() {
		return s.respond(ctx, in)
	}
	key := in.principalKey()
	if refused := s.pending.admit(key, m.Method); refused != nil {
		return s.refuse(in, refused)
	}
	slot := func() {}
	if s.limits != nil {
		release, refused := s.limits.acquire(key, m.Method != "subscriptions/listen" && m.Method != "events/stream")
		if refused != nil {
			return s.refuse(in, refused)
		}
		slot = release
	}
	resp, out := s.respond(ctx, in)
	if resp == nil {
		slot()
		return nil, out
	}
	bytes := s.pending.hold(key, answerSize(resp))
	buffers := resp.Release
	resp.Release = func() {
		if buffers != nil {
			buffers()
		}
		bytes()
		slot()
	}
	return resp, out
}

// answerSize is about what an answer holds until it is written: in
// memory, or, streamed, in a file (counted alike: an unread answer must not
// fill the disk either).
func answerSize(m *jsonrpc.Message) int64 {
	n := int64(len(m.Result))
	if m.ResultStream != nil {
		n += m.ResultStream.Len()
	}
	for _, p := range m.ResultParts {
		n += int64(len(p))
	}
	return n
}

// respond is handle without the per-principal accounting.
func (s *Server) respond(ctx context.Context, in *inbound) (*jsonrpc.Message, outcome) {
	m := in.Msg
	if m.IsResponse() {
		if in.Session != nil && !in.Session.pending.deliver(m) && s.cluster != nil {
			// The waiting handler is on another replica.
			return nil, outcomeOf(s.cluster.routeResponse(in))
		}
		return nil, outcome{}
	}
	var (
		start time.Time
		info  *RequestInfo
	)
	if s.tel.obs != nil {
		start = time.Now()
		s.tel.obs.Event(EventRequest, Tag{"method", m.Method})
		if s.tel.robs != nil {
			info = &RequestInfo{Method: m.Method, ID: m.ID, Headers: in.HTTPHeaders, Auth: in.Auth, Start: start}
		}
	}
	result, err := s.dispatch(ctx, in, info)
	if s.tel.obs != nil {
		s.tel.obs.Timing(EventRequestDuration, time.Since(start), Tag{"method", m.Method})
		if info != nil {
			s.tel.endObserved(ctx, in, info, err)
		}
	}
	out := outcomeOf(err)
	if m.IsNotification() {
		return nil, out
	}
	if err != nil {
		s.tel.event(EventRequestError, "method", m.Method)
		w := jsonrpc.Wire(err)
		// An outage is logged once where it is found; its refusals are
		// not errors of this request.
		if w.Code == jsonrpc.CodeInternalError && !errors.Is(err, context.Canceled) && out.refusal != refusedUnavailable {
			tags := []Tag{{"method", m.Method}}
			if in.Auth.Subject != "" {
				tags = append(tags, Tag{"subject", in.Auth.Subject})
			}
			s.tel.errs.LogError(ctx, "request failed", err, tags...)
		}
		return &jsonrpc.Message{JSONRPC: jsonrpc.Version, ID: m.ID, Error: w}, out
	}
	s.tel.event(EventRequestSuccess, "method", m.Method)
	resp := jsonrpc.NewResponse(m.ID, result.b)
	resp.ResultParts, resp.ResultStream, resp.Release = result.parts, result.stream, result.release
	return resp, out
}

// refuse answers a request refused by a limit: -31429, and for HTTP 429
// with the time to wait.
func (s *Server) refuse(in *inbound, e *limitError) (*jsonrpc.Message, outcome) {
	if s.tel.obs != nil {
		s.tel.obs.Event(EventRequest, Tag{"method", in.Msg.Method})
		s.tel.obs.Event(EventLimitRefused, Tag{"limit", e.limit}, Tag{"method", in.Msg.Method})
		s.tel.obs.Event(EventRequestError, Tag{"method", in.Msg.Method})
	}
	return &jsonrpc.Message{JSONRPC: jsonrpc.Version, ID: in.Msg.ID, Error: jsonrpc.Wire(e.wire())}, e.outcome()
}

func (s *Server) dispatch(ctx context.Context, in *inbound, info *RequestInfo) (result answer, err error) {
	defer func() {
		if p := recover(); p != nil {
			s.tel.log.Error("handler panicked", zap.String("method", in.Msg.Method), zap.Any("panic", p), zap.Stack("stack"))
			result, err = answer{}, fmt.Errorf("%w: handler panicked", jsonrpc.ErrInternal)
		}
	}()
	m := in.Msg
	if m.IsRequest() && strings.HasPrefix(m.Method, "notifications/") {
		// A notification sent with an id would be answered with a result
		// no schema defines (go-sdk #196).
		return answer{}, fmt.Errorf("%w: %s is a notification and takes no id", jsonrpc.ErrInvalidRequest, m.Method)
	}
	var p params
	if len(m.Params) > 0 && !bytes.Equal(m.Params, []byte("null")) {
		if !p.decodeFast(m.Params) {
			p = params{}
			if err := json.Unmarshal(m.Params, &p); err != nil {
				return answer{}, jsonrpc.DecodeError(jsonrpc.ErrInvalidParams, m.Params, "/params", err)
			}
		}
	}
	if info != nil {
		ctx = s.tel.startObserved(ctx, info, &p)
	}
	req, err := s.classify(in, &p)
	if err != nil {
		return answer{}, err
	}
	if info != nil {
		in.observed, info.Version = info, req.Version
	}
	r, ok := routes[m.Method]
	if !ok || (req.Modern() && r.legacyOnly) || (!req.Modern() && r.modernOnly) || (r.enabled != nil && !r.enabled(s)) {
		err := fmt.Errorf("%w: %s", jsonrpc.ErrMethodNotFound, m.Method)
		if req.Modern() {
			return answer{}, refuse(err, outcome{refusal: refusedUnknownMethod})
		}
		return answer{}, err
	}
	if req.Session != nil {
		req.Session.touch()
		req.Session.inflight.Add(1)
		defer req.Session.inflight.Add(-1)
		if s.cluster != nil {
			s.sessions.touchShared(req.Session)
		}
	}
	// The revision defines no header requirements for notification POSTs;
	// routing headers that a notification does carry must still match.
	if in.HTTPHeaders != nil && req.Modern() && (m.IsRequest() || in.HTTPHeaders.Get("Mcp-Method") != "") {
		if err := s.checkHeaders(in.HTTPHeaders, m, &p); err != nil {
			return answer{}, refuse(err, outcome{refusal: refusedBadRequest})
		}
	}
	v, err := r.handle(s, withRequest(ctx, req), req, &p, m.Params)
	if err != nil && unavailable(err) {
		return answer{}, unavailableError(err)
	}
	req.observeResult(v)
	if err != nil {
		if code := jsonrpc.Wire(err).Code; req.Modern() && (code == -32021 || code == jsonrpc.CodeHeaderMismatch) {
			return answer{}, refuse(err, outcome{refusal: refusedBadRequest})
		}
		return answer{}, err
	}
	return s.encodeResult(req, v)
}

// classify decides the era of a request and builds its [Request].
func (s *Server) classify(in *inbound, p *params) (*Request, error) {
	m := in.Msg
	req := &Request{Method: m.Method, server: s, incoming: in, peer: in.peer, meta: p.Meta.Raw, Auth: in.Auth, Partition: in.Partition}
	switch t := p.Meta.ProgressToken; {
	case t == nil || string(t) == "null": // null: as if absent
	case !jsonrpc.ValidID(t):
		return nil, metaError(metaProgressToken, "expected string or number", t)
	default:
		req.progressToken = t
	}
	if s.isModern(in, p) {
		if err := s.classifyModern(in, p, req); err != nil {
			return nil, refuse(err, outcome{refusal: refusedBadRequest})
		}
		return req, nil
	}
	if sess := in.Session; sess != nil {
		req.Session, req.Version, req.Client, req.ClientCaps = sess, sess.Version, sess.Client, sess.ClientCaps
		return req, nil
	}
	req.Version = in.LegacyVersion
	if req.Version == "" {
		req.Version = version20250326
	}
	return req, nil
}

// isModern tells a stateless request from a legacy one: it carries the
// 2026-07-28 _meta, or (over HTTP) a modern MCP-Protocol-Version header, or
// it uses a method only the stateless era has.
func (s *Server) isModern(in *inbound, p *params) bool {
	if in.Msg.Method == "initialize" {
		// initialize is the legacy handshake; a client announcing a modern
		// revision over HTTP has no such method.
		return p.Meta.ProtocolVersion != nil || in.HTTPHeaders != nil && modernVersion(in.HTTPHeaders.Get("MCP-Protocol-Version"))
	}
	if p.Meta.ProtocolVersion != nil {
		return true
	}
	if in.HTTPHeaders != nil && modernVersion(in.HTTPHeaders.Get("MCP-Protocol-Version")) {
		return true
	}
	r, ok := routes[in.Msg.Method]
	return ok && r.modernOnly && in.Session == nil
}

// modernMessage reports whether m carries the 2026-07-28 per-request
// _meta (params._meta with a protocol version), which makes it a stateless
// request whatever its HTTP headers say. Transports use it to leave the
// era's errors (-32020, -32022) to [Server.handle] instead of treating the
// message as a legacy one.
func modernMessage(m *jsonrpc.Message) bool {
	if len(m.Params) == 0 || m.Params[0] != '{' {
		return false
	}
	modern := false
	_ = jsonrpc.Fields(m.Params, func(key, val []byte) error {
		if string(key) != `"_meta"` || len(val) == 0 || val[0] != '{' {
			return nil
		}
		return jsonrpc.Fields(val, func(k, _ []byte) error {
			if string(k) == `"`+metaProtocolVersion+`"` {
				modern = true
			}
			return nil
		})
	})
	return modern
}

// classifyModern checks the stateless envelope in the order the spec's
// error precedence implies: required _meta (-32602), header agreement
// (-32020), supported revision (-32022).
func (s *Server) classifyModern(in *inbound, p *params, req *Request) error {
	m := in.Msg
	v := p.Meta.ProtocolVersion
	if v == nil && m.IsNotification() && in.HTTPHeaders != nil {
		// A notification's _meta has no protocolVersion (the schema's
		// NotificationMetaObject defines none), so the header, modern
		// since we got here, names the revision. The Go SDK sends
		// notifications/cancelled so when a call's context ends.
		v, _ = json.Marshal(in.HTTPHeaders.Get("MCP-Protocol-Version"))
	}
	if v == nil {
		return metaError(metaProtocolVersion, "is required", nil)
	}
	var version string
	if err := json.Unmarshal(v, &version); err != nil {
		return metaError(metaProtocolVersion, "expected string", v)
	}
	caps := p.Meta.ClientCapabilities
	if caps == nil && !m.IsNotification() {
		return metaError(metaClientCapabilities, "is required", nil)
	}
	if caps != nil && caps[0] != '{' {
		return metaError(metaClientCapabilities, "expected object", caps)
	}
	if in.HTTPHeaders != nil {
		if h := in.HTTPHeaders.Get("MCP-Protocol-Version"); h != version {
			return headerMismatch(fmt.Sprintf("MCP-Protocol-Version header value %q does not match _meta value %q", h, version))
		}
	}
	if !modernVersion(version) || !supportedVersion(version) {
		return unsupportedVersion(version)
	}
	req.Version, req.ClientCaps = version, caps
	if info := p.Meta.ClientInfo; info != nil {
		if err := json.Unmarshal(info, &req.Client); err != nil {
			return jsonrpc.DecodeError(jsonrpc.ErrInvalidParams, info, metaPointer(metaClientInfo), err)
		}
	}
	if lv := p.Meta.LogLevel; lv != nil {
		if err := json.Unmarshal(lv, &req.logLevel); err != nil || !validLogLevel(req.logLevel) {
			return metaError(metaLogLevel, "expected one of debug, info, notice, warning, error, critical, alert, emergency", lv)
		}
	}
	return nil
}

// metaPointer is the JSON Pointer of a _meta key in a request.
func metaPointer(key string) string { return "/params/_meta/" + jsonrpc.EscapePointer(key) }

// metaError is an invalid-params error about a _meta key: what was
// expected and, when the key was sent, what was found.
func metaError(key, want string, got json.RawMessage) error {
	if got == nil {
		return fmt.Errorf("%w: %s %s", jsonrpc.ErrInvalidParams, metaPointer(key), want)
	}
	return fmt.Errorf("%w: %s: %s, got %s", jsonrpc.ErrInvalidParams, metaPointer(key), want, jsonrpc.Found(got))
}

// unsupportedVersion is UnsupportedProtocolVersionError (2026-07-28):
// data.supported lists every revision this endpoint speaks, the legacy ones
// (reached through initialize) included, as server/discover does, so that a
// client can pick a revision it shares with the server.
func unsupportedVersion(requested string) error {
	return (&jsonrpc.Error{Code: jsonrpc.CodeUnsupportedProtocolVersion, Message: "Unsupported protocol version"}).
		WithData(map[string]any{"supported": versions, "requested": requested})
}

func validLogLevel(l string) bool { _, ok := logLevels[l]; return ok }

// answer is an encoded result: one buffer, or pieces to be written one
// after another, with the release of the buffers they lie in (see
// jsonrpc.Message.ResultParts).
type answer struct {
	b       json.RawMessage
	parts   [][]byte
	stream  jsonrpc.Stream // a streamed result (see Body)
	release func()
}

// encodeResult marshals a handler's result and, for stateless requests,
// adds the resultType every 2026-07-28 result carries.
func (s *Server) encodeResult(req *Request, v any) (answer, error) {
	var b []byte
	switch v := v.(type) {
	case json.RawMessage:
		b = v
	case []byte:
		b = v
	case *CallToolResult:
		if st := toolResultStream(req.Modern(), v); st != nil {
			return answer{stream: st, release: v.Release}, nil
		}
		if parts := toolResultParts(req.Modern(), v); parts != nil {
			return answer{parts: parts, release: v.Release}, nil
		}
		var err error
		if b, err = appendToolResult(req.Modern(), v); err != nil {
			return answer{}, fmt.Errorf("%w: encode result: %v", jsonrpc.ErrInternal, err)
		}
		v.Release()
		return answer{b: b}, nil
	default:
		st, done, err := resourceStream(v, func(v any) ([]byte, error) { return s.marshalResult(req, v) })
		if st != nil {
			return answer{stream: st, release: done}, nil
		}
		if err == nil {
			b, err = json.Marshal(v)
		}
		if err != nil {
			return answer{}, fmt.Errorf("%w: encode result: %v", jsonrpc.ErrInternal, err)
		}
	}
	return answer{b: s.withResultType(req, b)}, nil
}

// marshalResult is json.Marshal with the resultType of a stateless
// request's result.
func (s *Server) marshalResult(req *Request, v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return s.withResultType(req, b), nil
}

// withResultType adds `"resultType":"complete"` to the encoded result b of
// a stateless (2026-07-28) request that lacks it.
func (s *Server) withResultType(req *Request, b []byte) []byte {
	if req.Modern() && !bytes.HasPrefix(b, []byte(`{"resultType"`)) {
		out := make([]byte, 0, len(b)+len(`"resultType":"complete",`))
		out = append(out, `{"resultType":"complete"`...)
		if len(b) > 2 {
			out = append(out, ',')
		}
		out = append(out, b[1:]...)
		return out
	}
	return b
}

// permit checks that the caller may use a component declaring scope: on
// an authenticated request it must hold the scope or one of its grants,
// and the server's Permission, if any, must agree.
func (s *Server) permit(ctx context.Context, req *Request, scope string) error {
	if scope == "" {
		return nil
	}
	var err error
	if req.authenticated() {
		grants := []string{scope}
		if s.opts.Grants != nil {
			if g := s.opts.Grants(req, scope); len(g) > 0 {
				grants = g
			}
		}
		err = RequireScopes(req.Auth, grants...)
	}
	if err == nil && s.opts.Permission != nil {
		err = s.opts.Permission(ctx, req, scope)
	}
	if err == nil {
		return nil
	}
	var coded *jsonrpc.Error
	if !errors.As(err, &coded) {
		err = fmt.Errorf("%w: permission denied: %w", jsonrpc.ErrInvalidRequest, err)
	}
	// A scope this server asks for; not one that another server asked of
	// a call the Permission function made (an *HTTPStatusError of our
	// client).
	var ise *InsufficientScopeError
	var downstream *HTTPStatusError
	if errors.As(err, &ise) && !errors.As(err, &downstream) {
		return refuse(err, outcome{refusal: refusedScope, scope: ise.Scope})
	}
	return err
}

// sortedKeys returns the keys of m in order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// decodeFast decodes params in one pass with the jsonrpc scanner, slicing
// raw members out of the body; false sends the params through encoding/json
// instead (odd shapes, and for its error messages).
func (p *params) decodeFast(raw json.RawMessage) bool {
	rawMap := func(val []byte) (map[string]json.RawMessage, error) {
		m := map[string]json.RawMessage{}
		err := jsonrpc.Fields(val, func(k, v []byte) error {
			key, err := jsonrpc.String(k)
			m[key] = v
			return err
		})
		return m, err
	}
	err := jsonrpc.Fields(raw, func(key, val []byte) error {
		var err error
		switch string(key) {
		case `"_meta"`:
			p.Meta.Raw = val
			err = jsonrpc.Fields(val, func(k, v []byte) error {
				switch string(k) {
				case `"io.modelcontextprotocol/protocolVersion"`:
					p.Meta.ProtocolVersion = v
				case `"io.modelcontextprotocol/clientCapabilities"`:
					p.Meta.ClientCapabilities = v
				case `"io.modelcontextprotocol/clientInfo"`:
					p.Meta.ClientInfo = v
				case `"io.modelcontextprotocol/logLevel"`:
					p.Meta.LogLevel = v
				case `"progressToken"`:
					p.Meta.ProgressToken = v
				}
				return nil
			})
		case `"name"`:
			p.Name, err = jsonrpc.String(val)
		case `"uri"`:
			p.URI, err = jsonrpc.String(val)
		case `"cursor"`:
			if string(val) != "null" {
				var c string
				c, err = jsonrpc.String(val)
				p.Cursor = &c
			}
		case `"arguments"`:
			p.Arguments = val
		case `"inputResponses"`:
			p.InputResponses, err = rawMap(val)
		case `"requestState"`:
			p.RequestState, err = jsonrpc.String(val)
		case `"task"`:
			p.Task = val
		default:
			for _, c := range key {
				if 'A' <= c && c <= 'Z' {
					return errFallback
				}
			}
		}
		return err
	})
	return err == nil
}

var errFallback = errors.New("fallback")

// buildVersion is the version of the main module the binary was built
// from, or "0.0.0" for a development build.
func buildVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return strings.TrimPrefix(bi.Main.Version, "v")
	}
	return "0.0.0"
}

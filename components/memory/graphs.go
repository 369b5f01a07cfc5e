package memory

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync/atomic"

	"github.com/mcpgen/mcpgen"
	"github.com/mcpgen/mcpgen/components/memory/memstore"
)

// The scopes the components declare: reading the graph and changing it.
// They are what a caller needs on the process's graph and in its private
// graph; on a shared graph, the graph's own scopes stand for them
// (Routed.Grants).
const (
	ScopeRead  = "memory:read"
	ScopeWrite = "memory:write"
)

// Routed is the memstore.Store of a server that serves several graphs of
// one store: each call goes to the graph named by its request's partition
// (mcpgen.Request.Partition), or to Graph outside any partition, and its
// changes are recorded as made by the request's principal, or by
// Anonymous for callers without one. The server decides the partition,
// never a tool's arguments, so the tools stay the reference's. Its
// Partition and Grants methods are the server's mcpgen.HTTPOptions.Partition
// and mcpgen.Options.Grants: which graph a request works on, and which
// scopes let its caller do so.
type Routed struct {
	Graphs    *memstore.Graphs
	Graph     string // the process's graph: that of requests outside any partition (--graph)
	Anonymous string // the author of changes by callers without a principal
	// PerSubject puts each caller of the main path in a private graph of
	// its own (--graph-per-subject): the process's graph is then served
	// at no path but its shared one, where it is a shared graph like any.
	PerSubject bool
	// Shared says the graphs are also served at SharedPath (over HTTP):
	// the events of the process's graph are then recorded in its shared
	// path's partition too.
	Shared bool

	follows atomic.Pointer[relays] // set by RelayEvents: writes defer their events to passes
}

var _ memstore.Store = (*Routed)(nil)

// graphOf is the graph a request works on: its partition's, else
// fallback's.
func graphOf(req *mcpgen.Request, fallback string) string {
	if req != nil && req.Partition != "" {
		return req.Partition
	}
	return fallback
}

// use returns the store of ctx's graph, ctx carrying the author, and the
// release of the store. Unless create is set (a write), a graph that does
// not exist yet, shared or private, is read as an empty one and not
// created (memstore.Graphs.UseExisting): reading cannot make the store
// hold graphs, nor take one of its --max-graphs.
func (r *Routed) use(ctx context.Context, create bool) (memstore.Store, context.Context, func(), error) {
	req := mcpgen.RequestFrom(ctx)
	author := r.Anonymous
	if req != nil && !req.Auth.Anonymous() {
		// "sub:alice" or "client:bot", behind the issuer that vouched for
		// it: never one of the built-in authors ("local", "anonymous").
		author = req.Auth.ID()
	}
	name := graphOf(req, r.Graph)
	use := r.Graphs.Use
	if !create {
		use = r.Graphs.UseExisting
	}
	s, release, err := use(ctx, name)
	if err != nil {
		return nil, ctx, nil, err
	}
	return s, memstore.WithAuthor(ctx, author), release, nil
}

// onGraph runs f on the store of ctx's graph (see use).
func onGraph[T any](ctx context.Context, r *Routed, create bool, f func(memstore.Store, context.Context) (T, error)) (T, error) {
	s, ctx, release, err := r.use(ctx, create)
	if err != nil {
		var zero T
		return zero, err
	}
	defer release()
	return f(s, ctx)
}

// routed runs f, a write, on the store of ctx's graph; read runs a read.
func routed[T any](ctx context.Context, r *Routed, f func(memstore.Store, context.Context) (T, error)) (T, error) {
	return onGraph(ctx, r, true, f)
}

func read[T any](ctx context.Context, r *Routed, f func(memstore.Store, context.Context) (T, error)) (T, error) {
	return onGraph(ctx, r, false, f)
}

// routedErr and readErr are routed and read for f returning only an error.
func routedErr(ctx context.Context, r *Routed, f func(memstore.Store, context.Context) error) error {
	_, err := routed(ctx, r, func(s memstore.Store, ctx context.Context) (struct{}, error) { return struct{}{}, f(s, ctx) })
	return err
}

func readErr(ctx context.Context, r *Routed, f func(memstore.Store, context.Context) error) error {
	_, err := read(ctx, r, func(s memstore.Store, ctx context.Context) (struct{}, error) { return struct{}{}, f(s, ctx) })
	return err
}

// CreateEntities implements memstore.Store on the request's graph.
func (r *Routed) CreateEntities(ctx context.Context, es []memstore.Entity) ([]memstore.Entity, error) {
	return routed(ctx, r, func(s memstore.Store, ctx context.Context) ([]memstore.Entity, error) {
		return s.CreateEntities(ctx, es)
	})
}

// CreateRelations implements memstore.Store on the request's graph.
func (r *Routed) CreateRelations(ctx context.Context, rs []memstore.Relation) ([]memstore.Relation, error) {
	return routed(ctx, r, func(s memstore.Store, ctx context.Context) ([]memstore.Relation, error) {
		return s.CreateRelations(ctx, rs)
	})
}

// AddObservations implements memstore.Store on the request's graph.
func (r *Routed) AddObservations(ctx context.Context, adds []memstore.ObservationAdd) ([]memstore.AddedObservations, error) {
	return routed(ctx, r, func(s memstore.Store, ctx context.Context) ([]memstore.AddedObservations, error) {
		return s.AddObservations(ctx, adds)
	})
}

// DeleteEntities implements memstore.Store on the request's graph.
func (r *Routed) DeleteEntities(ctx context.Context, names []string) error {
	return routedErr(ctx, r, func(s memstore.Store, ctx context.Context) error { return s.DeleteEntities(ctx, names) })
}

// DeleteObservations implements memstore.Store on the request's graph.
func (r *Routed) DeleteObservations(ctx context.Context, ds []memstore.ObservationDelete) error {
	return routedErr(ctx, r, func(s memstore.Store, ctx context.Context) error { return s.DeleteObservations(ctx, ds) })
}

// DeleteRelations implements memstore.Store on the request's graph.
func (r *Routed) DeleteRelations(ctx context.Context, rs []memstore.Relation) error {
	return routedErr(ctx, r, func(s memstore.Store, ctx context.Context) error { return s.DeleteRelations(ctx, rs) })
}

// ReadGraph implements memstore.Store on the request's graph.
func (r *Routed) ReadGraph(ctx context.Context) (memstore.Graph, error) {
	return read(ctx, r, func(s memstore.Store, ctx context.Context) (memstore.Graph, error) { return s.ReadGraph(ctx) })
}

// WalkGraph implements memstore.Store on the request's graph.
func (r *Routed) WalkGraph(ctx context.Context, entity func(memstore.Entity) error, relation func(memstore.Relation) error) error {
	return readErr(ctx, r, func(s memstore.Store, ctx context.Context) error { return s.WalkGraph(ctx, entity, relation) })
}

// SearchNodes implements memstore.Store on the request's graph.
func (r *Routed) SearchNodes(ctx context.Context, query string) (memstore.Graph, error) {
	return read(ctx, r, func(s memstore.Store, ctx context.Context) (memstore.Graph, error) { return s.SearchNodes(ctx, query) })
}

// OpenNodes implements memstore.Store on the request's graph.
func (r *Routed) OpenNodes(ctx context.Context, names []string) (memstore.Graph, error) {
	return read(ctx, r, func(s memstore.Store, ctx context.Context) (memstore.Graph, error) { return s.OpenNodes(ctx, names) })
}

// EntityNames implements memstore.Store on the request's graph.
func (r *Routed) EntityNames(ctx context.Context, prefix string, limit int) ([]string, error) {
	return read(ctx, r, func(s memstore.Store, ctx context.Context) ([]string, error) {
		return s.EntityNames(ctx, prefix, limit)
	})
}

// CreateTask implements memstore.Store on the request's graph.
func (r *Routed) CreateTask(ctx context.Context, t memstore.NewTask) (memstore.Task, error) {
	return routed(ctx, r, func(s memstore.Store, ctx context.Context) (memstore.Task, error) { return s.CreateTask(ctx, t) })
}

// UpdateTask implements memstore.Store on the request's graph.
func (r *Routed) UpdateTask(ctx context.Context, id int64, u memstore.TaskUpdate) (memstore.Task, error) {
	return routed(ctx, r, func(s memstore.Store, ctx context.Context) (memstore.Task, error) { return s.UpdateTask(ctx, id, u) })
}

// GetTask implements memstore.Store on the request's graph.
func (r *Routed) GetTask(ctx context.Context, id int64) (memstore.Task, error) {
	return read(ctx, r, func(s memstore.Store, ctx context.Context) (memstore.Task, error) { return s.GetTask(ctx, id) })
}

// ListTasks implements memstore.Store on the request's graph.
func (r *Routed) ListTasks(ctx context.Context, f memstore.TaskFilter) ([]memstore.Task, error) {
	return read(ctx, r, func(s memstore.Store, ctx context.Context) ([]memstore.Task, error) { return s.ListTasks(ctx, f) })
}

// Changes implements memstore.Store on the request's graph.
func (r *Routed) Changes(ctx context.Context, since int64, limit int) ([]memstore.Change, int64, error) {
	var next int64
	page, err := read(ctx, r, func(s memstore.Store, ctx context.Context) (page []memstore.Change, err error) {
		page, next, err = s.Changes(ctx, since, limit)
		return page, err
	})
	if err != nil {
		return nil, since, err
	}
	return page, next, nil
}

// Head implements memstore.Store on the request's graph.
func (r *Routed) Head(ctx context.Context) (int64, error) {
	return read(ctx, r, func(s memstore.Store, ctx context.Context) (int64, error) { return s.Head(ctx) })
}

// History implements memstore.Store on the request's graph.
func (r *Routed) History(ctx context.Context, name string, limit int) ([]memstore.Change, error) {
	return read(ctx, r, func(s memstore.Store, ctx context.Context) ([]memstore.Change, error) {
		return s.History(ctx, name, limit)
	})
}

// WalkHistory implements memstore.Store on the request's graph.
func (r *Routed) WalkHistory(ctx context.Context, fn func(string, memstore.Change) error) error {
	return readErr(ctx, r, func(s memstore.Store, ctx context.Context) error { return s.WalkHistory(ctx, fn) })
}

// Import implements memstore.Store on the request's graph.
func (r *Routed) Import(ctx context.Context, in io.Reader) (memstore.ImportStats, error) {
	return routed(ctx, r, func(s memstore.Store, ctx context.Context) (memstore.ImportStats, error) { return s.Import(ctx, in) })
}

// Export implements memstore.Store on the request's graph.
func (r *Routed) Export(ctx context.Context, w io.Writer) error {
	return readErr(ctx, r, func(s memstore.Store, ctx context.Context) error { return s.Export(ctx, w) })
}

// Close closes every graph of the store.
func (r *Routed) Close() error { return r.Graphs.Close() }

// Grants says which scopes let the caller of req use a component that
// declares scope (ScopeRead or ScopeWrite) on the request's graph, the
// first being the one to ask for; it is the server's mcpgen.Options.Grants.
// One graph has one rule, whatever the path that reaches it:
//
//   - a shared graph NAME: memory:NAME:write, or for reading
//     memory:NAME:read too, stand for the declared scopes on that graph
//     alone; the declared scopes do not reach it...
//   - ...unless it is the process's graph (--graph, served at --path),
//     where the declared scopes serve as well as its own;
//   - a caller's private graph: the declared scopes.
//
// Write implies read throughout.
func (r *Routed) Grants(req *mcpgen.Request, scope string) []string {
	return r.grants(graphOf(req, r.Graph), scope)
}

// grants is Grants for the graph name.
func (r *Routed) grants(name, scope string) []string {
	var declared []string
	switch scope {
	case ScopeRead:
		declared = []string{ScopeRead, ScopeWrite}
	case ScopeWrite:
		declared = []string{ScopeWrite}
	default:
		return nil // a scope of some other component: itself alone
	}
	if strings.HasPrefix(name, "@") {
		return declared
	}
	read, write := SharedScopes(name)
	own := []string{write}
	if scope == ScopeRead {
		own = []string{read, write}
	}
	if name == r.Graph && !r.PerSubject {
		return append(declared, own...)
	}
	return own
}

// SharedScopes are the scopes that let a caller read and change the
// shared graph name.
func SharedScopes(name string) (read, write string) {
	return "memory:" + name + ":read", "memory:" + name + ":write"
}

// SharedPath is the HTTP path pattern of the shared graphs' endpoint.
const SharedPath = "/graphs/{name}/mcp"

// Partition is the mcpgen.HTTPOptions.Partition of a server serving
// graphs: a request to SharedPath works on the shared graph it names,
// which an authenticated caller must be allowed to read (Grants); with
// PerSubject any other request works on its caller's private graph
// (callers with no subject are refused), else on the process's graph,
// outside any partition.
func (r *Routed) Partition(hr *http.Request, p mcpgen.Principal) (string, error) {
	if name := hr.PathValue("name"); name != "" {
		if err := memstore.CheckGraphName(name); err != nil {
			return "", &mcpgen.AuthError{Status: http.StatusNotFound, Reason: "graph_name", Description: "Not Found: no graph can have this name", Err: err}
		}
		if !p.Anonymous() {
			if err := mcpgen.RequireScopes(p, r.grants(name, ScopeRead)...); err != nil {
				return "", err
			}
		}
		return name, nil
	}
	if !r.PerSubject {
		return "", nil
	}
	switch {
	case p.Anonymous():
		return "", &mcpgen.AuthError{Status: http.StatusUnauthorized, Reason: "anonymous",
			Description: "Unauthorized: each caller works in a private graph of its own here; authenticate", Err: errors.New("anonymous caller")}
	case p.Subject == "":
		// A token naming only a client is not the user of that name, and
		// its graph would be: private graphs belong to subjects.
		return "", &mcpgen.AuthError{Status: http.StatusForbidden, Reason: "no_subject",
			Description: "Forbidden: private graphs belong to users, and this token names only a client; use a shared graph at /graphs/{name}/mcp", Err: errors.New("token without a subject")}
	}
	return memstore.PrivateGraph(p.Subject), nil
}

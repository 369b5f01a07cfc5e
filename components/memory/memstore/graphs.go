package memstore

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"
)

// DefaultGraph is the name of the graph a store held before it had named
// graphs: the one every caller shares unless the server decides otherwise.
const DefaultGraph = "default"

// DefaultMaxGraphs bounds the number of named graphs one store holds
// unless WithMaxGraphs says otherwise: graphs are created on first use,
// so callers decide how many there are.
const DefaultMaxGraphs = 10_000

// DefaultMaxOpenGraphs bounds the graphs open at once unless
// WithMaxOpenGraphs says otherwise; the least recently used idle one is
// closed to open another. An open SQLite graph holds connections and its
// in-memory mirror.
const DefaultMaxOpenGraphs = 64

// WithMaxGraphs sets how many named graphs OpenGraphs lets the store hold
// (the default graph not counted); creating one more fails with ErrLimit.
func WithMaxGraphs(n int) Option { return func(o *options) { o.maxGraphs = n } }

// WithMaxOpenGraphs sets how many graphs Graphs keeps open at once.
func WithMaxOpenGraphs(n int) Option { return func(o *options) { o.maxOpenGraphs = n } }

// sharedName is what a graph name chosen by an operator (--graph, the
// path /graphs/{name}/mcp) may be: it is part of OAuth scopes
// (memory:{name}:read), which cannot hold spaces or colons.
var sharedName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)

// CheckGraphName reports whether name may name a shared graph: 1 to 64
// letters, digits, '.', '_' and '-', starting with a letter or digit.
func CheckGraphName(name string) error {
	if !sharedName.MatchString(name) {
		return fmt.Errorf("%w: graph name %q: want 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit", ErrInvalid, name)
	}
	return nil
}

// PrivateGraph is the name of the private graph of the principal whose
// subject is subject. Its "@" keeps it apart from every shared name.
func PrivateGraph(subject string) string { return "@" + subject }

// checkAnyGraphName accepts a shared name or a private graph's.
func checkAnyGraphName(name string) error {
	if owner, ok := strings.CutPrefix(name, "@"); ok {
		if owner == "" || len(owner) > MaxNameBytes || !utf8.ValidString(owner) || strings.IndexFunc(owner, unicode.IsControl) >= 0 {
			return fmt.Errorf("%w: private graph name %q: want @ and a subject of at most %d bytes of printable UTF-8", ErrInvalid, name, MaxNameBytes)
		}
		return nil
	}
	return CheckGraphName(name)
}

// GraphInfo describes one graph of a store.
type GraphInfo struct {
	Name         string    `json:"name"`
	Owner        string    `json:"owner,omitempty"` // the subject of a private graph
	Entities     int64     `json:"entities"`
	Relations    int64     `json:"relations"`
	Observations int64     `json:"observations"`
	Created      time.Time `json:"created,omitzero"` // zero for the default graph
}

// tooManyGraphs is the refusal to create graph name in a store that holds
// n graphs, its WithMaxGraphs: only creating is refused.
func tooManyGraphs(name string, n int) error {
	return fmt.Errorf("%w: cannot create graph %q: the store holds %d graphs, the most it may (raise the limit on graphs); "+
		"the graphs it holds can still be read and changed, and reading a graph that does not exist still answers as an empty one", ErrLimit, name, n)
}

// graphRecord is a named graph in the store's registry.
type graphRecord struct {
	name    string
	key     string // the SQLite file or PostgreSQL schema holding it
	owner   string
	created time.Time
}

// graphBackend is what Graphs needs of a store kind.
type graphBackend interface {
	// key is where the graph name lives: a file or schema name.
	key(name string) string
	// register adds rec to the registry unless its name is there, and
	// returns the registered record; at most max named graphs.
	register(ctx context.Context, rec graphRecord, max int) (graphRecord, error)
	// lookup returns the registered record of name, if any.
	lookup(ctx context.Context, name string) (graphRecord, bool, error)
	// records returns the registry, in any order.
	records(ctx context.Context) ([]graphRecord, error)
	// open opens the store of a registered graph, creating its tables.
	open(ctx context.Context, rec graphRecord) (Store, error)
}

// Graphs is one store holding any number of named graphs, each a whole
// Store of its own sharing nothing with the others: its entities,
// relations, tasks, search indexes, change feed (cursors included) and
// history. The default graph is the store as it was before graphs (the
// SQLite file itself, the URL's schema in PostgreSQL), so an existing
// memory is the default graph, unchanged. Every other graph is created on
// first use: in SQLite a database file of its own in the directory
// "<db>-graphs", in PostgreSQL a schema of its own; a registry in the
// default graph lists them. Since no query ever spans two graphs, one
// cannot leak into another.
//
// Graphs keeps at most WithMaxOpenGraphs graphs open, closing the least
// recently used idle one, and holds at most WithMaxGraphs named graphs.
type Graphs struct {
	backend graphBackend
	main    Store
	max     int
	maxOpen int

	opening sync.Mutex // held while a graph opens, so each opens once
	mu      sync.Mutex
	open    map[string]*openGraph
	closed  bool
}

// openGraph is a graph's open store and who is using it.
type openGraph struct {
	store Store
	refs  int
	used  time.Time
}

// OpenGraphs opens the store db names (a SQLite file path or a
// postgres:// URL, as for Open and OpenPostgres) with its named graphs.
// The options apply to every graph.
func OpenGraphs(ctx context.Context, db string, opts ...Option) (*Graphs, error) {
	o := defaultOptions()
	for _, f := range opts {
		f(&o)
	}
	g := &Graphs{max: max(o.maxGraphs, 0), maxOpen: max(o.maxOpenGraphs, 1), open: map[string]*openGraph{}}
	if IsPostgresURL(db) {
		s, err := OpenPostgres(ctx, db, opts...)
		if err != nil {
			return nil, err
		}
		g.main, g.backend = s, &pgGraphs{main: s}
		return g, nil
	}
	s, err := Open(db, opts...)
	if err != nil {
		return nil, err
	}
	g.main, g.backend = s, &sqliteGraphs{main: s, dir: db + "-graphs", opts: opts}
	return g, nil
}

// Use returns the store of the named graph (DefaultGraph, a shared name
// or a PrivateGraph), creating the graph on first use, and release, which
// the caller must call once done with it. The store stays open until then.
func (g *Graphs) Use(ctx context.Context, name string) (Store, func(), error) {
	return g.use(ctx, name, true)
}

// UseExisting is Use without creating the graph: a graph that does not
// exist yet is read as an empty one (a read-only Store that answers as an
// empty graph does, checking its arguments alike, and refuses writes).
// Reads use it, so that only a write brings a graph (a file or a schema,
// and one of WithMaxGraphs) into being.
func (g *Graphs) UseExisting(ctx context.Context, name string) (Store, func(), error) {
	return g.use(ctx, name, false)
}

// use is Use, or UseExisting unless create is set.
func (g *Graphs) use(ctx context.Context, name string, create bool) (Store, func(), error) {
	if name == DefaultGraph {
		return g.main, func() {}, nil
	}
	if err := checkAnyGraphName(name); err != nil {
		return nil, nil, err
	}
	if s, release, ok := g.take(name); ok {
		return s, release, nil
	}
	g.opening.Lock()
	defer g.opening.Unlock()
	if s, release, ok := g.take(name); ok { // opened meanwhile
		return s, release, nil
	}
	rec, found, err := g.backend.lookup(ctx, name)
	if err != nil {
		return nil, nil, err
	}
	if !found && !create {
		return emptyGraph{name}, func() {}, nil
	}
	if !found {
		owner, _ := strings.CutPrefix(name, "@")
		if owner == name {
			owner = ""
		}
		rec, err = g.backend.register(ctx, graphRecord{name: name, key: g.backend.key(name), owner: owner, created: time.Now().UTC()}, g.max)
		if err != nil {
			return nil, nil, err
		}
	}
	if err := g.makeRoom(); err != nil {
		return nil, nil, err
	}
	s, err := g.backend.open(ctx, rec)
	if err != nil {
		return nil, nil, fmt.Errorf("memstore: open graph %q: %w", name, err)
	}
	g.mu.Lock()
	if g.closed {
		g.mu.Unlock()
		s.Close()
		return nil, nil, fmt.Errorf("%w: memstore: the store is closed", ErrUnavailable)
	}
	g.open[name] = &openGraph{store: s, used: time.Now()}
	g.mu.Unlock()
	s2, release, _ := g.take(name)
	return s2, release, nil
}

// take returns the open store of name with one more user.
func (g *Graphs) take(name string) (Store, func(), bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	og := g.open[name]
	if og == nil {
		return nil, nil, false
	}
	og.refs++
	var once sync.Once
	return og.store, func() {
		once.Do(func() {
			g.mu.Lock()
			og.refs--
			og.used = time.Now()
			g.mu.Unlock()
		})
	}, true
}

// makeRoom closes the least recently used idle graph when maxOpen are
// open; when every open graph is in use, the caller should retry later.
func (g *Graphs) makeRoom() error {
	g.mu.Lock()
	if len(g.open) < g.maxOpen {
		g.mu.Unlock()
		return nil
	}
	victim := ""
	for name, og := range g.open {
		if og.refs == 0 && (victim == "" || og.used.Before(g.open[victim].used)) {
			victim = name
		}
	}
	if victim == "" {
		g.mu.Unlock()
		return fmt.Errorf("%w: memstore: all %d open graphs are in use (raise the limit on open graphs)", ErrUnavailable, g.maxOpen)
	}
	s := g.open[victim].store
	delete(g.open, victim)
	g.mu.Unlock()
	return s.Close()
}

// List describes every graph of the store, the default graph first, then
// by name, with their sizes.
func (g *Graphs) List(ctx context.Context) ([]GraphInfo, error) {
	recs, err := g.backend.records(ctx)
	if err != nil {
		return nil, err
	}
	main, err := graphCounts(ctx, g.main)
	if err != nil {
		return nil, err
	}
	main.Name = DefaultGraph
	slices.SortFunc(recs, func(a, b graphRecord) int { return strings.Compare(a.name, b.name) })
	out := []GraphInfo{main}
	for _, rec := range recs {
		info, err := g.info(ctx, rec)
		if err != nil {
			return nil, err
		}
		out = append(out, info)
	}
	return out, nil
}

// info opens rec's graph and measures it.
func (g *Graphs) info(ctx context.Context, rec graphRecord) (GraphInfo, error) {
	s, release, err := g.Use(ctx, rec.name)
	if err != nil {
		return GraphInfo{}, err
	}
	defer release()
	info, err := graphCounts(ctx, s)
	if err != nil {
		return GraphInfo{}, fmt.Errorf("memstore: graph %q: %w", rec.name, err)
	}
	info.Name, info.Owner, info.Created = rec.name, rec.owner, rec.created
	return info, nil
}

// graphCounts measures a graph's store, one of the engines'.
func graphCounts(ctx context.Context, s Store) (GraphInfo, error) {
	m, ok := s.(interface {
		counts(ctx context.Context) (GraphInfo, error)
	})
	if !ok {
		return GraphInfo{}, fmt.Errorf("memstore: a %T cannot be measured", s)
	}
	return m.counts(ctx)
}

// Close closes every open graph and the store.
func (g *Graphs) Close() error {
	g.mu.Lock()
	g.closed = true
	stores := make([]Store, 0, len(g.open))
	for _, og := range g.open {
		stores = append(stores, og.store)
	}
	g.open = map[string]*openGraph{}
	g.mu.Unlock()
	var errs []error
	for _, s := range stores {
		errs = append(errs, s.Close())
	}
	return errors.Join(append(errs, g.main.Close())...)
}

// graphKey is the storage name of graph name: hexadecimal, so that it is
// a valid file and schema name whatever the graph's name, and names that
// differ only in case stay apart on case-insensitive file systems.
func graphKey(prefix, salt, name string) string {
	sum := sha256.Sum256([]byte(salt + "\x00" + name))
	return prefix + hex.EncodeToString(sum[:12])
}

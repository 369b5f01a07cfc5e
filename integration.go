package mcpgen

import (
	"context"
	"errors"
	"flag"
	"net"
	"net/http"
	"slices"
	"sync"

	"go.uber.org/zap"
)

// Integration is an opt-in piece of a server binary that [Main] and
// [Flags] set up from flags: an OAuth resource server, Prometheus
// metrics, OpenTelemetry traces, a cluster backend. The packages that
// provide them (oauth, metrics, tracing, pgcluster in this module)
// register one with [RegisterIntegration] when a main imports them, so
// that a binary links, and offers flags for, only what it imports:
//
//	import _ "github.com/mcpgen/mcpgen/metrics" // adds --metrics to Main
//
// Each method is called once, in this order, from one goroutine.
type Integration interface {
	// Flags adds the integration's flags to fs.
	Flags(fs *flag.FlagSet)
	// Configure runs once the flags are parsed, before the server is
	// made: it may change s.Options (add an observer, set the cluster)
	// and register what to close with s.OnClose.
	Configure(ctx context.Context, s *Setup) error
	// Serve runs once the server exists, before it serves: over HTTP it
	// may set s.HTTP.Auth and mount handlers on s.Mux. ctx ends at
	// shutdown; side listeners it starts must stop then.
	Serve(ctx context.Context, s *Setup) error
}

// Setup is what an [Integration] sees of the binary being started.
type Setup struct {
	// Name is the binary's name, e.g. for a trace's service name.
	Name string
	// Logger is the binary's logger.
	Logger *zap.Logger
	// Options are the options the server will be made with, which
	// Configure may change.
	Options *Options
	// Server is the server, set before Serve.
	Server *Server
	// HTTP is the endpoint's options, set before Serve, which Serve may
	// change (Auth, say); nil on stdio.
	HTTP *HTTPOptions
	// Mux is the HTTP mux the endpoint is mounted on, set before Serve,
	// for the integration's own handlers; nil on stdio.
	Mux *http.ServeMux
	// Addr is the address the HTTP listener is bound to (its port, when
	// --http asked for 0), set before Serve; nil on stdio.
	Addr net.Addr
	// Path is the HTTP path of the endpoint (--path), set before Serve;
	// empty on stdio.
	Path string

	closers []func() error
}

// OnClose registers f to run once the server has stopped, after those
// registered later (last in, first out).
func (s *Setup) OnClose(f func() error) { s.closers = append(s.closers, f) }

// AddObserver adds obs to the server's observers (see [CombineObservers]).
func (s *Setup) AddObserver(obs Observer) {
	s.Options.Observer = CombineObservers(s.Options.Observer, obs)
}

func (s *Setup) close() error {
	var errs []error
	for i := len(s.closers) - 1; i >= 0; i-- {
		errs = append(errs, s.closers[i]())
	}
	s.closers = nil
	return errors.Join(errs...)
}

var integrations struct {
	mu   sync.Mutex
	name []string
	make map[string]func() Integration
}

// RegisterIntegration makes newIntegration part of every [Flags] (and so
// of [Main]) of this binary; an integration package calls it from init.
// Flags made later get a fresh instance each. It panics when name is
// registered twice.
func RegisterIntegration(name string, newIntegration func() Integration) {
	integrations.mu.Lock()
	defer integrations.mu.Unlock()
	if integrations.make == nil {
		integrations.make = map[string]func() Integration{}
	}
	if _, dup := integrations.make[name]; dup {
		panic("mcpgen: integration " + name + " registered twice")
	}
	integrations.make[name] = newIntegration
	integrations.name = append(integrations.name, name)
	slices.Sort(integrations.name)
}

// newIntegrations returns one instance of each registered integration,
// in name order.
func newIntegrations() []Integration {
	integrations.mu.Lock()
	defer integrations.mu.Unlock()
	out := make([]Integration, 0, len(integrations.name))
	for _, n := range integrations.name {
		out = append(out, integrations.make[n]())
	}
	return out
}

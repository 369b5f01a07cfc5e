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
	Name    string         // the binary's name, e.g. for a trace's service name
	Logger  *zap.Logger    // the binary's logger
	Options *Options       // Configure: the options the server will be made with
	Server  *Server        // Serve: the server
	HTTP    *HTTPOptions   // Serve: the endpoint's options; nil on stdio
	Mux     *http.ServeMux // Serve: the HTTP mux the endpoint is mounted on; nil on stdio
	Addr    net.Addr       // Serve: the address the HTTP listener is bound to (its port, when --http asked for 0); nil on stdio
	Path    string         // Serve: the HTTP path of the endpoint (--path); empty on stdio

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

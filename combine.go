package mcpgen

import (
	"context"
	"time"
)

// CombineObservers returns one observer that feeds all of obs (nil ones
// are skipped), or nil when there are none, so that the server runs
// without: [Options].Observer takes one, and a main that wants
// Prometheus metrics, traces and an access log at once combines them.
func CombineObservers(obs ...Observer) Observer {
	var m multi
	for _, o := range obs {
		if o == nil {
			continue
		}
		m.all = append(m.all, o)
		if r, ok := o.(RequestObserver); ok {
			m.req = append(m.req, r)
		}
	}
	switch len(m.all) {
	case 0:
		return nil
	case 1:
		return m.all[0]
	}
	return &m
}

type multi struct {
	all []Observer
	req []RequestObserver
}

func (m *multi) Event(name string, tags ...Tag) {
	for _, o := range m.all {
		o.Event(name, tags...)
	}
}

func (m *multi) Timing(name string, d time.Duration, tags ...Tag) {
	for _, o := range m.all {
		o.Timing(name, d, tags...)
	}
}

// StartRequest passes the context through every request observer in turn,
// so that the handler's context carries what each put there (a span).
func (m *multi) StartRequest(ctx context.Context, info *RequestInfo) context.Context {
	for _, o := range m.req {
		ctx = o.StartRequest(ctx, info)
	}
	return ctx
}

// EndRequest ends in reverse order, so that a span ends last.
func (m *multi) EndRequest(ctx context.Context, info *RequestInfo) {
	for i := len(m.req) - 1; i >= 0; i-- {
		m.req[i].EndRequest(ctx, info)
	}
}

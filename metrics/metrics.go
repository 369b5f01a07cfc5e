// Package metrics keeps Prometheus metrics of an MCP server: requests by
// method, component and outcome, their durations, requests in flight,
// listen streams, sessions, tasks and auth refusals. [New] returns an
// [mcpgen.Observer] to set in [mcpgen.Options]; serve its Handler where
// Prometheus scrapes. A main that imports this package gets the --metrics
// ADDR flag (env MCP_METRICS) in [mcpgen.Main], which does both.
package metrics

import (
	"context"
	"net/http"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/mcpgen/mcpgen"
	"github.com/mcpgen/mcpgen/internal/jsonrpc"
)

// Metrics is an [mcpgen.RequestObserver] that keeps Prometheus metrics in its
// own registry (with the Go and process collectors):
//
//	mcp_server_requests_total{method,component,outcome}        counter
//	mcp_server_request_duration_seconds{method,component}      histogram
//	mcp_server_requests_in_flight                               gauge
//	mcp_server_listen_streams                                   gauge (open subscriptions/listen)
//	mcp_server_sessions                                         gauge (open legacy sessions, of watched servers)
//	mcp_server_tasks{state}                                     gauge
//	mcp_server_auth_refusals_total{reason}                      counter
//	mcp_server_limit_refusals_total{limit}                      counter
//	mcp_server_transport_refusals_total{reason}                 counter
//
// outcome is ok, tool_error (isError results), error or cancelled (the
// client gave up first); component is the
// tool, prompt, resource URI or resource template, empty for other
// methods. Methods the server does not know are counted as "unknown", so
// that clients cannot grow the label set.
type Metrics struct {
	reg      *prometheus.Registry
	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec
	inflight prometheus.Gauge
	listen   prometheus.Gauge
	tasks    *prometheus.GaugeVec
	refusals *prometheus.CounterVec
	limited  *prometheus.CounterVec
	refusedT *prometheus.CounterVec

	mu      sync.Mutex
	servers []*mcpgen.Server
}

// New returns metrics in a fresh registry.
func New() *Metrics {
	m := &Metrics{
		reg: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "mcp_server_requests_total", Help: "MCP requests and notifications handled, by method, component and outcome.",
		}, []string{"method", "component", "outcome"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "mcp_server_request_duration_seconds", Help: "Time from decoded request to answer, by method and component.",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30},
		}, []string{"method", "component"}),
		inflight: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "mcp_server_requests_in_flight", Help: "Requests being handled now (open listen streams included).",
		}),
		listen: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "mcp_server_listen_streams", Help: "Open subscriptions/listen streams.",
		}),
		tasks: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "mcp_server_tasks", Help: "Tasks held by the server, by state.",
		}, []string{"state"}),
		refusals: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "mcp_server_auth_refusals_total", Help: "Requests refused by authorization, by reason.",
		}, []string{"reason"}),
		limited: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "mcp_server_limit_refusals_total", Help: "Requests refused by a limit (rate, concurrency, sessions, message_size).",
		}, []string{"limit"}),
		refusedT: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "mcp_server_transport_refusals_total", Help: "Requests and connections the HTTP transport refused, by reason.",
		}, []string{"reason"}),
	}
	m.reg.MustRegister(m.requests, m.duration, m.inflight, m.listen, m.tasks, m.refusals, m.limited, m.refusedT,
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "mcp_server_sessions", Help: "Open legacy (initialize) sessions.",
		}, m.sessions),
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// Watch adds srv to the servers whose open sessions are counted.
func (m *Metrics) Watch(srv *mcpgen.Server) {
	m.mu.Lock()
	m.servers = append(m.servers, srv)
	m.mu.Unlock()
}

func (m *Metrics) sessions() float64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	n := 0
	for _, s := range m.servers {
		n += s.Sessions()
	}
	return float64(n)
}

// Registry is where the metrics live; register your own beside them.
func (m *Metrics) Registry() *prometheus.Registry { return m.reg }

// Handler serves the metrics in the Prometheus exposition formats.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg})
}

// Event counts refusals and task state changes.
func (m *Metrics) Event(name string, tags ...mcpgen.Tag) {
	switch name {
	case mcpgen.EventAuthRefused:
		m.refusals.WithLabelValues(tag(tags, "reason")).Inc()
	case mcpgen.EventLimitRefused:
		m.limited.WithLabelValues(tag(tags, "limit")).Inc()
	case mcpgen.EventTransportRefused:
		m.refusedT.WithLabelValues(tag(tags, "reason")).Inc()
	case mcpgen.EventTaskState:
		if from := tag(tags, "from"); from != "" {
			m.tasks.WithLabelValues(from).Dec()
		}
		if to := tag(tags, "to"); to != "" {
			m.tasks.WithLabelValues(to).Inc()
		}
	}
}

// Timing implements [mcpgen.Observer]; request durations come from EndRequest.
func (*Metrics) Timing(string, time.Duration, ...mcpgen.Tag) {}

// StartRequest counts the request in flight.
func (m *Metrics) StartRequest(ctx context.Context, info *mcpgen.RequestInfo) context.Context {
	m.inflight.Inc()
	if info.Method == "subscriptions/listen" {
		m.listen.Inc()
	}
	return ctx
}

// EndRequest counts the request by outcome and records its duration.
func (m *Metrics) EndRequest(_ context.Context, info *mcpgen.RequestInfo) {
	m.inflight.Dec()
	if info.Method == "subscriptions/listen" {
		m.listen.Dec()
	}
	method := info.Method
	if info.Error != nil && info.Error.Code == jsonrpc.CodeMethodNotFound {
		method = "unknown"
	}
	m.requests.WithLabelValues(method, info.Component, info.Outcome).Inc()
	m.duration.WithLabelValues(method, info.Component).Observe(info.Duration.Seconds())
}

func tag(tags []mcpgen.Tag, key string) string {
	for _, t := range tags {
		if t.Key == key {
			return t.Value
		}
	}
	return ""
}

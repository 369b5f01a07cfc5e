package metrics_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen"
	"github.com/mcpgen/mcpgen/metrics"
)

// TestRefusalCounters: limit and transport refusals are counted by their
// limit and reason (they were observer events no series counted).
func TestRefusalCounters(t *testing.T) {
	m := metrics.New()
	m.Event(mcpgen.EventLimitRefused, mcpgen.Tag{Key: "limit", Value: "message_size"})
	m.Event(mcpgen.EventTransportRefused, mcpgen.Tag{Key: "reason", Value: "max_conns_per_ip"})
	m.Event(mcpgen.EventTransportRefused, mcpgen.Tag{Key: "reason", Value: "max_conns_per_ip"})
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	for _, want := range []string{
		`mcp_server_limit_refusals_total{limit="message_size"} 1`,
		`mcp_server_transport_refusals_total{reason="max_conns_per_ip"} 2`,
	} {
		if !strings.Contains(rec.Body.String(), want) {
			t.Errorf("missing %s", want)
		}
	}
}

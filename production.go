package mcpgen

import (
	"context"

	"go.opentelemetry.io/otel/trace"
	"go.uber.org/zap"

	"github.com/mcpgen/mcpgen/internal/auth"
	"github.com/mcpgen/mcpgen/internal/cluster"
	"github.com/mcpgen/mcpgen/internal/cluster/pgcluster"
	"github.com/mcpgen/mcpgen/internal/telemetry"
)

// Production pieces for servers that mount [HTTPHandler] themselves; [Main]
// and [Flags] set them up from flags (--auth-issuer, --auth-audience,
// --metrics, --cluster, the OTEL_* environment). docs/operations.md and
// docs/deployment.md describe them.

type (
	// OAuthConfig configures an OAuth 2.1 resource server as the MCP
	// authorization specification asks: the authorization server's issuer,
	// the endpoint's canonical URI (the audience tokens must carry), the
	// scopes it publishes, and optional token introspection.
	OAuthConfig = auth.Config
	// OAuthIntrospection configures RFC 7662 introspection of opaque tokens.
	OAuthIntrospection = auth.Introspection
	// ResourceServer validates bearer tokens for one endpoint and serves its
	// Protected Resource Metadata (RFC 9728). Set it as HTTPOptions.OAuth
	// and mount MetadataHandler at each of MetadataPaths on the same host.
	ResourceServer = auth.ResourceServer
	// Metrics keeps Prometheus metrics of requests, sessions, listen
	// streams, tasks and auth refusals in its own registry; use it as an
	// [Observer], call Watch(srv) for the session gauge, and serve Handler.
	Metrics = telemetry.Metrics
	// ClusterBackend is the state that the replicas of one deployment share
	// ([Options].Cluster): legacy sessions, notifications, tasks and signing
	// keys. The engines live in this module (PostgreSQL today, through
	// [OpenCluster]); internal/cluster states the contract a new one meets.
	ClusterBackend = cluster.Backend
)

// OpenCluster connects to the PostgreSQL database at url (an ordinary
// postgres:// URL; its optional schema parameter names the schema that
// holds the tables, created on first start) and returns the backend to set
// as [Options].Cluster. It fails when the database cannot be reached; the
// error names the URL without its password.
func OpenCluster(ctx context.Context, url string, log *zap.Logger) (ClusterBackend, error) {
	b, err := pgcluster.Open(ctx, url, log)
	if err != nil {
		return nil, err
	}
	return b, nil
}

// NewResourceServer returns the resource server cfg describes; it fetches
// the authorization server's metadata lazily, on first use.
func NewResourceServer(cfg OAuthConfig) (*ResourceServer, error) { return auth.New(cfg) }

// NewMetrics returns a Prometheus [Metrics] observer.
func NewMetrics() *Metrics { return telemetry.NewMetrics() }

// NewTracer returns an [Observer] that makes one OpenTelemetry span per
// request (MCP semantic conventions), parented on the W3C trace context of
// params._meta or else the HTTP headers; the handler's context carries it.
func NewTracer(tp trace.TracerProvider) Observer { return telemetry.NewTracer(tp) }

// NewAccessLog returns an [Observer] that logs one debug line per request
// (method, component, outcome, duration, subject), or nil when log does not
// log at debug level.
func NewAccessLog(log *zap.Logger) Observer {
	if a := telemetry.NewAccessLog(log); a != nil {
		return a
	}
	return nil
}

// CombineObservers puts several observers (nil ones are skipped) on one
// server through [Options].Observer.
func CombineObservers(obs ...Observer) Observer { return telemetry.Combine(obs...) }

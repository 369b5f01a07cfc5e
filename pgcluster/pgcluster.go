// Package pgcluster lets the replicas of one deployment share their state
// through PostgreSQL: legacy sessions, tasks, signing keys, and
// notifications (over LISTEN/NOTIFY). With it, N identical replicas serve
// behind any load balancer, round robin and without stickiness.
//
// A main that imports this package gets the --cluster flag (env
// MCP_CLUSTER_URL) in [mcpgen.Main] and [mcpgen.Flags]:
//
//	import _ "github.com/mcpgen/mcpgen/pgcluster"
//
// A server assembled by hand sets the backend itself:
//
//	b, err := pgcluster.Open(ctx, "postgres://mcp@db:5432/mcp?schema=notes", log)
//	...
//	defer b.Close() // after srv.Close
//	srv := notes.New(store, mcpgen.Options{Cluster: b})
//
// The URL is an ordinary PostgreSQL URL with one optional extra query
// parameter, schema, naming the schema of the tables (mcp_sessions,
// mcp_tasks, mcp_signing_keys, mcp_messages, mcp_subscribers); without it
// the first schema of search_path, else "mcpgen". It is created and
// migrated on first start. docs/deployment.md describes a deployment.
package pgcluster

import (
	"context"
	"flag"
	"fmt"
	"os"
	"time"

	"go.uber.org/zap"

	"github.com/mcpgen/mcpgen"
	"github.com/mcpgen/mcpgen/internal/cluster/pgcluster"
	"github.com/mcpgen/mcpgen/pgdsn"
)

// Open connects to the PostgreSQL database at url, migrates its tables and
// returns the backend to set as [mcpgen.Options].Cluster. It fails when
// the database cannot be reached, with an error that wraps
// [mcpgen.ErrUnavailable] and names the URL without its password. While
// the server runs, an outage answers requests that need the shared state
// with a retryable error, and the backend reconnects by itself.
func Open(ctx context.Context, url string, log *zap.Logger) (mcpgen.ClusterBackend, error) {
	b, err := pgcluster.Open(ctx, url, log)
	if err != nil {
		return nil, err
	}
	return b, nil
}

// Redact returns url (a postgres:// URL or a key=value connection string)
// with its passwords hidden, for messages.
func Redact(url string) string { return pgcluster.Redact(url) }

func init() {
	mcpgen.RegisterIntegration("pgcluster", func() mcpgen.Integration { return new(integration) })
}

// integration is --cluster in mcpgen.Main.
type integration struct{ url string }

func (in *integration) Flags(fs *flag.FlagSet) {
	fs.StringVar(&in.url, "cluster", os.Getenv("MCP_CLUSTER_URL"), "run as one replica of many: share sessions, tasks, notifications and signing keys through the PostgreSQL database at `URL` (postgres://user@host/db?schema=name; env MCP_CLUSTER_URL)")
}

func (in *integration) Configure(ctx context.Context, s *mcpgen.Setup) error {
	if in.url == "" {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	b, err := pgcluster.Open(ctx, in.url, s.Logger)
	if err != nil {
		return fmt.Errorf("--cluster: %w", err)
	}
	s.Options.Cluster = b
	s.OnClose(b.Close)
	s.Logger.Info("cluster backend ready", zap.String("url", Redact(in.url)), zap.String("replica", b.ID()))
	return nil
}

func (*integration) Serve(context.Context, *mcpgen.Setup) error { return nil }

// Scrub returns msg (an error message of the PostgreSQL driver, say) with
// every secret of url (its password, in URL or key=value form) replaced,
// for messages that quote what they were given.
func Scrub(msg, url string) string { return pgdsn.Scrub(msg, url) }

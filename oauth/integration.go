package oauth

import (
	"context"
	"errors"
	"flag"
	"os"

	"go.uber.org/zap"

	"github.com/mcpgen/mcpgen"
)

func init() {
	mcpgen.RegisterIntegration("oauth", func() mcpgen.Integration { return new(integration) })
}

// integration is --auth-issuer, --auth-audience and --auth-client-id in
// mcpgen.Main: the HTTP endpoint becomes a resource server.
type integration struct{ issuer, audience, clientID string }

func (in *integration) Flags(fs *flag.FlagSet) {
	fs.StringVar(&in.issuer, "auth-issuer", os.Getenv("MCP_AUTH_ISSUER"), "require OAuth access tokens from the authorization server with this issuer `URL` (env MCP_AUTH_ISSUER; HTTP only)")
	fs.StringVar(&in.audience, "auth-audience", os.Getenv("MCP_AUTH_AUDIENCE"), "canonical `URI` of the HTTP endpoint, the audience tokens must carry (env MCP_AUTH_AUDIENCE)")
	fs.StringVar(&in.clientID, "auth-client-id", os.Getenv("MCP_AUTH_CLIENT_ID"), "client `id` for token introspection of opaque tokens (env MCP_AUTH_CLIENT_ID; secret in env MCP_AUTH_CLIENT_SECRET)")
}

func (in *integration) Configure(context.Context, *mcpgen.Setup) error {
	switch {
	case in.issuer == "":
		return nil
	case in.audience == "":
		return mcpgen.UsageError(errors.New("--auth-issuer needs --auth-audience, the endpoint's public URL (e.g. https://mcp.example.com/mcp)"))
	}
	return nil
}

func (in *integration) Serve(_ context.Context, s *mcpgen.Setup) error {
	if in.issuer == "" {
		return nil
	}
	if s.HTTP == nil {
		return mcpgen.UsageError(errors.New("--auth-issuer applies to --http only (stdio takes its credentials from the environment)"))
	}
	cfg := Config{Issuer: in.issuer, Audience: in.audience, ScopesSupported: s.Server.Scopes(), Logger: s.Logger}
	if in.clientID != "" {
		cfg.Introspection = &Introspection{ClientID: in.clientID, ClientSecret: os.Getenv("MCP_AUTH_CLIENT_SECRET")}
	}
	rs, err := New(cfg)
	if err != nil {
		return mcpgen.UsageError(err)
	}
	s.HTTP.Auth = rs
	for _, p := range rs.MetadataPaths() {
		s.Mux.Handle(p, rs.MetadataHandler())
	}
	s.Logger.Info("OAuth resource server", zap.String("issuer", in.issuer), zap.String("resource", rs.Resource()), zap.String("metadata", rs.MetadataURL()))
	return nil
}

package oauth

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"os"

	"go.uber.org/zap"

	"github.com/mcpgen/mcpgen"
	"github.com/mcpgen/mcpgen/oauth/devissuer"
)

func init() {
	mcpgen.RegisterIntegration("oauth", func() mcpgen.Integration { return new(integration) })
}

// integration is --auth-issuer, --auth-audience and --auth-client-id in
// mcpgen.Main: the HTTP endpoint becomes a resource server; or
// --dev-auth: the same, with a development issuer of its own.
type integration struct {
	issuer, audience, clientID string
	dev                        bool
}

func (in *integration) Flags(fs *flag.FlagSet) {
	fs.StringVar(&in.issuer, "auth-issuer", os.Getenv("MCP_AUTH_ISSUER"), "require OAuth access tokens from the authorization server with this issuer `URL` (env MCP_AUTH_ISSUER; HTTP only)")
	fs.StringVar(&in.audience, "auth-audience", os.Getenv("MCP_AUTH_AUDIENCE"), "canonical `URI` of the HTTP endpoint, the audience tokens must carry (env MCP_AUTH_AUDIENCE)")
	fs.StringVar(&in.clientID, "auth-client-id", os.Getenv("MCP_AUTH_CLIENT_ID"), "client `id` for token introspection of opaque tokens (env MCP_AUTH_CLIENT_ID; secret in env MCP_AUTH_CLIENT_SECRET)")
	fs.BoolVar(&in.dev, "dev-auth", false, "DEVELOPMENT ONLY: require OAuth tokens from a built-in issuer that grants any scope to anyone on this machine (--http on loopback only; mint tokens with `mcpgen dev-token`)")
}

func (in *integration) Configure(context.Context, *mcpgen.Setup) error {
	switch {
	case in.dev && in.issuer != "":
		return mcpgen.UsageError(errors.New("--dev-auth runs its own issuer: drop --auth-issuer (or --dev-auth)"))
	case in.dev:
		return nil
	case in.issuer == "":
		return nil
	case in.audience == "":
		return mcpgen.UsageError(errors.New("--auth-issuer needs --auth-audience, the endpoint's public URL (e.g. https://mcp.example.com/mcp)"))
	}
	return nil
}

func (in *integration) Serve(_ context.Context, s *mcpgen.Setup) error {
	if in.dev {
		return in.serveDev(s)
	}
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

// serveDev is --dev-auth: a development issuer at /dev-auth on the
// endpoint's own loopback listener, and the endpoint its resource server.
func (in *integration) serveDev(s *mcpgen.Setup) error {
	if s.HTTP == nil {
		return mcpgen.UsageError(errors.New("--dev-auth applies to --http only"))
	}
	tcp, _ := s.Addr.(*net.TCPAddr)
	if tcp == nil || !tcp.IP.IsLoopback() {
		return mcpgen.UsageError(fmt.Errorf("--dev-auth: %s is not a loopback address: the development issuer grants any scope to whoever asks, so it serves this machine only (use --http 127.0.0.1:PORT)", s.Addr))
	}
	origin := "http://" + tcp.String()
	audience := origin + s.Path
	dev, err := devissuer.New(devissuer.Config{URL: origin + "/dev-auth", Audience: audience})
	if err != nil {
		return mcpgen.UsageError(err)
	}
	rs, err := New(Config{Issuer: dev.URL(), Audience: audience, ScopesSupported: s.Server.Scopes(), Logger: s.Logger})
	if err != nil {
		return mcpgen.UsageError(err)
	}
	s.HTTP.Auth = rs
	for _, p := range rs.MetadataPaths() {
		s.Mux.Handle(p, rs.MetadataHandler())
	}
	dev.Mount(s.Mux)
	s.Logger.Warn("--dev-auth: DEVELOPMENT ONLY, never in production: a built-in OAuth issuer grants any scope to anyone on this machine",
		zap.String("issuer", dev.URL()), zap.String("token_endpoint", dev.TokenURL()), zap.String("resource", audience),
		zap.Strings("scopes", s.Server.Scopes()), zap.String("mint", "mcpgen dev-token -url "+audience+" -scope SCOPE"))
	return nil
}

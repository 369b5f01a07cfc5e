package oauthclient

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
)

// Token endpoint authentication methods (RFC 7591 section 2, RFC 7523).
const (
	AuthMethodBasic         = "client_secret_basic"
	AuthMethodPost          = "client_secret_post"
	AuthMethodNone          = "none"
	AuthMethodPrivateKeyJWT = "private_key_jwt"
)

// client is a client identity at one authorization server.
type client struct {
	id, secret string
	method     string // token endpoint authentication method
	registered bool   // obtained by dynamic registration (bound to the issuer that issued it)
}

// clientFor returns the client identity to use with the authorization
// server md, in the order MCP recommends: pre-registered credentials,
// a client ID metadata document when the server supports them, dynamic
// registration (RFC 7591). Dynamic registrations are kept per issuer (see
// registrationKey) and never shown to another authorization server.
func (a *Auth) clientFor(ctx context.Context, md *serverMetadata) (*client, error) {
	if a.cfg.ClientID != "" {
		c := &client{id: a.cfg.ClientID, secret: a.cfg.ClientSecret}
		switch {
		case a.cfg.PrivateKey != nil:
			c.method = AuthMethodPrivateKeyJWT
		default:
			c.method = secretMethod(c.secret, md.TokenEndpointAuthMethodsSupported)
		}
		return c, nil
	}
	if a.cfg.Grant == GrantJWTBearer {
		return &client{method: AuthMethodNone}, nil // the assertion authorizes
	}
	if a.cfg.ClientMetadataURL != "" && md.ClientIDMetadataDocumentSupported {
		return &client{id: a.cfg.ClientMetadataURL, method: AuthMethodNone}, nil
	}
	a.mu.Lock()
	c := a.registered[registrationKey(md)]
	a.mu.Unlock()
	if c != nil {
		return c, nil
	}
	if md.RegistrationEndpoint == "" {
		return nil, fmt.Errorf("%w: authorization server %s supports neither client ID metadata documents (or none is configured) nor dynamic registration, and no client ID is configured", ErrNoClient, md.Issuer)
	}
	c, err := a.register(ctx, md)
	if err != nil {
		return nil, err
	}
	a.mu.Lock()
	a.registered[registrationKey(md)] = c
	a.mu.Unlock()
	return c, nil
}

// registrationKey is what a dynamic registration at md is kept by: its
// issuer, or for a 2025-03-26 server without metadata, which has none,
// its token endpoint, so that one such server's client is never shown
// to another.
func registrationKey(md *serverMetadata) string {
	if md.fallback {
		return "no metadata: " + md.TokenEndpoint
	}
	return md.Issuer
}

// registration is the client metadata sent to a registration endpoint
// (RFC 7591 section 2, with OpenID Connect's application_type).
type registration struct {
	ClientName              string   `json:"client_name"`
	RedirectURIs            []string `json:"redirect_uris"`
	GrantTypes              []string `json:"grant_types"`
	ResponseTypes           []string `json:"response_types"`
	TokenEndpointAuthMethod string   `json:"token_endpoint_auth_method"`
	ApplicationType         string   `json:"application_type"`
	Scope                   string   `json:"scope,omitempty"`
}

// registered is the part of a registration response the client keeps.
type registered struct {
	ClientID                string `json:"client_id"`
	ClientSecret            string `json:"client_secret"`
	TokenEndpointAuthMethod string `json:"token_endpoint_auth_method"`
}

// register performs dynamic client registration with md.
func (a *Auth) register(ctx context.Context, md *serverMetadata) (*client, error) {
	method := AuthMethodNone
	switch methods := md.TokenEndpointAuthMethodsSupported; {
	case supports(methods, AuthMethodNone, true):
	case slices.Contains(methods, AuthMethodBasic):
		method = AuthMethodBasic
	case slices.Contains(methods, AuthMethodPost):
		method = AuthMethodPost
	}
	grants := []string{"authorization_code"}
	if !a.cfg.NoRefresh {
		grants = append(grants, "refresh_token")
	}
	body, _ := json.Marshal(registration{
		ClientName:              a.cfg.ClientName,
		RedirectURIs:            []string{a.cfg.RedirectURL},
		GrantTypes:              grants,
		ResponseTypes:           []string{"code"},
		TokenEndpointAuthMethod: method,
		ApplicationType:         applicationType(a.cfg.RedirectURL),
	})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, md.RegistrationEndpoint, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	resp, err := a.hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("client registration: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusCreated && resp.StatusCode != http.StatusOK {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		return nil, fmt.Errorf("client registration at %s: %s: %s", md.RegistrationEndpoint, resp.Status, bytes.TrimSpace(msg))
	}
	var r registered
	if err := decodeLimited(resp.Body, "client registration", &r); err != nil {
		return nil, err
	}
	if r.ClientID == "" {
		return nil, fmt.Errorf("client registration at %s: no client_id in the answer", md.RegistrationEndpoint)
	}
	c := &client{id: r.ClientID, secret: r.ClientSecret, method: method, registered: true}
	if r.TokenEndpointAuthMethod != "" {
		c.method = r.TokenEndpointAuthMethod
	} else {
		c.method = secretMethod(c.secret, md.TokenEndpointAuthMethodsSupported)
	}
	return c, nil
}

// secretMethod picks how a client with secret (or none) authenticates at
// a token endpoint that supports methods: client_secret_basic, the default
// of RFC 7591, unless the server lists only client_secret_post.
func secretMethod(secret string, methods []string) string {
	switch {
	case secret == "":
		return AuthMethodNone
	case supports(methods, AuthMethodBasic, true):
		return AuthMethodBasic
	case slices.Contains(methods, AuthMethodPost):
		return AuthMethodPost
	case slices.Contains(methods, AuthMethodNone):
		return AuthMethodNone // the server takes no secret: do not send it
	}
	return AuthMethodBasic
}

// applicationType is "native" for a redirect to the loopback interface
// (desktop apps, CLIs), "web" otherwise, as MCP asks of a registration.
func applicationType(redirect string) string {
	u, err := url.Parse(redirect)
	if err != nil {
		return "native"
	}
	if u.Scheme != "http" && u.Scheme != "https" || isLoopback(u.Hostname()) {
		return "native"
	}
	return "web"
}

package oauthclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
)

// maxDocument bounds every metadata document and registration answer the
// client reads; a larger one is refused, not truncated.
const maxDocument = 256 << 10

// challenge is what a Bearer or DPoP challenge in WWW-Authenticate says
// (RFC 6750 section 3, RFC 9728 section 5.1, RFC 9449 section 7.1).
type challenge struct {
	resourceMetadata string
	scope            []string
	err              string
}

// parseChallenge reads the Bearer and DPoP challenges out of WWW-Authenticate header
// values, which may hold several challenges of several schemes. Parameters
// are token=token or token=quoted-string.
func parseChallenge(values []string) (c challenge, found bool) {
	for _, v := range values {
		s, scheme := v, ""
		for {
			s = strings.TrimLeft(s, " \t,")
			if s == "" {
				break
			}
			i := strings.IndexAny(s, " \t=,")
			tok := s
			if i >= 0 {
				tok, s = s[:i], s[i:]
			} else {
				s = ""
			}
			rest := strings.TrimLeft(s, " \t")
			if !strings.HasPrefix(rest, "=") {
				scheme = tok // a new challenge begins
				found = found || isTokenScheme(scheme)
				s = rest
				continue
			}
			rest = strings.TrimLeft(rest[1:], " \t")
			var val string
			val, s = paramValue(rest)
			if !isTokenScheme(scheme) {
				continue
			}
			switch strings.ToLower(tok) {
			case "resource_metadata":
				c.resourceMetadata = val
			case "scope":
				c.scope = strings.Fields(val)
			case "error":
				c.err = val
			}
		}
	}
	return c, found
}

// isTokenScheme reports whether scheme is one access tokens are sent
// with: Bearer (RFC 6750) or DPoP (RFC 9449).
func isTokenScheme(scheme string) bool {
	return strings.EqualFold(scheme, "bearer") || strings.EqualFold(scheme, "dpop")
}

// paramValue splits a token or quoted-string off the front of s.
func paramValue(s string) (val, rest string) {
	if !strings.HasPrefix(s, `"`) {
		i := strings.IndexAny(s, ", \t")
		if i < 0 {
			return s, ""
		}
		return s[:i], s[i:]
	}
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			if i+1 < len(s) {
				i++
				b.WriteByte(s[i])
			}
		case '"':
			return b.String(), s[i+1:]
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String(), "" // unterminated: take what there is
}

// resourceMetadata is an OAuth 2.0 Protected Resource Metadata document
// (RFC 9728 section 2), the fields a client uses.
type resourceMetadata struct {
	Resource             string   `json:"resource"`
	AuthorizationServers []string `json:"authorization_servers"`
	ScopesSupported      []string `json:"scopes_supported"`
}

// serverMetadata is an OAuth 2.0 Authorization Server Metadata document
// (RFC 8414 section 2, or OpenID Connect discovery), the fields a client
// uses.
type serverMetadata struct {
	Issuer                                     string   `json:"issuer"`
	AuthorizationEndpoint                      string   `json:"authorization_endpoint"`
	TokenEndpoint                              string   `json:"token_endpoint"`
	RegistrationEndpoint                       string   `json:"registration_endpoint"`
	ScopesSupported                            []string `json:"scopes_supported"`
	GrantTypesSupported                        []string `json:"grant_types_supported"`
	CodeChallengeMethodsSupported              []string `json:"code_challenge_methods_supported"`
	TokenEndpointAuthMethodsSupported          []string `json:"token_endpoint_auth_methods_supported"`
	TokenEndpointAuthSigningAlgValuesSupported []string `json:"token_endpoint_auth_signing_alg_values_supported"`
	ClientIDMetadataDocumentSupported          bool     `json:"client_id_metadata_document_supported"`
	IssParameterSupported                      bool     `json:"authorization_response_iss_parameter_supported"`
	DPoPSigningAlgValuesSupported              []string `json:"dpop_signing_alg_values_supported"`

	// fallback is set for the 2025-03-26 default endpoints, used when an
	// authorization server publishes no metadata at all.
	fallback bool
}

// errNotFound is a metadata location that answered with anything but 200.
var errNotFound = errors.New("not found")

// getJSON fetches a JSON document of at most maxDocument bytes. Any status
// but 200 is errNotFound (wrapped with the status).
func (a *Auth) getJSON(ctx context.Context, u string, v any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := a.hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxDocument))
		return fmt.Errorf("GET %s: %s: %w", u, resp.Status, errNotFound)
	}
	return decodeLimited(resp.Body, u, v)
}

// decodeLimited decodes one JSON document of at most maxDocument bytes.
func decodeLimited(r io.Reader, what string, v any) error {
	b, err := io.ReadAll(io.LimitReader(r, maxDocument+1))
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	if len(b) > maxDocument {
		return fmt.Errorf("%s: document larger than %d bytes", what, maxDocument)
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	return nil
}

// resourceMetadataURLs are where the metadata of the protected resource
// at server may be, in the order MCP asks for (RFC 9728 section 3.1): the
// URL from the challenge if there is one, then the path-suffixed and the
// root well-known locations.
func resourceMetadataURLs(server *url.URL, hint string) []string {
	var out []string
	if h, err := url.Parse(hint); err == nil && hint != "" && (h.Scheme == "https" || h.Scheme == "http") && h.Host != "" {
		out = append(out, h.String())
	}
	origin := server.Scheme + "://" + server.Host
	if p := strings.TrimSuffix(server.EscapedPath(), "/"); p != "" {
		out = append(out, origin+"/.well-known/oauth-protected-resource"+p)
	}
	return append(out, origin+"/.well-known/oauth-protected-resource")
}

// discoverResource fetches the protected resource metadata of server and
// checks that it describes server. It returns errNotFound when no location
// has a document (a server of the 2025-03-26 revision).
func (a *Auth) discoverResource(ctx context.Context, server *url.URL, hint string) (*resourceMetadata, error) {
	var last error
	for _, u := range resourceMetadataURLs(server, hint) {
		var prm resourceMetadata
		err := a.getJSON(ctx, u, &prm)
		if errors.Is(err, errNotFound) {
			last = err
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("protected resource metadata: %w", err)
		}
		if err := checkResource(server, prm.Resource); err != nil {
			return nil, err
		}
		if len(prm.AuthorizationServers) == 0 {
			return nil, fmt.Errorf("protected resource metadata at %s names no authorization server", u)
		}
		return &prm, nil
	}
	return nil, fmt.Errorf("protected resource metadata: %w", last)
}

// checkResource refuses metadata whose resource is not the server the
// client talks to: same scheme and host, and a path that is the server's
// path or a parent of it on a segment boundary (the resource of root
// metadata is the origin).
func checkResource(server *url.URL, resource string) error {
	r, err := url.Parse(resource)
	if err != nil || resource == "" || r.Fragment != "" {
		return fmt.Errorf("%w: resource %q is not an absolute URI", ErrResourceMismatch, resource)
	}
	if !strings.EqualFold(r.Scheme, server.Scheme) || !strings.EqualFold(r.Host, server.Host) {
		return fmt.Errorf("%w: metadata is for %s, not %s", ErrResourceMismatch, resource, server.Redacted())
	}
	rp, sp := strings.TrimSuffix(r.EscapedPath(), "/"), strings.TrimSuffix(server.EscapedPath(), "/")
	if rp != sp && !strings.HasPrefix(sp, rp+"/") {
		return fmt.Errorf("%w: metadata is for %s, not %s", ErrResourceMismatch, resource, server.Redacted())
	}
	return nil
}

// serverMetadataURLs are the well-known locations of an issuer's metadata
// in the order MCP asks for: RFC 8414 path insertion, OpenID Connect path
// insertion, OpenID Connect path appending (the last only for issuers with
// a path).
func serverMetadataURLs(issuer *url.URL) []string {
	origin := issuer.Scheme + "://" + issuer.Host
	p := strings.TrimSuffix(issuer.EscapedPath(), "/")
	out := []string{
		origin + "/.well-known/oauth-authorization-server" + p,
		origin + "/.well-known/openid-configuration" + p,
	}
	if p != "" {
		out = append(out, origin+p+"/.well-known/openid-configuration")
	}
	return out
}

// discoverServer fetches the metadata of the authorization server issuer.
// A document whose issuer is not identical to issuer is not used (RFC 8414
// section 3.3): ErrIssuerMismatch when no location has a good one. It
// returns errNotFound when no location has a document.
func (a *Auth) discoverServer(ctx context.Context, issuer string) (*serverMetadata, error) {
	iu, err := url.Parse(issuer)
	if err != nil || (iu.Scheme != "https" && iu.Scheme != "http") || iu.Host == "" || iu.RawQuery != "" || iu.Fragment != "" {
		return nil, fmt.Errorf("authorization server %q is not an http(s) URL without query or fragment", issuer)
	}
	var mismatch, last error
	for _, u := range serverMetadataURLs(iu) {
		var md serverMetadata
		err := a.getJSON(ctx, u, &md)
		if errors.Is(err, errNotFound) {
			last = err
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("authorization server metadata: %w", err)
		}
		if md.Issuer != issuer {
			mismatch = fmt.Errorf("%w: %s states issuer %q, fetched for %q", ErrIssuerMismatch, u, md.Issuer, issuer)
			continue
		}
		if md.AuthorizationEndpoint == "" && md.TokenEndpoint == "" {
			return nil, fmt.Errorf("authorization server metadata at %s names no endpoints", u)
		}
		for _, e := range []string{md.AuthorizationEndpoint, md.TokenEndpoint, md.RegistrationEndpoint} {
			if err := checkEndpoint(e); err != nil {
				return nil, fmt.Errorf("authorization server metadata at %s: %w", u, err)
			}
		}
		return &md, nil
	}
	if mismatch != nil {
		return nil, mismatch
	}
	return nil, fmt.Errorf("authorization server metadata for %s: %w", issuer, last)
}

// checkEndpoint refuses an endpoint that credentials would travel to in
// the clear: it must be https, or http on the loopback interface.
func checkEndpoint(e string) error {
	if e == "" {
		return nil
	}
	u, err := url.Parse(e)
	if err != nil || u.Host == "" {
		return fmt.Errorf("endpoint %q is not an absolute URL", e)
	}
	switch {
	case u.Scheme == "https":
		return nil
	case u.Scheme == "http" && isLoopback(u.Hostname()):
		return nil
	}
	return fmt.Errorf("endpoint %q is neither https nor on the loopback interface", e)
}

// isLoopback reports whether host is localhost or a loopback address.
func isLoopback(host string) bool {
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// fallbackMetadata is what the 2025-03-26 revision has a client assume of
// a server without metadata: the default endpoints at the server's origin.
func fallbackMetadata(origin string) *serverMetadata {
	return &serverMetadata{
		AuthorizationEndpoint: origin + "/authorize",
		TokenEndpoint:         origin + "/token",
		RegistrationEndpoint:  origin + "/register",
		fallback:              true,
	}
}

// supports reports whether list, as metadata states it, allows v; an
// absent list allows def.
func supports(list []string, v string, def bool) bool {
	if len(list) == 0 {
		return def
	}
	return slices.Contains(list, v)
}

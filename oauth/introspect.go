package oauth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/mcpgen/mcpgen"
)

// introspection is the part of an RFC 7662 response used here.
type introspection struct {
	Active   bool            `json:"active"`
	Scope    json.RawMessage `json:"scope"`
	ClientID string          `json:"client_id"`
	Subject  string          `json:"sub"`
	Audience json.RawMessage `json:"aud"`
	Issuer   string          `json:"iss"`
	Expiry   int64           `json:"exp"`
	NotBef   int64           `json:"nbf"`
}

// introspect asks the authorization server whether an opaque token is
// active, and for whom and what.
func (rs *ResourceServer) introspect(ctx context.Context, token string) (mcpgen.Principal, string, error) {
	ic := rs.cfg.Introspection
	endpoint := ic.Endpoint
	if endpoint == "" {
		m, err := rs.issuer.metadata(ctx)
		if err != nil {
			return mcpgen.Principal{}, "unavailable", err
		}
		if endpoint = m.IntrospectionEndpoint; endpoint == "" {
			return mcpgen.Principal{}, "unavailable", fmt.Errorf("%w: no introspection_endpoint in its metadata", errUnavailable)
		}
	}
	form := url.Values{"token": {token}, "token_type_hint": {"access_token"}}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, strings.NewReader(form.Encode()))
	if err != nil {
		return mcpgen.Principal{}, "unavailable", err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	req.SetBasicAuth(url.QueryEscape(ic.ClientID), url.QueryEscape(ic.ClientSecret))
	resp, err := rs.cfg.HTTPClient.Do(req)
	if err != nil {
		return mcpgen.Principal{}, "unavailable", fmt.Errorf("%w: introspection: %w", errUnavailable, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return mcpgen.Principal{}, "unavailable", fmt.Errorf("%w: introspection: %s", errUnavailable, resp.Status)
	}
	var r introspection
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&r); err != nil {
		return mcpgen.Principal{}, "unavailable", fmt.Errorf("%w: introspection: decode: %w", errUnavailable, err)
	}
	now := time.Now()
	switch {
	case !r.Active:
		return mcpgen.Principal{}, "inactive", errors.New("introspection: not active")
	case r.Issuer != "" && r.Issuer != rs.cfg.Issuer:
		return mcpgen.Principal{}, "issuer", fmt.Errorf("introspection: issuer %q", r.Issuer)
	case !slices.ContainsFunc(audiences(r.Audience), func(a string) bool { return canonical(a) == rs.resource }):
		// The token must have been issued for this resource (RFC 8707);
		// a response that names no audience does not say so.
		return mcpgen.Principal{}, "audience", fmt.Errorf("introspection: audience %s", r.Audience)
	case r.Expiry != 0 && now.After(time.Unix(r.Expiry, 0).Add(rs.cfg.Leeway)):
		return mcpgen.Principal{}, "expired", errors.New("introspection: expired")
	case r.NotBef != 0 && now.Add(rs.cfg.Leeway).Before(time.Unix(r.NotBef, 0)):
		return mcpgen.Principal{}, "not_yet_valid", errors.New("introspection: not valid yet")
	}
	p := mcpgen.Principal{Subject: r.Subject, ClientID: r.ClientID, Scopes: scopes(r.Scope, nil)}
	if p.Subject == "" {
		// A client acting for itself (client credentials) is known by its
		// client_id; a token with neither names nobody.
		if p.ClientID == "" {
			return mcpgen.Principal{}, "no_subject", errors.New("introspection: neither sub nor client_id")
		}
		p.Subject = p.ClientID
	}
	return p, "", nil
}

// audiences reads an aud member: one string or an array.
func audiences(raw json.RawMessage) []string {
	var one string
	if json.Unmarshal(raw, &one) == nil {
		return []string{one}
	}
	var many []string
	_ = json.Unmarshal(raw, &many)
	return many
}

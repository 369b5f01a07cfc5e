package oauth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/go-jose/go-jose/v4/jwt"

	"github.com/mcpgen/mcpgen"
)

// accessClaims are the RFC 9068 claims beyond the registered ones.
type accessClaims struct {
	Scope    json.RawMessage `json:"scope"` // a space-separated string, or (some servers) an array
	Scp      []string        `json:"scp"`
	ClientID string          `json:"client_id"`
	Azp      string          `json:"azp"`
}

// verifyJWT checks a JWT access token: an accepted algorithm, a signature
// by one of the issuer's keys, then issuer, audience, expiry, not-before
// and a subject.
func (rs *ResourceServer) verifyJWT(ctx context.Context, token string) (mcpgen.Principal, string, error) {
	tok, err := jwt.ParseSigned(token, rs.cfg.Algorithms)
	if err != nil {
		if strings.Contains(err.Error(), "algorithm") {
			return mcpgen.Principal{}, "algorithm", err
		}
		return mcpgen.Principal{}, "malformed", err
	}
	if len(tok.Headers) != 1 {
		return mcpgen.Principal{}, "malformed", errors.New("want exactly one signature")
	}
	kid := tok.Headers[0].KeyID
	keys, err := rs.issuer.key(ctx, kid)
	if err != nil {
		return mcpgen.Principal{}, "unavailable", err
	}
	if len(keys) == 0 {
		return mcpgen.Principal{}, "unknown_key", fmt.Errorf("no key %q at the issuer", kid)
	}
	var (
		std   jwt.Claims
		extra accessClaims
	)
	verified := false
	for _, k := range keys {
		if k.Use != "" && k.Use != "sig" {
			continue
		}
		if k.Algorithm != "" && k.Algorithm != tok.Headers[0].Algorithm {
			continue
		}
		if err = tok.Claims(k.Key, &std, &extra); err == nil {
			verified = true
			break
		}
	}
	if !verified {
		return mcpgen.Principal{}, "signature", fmt.Errorf("signature: %v", err)
	}
	if std.Issuer != rs.cfg.Issuer {
		return mcpgen.Principal{}, "issuer", fmt.Errorf("issuer %q", std.Issuer)
	}
	if !slices.ContainsFunc(std.Audience, func(a string) bool { return canonical(a) == rs.resource }) {
		return mcpgen.Principal{}, "audience", fmt.Errorf("audience %q", []string(std.Audience))
	}
	if std.Expiry == nil {
		return mcpgen.Principal{}, "malformed", errors.New("no exp claim")
	}
	switch err := std.ValidateWithLeeway(jwt.Expected{Time: time.Now()}, rs.cfg.Leeway); {
	case errors.Is(err, jwt.ErrExpired):
		return mcpgen.Principal{}, "expired", err
	case errors.Is(err, jwt.ErrNotValidYet), errors.Is(err, jwt.ErrIssuedInTheFuture):
		return mcpgen.Principal{}, "not_yet_valid", err
	case err != nil:
		return mcpgen.Principal{}, "malformed", err
	}
	if std.Subject == "" {
		// RFC 9068 requires sub; without it the caller has no identity,
		// and would share sessions, tasks and limits with every other
		// such caller.
		return mcpgen.Principal{}, "no_subject", errors.New("no sub claim")
	}
	p := mcpgen.Principal{Subject: std.Subject, ClientID: extra.ClientID, Scopes: scopes(extra.Scope, extra.Scp), Issuer: std.Issuer}
	if p.ClientID == "" {
		p.ClientID = extra.Azp
	}
	return p, "", nil
}

// scopes reads a scope claim: a space-separated string (RFC 9068, RFC
// 7662) or an array, or else the scp array some servers use.
func scopes(raw json.RawMessage, scp []string) []string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return strings.Fields(s)
	}
	var list []string
	if json.Unmarshal(raw, &list) == nil {
		return list
	}
	return scp
}

package oauth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sync/singleflight"

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

// introspector is the state that keeps introspection from being an
// amplifier (see [Introspection]): answers cached by token hash, one call
// per token at a time, a bound on calls in flight, and a token bucket per
// remote address charged before any call.
type introspector struct {
	ic       *Introspection
	active   *verdicts // principals, until min(exp, CacheTTL)
	refused  *verdicts // refusals other than outages, for RefusalTTL
	flight   singleflight.Group
	slots    chan struct{}   // MaxConcurrent
	limiter  *addressLimiter // nil when disabled
	slotWait time.Duration
}

func newIntrospector(ic *Introspection) *introspector {
	in := &introspector{
		ic:       ic,
		active:   newVerdicts(ic.CacheSize),
		refused:  newVerdicts(ic.CacheSize),
		slots:    make(chan struct{}, ic.MaxConcurrent),
		slotWait: min(time.Second, ic.Timeout),
	}
	if ic.AddressRate > 0 {
		in.limiter = newAddressLimiter(ic.AddressRate, ic.AddressBurst)
	}
	return in
}

// lookup validates an opaque token: from the cache, or else, if the
// caller's address has budget left, by one introspection shared with
// every concurrent lookup of the same token.
func (rs *ResourceServer) lookup(r *http.Request, token string) (mcpgen.Principal, string, error) {
	in := rs.intro
	key := keyOf(token)
	now := time.Now()
	if v, ok := in.active.get(key, now); ok {
		return v.principal(), "", nil
	}
	if v, ok := in.refused.get(key, now); ok {
		return mcpgen.Principal{}, v.reason, v.err
	}
	if in.limiter != nil {
		addr := r.RemoteAddr
		if h, _, err := net.SplitHostPort(addr); err == nil {
			addr = h
		}
		if ok, wait := in.limiter.allow(addr, now); !ok {
			secs := max(1, int(math.Ceil(wait.Seconds())))
			e := refusal(http.StatusTooManyRequests, "rate_limited", "too many unknown tokens from this address; retry later", "")
			e.Header = http.Header{"Retry-After": {strconv.Itoa(secs)}}
			return mcpgen.Principal{}, "rate_limited", e
		}
	}
	// The call is shared, so it must not end when the first caller goes
	// away; each caller still waits only as long as its own request.
	ch := in.flight.DoChan(string(key[:]), func() (any, error) {
		return rs.introspectOnce(context.WithoutCancel(r.Context()), key, token), nil
	})
	select {
	case res := <-ch:
		v := res.Val.(verdict)
		if v.reason == "" {
			return v.principal(), "", nil
		}
		return mcpgen.Principal{}, v.reason, v.err
	case <-r.Context().Done():
		return mcpgen.Principal{}, "unavailable", fmt.Errorf("introspection: %w", r.Context().Err())
	}
}

// principal is a copy of the cached principal that its holder may change.
func (v verdict) principal() mcpgen.Principal {
	p := v.p
	p.Scopes = slices.Clone(p.Scopes)
	return p
}

// introspectOnce makes one call within a free slot and the timeout, and
// caches its answer: an active token until its exp (at most CacheTTL), a
// refusal for RefusalTTL, an outage not at all.
func (rs *ResourceServer) introspectOnce(ctx context.Context, key tokenKey, token string) verdict {
	in := rs.intro
	// A call for this token may have ended between the caller's look in
	// the cache and this one.
	if v, ok := in.active.get(key, time.Now()); ok {
		return v
	}
	if v, ok := in.refused.get(key, time.Now()); ok {
		return v
	}
	ctx, cancel := context.WithTimeout(ctx, in.ic.Timeout)
	defer cancel()
	wait := time.NewTimer(in.slotWait)
	defer wait.Stop()
	select {
	case in.slots <- struct{}{}:
		defer func() { <-in.slots }()
	case <-wait.C:
		return verdict{reason: "unavailable", err: fmt.Errorf("%w: %d introspection calls in flight", errUnavailable, in.ic.MaxConcurrent)}
	case <-ctx.Done():
		return verdict{reason: "unavailable", err: fmt.Errorf("%w: introspection: %w", errUnavailable, ctx.Err())}
	}
	p, exp, reason, err := rs.introspect(ctx, token)
	now := time.Now()
	switch reason {
	case "":
		until := now.Add(in.ic.CacheTTL)
		if !exp.IsZero() && exp.Before(until) {
			until = exp
		}
		v := verdict{p: p, until: until}
		if in.ic.CacheTTL > 0 {
			in.active.put(key, v, now)
		}
		return v
	case "unavailable":
		return verdict{reason: reason, err: err}
	default:
		v := verdict{reason: reason, err: err, until: now.Add(in.ic.RefusalTTL)}
		if in.ic.RefusalTTL > 0 {
			in.refused.put(key, v, now)
		}
		return v
	}
}

// introspect asks the authorization server whether an opaque token is
// active, and for whom and what, until when (zero when the answer has no
// exp).
func (rs *ResourceServer) introspect(ctx context.Context, token string) (mcpgen.Principal, time.Time, string, error) {
	ic := rs.cfg.Introspection
	endpoint := ic.Endpoint
	if endpoint == "" {
		m, err := rs.issuer.metadata(ctx)
		if err != nil {
			return mcpgen.Principal{}, time.Time{}, "unavailable", err
		}
		if endpoint = m.IntrospectionEndpoint; endpoint == "" {
			return mcpgen.Principal{}, time.Time{}, "unavailable", fmt.Errorf("%w: no introspection_endpoint in its metadata", errUnavailable)
		}
	}
	form := url.Values{"token": {token}, "token_type_hint": {"access_token"}}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, strings.NewReader(form.Encode()))
	if err != nil {
		return mcpgen.Principal{}, time.Time{}, "unavailable", err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	req.SetBasicAuth(url.QueryEscape(ic.ClientID), url.QueryEscape(ic.ClientSecret))
	resp, err := rs.cfg.HTTPClient.Do(req)
	if err != nil {
		return mcpgen.Principal{}, time.Time{}, "unavailable", fmt.Errorf("%w: introspection: %w", errUnavailable, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return mcpgen.Principal{}, time.Time{}, "unavailable", fmt.Errorf("%w: introspection: %s", errUnavailable, resp.Status)
	}
	var r introspection
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&r); err != nil {
		return mcpgen.Principal{}, time.Time{}, "unavailable", fmt.Errorf("%w: introspection: decode: %w", errUnavailable, err)
	}
	now := time.Now()
	switch {
	case !r.Active:
		return mcpgen.Principal{}, time.Time{}, "inactive", errors.New("introspection: not active")
	case r.Issuer != "" && r.Issuer != rs.cfg.Issuer:
		return mcpgen.Principal{}, time.Time{}, "issuer", fmt.Errorf("introspection: issuer %q", r.Issuer)
	case !slices.ContainsFunc(audiences(r.Audience), func(a string) bool { return canonical(a) == rs.resource }):
		// The token must have been issued for this resource (RFC 8707);
		// a response that names no audience does not say so.
		return mcpgen.Principal{}, time.Time{}, "audience", fmt.Errorf("introspection: audience %s", r.Audience)
	case r.Expiry != 0 && now.After(time.Unix(r.Expiry, 0).Add(rs.cfg.Leeway)):
		return mcpgen.Principal{}, time.Time{}, "expired", errors.New("introspection: expired")
	case r.NotBef != 0 && now.Add(rs.cfg.Leeway).Before(time.Unix(r.NotBef, 0)):
		return mcpgen.Principal{}, time.Time{}, "not_yet_valid", errors.New("introspection: not valid yet")
	}
	// A client acting for itself (client credentials) may be known by its
	// client_id alone: it stays a client (Principal.ID "client:..."), never
	// the user of the same name. A token with neither names nobody.
	p := mcpgen.Principal{Subject: r.Subject, ClientID: r.ClientID, Scopes: scopes(r.Scope, nil), Issuer: rs.cfg.Issuer}
	if p.Anonymous() {
		return mcpgen.Principal{}, time.Time{}, "no_subject", errors.New("introspection: neither sub nor client_id")
	}
	var exp time.Time
	if r.Expiry != 0 {
		exp = time.Unix(r.Expiry, 0)
	}
	return p, exp, "", nil
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

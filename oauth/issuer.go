package oauth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/go-jose/go-jose/v4"
	"golang.org/x/sync/singleflight"
)

// issuer is what the resource server knows of its authorization server:
// the metadata and the signing keys, fetched lazily and cached.
type issuer struct {
	cfg Config

	flight singleflight.Group // one discovery or key fetch at a time

	mu        sync.Mutex
	meta      *asMetadata
	metaErr   error
	metaTried time.Time
	keys      *jose.JSONWebKeySet
	keysTried time.Time
}

// asMetadata is the part of RFC 8414 / OpenID provider metadata used here.
type asMetadata struct {
	Issuer                string `json:"issuer"`
	JWKSURI               string `json:"jwks_uri"`
	IntrospectionEndpoint string `json:"introspection_endpoint"`
}

// errUnavailable marks failures to reach the authorization server, as
// opposed to a bad token.
var errUnavailable = errors.New("authorization server unavailable")

// metadataRetry is how long a failed discovery is remembered before the
// next request tries again.
const metadataRetry = 5 * time.Second

func newIssuer(cfg Config) *issuer { return &issuer{cfg: cfg} }

// metadataURLs lists where the metadata of an issuer may be, in the order
// the MCP authorization specification gives: RFC 8414 with path insertion,
// OpenID Connect discovery with path insertion, then appended.
func metadataURLs(iss string) []string {
	u, err := url.Parse(iss)
	if err != nil {
		return nil
	}
	path := strings.TrimSuffix(u.EscapedPath(), "/")
	base := u.Scheme + "://" + u.Host
	if path == "" {
		return []string{base + "/.well-known/oauth-authorization-server", base + "/.well-known/openid-configuration"}
	}
	return []string{
		base + "/.well-known/oauth-authorization-server" + path,
		base + "/.well-known/openid-configuration" + path,
		base + path + "/.well-known/openid-configuration",
	}
}

// metadata returns the authorization server's metadata, discovering it on
// first use. Concurrent callers share one discovery.
func (is *issuer) metadata(ctx context.Context) (*asMetadata, error) {
	is.mu.Lock()
	m, err, tried := is.meta, is.metaErr, is.metaTried
	is.mu.Unlock()
	if m != nil {
		return m, nil
	}
	if err != nil && time.Since(tried) < metadataRetry {
		return nil, err
	}
	v, err, _ := is.flight.Do("metadata", func() (any, error) {
		m, err := is.discover(context.WithoutCancel(ctx))
		is.mu.Lock()
		is.meta, is.metaErr, is.metaTried = m, err, time.Now()
		is.mu.Unlock()
		return m, err
	})
	if err != nil {
		return nil, err
	}
	return v.(*asMetadata), nil
}

// discover fetches the metadata from the first well-known location that
// has it.
func (is *issuer) discover(ctx context.Context) (*asMetadata, error) {
	var errs []error
	for _, u := range metadataURLs(is.cfg.Issuer) {
		var m asMetadata
		status, err := is.getJSON(ctx, u, &m)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if status >= 400 && status < 500 {
			errs = append(errs, fmt.Errorf("GET %s: %d", u, status))
			continue
		}
		if m.Issuer != is.cfg.Issuer {
			// RFC 8414 section 3.3: never use metadata for another issuer.
			return nil, fmt.Errorf("%w: metadata at %s names issuer %q, want %q", errUnavailable, u, m.Issuer, is.cfg.Issuer)
		}
		if m.JWKSURI == "" && is.cfg.Introspection == nil {
			return nil, fmt.Errorf("%w: metadata at %s has no jwks_uri", errUnavailable, u)
		}
		return &m, nil
	}
	return nil, fmt.Errorf("%w: discover %s: %w", errUnavailable, is.cfg.Issuer, errors.Join(errs...))
}

// key returns the issuer's keys matching kid (all keys when kid is
// empty), fetching the key set when none match and the last fetch is old
// enough: that is how a rotated key becomes known. Concurrent callers
// share one fetch, and cached keys are served while it runs.
func (is *issuer) key(ctx context.Context, kid string) ([]jose.JSONWebKey, error) {
	m, err := is.metadata(ctx)
	if err != nil {
		return nil, err
	}
	is.mu.Lock()
	keys, tried := is.keys, is.keysTried
	is.mu.Unlock()
	if keys != nil {
		if ks := match(keys, kid); len(ks) > 0 {
			return ks, nil
		}
		if is.cfg.KeyRefreshInterval > 0 && time.Since(tried) < is.cfg.KeyRefreshInterval {
			return nil, nil
		}
	}
	v, err, _ := is.flight.Do("keys", func() (any, error) {
		var set jose.JSONWebKeySet
		status, err := is.getJSON(context.WithoutCancel(ctx), m.JWKSURI, &set)
		if err == nil && status != http.StatusOK {
			err = fmt.Errorf("GET %s: %d", m.JWKSURI, status)
		}
		is.mu.Lock()
		defer is.mu.Unlock()
		is.keysTried = time.Now()
		if err != nil {
			if is.keys == nil {
				return nil, fmt.Errorf("%w: keys: %w", errUnavailable, err)
			}
			return is.keys, nil // keep the keys we have
		}
		is.keys = &set
		return is.keys, nil
	})
	if err != nil {
		return nil, err
	}
	return match(v.(*jose.JSONWebKeySet), kid), nil
}

func match(set *jose.JSONWebKeySet, kid string) []jose.JSONWebKey {
	if kid == "" {
		return set.Keys
	}
	return set.Key(kid)
}

// getJSON fetches a JSON document of at most 1 MiB into v; a 4xx status
// is returned without decoding.
func (is *issuer) getJSON(ctx context.Context, u string, v any) (int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return 0, err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := is.cfg.HTTPClient.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16))
		if resp.StatusCode >= 500 {
			return resp.StatusCode, fmt.Errorf("GET %s: %s", u, resp.Status)
		}
		return resp.StatusCode, nil
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(v); err != nil {
		return resp.StatusCode, fmt.Errorf("GET %s: decode: %w", u, err)
	}
	return resp.StatusCode, nil
}

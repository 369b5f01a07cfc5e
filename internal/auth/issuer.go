package auth

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
)

// issuer is what the resource server knows of its authorization server:
// the metadata and the signing keys, fetched lazily and cached.
type issuer struct {
	cfg Config

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
// first use.
func (is *issuer) metadata(ctx context.Context) (*asMetadata, error) {
	is.mu.Lock()
	defer is.mu.Unlock()
	if is.meta != nil {
		return is.meta, nil
	}
	if is.metaErr != nil && time.Since(is.metaTried) < metadataRetry {
		return nil, is.metaErr
	}
	is.metaTried = time.Now()
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
			is.metaErr = fmt.Errorf("%w: metadata at %s names issuer %q, want %q", errUnavailable, u, m.Issuer, is.cfg.Issuer)
			return nil, is.metaErr
		}
		if m.JWKSURI == "" && is.cfg.Introspection == nil {
			is.metaErr = fmt.Errorf("%w: metadata at %s has no jwks_uri", errUnavailable, u)
			return nil, is.metaErr
		}
		is.meta, is.metaErr = &m, nil
		return is.meta, nil
	}
	is.metaErr = fmt.Errorf("%w: discover %s: %w", errUnavailable, is.cfg.Issuer, errors.Join(errs...))
	return nil, is.metaErr
}

// key returns the issuer's keys matching kid (all keys when kid is
// empty), fetching the key set when none match and the last fetch is old
// enough: that is how a rotated key becomes known.
func (is *issuer) key(ctx context.Context, kid string) ([]jose.JSONWebKey, error) {
	m, err := is.metadata(ctx)
	if err != nil {
		return nil, err
	}
	is.mu.Lock()
	defer is.mu.Unlock()
	if is.keys != nil {
		if ks := match(is.keys, kid); len(ks) > 0 {
			return ks, nil
		}
		if is.cfg.KeyRefreshInterval > 0 && time.Since(is.keysTried) < is.cfg.KeyRefreshInterval {
			return nil, nil
		}
	}
	is.keysTried = time.Now()
	var set jose.JSONWebKeySet
	status, err := is.getJSON(ctx, m.JWKSURI, &set)
	if err == nil && status != http.StatusOK {
		err = fmt.Errorf("GET %s: %d", m.JWKSURI, status)
	}
	if err != nil {
		if is.keys == nil {
			return nil, fmt.Errorf("%w: keys: %w", errUnavailable, err)
		}
		return nil, nil // keep the keys we have
	}
	is.keys = &set
	return match(is.keys, kid), nil
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

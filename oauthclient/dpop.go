package oauthclient

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
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
	"github.com/go-jose/go-jose/v4/jwt"
)

// dpop is the client's DPoP key (RFC 9449): one P-256 key per Auth, to
// which the tokens it obtains are bound, and the nonces servers handed
// out, by origin.
type dpop struct {
	signer jose.Signer

	mu     sync.Mutex
	nonces map[string]string
}

func newDPoP() (*dpop, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	opts := (&jose.SignerOptions{EmbedJWK: true}).WithType("dpop+jwt")
	s, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.ES256, Key: key}, opts)
	if err != nil {
		return nil, err
	}
	return &dpop{signer: s, nonces: map[string]string{}}, nil
}

// htu is u without query and fragment, as a proof names it.
func htu(u *url.URL) string {
	v := *u
	v.RawQuery, v.Fragment, v.User = "", "", nil
	return v.String()
}

func origin(u *url.URL) string { return u.Scheme + "://" + u.Host }

// proof is a DPoP proof for a request of method to u; accessToken, when
// set, is bound to it with ath (RFC 9449 section 4.2).
func (d *dpop) proof(method string, u *url.URL, accessToken string) (string, error) {
	claims := map[string]any{
		"jti": randomState(),
		"htm": method,
		"htu": htu(u),
		"iat": time.Now().Unix(),
	}
	if n := d.nonce(u); n != "" {
		claims["nonce"] = n
	}
	if accessToken != "" {
		sum := sha256.Sum256([]byte(accessToken))
		claims["ath"] = base64.RawURLEncoding.EncodeToString(sum[:])
	}
	return jwt.Signed(d.signer).Claims(claims).Serialize()
}

func (d *dpop) nonce(u *url.URL) string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.nonces[origin(u)]
}

// remember keeps the DPoP-Nonce of resp, if any; it reports whether the
// nonce is new.
func (d *dpop) remember(u *url.URL, resp *http.Response) bool {
	n := resp.Header.Get("DPoP-Nonce")
	if n == "" || len(n) > 1024 {
		return false
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.nonces[origin(u)] == n {
		return false
	}
	d.nonces[origin(u)] = n
	return true
}

// tokenTransport is the RoundTripper of requests to a token endpoint.
// It adds what x/oauth2 cannot send with every grant: the resource
// indicator (a refresh has no extra parameters), a fresh private_key_jwt
// client assertion (RFC 7523 section 2.2) and, for a DPoP client, a
// proof, sending the request once more when the server answers with a
// nonce to use (RFC 9449 section 8).
type tokenTransport struct {
	next      http.RoundTripper
	tokenURL  string
	resource  string                 // added when not in the form
	assertion func() (string, error) // nil: no client assertion
	dpop      *dpop                  // nil: no proofs
}

func (tt tokenTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Method != http.MethodPost || req.URL.String() != tt.tokenURL || req.Body == nil {
		return tt.next.RoundTrip(req)
	}
	b, err := io.ReadAll(io.LimitReader(req.Body, 64<<10))
	req.Body.Close()
	if err != nil {
		return nil, err
	}
	form, err := url.ParseQuery(string(b))
	if err != nil {
		return nil, err
	}
	if tt.resource != "" && !form.Has("resource") {
		form.Set("resource", tt.resource)
	}
	if tt.assertion != nil {
		ca, err := tt.assertion()
		if err != nil {
			return nil, err
		}
		form.Set("client_assertion_type", "urn:ietf:params:oauth:client-assertion-type:jwt-bearer")
		form.Set("client_assertion", ca)
	}
	body := form.Encode()
	send := func() (*http.Response, error) {
		r := req.Clone(req.Context())
		r.Body = io.NopCloser(strings.NewReader(body))
		r.ContentLength = int64(len(body))
		r.GetBody = nil
		if tt.dpop != nil {
			p, err := tt.dpop.proof(http.MethodPost, req.URL, "")
			if err != nil {
				return nil, err
			}
			r.Header.Set("DPoP", p)
		}
		return tt.next.RoundTrip(r)
	}
	resp, err := send()
	if err != nil || tt.dpop == nil {
		return resp, err
	}
	if !tt.dpop.remember(req.URL, resp) || resp.StatusCode != http.StatusBadRequest {
		return resp, nil
	}
	// A new nonce with a 400: if the error is use_dpop_nonce, once more.
	msg, err := io.ReadAll(io.LimitReader(resp.Body, maxDocument))
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	var e struct {
		Error string `json:"error"`
	}
	if json.Unmarshal(msg, &e) != nil || e.Error != "use_dpop_nonce" {
		resp.Body = io.NopCloser(bytes.NewReader(msg))
		return resp, nil
	}
	return send()
}

// dpopSupported reports whether md accepts proofs this client makes.
func dpopSupported(md *serverMetadata) bool {
	for _, a := range md.DPoPSigningAlgValuesSupported {
		if a == string(jose.ES256) {
			return true
		}
	}
	return false
}

var errNoDPoP = errors.New("oauthclient: cannot make a DPoP key")

func (a *Auth) dpopKey() (*dpop, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.dpop == nil {
		d, err := newDPoP()
		if err != nil {
			return nil, fmt.Errorf("%w: %w", errNoDPoP, err)
		}
		a.dpop = d
	}
	return a.dpop, nil
}

package oauthclient_test

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
)

// fakeAS is an authorization server that approves every authorization
// request at once and records what it was sent. Its fields set up how it
// behaves; set them before the first request.
type fakeAS struct {
	srv *httptest.Server

	prefix     string // issuer path, e.g. "/tenant1"
	metaPath   string // where the metadata is served; default RFC 8414 with path insertion
	noMetadata bool   // serve no metadata
	issuerDoc  string // issuer stated in the metadata; default the real one

	advertiseIss bool   // authorization_response_iss_parameter_supported
	issMode      string // iss in the redirect: "" (correct), "omit", "wrong", "slash"
	noPKCE       bool   // omit code_challenge_methods_supported
	cimd         bool   // client_id_metadata_document_supported
	noDCR        bool   // no registration endpoint
	methods      []string
	scopes       []string // scopes_supported
	refresh      bool     // issue refresh tokens
	regSecret    string   // client_secret in registration answers
	regMethod    string   // token_endpoint_auth_method in registration answers
	jwtKey       *ecdsa.PublicKey
	tokenURL     string   // token_endpoint stated; default the real one
	dpop         bool     // DPoP: advertise ES256, bind tokens to the proof key
	dpopNonce    string   // DPoP: require this nonce in token request proofs
	deny         []string // scopes never granted
	denyRefresh  bool     // refuse the refresh_token grant

	mu        sync.Mutex
	authz     []url.Values
	tokenReqs []tokenReq
	regs      []map[string]any
	metaGets  []string
	challenge string
	issued    map[string][]string // access token -> scopes
	bound     map[string]string   // DPoP access token -> key thumbprint
	n         int
}

type tokenReq struct {
	form             url.Values
	basicID, basicPW string
	basic            bool
}

func newAS(t *testing.T, setup func(*fakeAS)) *fakeAS {
	as := &fakeAS{issued: map[string][]string{}, bound: map[string]string{}}
	if setup != nil {
		setup(as)
	}
	as.srv = httptest.NewServer(as)
	t.Cleanup(as.srv.Close)
	return as
}

func (as *fakeAS) issuer() string { return as.srv.URL + as.prefix }

func (as *fakeAS) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	metaPath := as.metaPath
	if metaPath == "" {
		metaPath = "/.well-known/oauth-authorization-server" + as.prefix
	}
	switch {
	case r.Method == http.MethodGet && strings.Contains(r.URL.Path, "/.well-known/"):
		as.mu.Lock()
		as.metaGets = append(as.metaGets, r.URL.Path)
		as.mu.Unlock()
		if as.noMetadata || r.URL.Path != metaPath {
			http.NotFound(w, r)
			return
		}
		as.metadata(w)
	case r.URL.Path == as.prefix+"/authorize":
		as.authorize(w, r)
	case r.URL.Path == as.prefix+"/token":
		as.token(w, r)
	case r.URL.Path == as.prefix+"/register":
		as.register(w, r)
	default:
		http.NotFound(w, r)
	}
}

func (as *fakeAS) metadata(w http.ResponseWriter) {
	iss := as.issuer()
	if as.issuerDoc != "" {
		iss = as.issuerDoc
	}
	base := as.issuer()
	md := map[string]any{
		"issuer":                   iss,
		"authorization_endpoint":   base + "/authorize",
		"token_endpoint":           base + "/token",
		"response_types_supported": []string{"code"},
	}
	if !as.noDCR {
		md["registration_endpoint"] = base + "/register"
	}
	if as.tokenURL != "" {
		md["token_endpoint"] = as.tokenURL
	}
	if !as.noPKCE {
		md["code_challenge_methods_supported"] = []string{"S256"}
	}
	if as.advertiseIss {
		md["authorization_response_iss_parameter_supported"] = true
	}
	if as.cimd {
		md["client_id_metadata_document_supported"] = true
	}
	if as.methods != nil {
		md["token_endpoint_auth_methods_supported"] = as.methods
	}
	if as.scopes != nil {
		md["scopes_supported"] = as.scopes
	}
	if as.dpop {
		md["dpop_signing_alg_values_supported"] = []string{"ES256"}
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(md)
}

func (as *fakeAS) authorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	as.mu.Lock()
	as.authz = append(as.authz, q)
	as.challenge = q.Get("code_challenge")
	as.mu.Unlock()
	u, err := url.Parse(q.Get("redirect_uri"))
	if err != nil {
		http.Error(w, "bad redirect_uri", http.StatusBadRequest)
		return
	}
	v := url.Values{"code": {"the-code"}, "state": {q.Get("state")}}
	switch as.issMode {
	case "":
		v.Set("iss", as.issuer())
	case "wrong":
		v.Set("iss", "https://evil.example.com")
	case "slash":
		v.Set("iss", as.issuer()+"/")
	}
	u.RawQuery = v.Encode()
	http.Redirect(w, r, u.String(), http.StatusFound)
}

func (as *fakeAS) token(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	tr := tokenReq{form: r.PostForm}
	tr.basicID, tr.basicPW, tr.basic = r.BasicAuth()
	as.mu.Lock()
	defer as.mu.Unlock()
	as.tokenReqs = append(as.tokenReqs, tr)
	f := r.PostForm
	fail := func(code string) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprintf(w, `{"error":%q}`, code)
	}
	var scopes []string
	switch f.Get("grant_type") {
	case "authorization_code":
		if as.jwtKey != nil {
			if err := as.checkAssertion(f); err != nil {
				fail("invalid_client")
				return
			}
		}
		sum := sha256.Sum256([]byte(f.Get("code_verifier")))
		if f.Get("code") != "the-code" || base64.RawURLEncoding.EncodeToString(sum[:]) != as.challenge {
			fail("invalid_grant")
			return
		}
		scopes = strings.Fields(as.authz[len(as.authz)-1].Get("scope"))
	case "refresh_token":
		if as.denyRefresh || !strings.HasPrefix(f.Get("refresh_token"), "refresh-") {
			fail("invalid_grant")
			return
		}
		scopes = strings.Fields(as.authz[len(as.authz)-1].Get("scope"))
	case "urn:ietf:params:oauth:grant-type:jwt-bearer":
		if f.Get("assertion") != "workload-jwt" {
			fail("invalid_grant")
			return
		}
		scopes = strings.Fields(f.Get("scope"))
	case "client_credentials":
		if as.jwtKey != nil {
			if err := as.checkAssertion(f); err != nil {
				fail("invalid_client")
				return
			}
		}
		scopes = strings.Fields(f.Get("scope"))
	default:
		fail("unsupported_grant_type")
		return
	}
	scopes = slices.DeleteFunc(slices.Clone(scopes), func(s string) bool { return slices.Contains(as.deny, s) })
	var jkt string
	if as.dpop {
		var nonce string
		var err error
		jkt, nonce, err = verifyProof(r.Header.Get("DPoP"), http.MethodPost, as.issuer()+"/token", "")
		if err != nil {
			fail("invalid_dpop_proof")
			return
		}
		if as.dpopNonce != "" && nonce != as.dpopNonce {
			w.Header().Set("DPoP-Nonce", as.dpopNonce)
			fail("use_dpop_nonce")
			return
		}
	}
	as.n++
	tok := fmt.Sprintf("token-%d", as.n)
	as.issued[tok] = scopes
	ans := map[string]any{"access_token": tok, "token_type": "Bearer", "expires_in": 3600}
	if jkt != "" {
		as.bound[tok] = jkt
		ans["token_type"] = "DPoP"
	}
	if as.refresh {
		ans["refresh_token"] = fmt.Sprintf("refresh-%d", as.n)
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(ans)
}

func (as *fakeAS) checkAssertion(f url.Values) error {
	if f.Get("client_assertion_type") != "urn:ietf:params:oauth:client-assertion-type:jwt-bearer" {
		return fmt.Errorf("assertion type %q", f.Get("client_assertion_type"))
	}
	tok, err := jwt.ParseSigned(f.Get("client_assertion"), []jose.SignatureAlgorithm{jose.ES256})
	if err != nil {
		return err
	}
	var c jwt.Claims
	if err := tok.Claims(as.jwtKey, &c); err != nil {
		return err
	}
	return c.Validate(jwt.Expected{Issuer: "svc", Subject: "svc", AnyAudience: jwt.Audience{as.issuer()}})
}

func (as *fakeAS) register(w http.ResponseWriter, r *http.Request) {
	var body map[string]any
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	as.mu.Lock()
	as.regs = append(as.regs, body)
	n := len(as.regs)
	as.mu.Unlock()
	ans := map[string]any{"client_id": fmt.Sprintf("%s-client-%d", strings.TrimPrefix(as.srv.URL, "http://"), n)}
	if as.regSecret != "" {
		ans["client_secret"] = as.regSecret
	}
	if as.regMethod != "" {
		ans["token_endpoint_auth_method"] = as.regMethod
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusCreated)
	_ = json.NewEncoder(w).Encode(ans)
}

// valid reports the scopes of an access token this server issued.
func (as *fakeAS) valid(tok string) ([]string, bool) {
	as.mu.Lock()
	defer as.mu.Unlock()
	s, ok := as.issued[tok]
	return s, ok
}

// boundTo is the key thumbprint a DPoP token is bound to, or "".
func (as *fakeAS) boundTo(tok string) string {
	as.mu.Lock()
	defer as.mu.Unlock()
	return as.bound[tok]
}

// verifyProof checks a DPoP proof (RFC 9449 section 4.3) for method and
// htu, bound to accessToken when that is set, and returns the thumbprint
// of its key and its nonce.
func verifyProof(proof, method, htu, accessToken string) (jkt, nonce string, err error) {
	sig, err := jose.ParseSigned(proof, []jose.SignatureAlgorithm{jose.ES256})
	if err != nil {
		return "", "", err
	}
	h := sig.Signatures[0].Protected
	if h.ExtraHeaders["typ"] != "dpop+jwt" || h.JSONWebKey == nil || !h.JSONWebKey.IsPublic() {
		return "", "", fmt.Errorf("header %+v", h)
	}
	payload, err := sig.Verify(h.JSONWebKey)
	if err != nil {
		return "", "", err
	}
	var c struct {
		JTI, HTM, HTU, Nonce, ATH string
		IAT                       int64
	}
	if err := json.Unmarshal(payload, &c); err != nil {
		return "", "", err
	}
	if c.JTI == "" || c.HTM != method || c.HTU != htu || c.IAT == 0 {
		return "", "", fmt.Errorf("claims %+v", c)
	}
	if accessToken != "" {
		sum := sha256.Sum256([]byte(accessToken))
		if c.ATH != base64.RawURLEncoding.EncodeToString(sum[:]) {
			return "", "", fmt.Errorf("ath %q", c.ATH)
		}
	}
	tp, err := h.JSONWebKey.Thumbprint(crypto.SHA256)
	if err != nil {
		return "", "", err
	}
	return base64.RawURLEncoding.EncodeToString(tp), c.Nonce, nil
}

// revoke forgets every access token issued so far.
func (as *fakeAS) revoke() {
	as.mu.Lock()
	defer as.mu.Unlock()
	as.issued = map[string][]string{}
}

func (as *fakeAS) record() (authz []url.Values, tokens []tokenReq, regs []map[string]any) {
	as.mu.Lock()
	defer as.mu.Unlock()
	return slices.Clone(as.authz), slices.Clone(as.tokenReqs), slices.Clone(as.regs)
}

// fakeRS is an MCP endpoint at /mcp protected by fakeASes: it answers a
// request with a token of the current AS that has the scopes op needs 200,
// else 401 or 403 with a challenge.
type fakeRS struct {
	srv *httptest.Server

	as          *fakeAS  // the authorization server it names (may be swapped)
	before      []string // issuers named in authorization_servers before as's
	prmPath     string   // "" none; default set by newRS
	resource    string   // resource stated; default the endpoint (or origin for root metadata)
	noHint      bool     // leave resource_metadata out of the challenge
	scope       string   // scope in the 401 challenge
	supported   []string
	need        map[string][]string // op -> scopes; 403 insufficient_scope names the missing ones
	dpopNonce   string              // DPoP: require this nonce in proofs
	dpopProofs  []string            // DPoP: the jti of every proof accepted
	prmRequests []string
	mu          sync.Mutex
}

func newRS(t *testing.T, as *fakeAS, setup func(*fakeRS)) *fakeRS {
	rs := &fakeRS{as: as, prmPath: "/.well-known/oauth-protected-resource/mcp"}
	if setup != nil {
		setup(rs)
	}
	rs.srv = httptest.NewServer(rs)
	t.Cleanup(rs.srv.Close)
	return rs
}

func (rs *fakeRS) url() string { return rs.srv.URL + "/mcp" }

func (rs *fakeRS) setAS(as *fakeAS) {
	rs.mu.Lock()
	rs.as = as
	rs.mu.Unlock()
}

func (rs *fakeRS) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rs.mu.Lock()
	as := rs.as
	rs.mu.Unlock()
	if strings.HasPrefix(r.URL.Path, "/.well-known/") || (rs.prmPath != "" && r.URL.Path == rs.prmPath) {
		rs.mu.Lock()
		rs.prmRequests = append(rs.prmRequests, r.URL.Path)
		rs.mu.Unlock()
		if rs.prmPath == "" || r.URL.Path != rs.prmPath {
			http.NotFound(w, r)
			return
		}
		res := rs.resource
		if res == "" {
			res = rs.url()
			if rs.prmPath == "/.well-known/oauth-protected-resource" {
				res = rs.srv.URL
			}
		}
		doc := map[string]any{"resource": res, "authorization_servers": append(slices.Clone(rs.before), as.issuer())}
		if rs.supported != nil {
			doc["scopes_supported"] = rs.supported
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(doc)
		return
	}
	if r.URL.Path != "/mcp" {
		http.NotFound(w, r)
		return
	}
	hint := ""
	if rs.prmPath != "" && !rs.noHint {
		hint = fmt.Sprintf(`, resource_metadata="%s%s"`, rs.srv.URL, rs.prmPath)
	}
	scheme, tok, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	scopes, valid := as.valid(tok)
	if jkt := as.boundTo(tok); valid && jkt != "" {
		// A DPoP-bound token: the DPoP scheme and a proof by its key.
		got, nonce, err := verifyProof(r.Header.Get("DPoP"), r.Method, rs.url(), tok)
		if scheme != "DPoP" || err != nil || got != jkt {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		if rs.dpopNonce != "" && nonce != rs.dpopNonce {
			w.Header().Set("DPoP-Nonce", rs.dpopNonce)
			w.Header().Set("WWW-Authenticate", `DPoP error="use_dpop_nonce"`)
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		rs.mu.Lock()
		rs.dpopProofs = append(rs.dpopProofs, r.Header.Get("DPoP"))
		rs.mu.Unlock()
	} else if scheme != "Bearer" {
		valid = false
	}
	if !ok || !valid {
		ch := `Bearer error="invalid_token"` + hint
		if rs.scope != "" {
			ch += fmt.Sprintf(`, scope="%s"`, rs.scope)
		}
		w.Header().Set("WWW-Authenticate", ch)
		w.WriteHeader(http.StatusUnauthorized)
		return
	}
	var missing []string
	for _, s := range rs.need[r.URL.Query().Get("op")] {
		if !slices.Contains(scopes, s) {
			missing = append(missing, s)
		}
	}
	if len(missing) > 0 {
		w.Header().Set("WWW-Authenticate", fmt.Sprintf(`Bearer error="insufficient_scope", scope="%s"%s`, strings.Join(missing, " "), hint))
		w.WriteHeader(http.StatusForbidden)
		return
	}
	fmt.Fprint(w, "ok")
}

// legacyServer is a 2025-03-26 MCP server at /mcp that is its own
// authorization server, as: without metadata its default endpoints
// /authorize, /token and /register are as's.
func legacyServer(t *testing.T, as *fakeAS) *httptest.Server {
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/mcp" {
			as.ServeHTTP(w, r)
			return
		}
		if _, ok := as.valid(strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")); !ok {
			w.Header().Set("WWW-Authenticate", "Bearer")
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		fmt.Fprint(w, "ok")
	}))
	t.Cleanup(hs.Close)
	as.srv.Close()
	as.srv = hs
	return hs
}

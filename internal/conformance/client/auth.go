// The auth/* client scenarios: each connects to the scenario's MCP server
// with an oauthclient.Auth, lists the tools and calls test-tool.
//
// Results against @modelcontextprotocol/conformance 0.2.0-alpha.12, 2 Dec
// 2026: every auth/* client scenario passes, each run alone
// (`conformance client --command <this program> --scenario S`, at its
// default wire and again with --spec-version 2026-07-28 --force; the two
// 2025-03-26 ones also at --spec-version 2025-03-26) and in
// `--requirements 2025-11-25` and `--requirements 2026-07-28`:
//
//	auth/metadata-default, -var1, -var2, -var3    pass (challenge, path-suffixed and root PRM; RFC 8414 and OIDC, path insertion and appending)
//	auth/basic-cimd                               pass (client_id https://conformance-test.local/client-metadata.json)
//	auth/scope-from-www-authenticate              pass
//	auth/scope-from-scopes-supported              pass
//	auth/scope-omitted-when-undefined             pass
//	auth/scope-step-up                            pass (incl. sep-2350 union at 2026-07-28)
//	auth/scope-retry-limit                        pass (one authorization; the client exits 1 with ErrInsufficientScope, allowed)
//	auth/token-endpoint-auth-basic, -post, -none  pass (resource on both requests)
//	auth/pre-registration                         pass (client_id/secret from the context)
//	auth/2025-03-26-oauth-metadata-backcompat     pass (no PRM: metadata at the server's origin)
//	auth/2025-03-26-oauth-endpoint-fallback       pass (no metadata: /authorize /token /register)
//	auth/resource-mismatch                        pass (refused before authorizing; exits 1, allowed)
//	auth/offline-access-scope                     pass (offline_access asked for, refresh_token registered)
//	auth/offline-access-not-supported             pass
//	auth/authorization-server-migration           pass (registers anew at the second AS)
//	auth/iss-supported, auth/iss-not-advertised   pass
//	auth/iss-supported-missing, -wrong-issuer,
//	auth/iss-unexpected, auth/iss-normalized      pass (refused before the token request; exit 1, allowed)
//	auth/metadata-issuer-mismatch                 pass (metadata not used; exit 1, allowed)
//	auth/client-credentials-basic, -jwt           pass (extension; private_key_jwt with the context's key)
//	auth/wif-jwt-bearer                           pass (extension; JWT bearer grant with valid_jwt)
//	auth/enterprise-managed-authorization         pass (extension; ID-JAG by token exchange, then JWT bearer)
//	auth/dpop, auth/dpop-nonce                    pass (extension; DPoP proofs, AS and RS nonces)
//
// A client holding a credential must name the authorization server it is
// for (oauthclient.Config.ClientIssuer); the suite's contexts name it for
// auth/pre-registration only, so for the others suiteIssuer reads it from
// the scenario's own metadata.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/mcpgen/mcpgen"
	"github.com/mcpgen/mcpgen/oauthclient"
)

// authCIMDURL is the client ID metadata document URL the suite's
// authorization servers expect (they do not fetch it).
const authCIMDURL = "https://conformance-test.local/client-metadata.json"

// authContext is the MCP_CONFORMANCE_CONTEXT of the auth scenarios.
type authContext struct {
	ClientID         string `json:"client_id"`
	ClientSecret     string `json:"client_secret"`
	Issuer           string `json:"issuer"` // auth/pre-registration only
	PrivateKeyPEM    string `json:"private_key_pem"`
	SigningAlgorithm string `json:"signing_algorithm"`
	ValidJWT         string `json:"valid_jwt"` // auth/wif-jwt-bearer: the workload identity token

	// auth/enterprise-managed-authorization: the identity provider.
	IdPClientID      string `json:"idp_client_id"`
	IdPIDToken       string `json:"idp_id_token"`
	IdPTokenEndpoint string `json:"idp_token_endpoint"`
}

func init() {
	code := []string{
		"auth/metadata-default", "auth/metadata-var1", "auth/metadata-var2", "auth/metadata-var3",
		"auth/basic-cimd",
		"auth/scope-from-www-authenticate", "auth/scope-from-scopes-supported",
		"auth/scope-omitted-when-undefined", "auth/scope-step-up", "auth/scope-retry-limit",
		"auth/token-endpoint-auth-basic", "auth/token-endpoint-auth-post", "auth/token-endpoint-auth-none",
		"auth/pre-registration",
		"auth/2025-03-26-oauth-metadata-backcompat", "auth/2025-03-26-oauth-endpoint-fallback",
		"auth/resource-mismatch", "auth/offline-access-scope", "auth/offline-access-not-supported",
		"auth/authorization-server-migration",
		"auth/iss-supported", "auth/iss-not-advertised", "auth/iss-supported-missing",
		"auth/iss-wrong-issuer", "auth/iss-unexpected", "auth/iss-normalized",
		"auth/metadata-issuer-mismatch",
		"auth/dpop", "auth/dpop-nonce",
	}
	for _, name := range code {
		scenarios[name] = authCodeScenario
	}
	scenarios["auth/client-credentials-basic"] = authClientCredentialsScenario
	scenarios["auth/client-credentials-jwt"] = authClientCredentialsScenario
	scenarios["auth/wif-jwt-bearer"] = authJWTBearerScenario
	scenarios["auth/enterprise-managed-authorization"] = authEnterpriseScenario
}

// authCodeScenario authorizes with the authorization code grant:
// pre-registered credentials when the context has them, else the suite's
// client ID metadata document where supported, else dynamic registration.
func authCodeScenario(ctx context.Context, serverURL string, cctx json.RawMessage) error {
	var c authContext
	if err := json.Unmarshal(cctx, &c); err != nil {
		return fmt.Errorf("context: %w", err)
	}
	issuer := ""
	if c.ClientSecret != "" {
		var err error
		if issuer, err = suiteIssuer(ctx, serverURL, c); err != nil {
			return err
		}
	}
	auth, err := oauthclient.New(oauthclient.Config{
		ClientID: c.ClientID, ClientSecret: c.ClientSecret, ClientIssuer: issuer,
		ClientMetadataURL: authCIMDURL,
		ClientName:        "mcpgen-conformance-client",
		RedirectURL:       "http://localhost:3000/callback",
		UserAgent:         oauthclient.Headless(nil),
	})
	if err != nil {
		return err
	}
	return authListAndCall(ctx, serverURL, auth)
}

// authClientCredentialsScenario authorizes with the client credentials grant,
// with the secret or the private key of the context.
func authClientCredentialsScenario(ctx context.Context, serverURL string, cctx json.RawMessage) error {
	var c authContext
	if err := json.Unmarshal(cctx, &c); err != nil {
		return fmt.Errorf("context: %w", err)
	}
	issuer, err := suiteIssuer(ctx, serverURL, c)
	if err != nil {
		return err
	}
	cfg := oauthclient.Config{
		Grant:    oauthclient.GrantClientCredentials,
		ClientID: c.ClientID, ClientSecret: c.ClientSecret, ClientIssuer: issuer,
		SigningAlgorithm: c.SigningAlgorithm,
	}
	if c.PrivateKeyPEM != "" {
		key, err := oauthclient.ParsePrivateKey([]byte(c.PrivateKeyPEM))
		if err != nil {
			return err
		}
		cfg.PrivateKey = key
	}
	auth, err := oauthclient.New(cfg)
	if err != nil {
		return err
	}
	return authListAndCall(ctx, serverURL, auth)
}

// authJWTBearerScenario presents the workload identity token of the context
// with the JWT bearer grant.
func authJWTBearerScenario(ctx context.Context, serverURL string, cctx json.RawMessage) error {
	var c authContext
	if err := json.Unmarshal(cctx, &c); err != nil {
		return fmt.Errorf("context: %w", err)
	}
	issuer, err := suiteIssuer(ctx, serverURL, c)
	if err != nil {
		return err
	}
	auth, err := oauthclient.New(oauthclient.Config{
		Grant:    oauthclient.GrantJWTBearer,
		ClientID: c.ClientID, ClientIssuer: issuer,
		Assertion: func(context.Context, string, string) (string, error) {
			return c.ValidJWT, nil
		},
	})
	if err != nil {
		return err
	}
	return authListAndCall(ctx, serverURL, auth)
}

// authEnterpriseScenario exchanges the context's ID token at the identity
// provider for an ID-JAG and presents it with the JWT bearer grant.
func authEnterpriseScenario(ctx context.Context, serverURL string, cctx json.RawMessage) error {
	var c authContext
	if err := json.Unmarshal(cctx, &c); err != nil {
		return fmt.Errorf("context: %w", err)
	}
	ia := &oauthclient.IdentityAssertion{
		TokenURL: c.IdPTokenEndpoint, ClientID: c.IdPClientID,
		IDToken: func(context.Context) (string, error) { return c.IdPIDToken, nil },
	}
	issuer, err := suiteIssuer(ctx, serverURL, c)
	if err != nil {
		return err
	}
	auth, err := oauthclient.New(oauthclient.Config{
		Grant:    oauthclient.GrantJWTBearer,
		ClientID: c.ClientID, ClientSecret: c.ClientSecret, ClientIssuer: issuer,
		Assertion: ia.Assertion,
	})
	if err != nil {
		return err
	}
	return authListAndCall(ctx, serverURL, auth)
}

// authListAndCall connects with auth, lists the tools and calls
// test-tool: what the auth scenarios' servers expect of a client.
func authListAndCall(ctx context.Context, serverURL string, auth mcpgen.ClientAuth) error {
	c, err := connect(ctx, serverURL, mcpgen.ClientOptions{Auth: auth})
	if err != nil {
		return err
	}
	defer c.Close()
	if _, err := c.ListTools(ctx); err != nil {
		return err
	}
	_, err = c.CallTool(ctx, "test-tool", map[string]any{})
	return err
}

// suiteIssuer is the authorization server whose credentials the
// scenario's context holds, which oauthclient needs as ClientIssuer: the
// context's issuer where the suite gives one (auth/pre-registration),
// else the first authorization server of the scenario's protected
// resource metadata, found as a client finds it (the challenge of an
// unauthenticated request, else the path-suffixed well-known location).
// Taking it from the server is what a real client must not do (a server
// could name any authorization server, and the credentials would go
// there); here the suite is both and is trusted.
func suiteIssuer(ctx context.Context, serverURL string, c authContext) (string, error) {
	if c.Issuer != "" {
		return c.Issuer, nil
	}
	hc := &http.Client{Timeout: 10 * time.Second}
	do := func(method, u string, v any) (*http.Response, error) {
		var body io.Reader
		if method == http.MethodPost {
			body = strings.NewReader("{}")
		}
		req, err := http.NewRequestWithContext(ctx, method, u, body)
		if err != nil {
			return nil, err
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		resp, err := hc.Do(req)
		if err != nil {
			return nil, err
		}
		defer resp.Body.Close()
		if v != nil && resp.StatusCode == http.StatusOK {
			err = json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(v)
		}
		return resp, err
	}
	u, err := url.Parse(serverURL)
	if err != nil {
		return "", err
	}
	prmURL := u.Scheme + "://" + u.Host + "/.well-known/oauth-protected-resource" + strings.TrimSuffix(u.EscapedPath(), "/")
	if resp, err := do(http.MethodPost, serverURL, nil); err == nil {
		if m := resourceMetadataParam.FindStringSubmatch(resp.Header.Get("WWW-Authenticate")); m != nil {
			prmURL = m[1]
		}
	}
	var prm struct {
		AuthorizationServers []string `json:"authorization_servers"`
	}
	resp, err := do(http.MethodGet, prmURL, &prm)
	if err != nil {
		return "", fmt.Errorf("the scenario's authorization server: %s: %w", prmURL, err)
	}
	if resp.StatusCode != http.StatusOK || len(prm.AuthorizationServers) == 0 {
		return "", errors.New("the scenario's authorization server: no protected resource metadata naming one at " + prmURL)
	}
	return prm.AuthorizationServers[0], nil
}

// resourceMetadataParam finds the resource_metadata of a challenge.
var resourceMetadataParam = regexp.MustCompile(`resource_metadata="([^"]+)"`)

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
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
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
	auth, err := oauthclient.New(oauthclient.Config{
		ClientID: c.ClientID, ClientSecret: c.ClientSecret,
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
	cfg := oauthclient.Config{
		Grant:    oauthclient.GrantClientCredentials,
		ClientID: c.ClientID, ClientSecret: c.ClientSecret,
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
	auth, err := oauthclient.New(oauthclient.Config{
		Grant:    oauthclient.GrantJWTBearer,
		ClientID: c.ClientID,
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
	auth, err := oauthclient.New(oauthclient.Config{
		Grant:    oauthclient.GrantJWTBearer,
		ClientID: c.ClientID, ClientSecret: c.ClientSecret,
		Assertion: ia.Assertion,
	})
	if err != nil {
		return err
	}
	return authListAndCall(ctx, serverURL, auth)
}

// authListAndCall connects, lists the tools and calls test-tool.
//
// TEMPORARY: until the client runtime is merged this is a minimal
// JSON-RPC caller of its own (below); at merge it becomes
// mcpgen.Connect(ctx, mcpgen.HTTPTransport(serverURL), mcpgen.ClientOptions{Auth: auth,
// ProtocolVersion: os.Getenv("MCP_CONFORMANCE_PROTOCOL_VERSION")}) followed by ListTools
// and CallTool("test-tool"), and authRPC goes. Its names are prefixed with
// auth so that they cannot collide with the runtime branch's files.
func authListAndCall(ctx context.Context, serverURL string, auth mcpgen.ClientAuth) error {
	s := &authRPC{url: serverURL, auth: auth, version: os.Getenv("MCP_CONFORMANCE_PROTOCOL_VERSION"),
		hc: &http.Client{Timeout: 30 * time.Second}}
	if s.version == "" {
		s.version = "2025-11-25"
	}
	if err := s.open(ctx); err != nil {
		return err
	}
	if _, err := s.call(ctx, "tools/list", map[string]any{}); err != nil {
		return err
	}
	_, err := s.call(ctx, "tools/call", map[string]any{"name": "test-tool", "arguments": map[string]any{}})
	return err
}

// authRPC is a minimal Streamable HTTP JSON-RPC caller: the legacy
// initialize handshake, or the stateless 2026-07-28 era with per-request
// _meta. TEMPORARY, see authListAndCall.
type authRPC struct {
	url, version, session string
	auth                  mcpgen.ClientAuth
	hc                    *http.Client
	id                    int
}

func (s *authRPC) stateless() bool { return s.version >= "2026" }

func (s *authRPC) open(ctx context.Context) error {
	if s.stateless() {
		_, err := s.call(ctx, "server/discover", map[string]any{})
		return err
	}
	if _, err := s.call(ctx, "initialize", map[string]any{
		"protocolVersion": s.version,
		"capabilities":    map[string]any{},
		"clientInfo":      map[string]any{"name": "mcpgen-conformance-client", "version": "dev"},
	}); err != nil {
		return err
	}
	return s.send(ctx, map[string]any{"jsonrpc": "2.0", "method": "notifications/initialized"}, nil)
}

// call sends a request and returns its result.
func (s *authRPC) call(ctx context.Context, method string, params map[string]any) (json.RawMessage, error) {
	s.id++
	if s.stateless() {
		params["_meta"] = map[string]any{
			"io.modelcontextprotocol/protocolVersion":    s.version,
			"io.modelcontextprotocol/clientCapabilities": map[string]any{},
			"io.modelcontextprotocol/clientInfo":         map[string]any{"name": "mcpgen-conformance-client", "version": "dev"},
		}
	}
	var resp struct {
		Result json.RawMessage `json:"result"`
		Error  *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := s.send(ctx, map[string]any{"jsonrpc": "2.0", "id": s.id, "method": method, "params": params}, &resp); err != nil {
		return nil, fmt.Errorf("%s: %w", method, err)
	}
	if resp.Error != nil {
		return nil, fmt.Errorf("%s: error %d: %s", method, resp.Error.Code, resp.Error.Message)
	}
	return resp.Result, nil
}

// send POSTs msg, authorizing it and retrying at most 3 times after a
// refusal the ClientAuth says it renewed credentials for; out (nil for a
// notification) receives the JSON-RPC response, from JSON or SSE.
func (s *authRPC) send(ctx context.Context, msg any, out any) error {
	body, _ := json.Marshal(msg)
	for try := 0; ; try++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.url, bytes.NewReader(body))
		if err != nil {
			return err
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("MCP-Protocol-Version", s.version)
		if s.session != "" {
			req.Header.Set("Mcp-Session-Id", s.session)
		}
		if err := s.auth.Authorize(ctx, req); err != nil {
			return err
		}
		resp, err := s.hc.Do(req)
		if err != nil {
			return err
		}
		if resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden {
			err := s.auth.Refused(ctx, req, resp)
			_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16))
			resp.Body.Close()
			if err != nil {
				return err
			}
			if try == 3 {
				return fmt.Errorf("still refused (HTTP %d) after %d renewals", resp.StatusCode, try)
			}
			continue
		}
		defer resp.Body.Close()
		if id := resp.Header.Get("Mcp-Session-Id"); id != "" {
			s.session = id
		}
		if resp.StatusCode/100 != 2 {
			b, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
			return fmt.Errorf("HTTP %s: %s", resp.Status, bytes.TrimSpace(b))
		}
		if out == nil {
			return nil
		}
		if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
			return authReadSSE(resp.Body, out)
		}
		return json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(out)
	}
}

// authReadSSE decodes the first event carrying a JSON-RPC response.
func authReadSSE(r io.Reader, out any) error {
	sc := bufio.NewScanner(io.LimitReader(r, 1<<20))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	var data strings.Builder
	for sc.Scan() {
		line := sc.Text()
		if d, ok := strings.CutPrefix(line, "data:"); ok {
			data.WriteString(strings.TrimPrefix(d, " "))
			continue
		}
		if line == "" && data.Len() > 0 {
			var probe struct {
				ID     json.RawMessage `json:"id"`
				Result json.RawMessage `json:"result"`
				Error  json.RawMessage `json:"error"`
			}
			if json.Unmarshal([]byte(data.String()), &probe) == nil && len(probe.ID) > 0 && (probe.Result != nil || probe.Error != nil) {
				return json.Unmarshal([]byte(data.String()), out)
			}
			data.Reset()
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	return errors.New("event stream ended without a response")
}

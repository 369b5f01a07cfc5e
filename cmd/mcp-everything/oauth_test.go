package main

import (
	"context"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth/extauth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/mcpgen/mcpgen/internal/authtest"
)

// TestOAuthAndMetricsFlags starts the binary as an operator would, with
// --auth-issuer/--auth-audience naming a real authorization server (run
// by the test) and --metrics, and uses it through the official Go SDK
// client, which discovers everything from the first 401. The metrics
// listener then shows the calls and the refusal.
func TestOAuthAndMetricsFlags(t *testing.T) {
	bin := buildBinary(t)
	as := authtest.Start(t)
	addr, maddr := freeAddr(t), freeAddr(t)
	endpoint := "http://" + addr + "/mcp"
	as.AddClient("agent", authtest.Client{Secret: "s3cret", Audience: []string{endpoint}})
	srv := exec.Command(bin, "--http", addr, "--log-level", "warn", "--auth-audience", endpoint, "--metrics", maddr)
	srv.Env = append(os.Environ(), "MCP_AUTH_ISSUER="+as.Issuer)
	srv.Stderr = os.Stderr
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { srv.Process.Kill(); srv.Wait() }()
	waitListening(t, addr)

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	h, err := extauth.NewClientCredentialsHandler(&extauth.ClientCredentialsHandlerConfig{
		Credentials: &oauthex.ClientCredentials{ClientID: "agent", ClientSecretAuth: &oauthex.ClientSecretAuth{ClientSecret: "s3cret"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "oauth", Version: "1"}, nil).
		Connect(ctx, &mcp.StreamableClientTransport{Endpoint: endpoint, OAuthHandler: h}, nil)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "test_simple_text"})
	if err != nil || res.IsError {
		t.Fatalf("tools/call: %v %+v", err, res)
	}

	resp, err := http.Get("http://" + maddr + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, want := range []string{
		`mcp_server_auth_refusals_total{reason="missing_token"} 1`,
		`mcp_server_requests_total{component="test_simple_text",method="tools/call",outcome="ok"} 1`,
		`mcp_server_requests_in_flight 0`,
	} {
		if !strings.Contains(string(body), want) {
			t.Errorf("metrics lack %q", want)
		}
	}
}

package mcpgen_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen"
	"github.com/mcpgen/mcpgen/internal/testutil/serverproc"
)

// TestOAuthLocalPage follows docs/oauth-local.md with the real binaries:
// mcp-memory --dev-auth on loopback, a token minted with mcpgen dev-token
// for memory:read, a call that scope allows (200) and one it does not
// (403 insufficient_scope naming memory:write), the same without a token
// (401), and the same through the Go client with the token. On the way,
// the binary's Server Card is checked where SEP-2127 puts it.
func TestOAuthLocalPage(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs mcp-memory and mcpgen; skipped with -short")
	}
	page, err := os.ReadFile("docs/oauth-local.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, step := range []string{
		"go run ./cmd/mcp-memory --http 127.0.0.1:8080 --dev-auth",
		"TOKEN=$(go run ./cmd/mcpgen dev-token -scope memory:read)",
		`-H "Mcp-Name: read_graph"`,
		`-H "Mcp-Name: create_entities"`,
		`error="insufficient_scope"`,
	} {
		if !strings.Contains(string(page), step) {
			t.Errorf("docs/oauth-local.md no longer shows %q: update this test with the page", step)
		}
	}

	bin := t.TempDir()
	build := exec.Command("go", "build", "-o", bin, "./cmd/mcp-memory", "./cmd/mcpgen")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	// Not for production: refused on an address other hosts can reach,
	// and beside a real issuer.
	for _, args := range [][]string{{"--http", "0.0.0.0:0"}, {"--http", "127.0.0.1:0", "--auth-issuer", "https://auth.example.com", "--auth-audience", "https://mcp.example.com/mcp"}} {
		args = append(args, "--dev-auth", "--db", filepath.Join(t.TempDir(), "graph.db"))
		out, err := exec.CommandContext(ctx, filepath.Join(bin, "mcp-memory"), args...).CombinedOutput()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 2 || !strings.Contains(string(out), "--dev-auth") {
			t.Errorf("mcp-memory %s: %v\n%s\nwant exit status 2 naming --dev-auth", strings.Join(args, " "), err, out)
		}
	}
	endpoint := serverproc.HTTP(ctx, t, filepath.Join(bin, "mcp-memory"), "--http", "127.0.0.1:0", "--dev-auth", "--db", filepath.Join(t.TempDir(), "graph.db"))

	out, err := exec.CommandContext(ctx, filepath.Join(bin, "mcpgen"), "dev-token", "-url", endpoint, "-scope", "memory:read").Output()
	if err != nil {
		t.Fatalf("mcpgen dev-token: %v %s", err, out)
	}
	token := strings.TrimSpace(string(out))

	// The page's curl commands.
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
	call := func(token, tool, args string) (*http.Response, string) {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, strings.NewReader(
			`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"`+tool+`","arguments":`+args+`,`+meta+`}}`))
		for k, v := range map[string]string{"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
			"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": tool} {
			req.Header.Set(k, v)
		}
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, string(b)
	}
	entities := `{"entities":[{"name":"Ada","entityType":"person","observations":["wrote the first program"]}]}`
	if resp, body := call(token, "read_graph", `{}`); resp.StatusCode != 200 || strings.Contains(body, `"isError"`) {
		t.Errorf("read_graph with memory:read: %d %s", resp.StatusCode, body)
	}
	resp, body := call(token, "create_entities", entities)
	if ch := resp.Header.Get("WWW-Authenticate"); resp.StatusCode != 403 || !strings.Contains(ch, `error="insufficient_scope"`) || !strings.Contains(ch, "memory:write") {
		t.Errorf("create_entities with memory:read: %d %q %s, want 403 insufficient_scope naming memory:write", resp.StatusCode, ch, body)
	}
	if resp, body := call("", "read_graph", `{}`); resp.StatusCode != 401 || !strings.Contains(resp.Header.Get("WWW-Authenticate"), "resource_metadata=") {
		t.Errorf("read_graph without a token: %d %s, want 401 with a challenge", resp.StatusCode, body)
	}

	// The Server Card is served next to the endpoint, to anyone (it is
	// public), byte for byte the generated server-card.json.
	want, err := os.ReadFile("generated/memory/server-card.json")
	if err != nil {
		t.Fatal(err)
	}
	cardResp, err := http.Get(endpoint + mcpgen.ServerCardSuffix)
	if err != nil {
		t.Fatal(err)
	}
	card, _ := io.ReadAll(cardResp.Body)
	cardResp.Body.Close()
	if cardResp.StatusCode != 200 || string(card) != string(want) || cardResp.Header.Get("ETag") == "" {
		t.Errorf("GET %s%s: %d ETag %q\n%s\nwant generated/memory/server-card.json", endpoint, mcpgen.ServerCardSuffix, cardResp.StatusCode, cardResp.Header.Get("ETag"), card)
	}

	// --graph-per-subject works with the development issuer too: each
	// subject its own graph.
	private := serverproc.HTTP(ctx, t, filepath.Join(bin, "mcp-memory"), "--http", "127.0.0.1:0", "--dev-auth", "--graph-per-subject", "--db", filepath.Join(t.TempDir(), "private.db"))
	read := func(subject string) string {
		out, err := exec.CommandContext(ctx, filepath.Join(bin, "mcpgen"), "dev-token", "-url", private, "-scope", "memory:read memory:write", "-subject", subject).Output()
		if err != nil {
			t.Fatalf("mcpgen dev-token -subject %s: %v %s", subject, err, out)
		}
		c, err := mcpgen.Connect(ctx, mcpgen.HTTPTransport(private), mcpgen.ClientOptions{Auth: mcpgen.StaticToken(strings.TrimSpace(string(out)))})
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		if subject == "alice" {
			if _, err := c.CallTool(ctx, "create_entities", map[string]any{"entities": []any{map[string]any{"name": "Ada", "entityType": "person", "observations": []string{}}}}); err != nil {
				t.Fatalf("alice create_entities: %v", err)
			}
		}
		res, err := c.CallTool(ctx, "read_graph", nil)
		if err != nil {
			t.Fatalf("%s read_graph: %v", subject, err)
		}
		return string(res.StructuredContent)
	}
	if got := read("alice"); !strings.Contains(got, "Ada") {
		t.Errorf("alice's private graph: %s, want Ada", got)
	}
	if got := read("bob"); strings.Contains(got, "Ada") {
		t.Errorf("bob's private graph: %s, want nothing of alice's", got)
	}

	// The page's Go client.
	c, err := mcpgen.Connect(ctx, mcpgen.HTTPTransport(endpoint), mcpgen.ClientOptions{Auth: mcpgen.StaticToken(token)})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.CallTool(ctx, "read_graph", nil); err != nil {
		t.Errorf("client read_graph: %v", err)
	}
	var se *mcpgen.InsufficientScopeError
	if _, err := c.CallTool(ctx, "create_entities", map[string]any{"entities": []any{}}); !errors.As(err, &se) || se.Scope == "" {
		t.Errorf("client create_entities: %v, want an InsufficientScopeError", err)
	}
}

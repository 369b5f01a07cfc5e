package main

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/testutil/pgtest"
)

// TestStoreOutage: while the PostgreSQL store cannot be reached, a call
// that needs it gets a retryable error (HTTP 503 with Retry-After), not a
// failed tool call the model would read; when the database is back, the
// same replica serves again by itself and nothing written before is lost.
func TestStoreOutage(t *testing.T) {
	db := postgresTestURL(t)
	cut := pgtest.NewCut(t)
	endpoint, _ := startHTTPServer(t, sharedBinary(t), cut.Rewrite(db), io.Discard)

	call := func(tool, args string) (int, http.Header, map[string]json.RawMessage) {
		t.Helper()
		body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + tool + `","arguments":` + args +
			`,"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"outage","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}}}`
		req, _ := http.NewRequest(http.MethodPost, endpoint, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("MCP-Protocol-Version", "2026-07-28")
		req.Header.Set("Mcp-Method", "tools/call")
		req.Header.Set("Mcp-Name", tool)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("POST: %v", err)
		}
		defer res.Body.Close()
		var resp map[string]json.RawMessage
		if err := json.NewDecoder(res.Body).Decode(&resp); err != nil {
			t.Fatalf("answer (%d) is not JSON: %v", res.StatusCode, err)
		}
		return res.StatusCode, res.Header, resp
	}

	entity := `{"entities":[{"name":"before-outage","entityType":"test","observations":["kept"]}]}`
	if status, _, resp := call("create_entities", entity); status != 200 || resp["error"] != nil {
		t.Fatalf("create_entities before the outage: %d %s", status, resp["error"])
	}

	cut.Down()
	for _, tool := range []string{"read_graph", "create_entities"} {
		args := `{}`
		if tool == "create_entities" {
			args = `{"entities":[{"name":"during-outage","entityType":"test","observations":[]}]}`
		}
		status, hdr, resp := call(tool, args)
		if status != http.StatusServiceUnavailable || hdr.Get("Retry-After") == "" || resp["error"] == nil || resp["result"] != nil {
			t.Fatalf("%s during the outage: %d Retry-After %q, answer %v; want 503, Retry-After and a JSON-RPC error", tool, status, hdr.Get("Retry-After"), resp)
		}
		if !strings.Contains(string(resp["error"]), "unavailable") {
			t.Errorf("%s during the outage: error %s does not say the service is unavailable", tool, resp["error"])
		}
	}

	cut.Up()
	deadline := time.Now().Add(30 * time.Second)
	for {
		status, _, resp := call("read_graph", `{}`)
		if status == 200 && resp["error"] == nil {
			if !strings.Contains(string(resp["result"]), "before-outage") {
				t.Fatalf("after the outage the graph lacks what was written before it: %s", resp["result"])
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("still %d %s 30 s after the database came back", status, resp["error"])
		}
		time.Sleep(200 * time.Millisecond)
	}
}

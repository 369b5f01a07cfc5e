package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestResourceMistakesAreTheClients: reading memory://changes/{since} with
// a cursor ahead of the newest change, or memory://entities/{name} with a
// name longer than any entity's, was answered -32603 (internal error) and
// logged at ERROR as the server's own failure. They are invalid params
// (-32602) whose message says what to read instead, and nothing is
// logged at warn or above; memory://changes/0 answers.
func TestResourceMistakesAreTheClients(t *testing.T) {
	var stderr syncBuffer
	url, _ := startHTTPServer(t, sharedBinary(t), filepath.Join(t.TempDir(), "m.db"), &stderr)
	h := startRawHTTP(t, url)
	if _, resp := h.call(t, "tools/call", `{"name":"create_entities","arguments":{"entities":[{"name":"A","entityType":"t","observations":[]}]}}`); resp.Error != nil {
		t.Fatalf("create_entities: %s", resp.Error)
	}
	read := func(uri string) rpcResponse {
		b, _ := json.Marshal(map[string]string{"uri": uri})
		_, resp := h.call(t, "resources/read", string(b))
		return resp
	}
	if resp := read("memory://changes/0"); resp.Error != nil || !strings.Contains(string(resp.Result), "entity_created") {
		t.Errorf("changes/0: %s %s", resp.Error, resp.Result)
	}
	for _, c := range []struct{ uri, hint string }{
		{"memory://changes/99", "memory://changes/1"},
		{"memory://entities/" + strings.Repeat("x", 5000), "at most 4096 bytes"},
	} {
		resp := read(c.uri)
		var e struct {
			Code    int64  `json:"code"`
			Message string `json:"message"`
		}
		if resp.Error == nil || json.Unmarshal(resp.Error, &e) != nil || e.Code != -32602 || !strings.Contains(e.Message, c.hint) {
			t.Errorf("%.40s: error %s, want -32602 saying %q", c.uri, resp.Error, c.hint)
		}
	}
	if s := stderr.String(); s != "" {
		t.Errorf("a client's mistake was logged (--log-level warn):\n%s", s)
	}
}

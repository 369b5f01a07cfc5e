package mcpgen

import (
	"errors"
	"net/http"
	"testing"
)

// TestAuthRefusalCodeFollowsStatus: a refused authentication's JSON-RPC
// code follows its HTTP status. A 503 (the authorization server cannot be
// reached) once carried -32600 (invalid request), blaming the client for
// our outage; it carries -32603, and 4xx refusals keep -32600.
func TestAuthRefusalCodeFollowsStatus(t *testing.T) {
	f := newHTTPFixture(t, HTTPOptions{Auth: AuthFunc(func(r *http.Request) (Principal, error) {
		switch r.Header.Get("Authorization") {
		case "Bearer down":
			return Principal{}, &AuthError{Status: http.StatusServiceUnavailable, Reason: "introspection_unavailable",
				Description: "the authorization server cannot be reached", Err: errors.New("dial tcp: connection refused")}
		case "Bearer forbidden":
			return Principal{}, &AuthError{Status: http.StatusForbidden}
		}
		return Principal{}, &AuthError{Status: http.StatusUnauthorized}
	})})
	body := modernBody(1, "tools/call", map[string]any{"name": "echo", "arguments": map[string]any{"message": "hi"}})
	for _, c := range []struct {
		token  string
		status int
		code   int64
	}{
		{"down", 503, -32603},
		{"forbidden", 403, -32600},
		{"other", 401, -32600},
	} {
		h := modernHeaders("tools/call", "echo")
		h.Set("Authorization", "Bearer "+c.token)
		resp := post(t, f.url, h, body)
		if c.status == 503 && resp.Header.Get("Retry-After") == "" {
			t.Errorf("%s: 503 without Retry-After", c.token)
		}
		wantHTTPError(t, resp, c.status, c.code, "")
	}
}

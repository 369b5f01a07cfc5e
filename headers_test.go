package mcpgen

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/jsonrpc"
)

func b64(s string) string { return "=?base64?" + base64.StdEncoding.EncodeToString([]byte(s)) + "?=" }

func headersServer(t *testing.T) *Server {
	t.Helper()
	ok := func(context.Context, *Request, json.RawMessage) (*CallToolResult, error) {
		return TextResult("ok", nil)
	}
	return New(Definition{
		Name: "headers",
		Tools: []Tool{
			{Info: ToolInfo{Name: "query", InputSchema: json.RawMessage(`{"type":"object","properties":{
				"region":{"type":"string","x-mcp-header":"Region"},
				"limit":{"type":"integer","x-mcp-header":"Limit"},
				"dry":{"type":"boolean","x-mcp-header":"Dry"},
				"tenant":{"type":["string","null"],"x-mcp-header":"TenantID"},
				"q":{"type":"string"}}}`)}, Call: ok},
			{Info: ToolInfo{Name: "plain", InputSchema: json.RawMessage(`{"type":"object"}`)}, Call: ok},
		},
		Resources: []Resource{{Info: ResourceInfo{URI: "test://info", Name: "info"}}},
	}, Options{Tasks: true})
}

func TestCheckHeaders(t *testing.T) {
	s := headersServer(t)
	type hdr = map[string]string
	for _, c := range []struct {
		name    string
		method  string
		params  string // without _meta
		headers hdr    // Mcp-Method is added unless set ("" removes it)
		want    string // "" for accepted, else a fragment of the -32020 message
	}{
		{"all headers match", "tools/call", `{"name":"query","arguments":{"region":"us-west1","limit":42,"dry":true,"q":"select"}}`,
			hdr{"Mcp-Name": "query", "Mcp-Param-Region": "us-west1", "Mcp-Param-Limit": "42", "Mcp-Param-Dry": "true"}, ""},
		{"a method without Mcp-Name", "tools/list", `{}`, hdr{}, ""},
		{"missing Mcp-Method", "tools/list", `{}`, hdr{"Mcp-Method": ""}, "missing Mcp-Method"},
		{"Mcp-Method values are case-sensitive", "tools/list", `{}`, hdr{"Mcp-Method": "TOOLS/LIST"}, `Mcp-Method header value "TOOLS/LIST"`},
		{"Mcp-Method of another method", "tools/list", `{}`, hdr{"Mcp-Method": "prompts/list"}, "does not match body method"},
		{"missing Mcp-Name", "tools/call", `{"name":"plain"}`, hdr{}, "missing Mcp-Name"},
		{"Mcp-Name of another tool", "tools/call", `{"name":"plain"}`, hdr{"Mcp-Name": "query"}, `Mcp-Name header value "query" does not match body value "plain"`},
		{"Mcp-Name of resources/read is the uri", "resources/read", `{"uri":"test://info"}`, hdr{"Mcp-Name": "test://info"}, ""},
		{"Mcp-Name of tasks/get is the taskId", "tasks/get", `{"taskId":"t-1"}`, hdr{"Mcp-Name": "t-1"}, ""},
		{"Mcp-Name of tasks/cancel differs", "tasks/cancel", `{"taskId":"t-1"}`, hdr{"Mcp-Name": "t-2"}, "does not match"},
		{"Mcp-Name in base64", "resources/read", `{"uri":"test://items/日本"}`, hdr{"Mcp-Name": b64("test://items/日本")}, ""},
		{"Mcp-Name not ASCII and not encoded", "resources/read", `{"uri":"test://items/日本"}`, hdr{"Mcp-Name": "test://items/日本"}, "invalid character"},
		{"Mcp-Name with a control character", "tools/call", `{"name":"pl\u0001ain"}`, hdr{"Mcp-Name": "pl\x01ain"}, "invalid character"},
		{"Mcp-Name with DEL", "tools/call", `{"name":"pl\u007fain"}`, hdr{"Mcp-Name": "pl\x7fain"}, "invalid character"},

		// The sentinel examples of the 2026-07-28 transport page.
		{"non-ASCII value in base64", "tools/call", `{"name":"query","arguments":{"region":"Hello, 世界"}}`,
			hdr{"Mcp-Name": "query", "Mcp-Param-Region": "=?base64?SGVsbG8sIOS4lueVjA==?="}, ""},
		{"padded value in base64", "tools/call", `{"name":"query","arguments":{"region":" padded "}}`,
			hdr{"Mcp-Name": "query", "Mcp-Param-Region": "=?base64?IHBhZGRlZCA=?="}, ""},
		{"newline in base64", "tools/call", `{"name":"query","arguments":{"region":"line1\nline2"}}`,
			hdr{"Mcp-Name": "query", "Mcp-Param-Region": "=?base64?bGluZTEKbGluZTI=?="}, ""},
		{"a value shaped like the sentinel, encoded", "tools/call", `{"name":"query","arguments":{"region":"=?base64?literal?="}}`,
			hdr{"Mcp-Name": "query", "Mcp-Param-Region": "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?="}, ""},
		{"a value shaped like the sentinel, not encoded", "tools/call", `{"name":"query","arguments":{"region":"=?base64?literal?="}}`,
			hdr{"Mcp-Name": "query", "Mcp-Param-Region": "=?base64?literal?="}, "Mcp-Param-Region"},
		{"an empty value in base64", "tools/call", `{"name":"query","arguments":{"region":""}}`,
			hdr{"Mcp-Name": "query", "Mcp-Param-Region": "=?base64??="}, ""},
		{"a bare sentinel", "tools/call", `{"name":"query","arguments":{"region":"x"}}`,
			hdr{"Mcp-Name": "query", "Mcp-Param-Region": "=?base64?="}, "Mcp-Param-Region"},
		{"a bare sentinel as Mcp-Name", "tools/call", `{"name":"query"}`, hdr{"Mcp-Name": "=?base64?="}, "Mcp-Name"},
		{"bad base64", "tools/call", `{"name":"query","arguments":{"region":"x"}}`,
			hdr{"Mcp-Name": "query", "Mcp-Param-Region": "=?base64?***?="}, "bad base64"},
		{"the sentinel is case-sensitive", "tools/call", `{"name":"query","arguments":{"region":"us"}}`,
			hdr{"Mcp-Name": "query", "Mcp-Param-Region": "=?BASE64?dXM=?="}, "does not match"},
		{"a non-ASCII plain value", "tools/call", `{"name":"query","arguments":{"region":"Zürich"}}`,
			hdr{"Mcp-Name": "query", "Mcp-Param-Region": "Zürich"}, "invalid character"},
		{"a control character in a plain value", "tools/call", `{"name":"query","arguments":{"region":"a\u0007b"}}`,
			hdr{"Mcp-Name": "query", "Mcp-Param-Region": "a\x07b"}, "invalid character"},

		// Values by type.
		{"an integer compared numerically", "tools/call", `{"name":"query","arguments":{"limit":42}}`,
			hdr{"Mcp-Name": "query", "Mcp-Param-Limit": "42.0"}, ""},
		{"an integer sent as a float", "tools/call", `{"name":"query","arguments":{"limit":42.0}}`,
			hdr{"Mcp-Name": "query", "Mcp-Param-Limit": "42"}, ""},
		{"another integer", "tools/call", `{"name":"query","arguments":{"limit":42}}`,
			hdr{"Mcp-Name": "query", "Mcp-Param-Limit": "43"}, "Mcp-Param-Limit"},
		{"not a number", "tools/call", `{"name":"query","arguments":{"limit":42}}`,
			hdr{"Mcp-Name": "query", "Mcp-Param-Limit": "forty-two"}, "Mcp-Param-Limit"},
		{"booleans are lowercase", "tools/call", `{"name":"query","arguments":{"dry":true}}`,
			hdr{"Mcp-Name": "query", "Mcp-Param-Dry": "True"}, "Mcp-Param-Dry"},
		{"false", "tools/call", `{"name":"query","arguments":{"dry":false}}`,
			hdr{"Mcp-Name": "query", "Mcp-Param-Dry": "false"}, ""},
		{"a string that looks like a number", "tools/call", `{"name":"query","arguments":{"region":"42"}}`,
			hdr{"Mcp-Name": "query", "Mcp-Param-Region": "42.0"}, "Mcp-Param-Region"},

		// Presence.
		{"argument in the body, header missing", "tools/call", `{"name":"query","arguments":{"region":"us"}}`,
			hdr{"Mcp-Name": "query"}, "missing Mcp-Param-Region"},
		{"header sent, argument absent", "tools/call", `{"name":"query","arguments":{}}`,
			hdr{"Mcp-Name": "query", "Mcp-Param-Region": "us"}, "argument \"region\" is absent"},
		{"null argument, no header", "tools/call", `{"name":"query","arguments":{"tenant":null}}`, hdr{"Mcp-Name": "query"}, ""},
		{"null argument, header sent", "tools/call", `{"name":"query","arguments":{"tenant":null}}`,
			hdr{"Mcp-Name": "query", "Mcp-Param-TenantID": "null"}, "Mcp-Param-TenantID"},
		{"no arguments at all", "tools/call", `{"name":"query"}`, hdr{"Mcp-Name": "query"}, ""},
		{"an unannotated argument needs no header", "tools/call", `{"name":"query","arguments":{"q":"x"}}`, hdr{"Mcp-Name": "query"}, ""},
		{"unknown Mcp-Param headers are ignored", "tools/call", `{"name":"plain"}`, hdr{"Mcp-Name": "plain", "Mcp-Param-Other": "x"}, ""},
		{"header names are case-insensitive", "tools/call", `{"name":"query","arguments":{"tenant":"acme"}}`,
			hdr{"mcp-name": "query", "mcp-param-tenantid": "acme"}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := http.Header{}
			h.Set("Mcp-Method", c.method)
			for k, v := range c.headers {
				if v == "" {
					h.Del(k)
					continue
				}
				h[http.CanonicalHeaderKey(k)] = []string{v} // as received: no validation
			}
			m := &jsonrpc.Message{JSONRPC: "2.0", ID: json.RawMessage(`1`), Method: c.method, Params: json.RawMessage(c.params)}
			var p params
			if err := json.Unmarshal(m.Params, &p); err != nil {
				t.Fatal(err)
			}
			var err error
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Fatalf("checkHeaders panicked: %v", r)
					}
				}()
				err = s.checkHeaders(h, m, &p)
			}()
			switch {
			case c.want == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case c.want != "" && err == nil:
				t.Fatalf("accepted, want a refusal mentioning %q", c.want)
			case c.want != "":
				w := jsonrpc.Wire(err)
				if w.Code != jsonrpc.CodeHeaderMismatch || !strings.Contains(w.Message, c.want) {
					t.Fatalf("got %d %q, want -32020 mentioning %q", w.Code, w.Message, c.want)
				}
			}
		})
	}
}

// Through Handle, a header mismatch on a stateless request is -32020 with
// HTTP status 400, and so is a MCP-Protocol-Version header that disagrees
// with _meta.
func TestHandleHeaderMismatchStatus(t *testing.T) {
	s := headersServer(t)
	line := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"query","arguments":{"region":"us"},` + modernMeta + `}}`
	for _, c := range []struct {
		name    string
		headers http.Header
		code    int64
	}{
		{"matching", http.Header{"Mcp-Protocol-Version": {"2026-07-28"}, "Mcp-Method": {"tools/call"}, "Mcp-Name": {"query"}, "Mcp-Param-Region": {"us"}}, 0},
		{"param mismatch", http.Header{"Mcp-Protocol-Version": {"2026-07-28"}, "Mcp-Method": {"tools/call"}, "Mcp-Name": {"query"}, "Mcp-Param-Region": {"eu"}}, jsonrpc.CodeHeaderMismatch},
		{"bare sentinel", http.Header{"Mcp-Protocol-Version": {"2026-07-28"}, "Mcp-Method": {"tools/call"}, "Mcp-Name": {"=?base64?="}}, jsonrpc.CodeHeaderMismatch},
		{"version mismatch", http.Header{"Mcp-Protocol-Version": {"2025-11-25"}, "Mcp-Method": {"tools/call"}, "Mcp-Name": {"query"}, "Mcp-Param-Region": {"us"}}, jsonrpc.CodeHeaderMismatch},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := &inbound{HTTPHeaders: c.headers}
			resp, out := handleOutcome(t, s, in, line)
			if c.code == 0 {
				result(t, resp)
				return
			}
			wantError(t, resp, c.code, "Header mismatch")
			if got := httpStatus(out); got != http.StatusBadRequest {
				t.Errorf("status %d, want 400", got)
			}
		})
	}
}

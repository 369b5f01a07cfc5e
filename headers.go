package mcpgen

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/mcpgen/mcpgen/internal/jsonrpc"
)

// checkHeaders enforces the 2026-07-28 Streamable HTTP rule that the
// routing headers repeat the body: Mcp-Method always, Mcp-Name for calls
// that name a component, Mcp-Param-* for tool arguments marked x-mcp-header.
// Any disagreement is HeaderMismatch (-32020).
func (s *Server) checkHeaders(h HeaderGetter, m *jsonrpc.Message, p *params) error {
	if got := h.Get("Mcp-Method"); got != m.Method {
		if got == "" {
			return headerMismatch("missing Mcp-Method header")
		}
		return headerMismatch(fmt.Sprintf("Mcp-Method header value %q does not match body method %q", got, m.Method))
	}
	var want string
	switch m.Method {
	case "tools/call", "prompts/get":
		want = p.Name
	case "resources/read":
		want = p.URI
	case "tasks/get", "tasks/update", "tasks/cancel":
		var tp struct {
			TaskID string `json:"taskId"`
		}
		_ = json.Unmarshal(m.Params, &tp)
		want = tp.TaskID
	default:
		return nil
	}
	raw := h.Get("Mcp-Name")
	if raw == "" {
		return headerMismatch("missing Mcp-Name header")
	}
	got, err := decodeHeaderValue(raw)
	if err != nil {
		return headerMismatch("Mcp-Name header: " + err.Error())
	}
	if got != want {
		return headerMismatch(fmt.Sprintf("Mcp-Name header value %q does not match body value %q", got, want))
	}
	if m.Method == "tools/call" {
		if t := s.tools[p.Name]; t != nil {
			return checkParamHeaders(h, t.headerParams, p.Arguments)
		}
	}
	return nil
}

func headerMismatch(msg string) error {
	return &jsonrpc.Error{Code: jsonrpc.CodeHeaderMismatch, Message: "Header mismatch: " + msg}
}

// decodeHeaderValue undoes the =?base64?...?= sentinel, and rejects a
// plain value with a character outside visible ASCII and space: such values
// must be sent encoded.
func decodeHeaderValue(v string) (string, error) {
	const prefix, suffix = "=?base64?", "?="
	if strings.HasPrefix(v, prefix) && strings.HasSuffix(v, suffix) {
		if len(v) < len(prefix)+len(suffix) { // "=?base64?=": the markers overlap
			return "", fmt.Errorf("bad base64 value")
		}
		b, err := base64.StdEncoding.DecodeString(v[len(prefix) : len(v)-len(suffix)])
		if err != nil {
			return "", fmt.Errorf("bad base64 value")
		}
		return string(b), nil
	}
	for i := 0; i < len(v); i++ {
		if c := v[i]; c < 0x20 || c > 0x7e {
			return "", fmt.Errorf("invalid character in value")
		}
	}
	return v, nil
}

// checkParamHeaders compares each Mcp-Param-{Name} header with the argument
// marked x-mcp-header: Name.
func checkParamHeaders(h HeaderGetter, params map[string]string, args json.RawMessage) error {
	if len(params) == 0 {
		return nil
	}
	var values map[string]json.RawMessage
	_ = json.Unmarshal(args, &values)
	for prop, name := range params {
		raw, present := values[prop]
		header := h.Get("Mcp-Param-" + name)
		if !present || string(raw) == "null" {
			if header != "" {
				return headerMismatch(fmt.Sprintf("Mcp-Param-%s header sent but argument %q is absent", name, prop))
			}
			continue
		}
		if header == "" {
			return headerMismatch(fmt.Sprintf("missing Mcp-Param-%s header for argument %q", name, prop))
		}
		got, err := decodeHeaderValue(header)
		if err != nil {
			return headerMismatch(fmt.Sprintf("Mcp-Param-%s header: %v", name, err))
		}
		if !sameParam(got, raw) {
			return headerMismatch(fmt.Sprintf("Mcp-Param-%s header value %q does not match argument %q", name, got, prop))
		}
	}
	return nil
}

func sameParam(header string, body json.RawMessage) bool {
	var s string
	if json.Unmarshal(body, &s) == nil {
		return s == header
	}
	var b bool
	if json.Unmarshal(body, &b) == nil {
		return strconv.FormatBool(b) == header
	}
	want, err1 := strconv.ParseFloat(string(body), 64)
	got, err2 := strconv.ParseFloat(header, 64)
	return err1 == nil && err2 == nil && want == got
}

// headerParams reads the x-mcp-header annotations of a tool's top-level
// input properties.
func headerParams(schema json.RawMessage) map[string]string {
	var s struct {
		Properties map[string]struct {
			Header string `json:"x-mcp-header"`
		} `json:"properties"`
	}
	_ = json.Unmarshal(schema, &s)
	var out map[string]string
	for prop, p := range s.Properties {
		if p.Header != "" {
			if out == nil {
				out = map[string]string{}
			}
			out[prop] = p.Header
		}
	}
	return out
}

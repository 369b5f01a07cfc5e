package mcpgen

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// This file mirrors tool arguments into HTTP headers (2026-07-28,
// Streamable HTTP): a property of a tool's input schema marked
// x-mcp-header: Name travels as Mcp-Param-Name too, so that
// intermediaries can route on it without reading the body.

// mirrorsHeaders reports whether requests carry the stateless era's
// routing headers: over HTTP, after server/discover.
func (c *Client) mirrorsHeaders() bool {
	_, ok := c.conn.(*httpConn)
	return ok && !c.legacy
}

// headerParam is one x-mcp-header annotation: the property path from the
// schema's root and the header's name part.
type headerParam struct {
	path []string
	name string
}

// headerPaths finds the x-mcp-header annotations of an input schema and
// checks them against the rules of the transport: a valid header token,
// unique ignoring case, on a string, integer or boolean property reached
// from the root through properties alone. Any violation makes the whole
// tool unusable over HTTP.
func headerPaths(schema json.RawMessage) ([]headerParam, error) {
	if len(schema) == 0 || !bytes.Contains(schema, []byte(`"x-mcp-header"`)) {
		return nil, nil
	}
	var root any
	if err := json.Unmarshal(schema, &root); err != nil {
		return nil, fmt.Errorf("input schema: %w", err)
	}
	var out []headerParam
	seen := map[string]bool{}
	var walk func(node any, path []string, direct bool) error
	walk = func(node any, path []string, direct bool) error {
		switch n := node.(type) {
		case []any:
			for _, v := range n {
				if err := walk(v, nil, false); err != nil {
					return err
				}
			}
		case map[string]any:
			if h, ok := n["x-mcp-header"]; ok {
				name, _ := h.(string)
				switch {
				case !direct || len(path) == 0:
					return fmt.Errorf("x-mcp-header %v is not on a property reached through properties alone", h)
				case !validToken(name):
					return fmt.Errorf("x-mcp-header %q of %s is not an HTTP header token", h, strings.Join(path, "."))
				case seen[strings.ToLower(name)]:
					return fmt.Errorf("x-mcp-header %q is used twice", name)
				}
				if t, _ := n["type"].(string); t != "string" && t != "integer" && t != "boolean" {
					return fmt.Errorf("x-mcp-header %q is on %s of type %v; only string, integer and boolean may be mirrored", name, strings.Join(path, "."), n["type"])
				}
				seen[strings.ToLower(name)] = true
				out = append(out, headerParam{path: path, name: name})
			}
			for k, v := range n {
				if k == "properties" {
					props, _ := v.(map[string]any)
					for pk, pv := range props {
						if err := walk(pv, append(path[:len(path):len(path)], pk), direct); err != nil {
							return err
						}
					}
					continue
				}
				if err := walk(v, nil, false); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if err := walk(root, nil, true); err != nil {
		return nil, err
	}
	return out, nil
}

// validToken reports whether s is an HTTP field-name token (RFC 9110).
func validToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0 {
			continue
		}
		return false
	}
	return true
}

// paramHeaders builds the Mcp-Param-* headers of a call to tool with
// args, from the tool's input schema as ListTools last saw it (listing
// the tools first if it never has).
func (c *Client) paramHeaders(tool string, args json.RawMessage) (http.Header, error) {
	c.toolsMu.Lock()
	schema, ok := c.toolCache[tool]
	listed := len(c.toolCache) > 0
	c.toolsMu.Unlock()
	if !ok && !listed {
		if _, err := c.ListTools(context.Background()); err == nil {
			c.toolsMu.Lock()
			schema = c.toolCache[tool]
			c.toolsMu.Unlock()
		}
	}
	params, err := headerPaths(schema)
	if err != nil || len(params) == 0 || len(args) == 0 {
		return nil, err
	}
	var root any
	dec := json.NewDecoder(bytes.NewReader(args))
	dec.UseNumber()
	if err := dec.Decode(&root); err != nil {
		return nil, fmt.Errorf("arguments: %w", err)
	}
	h := http.Header{}
	for _, p := range params {
		v := root
		for _, k := range p.path {
			m, _ := v.(map[string]any)
			v = m[k]
		}
		var s string
		switch v := v.(type) {
		case string:
			s = v
		case json.Number:
			s = v.String()
		case bool:
			s = fmt.Sprint(v)
		default:
			continue // absent, null, or not a primitive
		}
		h.Set("Mcp-Param-"+p.name, headerValue(s))
	}
	return h, nil
}

// headerValue encodes s for an Mcp-Name or Mcp-Param-* header: as it is
// when it is plain visible ASCII and spaces inside, else (non-ASCII,
// control characters and tabs, leading or trailing space, or a value that
// looks encoded already) as =?base64?...?=.
func headerValue(s string) string {
	plain := s == strings.TrimSpace(s) && !(strings.HasPrefix(s, "=?base64?") && strings.HasSuffix(s, "?="))
	for i := 0; plain && i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e { // a tab too: the suite's reading of "safe"
			plain = false
		}
	}
	if plain {
		return s
	}
	return "=?base64?" + base64.StdEncoding.EncodeToString([]byte(s)) + "?="
}

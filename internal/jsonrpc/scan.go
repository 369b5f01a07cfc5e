package jsonrpc

import (
	"encoding/json"
	"errors"
)

// A one-pass scanner for the envelope and the router's params (measured in
// docs/bench/log.md): encoding/json scans a body twice per level (checkValid,
// then decode), and the request path has three levels (message, params,
// arguments). Here raw members (id, params, arguments, _meta values) are
// checked once and sliced out of the body instead of copied. Anything
// unusual (a syntax error, a key in another case, which encoding/json would
// match case-insensitively) falls back to encoding/json, so errors read as
// before. Sliced members alias the transport's buffer: transports must hand
// over a buffer they do not reuse (both do).

var errSyntax = errors.New("syntax")

func skipWS(d []byte, i int) int {
	for i < len(d) && (d[i] == ' ' || d[i] == '\t' || d[i] == '\n' || d[i] == '\r') {
		i++
	}
	return i
}

// skipString returns the index after the string starting at d[i] == '"',
// and whether it holds escapes or non-ASCII bytes.
func skipString(d []byte, i int) (int, bool, error) {
	i++
	special := false
	for i < len(d) {
		c := d[i]
		switch {
		case c == '"':
			return i + 1, special, nil
		case c == '\\':
			special = true
			if i+1 >= len(d) {
				return 0, false, errSyntax
			}
			switch d[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(d) || !isHex(d[i+2]) || !isHex(d[i+3]) || !isHex(d[i+4]) || !isHex(d[i+5]) {
					return 0, false, errSyntax
				}
				i += 6
			default:
				return 0, false, errSyntax
			}
		case c < 0x20:
			return 0, false, errSyntax
		case c >= 0x80:
			special = true
			i++
		default:
			i++
		}
	}
	return 0, false, errSyntax
}

// SkipValue returns the index after the JSON value at d[i:] (whitespace
// first), checking its syntax.
func SkipValue(d []byte, i, depth int) (int, error) {
	i = skipWS(d, i)
	if i >= len(d) || depth > 10000 {
		return 0, errSyntax
	}
	switch c := d[i]; {
	case c == '"':
		end, _, err := skipString(d, i)
		return end, err
	case c == '{':
		i = skipWS(d, i+1)
		if i < len(d) && d[i] == '}' {
			return i + 1, nil
		}
		for {
			if i >= len(d) || d[i] != '"' {
				return 0, errSyntax
			}
			end, _, err := skipString(d, i)
			if err != nil {
				return 0, err
			}
			i = skipWS(d, end)
			if i >= len(d) || d[i] != ':' {
				return 0, errSyntax
			}
			if i, err = SkipValue(d, i+1, depth+1); err != nil {
				return 0, err
			}
			i = skipWS(d, i)
			if i < len(d) && d[i] == ',' {
				i = skipWS(d, i+1)
				continue
			}
			if i < len(d) && d[i] == '}' {
				return i + 1, nil
			}
			return 0, errSyntax
		}
	case c == '[':
		i = skipWS(d, i+1)
		if i < len(d) && d[i] == ']' {
			return i + 1, nil
		}
		for {
			var err error
			if i, err = SkipValue(d, i, depth+1); err != nil {
				return 0, err
			}
			i = skipWS(d, i)
			if i < len(d) && d[i] == ',' {
				i++
				continue
			}
			if i < len(d) && d[i] == ']' {
				return i + 1, nil
			}
			return 0, errSyntax
		}
	case c == 't':
		return lit(d, i, "true")
	case c == 'f':
		return lit(d, i, "false")
	case c == 'n':
		return lit(d, i, "null")
	case c == '-' || ('0' <= c && c <= '9'):
		return skipNumber(d, i)
	}
	return 0, errSyntax
}

// skipNumber returns the index after the number at d[i], following the JSON
// grammar exactly: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func skipNumber(d []byte, i int) (int, error) {
	digits := func(j int) int {
		for j < len(d) && '0' <= d[j] && d[j] <= '9' {
			j++
		}
		return j
	}
	if i < len(d) && d[i] == '-' {
		i++
	}
	switch {
	case i < len(d) && d[i] == '0':
		i++
	case i < len(d) && '1' <= d[i] && d[i] <= '9':
		i = digits(i)
	default:
		return 0, errSyntax
	}
	if i < len(d) && d[i] == '.' {
		j := digits(i + 1)
		if j == i+1 {
			return 0, errSyntax
		}
		i = j
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		j := digits(i)
		if j == i {
			return 0, errSyntax
		}
		i = j
	}
	return i, nil
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func lit(d []byte, i int, s string) (int, error) {
	if len(d)-i < len(s) || string(d[i:i+len(s)]) != s {
		return 0, errSyntax
	}
	return i + len(s), nil
}

// Fields calls fn for each member of the object d (which must be an object,
// whitespace around allowed), with the raw key (quotes included) and value.
func Fields(d []byte, fn func(key, val []byte) error) error {
	i := skipWS(d, 0)
	if i >= len(d) || d[i] != '{' {
		return errSyntax
	}
	i = skipWS(d, i+1)
	if i < len(d) && d[i] == '}' {
		if skipWS(d, i+1) != len(d) {
			return errSyntax
		}
		return nil
	}
	for {
		if i >= len(d) || d[i] != '"' {
			return errSyntax
		}
		kend, _, err := skipString(d, i)
		if err != nil {
			return err
		}
		key := d[i:kend]
		i = skipWS(d, kend)
		if i >= len(d) || d[i] != ':' {
			return errSyntax
		}
		vs := skipWS(d, i+1)
		ve, err := SkipValue(d, vs, 1)
		if err != nil {
			return err
		}
		if err := fn(key, d[vs:ve]); err != nil {
			return err
		}
		i = skipWS(d, ve)
		if i < len(d) && d[i] == ',' {
			i = skipWS(d, i+1)
			continue
		}
		if i < len(d) && d[i] == '}' {
			if skipWS(d, i+1) != len(d) {
				return errSyntax
			}
			return nil
		}
		return errSyntax
	}
}

// String decodes a JSON string value; plain ASCII without escapes is
// copied directly.
func String(raw []byte) (string, error) {
	if len(raw) >= 2 && raw[0] == '"' {
		plain := true
		for _, c := range raw[1 : len(raw)-1] {
			if c == '\\' || c >= 0x80 {
				plain = false
				break
			}
		}
		if plain {
			return string(raw[1 : len(raw)-1]), nil
		}
	}
	var s string
	err := json.Unmarshal(raw, &s) // escapes and UTF-8 repair as encoding/json does them
	return s, err
}

// decodeFast is Decode's one-pass path; ok is false when the message must
// go through encoding/json (for its error messages, or odd shapes).
func decodeFast(data []byte) (m *Message, ok bool) {
	m = &Message{}
	err := Fields(data, func(key, val []byte) error {
		var err error
		switch string(key) {
		case `"jsonrpc"`:
			m.JSONRPC, err = String(val)
		case `"id"`:
			m.ID = val
		case `"method"`:
			m.Method, err = String(val)
		case `"params"`:
			m.Params = val
		case `"result"`:
			m.Result = val
		case `"error"`:
			m.Error = &Error{}
			err = json.Unmarshal(val, m.Error)
		default:
			if len(key) > 2 && string(key) != `"_meta"` {
				// encoding/json matches keys case-insensitively; leave
				// anything unusual to it.
				for _, c := range key {
					if 'A' <= c && c <= 'Z' {
						return errSyntax
					}
				}
			}
		}
		return err
	})
	if err != nil {
		return nil, false
	}
	if string(m.ID) == "null" {
		m.ID = json.RawMessage("null")
	}
	return m, true
}

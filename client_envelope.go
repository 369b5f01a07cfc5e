package mcpgen

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
)

// requestBytes encodes the JSON-RPC request o: the bytes json.Marshal
// gives for {"jsonrpc": "2.0", "id": o.id, "method": o.method, "params":
// o.params} (members in key order), without reading the params again.
// They are json.Marshal's bytes already (encodeParams, initialize), so
// they are compact, valid and HTML-escaped, and encoding/json would only
// scan them once more to compact them: for a tool call, every byte of
// the arguments.
func requestBytes(o *outgoing) []byte {
	b := make([]byte, 0, len(`{"id":,"jsonrpc":"2.0","method":,"params":}`)+20+escapedLen(o.method)+len(o.params))
	b = append(b, `{"id":`...)
	b = strconv.AppendInt(b, o.id, 10)
	b = append(b, `,"jsonrpc":"2.0","method":`...)
	b = appendJSONString(b, o.method)
	if o.params != nil {
		b = append(b, `,"params":`...)
		b = append(b, o.params...)
	}
	return append(b, '}')
}

// encodedJSON is a value json.Marshal encoded already (compact, valid,
// HTML-escaped), kept in a params map so that encodeParams writes it as
// it is: a tool call's arguments, which would otherwise be read once more
// to be compacted. Any other encoder gets the same bytes.
type encodedJSON []byte

// MarshalJSON returns e itself.
func (e encodedJSON) MarshalJSON() ([]byte, error) { return e, nil }

// encodeParams encodes a request's params: the bytes json.Marshal gives
// for the map (members in key order) with meta, when it is not nil, as its
// "_meta" member. encodedJSON values and meta are copied rather than
// compacted again, strings written by appendJSONString; other values go
// through json.Marshal. The map is not changed.
func encodeParams(params map[string]any, meta []byte) ([]byte, error) {
	var keyBuf [8]string
	keys := keyBuf[:0]
	for k := range params {
		if k != "_meta" || meta == nil {
			keys = append(keys, k)
		}
	}
	if meta != nil {
		keys = append(keys, "_meta")
	}
	slices.Sort(keys)
	var valBuf [8][]byte
	vals := valBuf[:0]
	size := 2
	for _, k := range keys {
		var v []byte
		if k == "_meta" && meta != nil {
			size += len(meta) // written below
		} else {
			switch pv := params[k].(type) {
			case encodedJSON:
				v = pv
			case string:
				size += escapedLen(pv) // written below, straight into b
			default:
				var err error
				if v, err = json.Marshal(pv); err != nil {
					return nil, err
				}
			}
		}
		vals = append(vals, v)
		size += len(k) + len(v) + 4
	}
	b := make([]byte, 0, size)
	b = append(b, '{')
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		if plainKey(k) {
			b = append(append(append(b, '"'), k...), '"')
		} else {
			b = appendJSONString(b, k)
		}
		b = append(b, ':')
		if k == "_meta" && meta != nil {
			b = append(b, meta...)
		} else if s, ok := params[k].(string); ok {
			b = appendJSONString(b, s)
		} else {
			b = append(b, vals[i]...)
		}
	}
	return append(b, '}'), nil
}

// Members of the per-request _meta of the stateless era, in the key order
// json.Marshal writes them.
const (
	metaOpen        = `{"` + metaClientCapabilities + `":`
	metaInfoKey     = `,"` + metaClientInfo + `":`
	metaLogLevelKey = `,"` + metaLogLevel + `":`
	metaVersionKey  = `,"` + metaProtocolVersion + `":`
	metaProgressKey = `,"` + metaProgressToken + `":`
	legacyMetaOpen  = `{"` + metaProgressToken + `":`
)

// encodeMeta encodes the part of the stateless era's _meta that is the
// same on every request, the client's capabilities and clientInfo, once
// (see appendMeta).
func (c *Client) encodeMeta() {
	b := append([]byte(metaOpen), c.caps...)
	b = append(b, metaInfoKey...)
	c.metaHead = append(b, c.metaInfo...)
}

// appendMeta appends a request's _meta object to b: in the stateless era
// the revision, the client's capabilities and clientInfo and the log
// level (when set), and the progress token when there is one; nil when
// there is nothing to send. The bytes are those json.Marshal gives for
// the map of these members.
func (c *Client) appendMeta(b []byte, level, token string) []byte {
	if c.legacy {
		if token == "" {
			return nil
		}
		b = append(b, legacyMetaOpen...)
		return append(appendJSONString(b, token), '}')
	}
	b = append(b, c.metaHead...)
	if level != "" {
		b = appendJSONString(append(b, metaLogLevelKey...), level)
	}
	b = appendJSONString(append(b, metaVersionKey...), c.version)
	if token != "" {
		b = appendJSONString(append(b, metaProgressKey...), token)
	}
	return append(b, '}')
}

// plainKey reports whether json.Marshal writes k as it is between quotes:
// letters, digits, '_', '-' and '/' only (every key the client sends).
func plainKey(k string) bool {
	for i := 0; i < len(k); i++ {
		c := k[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-' || c == '/') {
			return false
		}
	}
	return true
}

// decodeMessage decodes one JSON-RPC message into m as json.Unmarshal
// does, with the same result and the same error. A valid message whose
// members are the usual ones, spelled as the protocol spells them, is
// read by hand after json.Valid has checked it: one pass of the scanner
// and a copy of the raw members, where json.Unmarshal scans the message
// twice (checking it, then decoding it) and goes through reflection. Any
// other message (a key to match case-insensitively, a duplicate, an
// escape in a key or the method, an error member) takes json.Unmarshal.
// The raw members read by hand are slices of b, not copies: b is the
// caller's to hand over (every caller reads each message into a buffer
// of its own).
func decodeMessage(b []byte, m *wireMessage) error {
	if json.Valid(b) && scanMessage(b, m) {
		return nil
	}
	*m = wireMessage{}
	return json.Unmarshal(b, m)
}

// scanMessage reads the members of the valid JSON b into m; false when it
// is not an object of the plain shape decodeMessage reads by hand.
func scanMessage(b []byte, m *wireMessage) bool {
	*m = wireMessage{}
	var seen [5]bool // id, method, params, result, jsonrpc
	return objectMembers(b, skipSpace(b, 0), func(key, v []byte) bool {
		slot := -1
		switch string(key) {
		case "id":
			slot = 0
			m.ID = v
		case "method":
			slot = 1
			if v[0] != '"' || bytes.IndexByte(v, '\\') >= 0 {
				return false // not a string, or one to unescape
			}
			m.Method = string(v[1 : len(v)-1])
		case "params":
			slot = 2
			m.Params = v
		case "result":
			slot = 3
			m.Result = v
		case "jsonrpc":
			slot = 4
		default:
			// A key json.Unmarshal would match to a field ignoring
			// case, or one with escapes: the slow way. Others are
			// ignored, as json.Unmarshal ignores them.
			if bytes.IndexByte(key, '\\') >= 0 || bytes.EqualFold(key, []byte("id")) || bytes.EqualFold(key, []byte("method")) ||
				bytes.EqualFold(key, []byte("params")) || bytes.EqualFold(key, []byte("result")) || bytes.EqualFold(key, []byte("error")) {
				return false
			}
		}
		if slot >= 0 {
			if seen[slot] {
				return false
			}
			seen[slot] = true
		}
		return true
	})
}

// skipSpace returns the index of the first byte at or after i in b that
// is not JSON whitespace.
func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// stringEnd returns the index just past the JSON string that starts at
// b[i] (a '"'), or len(b) when it does not end.
func stringEnd(b []byte, i int) int {
	for i++; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return len(b)
}

// valueEnd returns the index just past the JSON value that starts at
// b[i], in valid JSON; -1 when there is none.
func valueEnd(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		return stringEnd(b, i)
	case '{', '[':
		depth := 0
		for i < len(b) {
			switch b[i] {
			case '"':
				i = stringEnd(b, i)
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return -1
	}
	for i < len(b) && b[i] != ',' && b[i] != '}' && b[i] != ']' && b[i] != ' ' && b[i] != '\t' && b[i] != '\n' && b[i] != '\r' {
		i++
	}
	return i
}

package mcpgen

import (
	"encoding/json"
	"slices"
	"strconv"
)

// requestBytes encodes the JSON-RPC request o: the bytes json.Marshal
// gives for {"jsonrpc": "2.0", "id": o.id, "method": o.method, "params":
// o.params} (members in key order), without reading the params again.
// They were encoded by json.Marshal already (callWith, initialize), so
// they are compact, valid and HTML-escaped, and encoding/json would only
// scan them once more to compact them: for a tool call, every byte of
// the arguments.
func requestBytes(o *outgoing) ([]byte, error) {
	method, err := json.Marshal(o.method)
	if err != nil {
		return nil, err
	}
	b := make([]byte, 0, len(`{"id":,"jsonrpc":"2.0","method":,"params":}`)+20+len(method)+len(o.params))
	b = append(b, `{"id":`...)
	b = strconv.AppendInt(b, o.id, 10)
	b = append(b, `,"jsonrpc":"2.0","method":`...)
	b = append(b, method...)
	if o.params != nil {
		b = append(b, `,"params":`...)
		b = append(b, o.params...)
	}
	return append(b, '}'), nil
}

// encodedJSON is a value json.Marshal encoded already (compact, valid,
// HTML-escaped), kept in a params map so that encodeParams writes it as
// it is: a tool call's arguments, which would otherwise be read once more
// to be compacted. Any other encoder gets the same bytes.
type encodedJSON []byte

// MarshalJSON returns e itself.
func (e encodedJSON) MarshalJSON() ([]byte, error) { return e, nil }

// encodeParams encodes a request's params: the bytes json.Marshal gives
// for the map (members in key order), with its encodedJSON values copied
// rather than compacted again.
func encodeParams(params map[string]any) ([]byte, error) {
	raw := false
	for _, v := range params {
		if _, ok := v.(encodedJSON); ok {
			raw = true
			break
		}
	}
	if !raw {
		return json.Marshal(params)
	}
	var keyBuf [8]string
	keys := keyBuf[:0]
	for k := range params {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var valBuf [8][]byte
	vals := valBuf[:0]
	size := 2
	for _, k := range keys {
		v, ok := params[k].(encodedJSON)
		if !ok {
			var err error
			if v, err = json.Marshal(params[k]); err != nil {
				return nil, err
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
			key, err := json.Marshal(k)
			if err != nil {
				return nil, err
			}
			b = append(b, key...)
		}
		b = append(append(b, ':'), vals[i]...)
	}
	return append(b, '}'), nil
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

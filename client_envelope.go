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
	keys := make([]string, 0, len(params))
	for k := range params {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	parts := make([][]byte, 0, 2*len(keys))
	size := 2
	for _, k := range keys {
		key, err := json.Marshal(k)
		if err != nil {
			return nil, err
		}
		v, ok := params[k].(encodedJSON)
		if !ok {
			if v, err = json.Marshal(params[k]); err != nil {
				return nil, err
			}
		}
		parts = append(parts, key, v)
		size += len(key) + len(v) + 2
	}
	b := make([]byte, 0, size)
	b = append(b, '{')
	for i := 0; i < len(parts); i += 2 {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(append(append(b, parts[i]...), ':'), parts[i+1]...)
	}
	return append(b, '}'), nil
}

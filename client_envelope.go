package mcpgen

import (
	"encoding/json"
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

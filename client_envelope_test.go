package mcpgen

import (
	"encoding/json"
	"testing"
)

// TestRequestBytes: a request is encoded to the bytes json.Marshal gives
// for its map form, so the wire is what it was. Params are always
// json.Marshal's output (see callWith and initialize).
func TestRequestBytes(t *testing.T) {
	params := func(v any) json.RawMessage {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	for _, o := range []outgoing{
		{id: 1, method: "tools/call", params: params(map[string]any{"name": "echo", "arguments": json.RawMessage(`{"message" : "a <b> & \"c\" \u2028"}`)})},
		{id: 1 << 40, method: "tools/list"},
		{id: 0, method: "initialize", params: params(map[string]any{})},
		{id: 7, method: "odd/<method>&\"name\"\u2028", params: params([]int{1, 2})},
		{id: -3, method: ""},
	} {
		msg := map[string]any{"jsonrpc": "2.0", "id": o.id, "method": o.method}
		if o.params != nil {
			msg["params"] = o.params
		}
		want, err := json.Marshal(msg)
		if err != nil {
			t.Fatal(err)
		}
		got, err := requestBytes(&o)
		if err != nil || string(got) != string(want) {
			t.Errorf("requestBytes(%s %s) = %s, %v; want %s", o.method, o.params, got, err, want)
		}
	}
}

// TestEncodeParams: params holding encoded arguments are written to the
// bytes json.Marshal gives for the same map with the arguments as a
// json.RawMessage, so the wire is what it was.
func TestEncodeParams(t *testing.T) {
	args, err := json.Marshal(map[string]any{"message": "a <b> & \"c\" \u2028", "n": 1.5, "list": []string{"x"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, params := range []map[string]any{
		{"name": "echo", "arguments": encodedJSON(args)},
		{"name": "<odd> & name", "arguments": encodedJSON(args), "_meta": map[string]any{"progressToken": "p1", "z": nil}},
		{"arguments": encodedJSON(`{}`), "inputResponses": map[string]json.RawMessage{"k": json.RawMessage(`{"a" : 1}`)}, "requestState": "s<"},
		{"arguments": encodedJSON(`{}`), "a<b": 1, "q\"uote": 2, "é": 3, "": 4, "a/b-c_D9": 5},
		{"name": "no arguments"},
		{},
	} {
		want := map[string]any{}
		for k, v := range params {
			if e, ok := v.(encodedJSON); ok {
				v = json.RawMessage(e)
			}
			want[k] = v
		}
		wantBytes, err := json.Marshal(want)
		if err != nil {
			t.Fatal(err)
		}
		got, err := encodeParams(params)
		if err != nil || string(got) != string(wantBytes) {
			t.Errorf("encodeParams = %s, %v; want %s", got, err, wantBytes)
		}
	}
}

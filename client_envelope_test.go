package mcpgen

import (
	"encoding/json"
	"fmt"
	"reflect"
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
		if got := requestBytes(&o); string(got) != string(want) {
			t.Errorf("requestBytes(%s %s) = %s; want %s", o.method, o.params, got, want)
		}
	}
}

// TestEncodeParams: params holding encoded arguments, and a _meta given
// encoded, are written to the bytes json.Marshal gives for the same map
// with the encoded values as json.RawMessage, so the wire is what it was;
// the map itself is left as it was.
func TestEncodeParams(t *testing.T) {
	args, err := json.Marshal(map[string]any{"message": "a <b> & \"c\" \u2028", "n": 1.5, "list": []string{"x"}})
	if err != nil {
		t.Fatal(err)
	}
	meta := []byte(`{"progressToken":"p1"}`)
	for _, tc := range []struct {
		params map[string]any
		meta   []byte
	}{
		{map[string]any{"name": "echo", "arguments": encodedJSON(args)}, nil},
		{map[string]any{"name": "echo", "arguments": encodedJSON(args)}, meta},
		{map[string]any{"name": "<odd> & name\u2028\xff\n", "arguments": encodedJSON(args), "_meta": map[string]any{"progressToken": "p1", "z": nil}}, nil},
		{map[string]any{"name": "x", "_meta": map[string]any{"replaced": true}}, meta},
		{map[string]any{"arguments": encodedJSON(`{}`), "inputResponses": map[string]json.RawMessage{"k": json.RawMessage(`{"a" : 1}`)}, "requestState": "s<"}, meta},
		{map[string]any{"arguments": encodedJSON(`{}`), "a<b": 1, "q\"uote": 2, "é": 3, "": 4, "a/b-c_D9": 5, "Z": "upper before _meta"}, meta},
		{map[string]any{"name": "no arguments"}, nil},
		{map[string]any{}, nil},
		{nil, meta},
	} {
		want := map[string]any{}
		for k, v := range tc.params {
			if e, ok := v.(encodedJSON); ok {
				v = json.RawMessage(e)
			}
			want[k] = v
		}
		if tc.meta != nil {
			want["_meta"] = json.RawMessage(tc.meta)
		}
		wantBytes, err := json.Marshal(want)
		if err != nil {
			t.Fatal(err)
		}
		before := fmt.Sprint(tc.params)
		got, err := encodeParams(tc.params, tc.meta)
		if err != nil || string(got) != string(wantBytes) {
			t.Errorf("encodeParams = %s, %v; want %s", got, err, wantBytes)
		}
		if after := fmt.Sprint(tc.params); after != before {
			t.Errorf("encodeParams changed its map: %s, was %s", after, before)
		}
	}
}

// TestAppendMeta: the per-request _meta is written to the bytes
// json.Marshal gives for the map callWith used to build, in both eras,
// with and without a log level and a progress token.
func TestAppendMeta(t *testing.T) {
	caps := json.RawMessage(`{"extensions":{"io.modelcontextprotocol/skills":{}}}`)
	info, err := json.Marshal(Implementation{Name: "a <client> & co", Version: "1"}) // as Connect encodes it
	if err != nil {
		t.Fatal(err)
	}
	for _, legacy := range []bool{false, true} {
		for _, level := range []string{"", "debug"} {
			for _, token := range []string{"", "p12"} {
				c := &Client{legacy: legacy, version: "2026-07-28", caps: caps, metaInfo: info}
				c.encodeMeta()
				want := map[string]any{}
				if !legacy {
					want[metaProtocolVersion] = c.version
					want[metaClientInfo] = json.RawMessage(info)
					want[metaClientCapabilities] = caps
					if level != "" {
						want[metaLogLevel] = level
					}
				}
				if token != "" {
					want[metaProgressToken] = token
				}
				got := c.appendMeta(nil, level, token)
				if len(want) == 0 {
					if got != nil {
						t.Errorf("legacy %v, level %q, token %q: %s, want nothing", legacy, level, token, got)
					}
					continue
				}
				wantBytes, err := json.Marshal(want)
				if err != nil {
					t.Fatal(err)
				}
				if string(got) != string(wantBytes) {
					t.Errorf("legacy %v, level %q, token %q:\n got %s\nwant %s", legacy, level, token, got, wantBytes)
				}
			}
		}
	}
}

// TestIDKey: a response's id is matched to its request whatever form the
// server writes it in, digits taking the short way.
func TestIDKey(t *testing.T) {
	for id, want := range map[string]string{
		`12`: "12", `"12"`: "12", `0012`: "0012", `1.50`: "1.50", `-3`: "-3", `null`: "",
		`123456789012345678901234`: "123456789012345678901234", `"a\u0062"`: "ab",
	} {
		if got := idKey(json.RawMessage(id)); got != want {
			t.Errorf("idKey(%s) = %q, want %q", id, got, want)
		}
	}
}

// messageSeeds are JSON-RPC messages, plain and odd, for decodeMessage.
var messageSeeds = []string{
	`{"jsonrpc":"2.0","id":12,"result":{"content":[{"type":"text","text":"a \"b\" {c}"}],"isError":false}}`,
	` { "id" : "x\"y" , "result" : [1, {"a": "]}"}] , "jsonrpc" : "2.0" } `,
	`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p1","progress":1}}`,
	`{"jsonrpc":"2.0","id":3,"method":"sampling/createMessage","params":{}}`,
	`{"jsonrpc":"2.0","id":4,"error":{"code":-32602,"message":"bad"}}`,
	`{"jsonrpc":"2.0","id":null,"result":null}`,
	`{"ID":5,"result":{}}`, `{"id":5,"Result":{}}`, `{"id":5,"resulſ":{}}`, `{"id":5,"res\u0075lt":{}}`,
	`{"id":5,"id":6,"result":{}}`, `{"id":5,"method":"a\/b"}`, `{"id":5,"method":7}`, `{"id":5,"method":null}`,
	`{"id":5,"other":{"id":9},"x":[true,false,null,-1.5e3],"result":"s"}`,
	`{}`, `[]`, `null`, `"id"`, `{"id":1,"result":{}`, `{"id":1,,"result":{}}`, `{"id":1 "result":{}}`, ``, `{"id":01}`,
	`{"id":1,"result":{}} trailing`, `{"id":1,"result":"\ud800"}`, `{"id":1,"result":"` + "\xff" + `"}`,
}

// TestDecodeMessage: decodeMessage gives what json.Unmarshal gives, the
// error included, for plain messages and odd ones.
func TestDecodeMessage(t *testing.T) {
	for _, s := range messageSeeds {
		checkDecodeMessage(t, []byte(s))
	}
}

// FuzzDecodeMessage: the same for any input.
func FuzzDecodeMessage(f *testing.F) {
	for _, s := range messageSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(checkDecodeMessage)
}

func checkDecodeMessage(t *testing.T, b []byte) {
	var want, got wireMessage
	wantErr := json.Unmarshal(b, &want)
	gotErr := decodeMessage(b, &got)
	if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
		t.Fatalf("decodeMessage(%q): error %v, json.Unmarshal's %v", b, gotErr, wantErr)
	}
	if wantErr == nil && !reflect.DeepEqual(got, want) {
		t.Fatalf("decodeMessage(%q) = %+v, json.Unmarshal gives %+v", b, got, want)
	}
}

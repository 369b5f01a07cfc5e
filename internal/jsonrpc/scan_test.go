package jsonrpc

import (
	"bytes"
	"encoding/json"
	"testing"
)

// decodeSlow is Decode through encoding/json only, the reference the
// one-pass scanner must agree with.
func decodeSlow(data []byte) (*Message, error) {
	var m Message
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, err
	}
	return checkEnvelope(&m)
}

var scanSeeds = []string{
	`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`,
	`{"jsonrpc":"2.0","id":"a\"b","method":"tools/call","params":{"name":"echo","arguments":{"message":"hé\u00e9"},"_meta":{"progressToken":7}}}`,
	` { "jsonrpc" : "2.0" , "id" : -1.5e+3 , "result" : { } } `,
	`{"jsonrpc":"2.0","id":3,"error":{"code":-32601,"message":"x"}}`,
	`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3}}`,
	`{"jsonrpc":"2.0","id":01,"method":"x"}`,
	`{"jsonrpc":"2.0","id":1.,"method":"x"}`,
	`{"jsonrpc":"2.0","id":"\x","method":"x"}`,
	`{"jsonrpc":"2.0","id":"\u12g4","method":"x"}`,
	`{"jsonrpc":"2.0","ID":1,"method":"x"}`,
	`{"jsonrpc":"2.0","id":1,"method":"x"} trailing`,
	`{"jsonrpc":"2.0","id":1,"method":"x","params":[1,2,{"a":[true,false,null]}]}`,
	`[{"jsonrpc":"2.0","id":1,"method":"x"}]`,
	`{"jsonrpc":"2.0","id":null,"method":"x"}`,
	`{"jsonrpc":"2.0","id":1,"id":2,"method":"x"}`,
}

// TestScanAgreesWithEncodingJSON checks the seeds the fuzzer starts from.
func TestScanAgreesWithEncodingJSON(t *testing.T) {
	for _, s := range scanSeeds {
		checkScan(t, []byte(s))
	}
}

// FuzzScan checks that whenever the one-pass path accepts a message, the
// input is valid JSON and encoding/json decodes the same envelope.
func FuzzScan(f *testing.F) {
	for _, s := range scanSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) { checkScan(t, data) })
}

func checkScan(t *testing.T, data []byte) {
	t.Helper()
	fast, ok := decodeFast(data)
	if !ok {
		return // encoding/json decides
	}
	if !json.Valid(data) {
		t.Fatalf("scanner accepted invalid JSON %q", data)
	}
	slow, err := decodeSlow(data)
	fastChecked, ferr := checkEnvelope(fast)
	if (err == nil) != (ferr == nil) {
		t.Fatalf("%q: encoding/json says %v, scanner says %v", data, err, ferr)
	}
	if err != nil {
		return
	}
	same := func(a, b json.RawMessage) bool {
		var x, y any
		if len(a) == 0 || len(b) == 0 {
			return len(a) == len(b)
		}
		return json.Unmarshal(a, &x) == nil && json.Unmarshal(b, &y) == nil && bytes.Equal(mustJSON(x), mustJSON(y))
	}
	if slow.JSONRPC != fastChecked.JSONRPC || slow.Method != fastChecked.Method || !same(slow.ID, fastChecked.ID) ||
		!same(slow.Params, fastChecked.Params) || !same(slow.Result, fastChecked.Result) || (slow.Error == nil) != (fastChecked.Error == nil) {
		t.Fatalf("%q: encoding/json %+v, scanner %+v", data, slow, fastChecked)
	}
}

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

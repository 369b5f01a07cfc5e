package mcpgen

import (
	"encoding/json"
	"reflect"
	"testing"
)

var paramSeeds = []string{
	`{"name":"echo","arguments":{"message":"hi"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"progressToken":"p1"}}`,
	`{"uri":"test://x/é","cursor":"abc","requestState":"s","inputResponses":{"k":{"action":"accept"}}}`,
	`{"cursor":null,"task":{"ttl":1}}`,
	`{"name":5}`,
	`{"Name":"upper"}`,
	`{"name":"a\u0041\n"}`,
	`{"_meta":{"io.modelcontextprotocol/logLevel":"info","other":[1,2]}}`,
	`{}`,
}

// FuzzParams checks that the one-pass params decoding, when it accepts the
// input, yields what encoding/json yields.
func FuzzParams(f *testing.F) {
	for _, s := range paramSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) { checkParams(t, data) })
}

func TestParamsAgreeWithEncodingJSON(t *testing.T) {
	for _, s := range paramSeeds {
		checkParams(t, []byte(s))
	}
}

func checkParams(t *testing.T, data []byte) {
	t.Helper()
	var fast params
	if !fast.decodeFast(data) {
		return
	}
	var slow params
	if err := json.Unmarshal(data, &slow); err != nil {
		t.Fatalf("%q: scanner accepted what encoding/json refuses: %v", data, err)
	}
	norm := func(p params) params {
		// Compare raw members by value, not by spacing.
		for _, r := range []*json.RawMessage{&p.Arguments, &p.Task, &p.Meta.Raw, &p.Meta.ProtocolVersion, &p.Meta.ClientCapabilities, &p.Meta.ClientInfo, &p.Meta.LogLevel, &p.Meta.ProgressToken} {
			*r = canonical(*r)
		}
		for k, v := range p.InputResponses {
			p.InputResponses[k] = canonical(v)
		}
		return p
	}
	if a, b := norm(fast), norm(slow); !reflect.DeepEqual(a, b) {
		t.Fatalf("%q:\n scanner       %+v\n encoding/json %+v", data, a, b)
	}
}

func canonical(r json.RawMessage) json.RawMessage {
	if len(r) == 0 {
		return nil
	}
	var v any
	if json.Unmarshal(r, &v) != nil {
		return r
	}
	b, _ := json.Marshal(v)
	return b
}

package mcpgen

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
)

// toolResultSeeds are tools/call results, plain and odd, for the hand
// decoder; plainToolResults are the ones it must read itself.
var (
	plainToolResults = []string{
		`{"content":[{"type":"text","text":"hello"}]}`,
		`{"resultType":"complete","content":[{"type":"text","text":"hello from the client benchmark"}]}`,
		`{"content":[{"type":"text","text":"{\"count\":2,\"observations\":3}"}],"structuredContent":{"count":2,"observations":3}}`,
		`{"content":[{"type":"text","text":"a \"b\" \u00e9 \ud83d\ude00 \/ \n"}],"isError":false}`,
		`{"content":[{"type":"text","text":"` + "\xff" + `"},{"type":"text","text":"\ud800"}]}`,
		` { "content" : [ { "type" : "text" , "text" : "spaced" } , {"text":"no type"}, {"type":"text"}, {} ] , "isError" : true } `,
		`{"content":[],"isError":true}`, `{"content":null}`, `{}`,
		`{"_meta":{"k":1},"structuredContent":null,"other":[1,2,{"content":3}],"isError":null,"resultType":null}`,
		`{"content":[{"type":"text","text":"x"}],"structuredContent":{"count":"two"}}`,
		`{"structuredContent":[1]}`, `{"structuredContent":"s"}`, `{"structuredContent":{"count":1,"count":2}}`,
	}
	toolResultSeeds = append([]string{
		`null`, `[]`, `"x"`, `1`, ``,
		`{"content":[{"type":"image","data":"AAA=","mimeType":"image/png"}]}`,
		`{"content":[{"type":"text","text":"x","annotations":{"priority":1}}]}`,
		`{"content":[null]}`, `{"content":[1]}`, `{"content":{"type":"text"}}`, `{"content":"x"}`,
		`{"Content":[{"type":"text","text":"x"}]}`, `{"isErroR":true}`, `{"taſkId":"t"}`, `{"con\u0074ent":[]}`,
		`{"content":[{"Type":"text","text":"x"}]}`, `{"content":[{"ty\u0070e":"text"}]}`,
		`{"content":[{"type":"text","text":"a"}],"content":[{"type":"text","text":"b"}]}`,
		`{"content":[{"type":"text","type":"x"}]}`, `{"isError":true,"isError":false}`,
		`{"isError":1}`, `{"isError":"true"}`, `{"resultType":5}`, `{"content":[{"type":"text","text":7}]}`,
		`{"resultType":"input_required","inputRequests":{"a":{"method":"roots/list"}},"requestState":"s"}`,
		`{"resultType":"task","taskId":"t1"}`,
		`{"content":[}`, `{"content":[{"type":"text","text":"x"}],}`, `{"content":[{"type":"text","text":"x"}]} x`,
		`{"content":[{"type":"text","text":"x"}]`, `{"isError":tru}`,
	}, plainToolResults...)
)

// TestScanToolResult: the plain results are read by hand, and every
// result, plain or not, decodes for CallTool and CallToolAs to what
// json.Unmarshal gives, or fails where it fails.
func TestScanToolResult(t *testing.T) {
	for _, s := range plainToolResults {
		var p plainResult
		if !scanToolResult([]byte(s), &p) {
			t.Errorf("scanToolResult(%s): not read by hand", s)
		}
	}
	for _, s := range toolResultSeeds {
		checkToolResult(t, []byte(s))
	}
}

// FuzzToolResult: the same for any input.
func FuzzToolResult(f *testing.F) {
	for _, s := range toolResultSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(checkToolResult)
}

// counts is a structured Out of the typed path.
type counts struct {
	Count        int `json:"count"`
	Observations int `json:"observations"`
}

func checkToolResult(t *testing.T, b []byte) {
	var want toolAnswer
	wantErr := json.Unmarshal(b, &want)
	var got toolAnswer
	head, ok := got.decode(b)
	if ok != (wantErr == nil) {
		t.Fatalf("toolAnswer.decode(%q): ok %v, json.Unmarshal's error %v", b, ok, wantErr)
	}
	if ok {
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("toolAnswer.decode(%q) = %+v, json.Unmarshal gives %+v", b, got, want)
		}
		wantHead := resultHead{ResultType: want.ResultType, InputRequests: want.InputRequests, RequestState: want.RequestState, TaskID: want.TaskID}
		if !reflect.DeepEqual(head, wantHead) {
			t.Fatalf("toolAnswer.decode(%q): head %+v, want %+v", b, head, wantHead)
		}
	}
	checkTypedAnswer[counts](t, b)
	checkTypedAnswer[*counts](t, b)
	checkTypedAnswer[map[string]any](t, b)
	checkTypedAnswer[any](t, b)
	checkTypedAnswer[string](t, b)
	checkTypedAnswer[[]Content](t, b)
}

// checkTypedAnswer compares typedAnswer[Out].decode with the whole
// json.Unmarshal it replaces.
func checkTypedAnswer[Out any](t *testing.T, b []byte) {
	t.Helper()
	var want typedAnswer[Out]
	var wantErr error
	if want.textOut() {
		wantErr = json.Unmarshal(b, &want.toolHead)
	} else {
		wantErr = json.Unmarshal(b, &want)
	}
	var got typedAnswer[Out]
	head, ok := got.decode(b)
	name := fmt.Sprintf("typedAnswer[%T].decode(%q)", *new(Out), b)
	if ok != (wantErr == nil) {
		t.Fatalf("%s: ok %v, json.Unmarshal's error %v", name, ok, wantErr)
	}
	if !ok {
		return
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s = %+v, json.Unmarshal gives %+v", name, got, want)
	}
	wantHead := resultHead{ResultType: want.ResultType, InputRequests: want.InputRequests, RequestState: want.RequestState, TaskID: want.TaskID}
	if !reflect.DeepEqual(head, wantHead) {
		t.Fatalf("%s: head %+v, want %+v", name, head, wantHead)
	}
}

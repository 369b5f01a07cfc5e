package mcpgen

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/jsonrpc"
)

// TestAppendJSONStringMatchesEncodingJSON checks the hand-written string
// escaper against json.Marshal on random strings made of the characters
// that need care, and escapedLen against the result.
func TestAppendJSONStringMatchesEncodingJSON(t *testing.T) {
	alphabet := []string{"a", "Z", " ", "\"", "\\", "/", "<", ">", "&", "\n", "\t", "\r", "\b", "\f", "\x00", "\x01", "\x1f", "\x7f",
		"é", "İ", "\u2028", "\u2029", "😀", "\ufffd", "\xff", "\xe2\x80", "\xe2", "\xf0\x9f"}
	r := rand.New(rand.NewPCG(3, 4))
	for range 5000 {
		var sb strings.Builder
		for range r.IntN(12) {
			sb.WriteString(alphabet[r.IntN(len(alphabet))])
		}
		s := sb.String()
		want, _ := json.Marshal(s)
		got := appendJSONString(nil, s)
		if string(got) != string(want) {
			t.Fatalf("appendJSONString(%q) = %s, want %s", s, got, want)
		}
		if n := escapedLen(s); n != len(want) {
			t.Fatalf("escapedLen(%q) = %d, want %d", s, n, len(want))
		}
	}
}

// TestAppendToolResultMatchesMarshal checks the hand-written tool result
// encoding against json.Marshal of the same result.
func TestAppendToolResultMatchesMarshal(t *testing.T) {
	prio := 0.5
	for _, r := range []*CallToolResult{
		{Content: []Content{TextContent("a <b> & \"c\"\n\u2028")}, StructuredContent: json.RawMessage(`{"x":1}`)},
		{Content: []Content{TextContent("")}, IsError: true},
		{Content: []Content{}, Meta: json.RawMessage(`{"k": "v"}`)},
		{Content: []Content{{Type: "image", Data: "AAAA", MimeType: "image/png"}, {Type: "text", Text: "t", Annotations: &Annotations{Priority: &prio}}}},
	} {
		want, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		got, err := appendToolResult(false, r)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("appendToolResult:\n got  %s\n want %s", got, want)
		}
		modern, _ := appendToolResult(true, r)
		if want := `{"resultType":"complete",` + string(want[1:]); string(modern) != want {
			t.Errorf("appendToolResult modern:\n got  %s\n want %s", modern, want)
		}
	}
}

// TestOutputTrustedSkipsValidation: structuredContent that breaks the
// output schema fails the call with -32603, unless the tool is marked
// OutputTrusted (the generator's proof), in which case it is sent as is.
func TestOutputTrustedSkipsValidation(t *testing.T) {
	for _, trusted := range []bool{false, true} {
		def := Definition{Name: "unit", Version: "1.0.0", Tools: []Tool{{
			Info: ToolInfo{Name: "count", InputSchema: json.RawMessage(`{"type":"object"}`),
				OutputSchema: json.RawMessage(`{"type":"object","properties":{"count":{"type":"integer"}},"required":["count"]}`)},
			OutputTrusted: trusted,
			Call: func(context.Context, *Request, json.RawMessage) (*CallToolResult, error) {
				return StructuredResult(map[string]string{"count": "many"}, nil)
			},
		}}}
		s := New(def, Options{})
		resp := handle(t, s, nil, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"count","arguments":{},`+modernMeta+`}}`)
		if !trusted {
			wantError(t, resp, jsonrpc.CodeInternalError, "breaks its outputSchema")
			continue
		}
		r := result(t, resp)
		if sc, _ := json.Marshal(r["structuredContent"]); string(sc) != `{"count":"many"}` {
			t.Fatalf("trusted tool: structuredContent %s", sc)
		}
	}
}

// renderedResult is a structured result that renders itself, as
// mcp-memory's graph results do: its text block comes encoded, its JSON
// precomputed, and it counts its releases.
type renderedResult struct {
	text     []byte // a JSON string
	js       []byte
	released *int
}

func (r renderedResult) EncodedText() []byte { return r.text }
func (r renderedResult) EncodedJSON() []byte { return r.js }
func (r renderedResult) Release()            { *r.released++ }

// TestRenderedResultIsSentFromItsBuffers: a large result whose text came
// encoded is answered in pieces that are the component's own buffers,
// released once the transport is done with the message; a small one is
// copied into the answer and released at once. Either way the wire form
// carries the text and structuredContent unchanged.
func TestRenderedResultIsSentFromItsBuffers(t *testing.T) {
	for _, size := range []int{10, 100 << 10} {
		text := strings.Repeat("line \"quoted\" <&>\n", size/20+1)
		encText, _ := json.Marshal(text)
		js := []byte(`{"n":` + itoa(size) + `}`)
		released := 0
		def := Definition{Name: "unit", Version: "1.0.0", Tools: []Tool{{
			Info: ToolInfo{Name: "render", InputSchema: json.RawMessage(`{"type":"object"}`),
				OutputSchema: json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}`)},
			Call: func(context.Context, *Request, json.RawMessage) (*CallToolResult, error) {
				return StructuredResult(renderedResult{encText, js, &released}, nil)
			},
		}}}
		s := New(def, Options{})
		for _, era := range []string{"modern", "legacy"} {
			released = 0
			meta := ""
			if era == "modern" {
				meta = "," + modernMeta
			}
			resp := handle(t, s, nil, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"render","arguments":{}`+meta+`}}`)
			large := size > largeResult
			if got := resp.ResultParts != nil; got != large {
				t.Fatalf("%s, %d bytes: answered in pieces: %v", era, size, got)
			}
			if wantReleased := map[bool]int{true: 0, false: 1}[large]; released != wantReleased {
				t.Fatalf("%s, %d bytes: released %d times before the answer was written", era, size, released)
			}
			var line strings.Builder
			if err := jsonrpc.WriteLine(&line, resp); err != nil {
				t.Fatal(err)
			}
			resp.Done()
			resp.Done()
			if released != 1 {
				t.Fatalf("%s, %d bytes: released %d times", era, size, released)
			}
			var got struct {
				Result struct {
					ResultType string `json:"resultType"`
					Content    []struct {
						Type, Text string
					} `json:"content"`
					StructuredContent json.RawMessage `json:"structuredContent"`
				} `json:"result"`
			}
			if err := json.Unmarshal([]byte(line.String()), &got); err != nil {
				t.Fatalf("%s: answer %.200s: %v", era, line.String(), err)
			}
			r := got.Result
			if len(r.Content) != 1 || r.Content[0].Type != "text" || r.Content[0].Text != text || string(r.StructuredContent) != string(js) ||
				(r.ResultType == "complete") != (era == "modern") {
				t.Fatalf("%s, %d bytes: answer %.300s", era, size, line.String())
			}
		}
	}
}

// TestEncodedTextContentMarshals: a block whose text came encoded
// marshals like the same block made from the text.
func TestEncodedTextContentMarshals(t *testing.T) {
	got, err := json.Marshal(EncodedTextContent([]byte(`"a\nb \u003c"`)))
	if err != nil {
		t.Fatal(err)
	}
	if want, _ := json.Marshal(TextContent("a\nb <")); string(got) != string(want) {
		t.Fatalf("got %s, want %s", got, want)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestNilSliceSentAsEmptyArray: a result's nil slice, which encoding/json
// writes as null, is sent as [] where the output schema takes only an
// array (as the generator now describes a result's slices), in
// structuredContent and in the text block that repeats it; a null the
// schema allows is sent as it is.
func TestNilSliceSentAsEmptyArray(t *testing.T) {
	type page struct {
		Items []string `json:"items"`
		Next  *string  `json:"next"`
		Tags  []string `json:"tags"`
	}
	def := Definition{Name: "unit", Version: "1.0.0", Tools: []Tool{{
		Info: ToolInfo{Name: "page", InputSchema: json.RawMessage(`{"type":"object"}`),
			OutputSchema: json.RawMessage(`{"type":"object","properties":{
				"items":{"type":"array","items":{"type":"string"}},
				"next":{"anyOf":[{"type":"string"},{"type":"null"}]},
				"tags":{"anyOf":[{"type":"array","items":{"type":"string"}},{"type":"null"}]}
			},"required":["items","next","tags"],"additionalProperties":false}`)},
		Call: func(context.Context, *Request, json.RawMessage) (*CallToolResult, error) {
			return StructuredResult(page{}, nil)
		},
	}}}
	s := New(def, Options{})
	resp := handle(t, s, nil, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"page","arguments":{}}}`)
	var line strings.Builder
	if err := jsonrpc.WriteLine(&line, resp); err != nil {
		t.Fatal(err)
	}
	resp.Done()
	var got struct {
		Result struct {
			Content []struct {
				Text string `json:"text"`
			} `json:"content"`
			StructuredContent json.RawMessage `json:"structuredContent"`
			IsError           bool            `json:"isError"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(line.String()), &got); err != nil {
		t.Fatalf("%v: %s", err, line.String())
	}
	want := `{"items":[],"next":null,"tags":null}`
	if got.Result.IsError || string(got.Result.StructuredContent) != want || len(got.Result.Content) != 1 || got.Result.Content[0].Text != want {
		t.Fatalf("answer %s, want structuredContent and text %s", line.String(), want)
	}
}

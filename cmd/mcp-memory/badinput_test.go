package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os/exec"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mcpgen/mcpgen/components/memory/memstore"
)

// rpcConn is one MCP connection driven with hand-written JSON: a legacy
// HTTP session or a stdio process. status is the HTTP status (0 on stdio).
type rpcConn interface {
	rawCall(t *testing.T, method, params string) (status int, resp rpcResponse)
}

func (r *rawStdio) rawCall(t *testing.T, method, params string) (int, rpcResponse) {
	return 0, r.call(t, method, params)
}

func (h *rawHTTP) rawCall(t *testing.T, method, params string) (int, rpcResponse) {
	return h.call(t, method, params)
}

// jsonStr quotes s as a JSON string.
func jsonStr(s string) string {
	b, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// nested returns n opening brackets, a value and n closing ones.
func nested(open, value, close string, n int) string {
	return strings.Repeat(open, n) + value + strings.Repeat(close, n)
}

// manyItems returns a JSON array of n items made by item(i).
func manyItems(n int, item func(i int) string) string {
	var b strings.Builder
	b.WriteByte('[')
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(item(i))
	}
	b.WriteByte(']')
	return b.String()
}

// codePointSample is every step-th Unicode scalar value from 1 (all planes,
// noncharacters, private use and unassigned ones included; no surrogates).
func codePointSample(step int) string {
	var b strings.Builder
	for r := rune(1); r <= utf8.MaxRune; r += rune(step) {
		if utf8.ValidRune(r) {
			b.WriteRune(r)
		}
	}
	b.WriteRune(0x10FFFF)
	b.WriteRune(0xFFFE)
	b.WriteRune(0xFFFF)
	return b.String()
}

// badCase is one call with unusual or abusive arguments.
type badCase struct {
	name      string
	tool      string
	args      string // raw JSON
	wantLimit string // a tool error whose text names this limit
	wantError bool   // any clear error (tool or JSON-RPC)
	// check inspects a successful result; nil means "must succeed" unless
	// wantLimit/wantError is set.
	check func(t *testing.T, o outcome)
	// eitherOr: success (checked by check) or a clear error are both fine.
	eitherOr bool
}

func badCases() []badCase {
	longName := strings.Repeat("n", memstore.MaxNameBytes+1)
	exactName := strings.Repeat("é", memstore.MaxNameBytes/2) // exactly MaxNameBytes bytes
	longObs := strings.Repeat("o", memstore.MaxObservationBytes+1)
	sample := codePointSample(997)
	shortSample := codePointSample(4999)
	weird := "🧠\u202Eשלום مرحبا\u200D👩‍👩‍👧 e\u0301 \x00 \x1f \u2028\u2029 \uFEFF \"\\/ İıΣς ẞß"
	createdEcho := func(names ...string) func(t *testing.T, o outcome) {
		return func(t *testing.T, o outcome) {
			var r struct {
				Entities []struct{ Name string } `json:"entities"`
			}
			if err := json.Unmarshal(o.Structured, &r); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, e := range r.Entities {
				got = append(got, e.Name)
			}
			if fmt.Sprintf("%q", got) != fmt.Sprintf("%q", names) {
				t.Errorf("created %q, want %q", got, names)
			}
		}
	}
	ent1 := func(name, typ string, obs ...string) string {
		if obs == nil {
			obs = []string{}
		}
		b, _ := json.Marshal(map[string]any{"entities": []any{ent(name, typ, obs...)}})
		return string(b)
	}
	return []badCase{
		{name: "any Unicode in names, types, observations", tool: "create_entities", args: ent1(weird, weird, weird, sample, ""), check: createdEcho(weird)},
		{name: "code point sample as name", tool: "create_entities", args: ent1(shortSample, "sample", sample), check: createdEcho(shortSample)},
		{name: "search by a piece of the sample", tool: "search_nodes", args: `{"query":` + jsonStr(string([]rune(sample)[20:60])) + `}`, check: func(t *testing.T, o outcome) {
			if !strings.Contains(string(o.Structured), `"sample"`) {
				t.Errorf("search did not find the sample entity: %.300s", o.Structured)
			}
		}},
		{name: "NUL only", tool: "create_entities", args: `{"entities":[{"name":"\u0000","entityType":"\u0000","observations":["\u0000"]}]}`, check: createdEcho("\x00")},
		{name: "empty strings", tool: "create_entities", args: ent1("", "", ""), check: createdEcho("")},
		{name: "empty relation", tool: "create_relations", args: `{"relations":[{"from":"","to":"","relationType":""}]}`},
		{name: "name of exactly MaxNameBytes", tool: "create_entities", args: ent1(exactName, "t"), check: createdEcho(exactName)},
		// Lone surrogates cannot be stored in UTF-8: they become U+FFFD
		// (the reference keeps them; see TestImportLoneSurrogates), so
		// "lone\udbff" then names the same entity as "lone\ud800". A clear
		// error would be fine too.
		{name: "lone surrogates", tool: "create_entities", args: `{"entities":[{"name":"lone\ud800","entityType":"\udfff","observations":["\udc00\ud800 reversed pair"]}]}`, eitherOr: true, check: createdEcho("lone\uFFFD")},
		{name: "lone surrogate name again", tool: "create_entities", args: `{"entities":[{"name":"lone\udbff","entityType":"t","observations":[]}]}`, eitherOr: true, check: createdEcho()},
		{name: "raw invalid UTF-8 bytes", tool: "create_entities", args: "{\"entities\":[{\"name\":\"bad\xff\xc0byte\",\"entityType\":\"t\",\"observations\":[\"\xed\xa0\x80\"]}]}", eitherOr: true, check: createdEcho("bad\uFFFD\uFFFDbyte")},
		{name: "name over MaxNameBytes", tool: "create_entities", args: ent1(longName, "t"), wantLimit: "MaxNameBytes"},
		{name: "type over MaxNameBytes", tool: "create_entities", args: ent1("ok", longName), wantLimit: "MaxNameBytes"},
		{name: "relation end over MaxNameBytes", tool: "create_relations", args: `{"relations":[{"from":"a","to":` + jsonStr(longName) + `,"relationType":"r"}]}`, wantLimit: "MaxNameBytes"},
		{name: "delete name over MaxNameBytes", tool: "delete_entities", args: `{"entityNames":["",` + jsonStr(longName) + `]}`, wantLimit: "MaxNameBytes"},
		{name: "observation over MaxObservationBytes", tool: "add_observations", args: `{"observations":[{"entityName":"","contents":["fine",` + jsonStr(longObs) + `]}]}`, wantLimit: "MaxObservationBytes"},
		{name: "query over MaxObservationBytes", tool: "search_nodes", args: `{"query":` + jsonStr(longObs) + `}`, wantLimit: "MaxObservationBytes"},
		{name: "entities over MaxBatch", tool: "create_entities", args: `{"entities":` + manyItems(memstore.MaxBatch+1, func(i int) string {
			return fmt.Sprintf(`{"name":"b%d","entityType":"t","observations":[]}`, i)
		}) + `}`, wantLimit: "MaxBatch"},
		{name: "deletions over MaxBatch", tool: "delete_entities", args: `{"entityNames":` + manyItems(memstore.MaxBatch+1, func(i int) string { return `""` }) + `}`, wantLimit: "MaxBatch"},
		{name: "open_nodes over MaxBatch", tool: "open_nodes", args: `{"names":` + manyItems(memstore.MaxBatch+1, func(i int) string { return `"x"` }) + `}`, wantLimit: "MaxBatch"},
		{name: "observation strings over MaxBatchStrings", tool: "add_observations", args: `{"observations":[{"entityName":"","contents":` + manyItems(memstore.MaxBatchStrings+1, func(i int) string { return fmt.Sprintf(`"s%d"`, i) }) + `}]}`, wantLimit: "MaxBatchStrings"},
		{name: "9990 nested arrays (under the JSON decoder's depth limit)", tool: "create_entities", args: `{"entities":` + nested("[", "", "]", 9990) + `}`, wantError: true},
		{name: "9990 nested objects in a name", tool: "create_entities", args: `{"entities":[{"name":` + nested(`{"a":`, `"x"`, "}", 9990) + `,"entityType":"t","observations":[]}]}`, wantError: true},
		{name: "100k nested arrays", tool: "create_entities", args: `{"entities":` + nested("[", "", "]", 100_000) + `}`, wantError: true},
		{name: "100k nested objects", tool: "search_nodes", args: `{"query":` + nested(`{"a":`, "1", "}", 100_000) + `}`, wantError: true},
		{name: "100k nested arrays in an observation", tool: "add_observations", args: `{"observations":[{"entityName":"","contents":[` + nested("[", `"x"`, "]", 100_000) + `]}]}`, wantError: true},
		{name: "wrong types", tool: "create_entities", args: `{"entities":[{"name":1,"entityType":null,"observations":"x"}]}`, wantError: true},
		{name: "arguments not an object", tool: "read_graph", args: `[]`, wantError: true},
	}
}

// TestBadInput sends unusual and abusive arguments over HTTP and stdio:
// each gets a correct result or a clear error naming the limit, the server
// keeps running, and the graph is exactly what the successful calls made
// it (a failed call changes nothing); on both stores.
func TestBadInput(t *testing.T) { eachStore(t, testBadInput) }

func testBadInput(t *testing.T, newDB newDBFunc) {
	bin := sharedBinary(t)
	cases := badCases()
	t.Run("http", func(t *testing.T) {
		endpoint, _ := startHTTPServer(t, bin, newDB(t, "memory"), &syncBuffer{})
		h := startRawHTTP(t, endpoint)
		seedGraph(t, h)
		runBadCases(t, h, cases)
		tooLargeBody(t, h)
		alive(t, h)
	})
	t.Run("stdio", func(t *testing.T) {
		s := startRawStdio(t, exec.Command(bin, "--db", newDB(t, "memory"), "--log-level", "warn"), legacyVersion)
		seedGraph(t, s)
		runBadCases(t, s, cases)
		// stdio has the same message limit as HTTP (8 MiB): a 10 MB line
		// is refused with an error naming it, and the connection goes on.
		before := readGraphRaw(t, s)
		big := `{"name":"add_observations","arguments":{"observations":[{"entityName":"seed","contents":[` + jsonStr(strings.Repeat("x", 10<<20)) + `]}]}}`
		_, resp := s.rawCall(t, "tools/call", big)
		if o := toolResult(t, resp); !o.IsError || !strings.Contains(o.Text, "larger than the limit of 8388608 bytes") {
			t.Errorf("10 MB observation over stdio: %s", o)
		}
		if after := readGraphRaw(t, s); after != before {
			t.Errorf("10 MB observation changed the graph")
		}
		alive(t, s)
	})
}

// alive checks that the server still answers (a crash fails the calls
// before this, too).
func alive(t *testing.T, c rpcConn) {
	t.Helper()
	if _, resp := c.rawCall(t, "ping", `{}`); resp.Error != nil || string(resp.Result) != "{}" {
		t.Fatalf("ping after the bad input: %s %s", resp.Result, resp.Error)
	}
}

// seedGraph creates a small graph that every failed call must leave alone.
func seedGraph(t *testing.T, c rpcConn) {
	t.Helper()
	_, resp := c.rawCall(t, "tools/call", `{"name":"create_entities","arguments":{"entities":[{"name":"seed","entityType":"t","observations":["o1"]},{"name":"other","entityType":"t","observations":[]}]}}`)
	if o := toolResult(t, resp); o.IsError {
		t.Fatalf("seed: %s", o)
	}
	_, resp = c.rawCall(t, "tools/call", `{"name":"create_relations","arguments":{"relations":[{"from":"seed","to":"other","relationType":"r"}]}}`)
	if o := toolResult(t, resp); o.IsError {
		t.Fatalf("seed: %s", o)
	}
}

func readGraphRaw(t *testing.T, c rpcConn) string {
	t.Helper()
	_, resp := c.rawCall(t, "tools/call", `{"name":"read_graph","arguments":{}}`)
	o := toolResult(t, resp)
	if o.IsError {
		t.Fatalf("read_graph: %s", o)
	}
	return canon(o.Structured)
}

func runBadCases(t *testing.T, c rpcConn, cases []badCase) {
	for _, bc := range cases {
		before := readGraphRaw(t, c)
		status, resp := c.rawCall(t, "tools/call", `{"name":`+jsonStr(bc.tool)+`,"arguments":`+bc.args+`}`)
		// 400 only for bodies the JSON decoder refuses (nesting).
		if status != 0 && status != http.StatusOK && !(bc.wantError && status == http.StatusBadRequest) {
			t.Errorf("%s: HTTP status %d (%s)", bc.name, status, resp.Error)
		}
		o := toolResult(t, resp)
		after := readGraphRaw(t, c)
		ok := !o.IsError
		switch {
		case bc.wantLimit != "":
			// A limit is a tool error (the model can see it and adapt),
			// naming the limit and the offending field.
			if ok || strings.HasPrefix(o.Text, "protocol error") || !strings.Contains(o.Text, bc.wantLimit) {
				t.Errorf("%s: got %.300s, want a tool error naming %s", bc.name, o, bc.wantLimit)
			}
		case bc.wantError:
			if ok {
				t.Errorf("%s: succeeded (%.300s), want a clear error", bc.name, o)
			} else if len(o.Text) < 10 || len(o.Text) > 2000 {
				t.Errorf("%s: error text is not a clear message: %.300q", bc.name, o.Text)
			} else {
				t.Logf("%s: %.200s", bc.name, o.Text)
			}
		case bc.eitherOr && !ok:
			t.Logf("%s: refused: %.200s", bc.name, o.Text)
		case !ok:
			t.Errorf("%s: %.300s", bc.name, o)
		case bc.check != nil:
			bc.check(t, o)
		}
		// The graph: unchanged after an error or a read; after a create,
		// the old graph plus exactly what the call reported as created.
		want := before
		if ok && strings.HasPrefix(bc.tool, "create_") {
			want = plusCreated(t, before, o.Structured)
		}
		if after != want {
			t.Errorf("%s: graph after the call:\n got  %.500s\n want %.500s", bc.name, after, want)
		}
	}
}

// plusCreated appends a create_* result's entities or relations to a
// canonical graph.
func plusCreated(t *testing.T, graph string, created json.RawMessage) string {
	t.Helper()
	var g, c map[string][]any
	if err := json.Unmarshal([]byte(graph), &g); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(created, &c); err != nil {
		t.Fatal(err)
	}
	for k, v := range c {
		g[k] = append(g[k], v...)
	}
	b, _ := json.Marshal(g)
	return canon(b)
}

// tooLargeBody posts a 10 MB tools/call: the transport answers 413 with a
// JSON-RPC error naming the limit, and the session goes on.
func tooLargeBody(t *testing.T, h *rawHTTP) {
	before := readGraphRaw(t, h)
	body := []byte(`{"jsonrpc":"2.0","id":999,"method":"tools/call","params":{"name":"add_observations","arguments":{"observations":[{"entityName":"seed","contents":[` + jsonStr(strings.Repeat("x", 10<<20)) + `]}]}}}`)
	status, resp, _ := h.post(t, body)
	if status != http.StatusRequestEntityTooLarge {
		t.Errorf("10 MB body: status %d, want 413", status)
	}
	var e struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}
	if err := json.Unmarshal(resp.Error, &e); err != nil || e.Code != -32600 || !strings.Contains(e.Message, "larger than") {
		t.Errorf("10 MB body: JSON-RPC error %s, want -32600 naming the size limit", resp.Error)
	}
	// Also without Content-Length (chunked): the limit holds while reading.
	req, _ := http.NewRequest(http.MethodPost, h.url, struct{ *bytes.Reader }{bytes.NewReader(body)})
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Session-Id", h.session)
	req.Header.Set("MCP-Protocol-Version", legacyVersion)
	if res, err := http.DefaultClient.Do(req); err != nil {
		t.Errorf("chunked 10 MB body: %v", err)
	} else {
		res.Body.Close()
		if res.StatusCode != http.StatusRequestEntityTooLarge {
			t.Errorf("chunked 10 MB body: status %d, want 413", res.StatusCode)
		}
	}
	if after := readGraphRaw(t, h); after != before {
		t.Errorf("the refused body changed the graph")
	}
}

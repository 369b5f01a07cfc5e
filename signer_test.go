package mcpgen

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/jsonrpc"
)

func TestSignerRejectsAlteredTokens(t *testing.T) {
	g := signer{key: []byte("key one")}
	tok := g.seal("tools/list\x00100")
	if p, ok := g.open(tok); !ok || p != "tools/list\x00100" {
		t.Fatalf("open(seal(x)) = %q, %v", p, ok)
	}
	raw, err := base64.RawURLEncoding.DecodeString(tok)
	if err != nil {
		t.Fatal(err)
	}
	// Every single-bit change, in the payload or in the MAC, is refused.
	for i := range raw {
		for bit := range 8 {
			b := append([]byte(nil), raw...)
			b[i] ^= 1 << bit
			if p, ok := g.open(base64.RawURLEncoding.EncodeToString(b)); ok {
				t.Fatalf("byte %d bit %d flipped: accepted as %q", i, bit, p)
			}
		}
	}
	// So is every truncation, and an extension.
	for n := range raw {
		if _, ok := g.open(base64.RawURLEncoding.EncodeToString(raw[:n])); ok {
			t.Fatalf("truncated to %d bytes: accepted", n)
		}
	}
	if _, ok := g.open(base64.RawURLEncoding.EncodeToString(append(raw, 0))); ok {
		t.Fatal("extended by a byte: accepted")
	}
	for _, bad := range []string{"", "!!!!", tok + "=", base64.StdEncoding.EncodeToString(raw) + "==", " " + tok} {
		if _, ok := g.open(bad); ok {
			t.Errorf("open(%q) accepted", bad)
		}
	}
	if _, ok := (signer{key: []byte("key two")}).open(tok); ok {
		t.Error("a token of another key was accepted")
	}
	// A forged token whose MAC is computed without the key.
	forged := base64.RawURLEncoding.EncodeToString(append([]byte("tools/list\x000"), (signer{}).mac([]byte("tools/list\x000"))...))
	if _, ok := g.open(forged); ok {
		t.Error("a token signed with an empty key was accepted")
	}
}

func TestCursors(t *testing.T) {
	def := Definition{Name: "pages"}
	for i := range 5 {
		def.Tools = append(def.Tools, Tool{Info: ToolInfo{Name: fmt.Sprintf("t%d", i), InputSchema: json.RawMessage(`{"type":"object"}`)}})
	}
	s := New(def, Options{PageSize: 2, Secret: []byte("secret")})
	other := New(def, Options{PageSize: 2, Secret: []byte("another secret")})
	l := (*s.lists.pages.Load())["tools/list"]
	if len(l.legacy) != 3 {
		t.Fatalf("5 tools in pages of 2: got %d pages", len(l.legacy))
	}
	names := func(page json.RawMessage) string {
		var v struct {
			Tools []struct{ Name string } `json:"tools"`
		}
		_ = json.Unmarshal(page, &v)
		var out []string
		for _, t := range v.Tools {
			out = append(out, t.Name)
		}
		return strings.Join(out, ",")
	}
	str := func(s string) *string { return &s }
	for _, c := range []struct {
		name   string
		cursor *string
		want   string // names on the page, or "" for an invalid cursor
	}{
		{"no cursor", nil, "t0,t1"},
		{"empty cursor", str(""), "t0,t1"},
		{"second page", str(s.signer.cursor("tools/list", 2)), "t2,t3"},
		{"last page", str(s.signer.cursor("tools/list", 4)), "t4"},
		{"past the end", str(s.signer.cursor("tools/list", 6)), ""},
		{"not a page boundary", str(s.signer.cursor("tools/list", 1)), ""},
		{"negative offset", str(s.signer.seal("tools/list\x00-2")), ""},
		{"offset not a number", str(s.signer.seal("tools/list\x00two")), ""},
		{"no offset", str(s.signer.seal("tools/list\x00")), ""},
		{"another list's cursor", str(s.signer.cursor("prompts/list", 2)), ""},
		{"a prefix of the method", str(s.signer.cursor("tools/lis", 2)), ""},
		{"another server's cursor", str(other.signer.cursor("tools/list", 2)), ""},
		{"tampered", str(flipBit(s.signer.cursor("tools/list", 2), 11)), ""},
		{"a requestState", str(s.signer.seal(`{"m":"tools/list"}`)), ""},
		{"garbage", str("not a cursor"), ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, modern := range []bool{false, true} {
				page, err := s.lists.page("tools/list", c.cursor, modern)
				switch {
				case c.want == "" && err == nil:
					t.Fatalf("modern=%v: accepted, page %s", modern, page)
				case c.want == "" && jsonrpc.Wire(err).Code != jsonrpc.CodeInvalidParams:
					t.Fatalf("modern=%v: error %v, want -32602", modern, err)
				case c.want != "" && err != nil:
					t.Fatalf("modern=%v: %v", modern, err)
				case c.want != "" && names(page) != c.want:
					t.Fatalf("modern=%v: page has %s, want %s", modern, names(page), c.want)
				}
			}
		})
	}
}

// flipBit flips one bit of the i-th decoded byte of a base64url token.
func flipBit(tok string, i int) string {
	b, _ := base64.RawURLEncoding.DecodeString(tok)
	b[i%len(b)] ^= 0x10
	return base64.RawURLEncoding.EncodeToString(b)
}

// TestRequestState drives the MRTR round trip of a tool that asks two
// questions in turn, then replays its requestState with every binding
// changed: each is refused with -32602.
func TestRequestState(t *testing.T) {
	s := New(unitDefinition(), Options{Secret: []byte("secret")})
	send := func(t *testing.T, auth Principal, params string) map[string]any {
		t.Helper()
		return result(t, handle(t, s, &inbound{Auth: auth}, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{`+params+`,`+modernMeta+`}}`))
	}
	alice := Principal{Subject: "alice"}

	// Round 1 asks the first question.
	r1 := send(t, alice, `"name":"ask","arguments":{"x":1}`)
	if r1["resultType"] != "input_required" || r1["inputRequests"].(map[string]any)["first"] == nil {
		t.Fatalf("round 1: %v", r1)
	}
	state1 := r1["requestState"].(string)
	// Round 2 answers it and is asked the second question; its state
	// carries the first answer, so round 3 need not repeat it.
	r2 := send(t, alice, `"name":"ask","arguments":{"x":1},"requestState":"`+state1+`","inputResponses":{"first":{"action":"accept","content":{"name":"Ada"}}}`)
	if r2["resultType"] != "input_required" || r2["inputRequests"].(map[string]any)["second"] == nil {
		t.Fatalf("round 2: %v", r2)
	}
	state2 := r2["requestState"].(string)
	r3 := send(t, alice, `"name":"ask","arguments":{"x":1},"requestState":"`+state2+`","inputResponses":{"second":{"action":"accept","content":{"name":"Lovelace"}}}`)
	if r3["resultType"] != "complete" || fmt.Sprint(r3["content"]) != "[map[text:Ada Lovelace type:text]]" {
		t.Fatalf("round 3: %v", r3)
	}

	// The state of round 2, re-signed with one binding changed.
	payload, ok := s.signer.open(state2)
	if !ok {
		t.Fatal("the server cannot open its own requestState")
	}
	var st requestState
	if err := json.Unmarshal([]byte(payload), &st); err != nil {
		t.Fatal(err)
	}
	if st.Method != "tools/call" || st.Target != "ask" || st.Subject != "sub:alice" || string(st.Responses["first"]) == "" {
		t.Fatalf("requestState payload: %+v", st)
	}
	reseal := func(f func(*requestState)) string {
		c := st
		f(&c)
		b, _ := json.Marshal(c)
		return s.signer.seal(string(b))
	}
	answer := `"inputResponses":{"second":{"action":"accept","content":{"name":"Lovelace"}}}`
	for _, c := range []struct {
		name, state, params string
		auth                Principal
		want                string
	}{
		{"tampered bits", flipBit(state2, 5), `"name":"ask","arguments":{"x":1}`, alice, "was not issued by this server or was altered"},
		{"another server's state", New(unitDefinition(), Options{Secret: []byte("other")}).signer.seal(payload), `"name":"ask","arguments":{"x":1}`, alice, "not issued"},
		{"a cursor", s.signer.cursor("tools/list", 0), `"name":"ask","arguments":{"x":1}`, alice, "not issued"},
		{"another method", reseal(func(r *requestState) { r.Method = "prompts/get" }), `"name":"ask","arguments":{"x":1}`, alice, "belongs to another request"},
		{"another tool", reseal(func(r *requestState) { r.Target = "echo" }), `"name":"ask","arguments":{"x":1}`, alice, "belongs to another request"},
		{"other arguments", state2, `"name":"ask","arguments":{"x":2}`, alice, "belongs to another request"},
		{"another caller", state2, `"name":"ask","arguments":{"x":1}`, Principal{Subject: "mallory"}, "belongs to another caller"},
		{"an anonymous caller", state2, `"name":"ask","arguments":{"x":1}`, Principal{}, "belongs to another caller"},
		{"expired", reseal(func(r *requestState) { r.Expires = time.Now().Add(-time.Second).Unix() }), `"name":"ask","arguments":{"x":1}`, alice, "has expired"},
	} {
		t.Run(c.name, func(t *testing.T) {
			resp := handle(t, s, &inbound{Auth: c.auth}, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{`+c.params+`,"requestState":"`+c.state+`",`+answer+`,`+modernMeta+`}}`)
			wantError(t, resp, jsonrpc.CodeInvalidParams, c.want)
		})
	}
}

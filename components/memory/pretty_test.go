package memory

import (
	"encoding/json"
	"math/bits"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/components/memory/memstore"
)

// prettySlow is the reflection rendering prettyFast replaces, with
// encoding/json's HTML escapes undone (JSON.stringify does not escape <, >
// and &).
func prettySlow(v any) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		panic(err)
	}
	s := strings.TrimSuffix(b.String(), "\n")
	return strings.NewReplacer(`\\`, `\\`, `\u2028`, "\u2028", `\u2029`, "\u2029", `\u003c`, "<", `\u003e`, ">", `\u0026`, "&").Replace(s)
}

func TestPrettyFastMatchesJSONStringify(t *testing.T) {
	alphabet := []string{"a", "Z", " ", "\"", "\\", "/", "<", ">", "&", "\n", "\t", "\r", "\b", "\f", "\x00", "\x01", "\x1f", "\x7f", "é", "İ", "\u2028", "\u2029", "😀", "\ufffd", "u003c", "u2028"}
	r := rand.New(rand.NewPCG(1, 2))
	str := func() string {
		var b strings.Builder
		for range r.IntN(8) {
			b.WriteString(alphabet[r.IntN(len(alphabet))])
		}
		return b.String()
	}
	strs := func() []string {
		if r.IntN(4) == 0 {
			return nil
		}
		out := make([]string, r.IntN(4))
		for i := range out {
			out[i] = str()
		}
		return out
	}
	for range 300 {
		var g memstore.Graph
		for range r.IntN(4) {
			g.Entities = append(g.Entities, memstore.Entity{Name: str(), EntityType: str(), Observations: strs()})
		}
		for range r.IntN(4) {
			g.Relations = append(g.Relations, memstore.Relation{From: str(), To: str(), RelationType: str()})
		}
		var added []memstore.AddedObservations
		for range r.IntN(3) {
			added = append(added, memstore.AddedObservations{EntityName: str(), AddedObservations: strs()})
		}
		for _, v := range []any{g.Entities, g.Relations, added} {
			got, ok := prettyFast(v)
			if !ok {
				t.Fatalf("prettyFast(%T) not handled", v)
			}
			if want := prettySlow(v); got != want {
				t.Fatalf("prettyFast(%#v):\n%s\nwant:\n%s", v, got, want)
			}
		}
		// The one-pass rendering of graph results gives the same text, and
		// structuredContent that decodes to the same value as
		// encoding/json's.
		for _, gv := range []memstore.Graph{g, {}} {
			rg := renderGraph(gv)
			if got, want := graphText(t, rg), prettySlow(gv); got != want {
				t.Fatalf("renderGraph(%#v) text:\n%s\nwant:\n%s", gv, got, want)
			}
			want, _ := json.Marshal(gv)
			if got := rg.EncodedJSON(); canonJSON(t, got) != canonJSON(t, want) {
				t.Fatalf("renderGraph(%#v) JSON:\n%s\nwant:\n%s", gv, got, want)
			}
			if !json.Valid(rg.EncodedJSON()) {
				t.Fatalf("renderGraph JSON is not valid: %s", rg.EncodedJSON())
			}
		}
	}
	// Invalid UTF-8 is repaired as encoding/json does.
	v := []memstore.Relation{{From: "a\xffb<", To: "", RelationType: "x"}}
	if got, want := pretty(v), prettySlow([]memstore.Relation{{From: "a\ufffdb<", To: "", RelationType: "x"}}); got != want {
		t.Fatalf("invalid UTF-8: got %q want %q", got, want)
	}
}

// BenchmarkGraphContentText renders read_graph's text for 100,000 entities
// (two observations each, a relation to the previous one): "reflect" is the
// encoding/json rendering pretty used before, "append" the current one.
func BenchmarkGraphContentText(b *testing.B) {
	var g memstore.Graph
	for i := range 100_000 {
		name := "entity-" + strings.Repeat("0", 6-len(itoa(i))) + itoa(i)
		g.Entities = append(g.Entities, memstore.Entity{Name: name, EntityType: "person", Observations: []string{"likes straße and <tags>", "observation " + itoa(i)}})
		if i > 0 {
			g.Relations = append(g.Relations, memstore.Relation{From: name, To: g.Entities[i-1].Name, RelationType: "knows"})
		}
	}
	b.Run("reflect", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = prettySlow(g)
		}
	})
	b.Run("append", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = renderGraph(g).EncodedText()
		}
	})
}

// graphText decodes a graph result's encoded text block.
func graphText(t *testing.T, g Graph) string {
	t.Helper()
	var s string
	if err := json.Unmarshal(g.EncodedText(), &s); err != nil {
		t.Fatalf("text block %s: %v", g.EncodedText(), err)
	}
	return s
}

// canonJSON re-encodes JSON text through encoding/json, so that two
// encodings of the same value compare equal.
func canonJSON(t *testing.T, b []byte) string {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	out, _ := json.Marshal(v)
	return string(out)
}

func itoa(i int) string { return strconv.Itoa(i) }

// TestLookMask puts every byte value at every position of a word of plain
// bytes, alone and with a second byte that needs a look: the first byte
// lookMask flags is the first that needs one.
func TestLookMask(t *testing.T) {
	needs := func(c byte) bool { return c < 0x20 || c >= 0x80 || c == '"' || c == '\\' }
	first := func(w []byte) int {
		for i, c := range w {
			if needs(c) {
				return i
			}
		}
		return -1
	}
	for pos := range 8 {
		for c := range 256 {
			for other := -1; other < 8; other++ {
				w := []byte("abcdefgh")
				w[pos] = byte(c)
				if other >= 0 && other != pos {
					w[other] = []byte{0, '"', '\\', 0x1f, 0x80, 0xff}[(c+other)%6]
				}
				got := -1
				if m := lookMask(load8(string(w))); m != 0 {
					got = bits.TrailingZeros64(m) >> 3
				}
				if want := first(w); got != want {
					t.Fatalf("lookMask(%q): first flagged byte %d, want %d", w, got, want)
				}
			}
		}
	}
}

// TestNextLook checks, for every length and position, that nextLook never
// passes a byte that needs a look and stops early only where one before i
// may raise a false alarm.
func TestNextLook(t *testing.T) {
	for n := range 20 {
		for pos := range n {
			for _, c := range []byte{'"', '\\', 0x01, 0xc3} {
				b := []byte(strings.Repeat("x", n))
				b[pos] = c
				s := string(b)
				for i := 0; i <= n; i++ {
					got := nextLook(s, i)
					want := n
					if pos >= i {
						want = pos
					}
					// Early only by a false alarm from the byte before i.
					if got > want || got < i || got < want && pos >= i {
						t.Fatalf("nextLook(%q, %d) = %d, want %d", s, i, got, want)
					}
				}
			}
		}
	}
}

// FuzzAppendJSString checks the word-at-a-time escaper against
// encoding/json's escaping with its HTML escapes undone (invalid UTF-8
// becomes U+FFFD in both), and the text block's second encoding against
// decoding it.
func FuzzAppendJSString(f *testing.F) {
	f.Add("plain ascii text, long enough for words")
	f.Add("quote\" back\\slash \n\t\x01 é 😀 \u2028 <&> \xff")
	f.Fuzz(func(t *testing.T, s string) {
		got := appendJSString(nil, s)
		if want := prettySlow(string([]rune(s))); string(got) != want {
			t.Fatalf("appendJSString(%q) = %s, want %s", s, got, want)
		}
		var back string
		inText := `"` + string(textString(nil, s)) + `"`
		if err := json.Unmarshal([]byte(inText), &back); err != nil || back != string(got) {
			t.Fatalf("textString(%q) = %s: decodes to %q (%v), want %s", s, inText, back, err, got)
		}
	})
}

package memory

import (
	"encoding/json"
	"math/bits"
	"unicode/utf8"

	"github.com/mcpgen/mcpgen/components/memory/memstore"
)

// prettyAppender writes the graph types straight into indented JSON, laid
// out as JavaScript's JSON.stringify(v, null, 2) does, without reflection
// and without a second pass over the output (read_graph's text is tens of
// megabytes at 100,000 entities).
type prettyAppender struct {
	b []byte
}

func (p *prettyAppender) newline(depth int) {
	p.b = append(p.b, '\n')
	for range depth {
		p.b = append(p.b, "  "...)
	}
}

// key writes `"name": ` at the given depth, after a comma if not first.
func (p *prettyAppender) key(name string, depth int, first bool) {
	if !first {
		p.b = append(p.b, ',')
	}
	p.newline(depth)
	p.b = append(p.b, '"')
	p.b = append(p.b, name...)
	p.b = append(p.b, `": `...)
}

const hexDigits = "0123456789abcdef"

// str writes s as JSON.stringify does.
func (p *prettyAppender) str(s string) { p.b = appendJSString(p.b, s) }

// appendJSString appends s as a JSON string the way JavaScript's
// JSON.stringify writes it: only ", \ and control characters are escaped
// (short forms for \b \t \n \f \r, \u00xx otherwise).
// structuredContent and the small results' text blocks use it.
func appendJSString(b []byte, s string) []byte {
	b = append(b, '"')
	b = appendEscaped(b, s, &jsEscapes)
	return append(b, '"')
}

// jsEscapes[c] is what JSON.stringify writes for the ASCII byte c inside a
// string ("" where c stays as it is); inTextEscapes[c] is that written
// once more inside a JSON string (the text block of a graph result, sent
// already encoded).
var jsEscapes, inTextEscapes = func() (js, inText [utf8.RuneSelf]string) {
	for c := range utf8.RuneSelf {
		var e string
		switch c {
		case '"', '\\':
			e = `\` + string(rune(c))
		case '\b':
			e = `\b`
		case '\t':
			e = `\t`
		case '\n':
			e = `\n`
		case '\f':
			e = `\f`
		case '\r':
			e = `\r`
		default:
			if c < 0x20 {
				e = `\u00` + string(hexDigits[c>>4]) + string(hexDigits[c&0xf])
			}
		}
		js[c] = e
		if e != "" {
			inText[c] = encodedText(e)
		}
	}
	return js, inText
}()

// appendEscaped appends the inside of s as a JSON string, each ASCII byte
// as escapes has it and the rest as it is, except that invalid UTF-8 (not
// reachable from JSON input) becomes U+FFFD, as encoding/json has it.
func appendEscaped(b []byte, s string, escapes *[utf8.RuneSelf]string) []byte {
	start := 0
	for i := 0; i < len(s); {
		i = nextLook(s, i)
		if i == len(s) {
			break
		}
		c := s[i]
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				b = append(b, s[start:i]...)
				b = append(b, "\uFFFD"...)
				start = i + 1
			}
			i += size
			continue
		}
		if e := escapes[c]; e != "" {
			b = append(b, s[start:i]...)
			b = append(b, e...)
			start = i + 1
		}
		i++
	}
	return append(b, s[start:]...)
}

// nextLook returns the index of the first byte of s from i on that needs
// a look (see lookMask), or len(s), a word at a time. It may stop early at a
// byte that needs none (a false alarm, see below), never late.
func nextLook(s string, i int) int {
	for i+8 <= len(s) {
		if m := lookMask(load8(s[i:])); m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
		i += 8
	}
	if len(s) < 8 {
		for i < len(s) && s[i] >= 0x20 && s[i] < utf8.RuneSelf && s[i] != '"' && s[i] != '\\' {
			i++
		}
		return i
	}
	if i == len(s) {
		return i
	}
	// Fewer than 8 bytes left: the word that ends s, shifted so that the
	// bytes before i, looked at already, drop out. A byte there that
	// needed a look may flag bytes above it that do not (a false alarm).
	m := lookMask(load8(s[len(s)-8:])) >> (8 * (8 - (len(s) - i)))
	if m == 0 {
		return len(s)
	}
	return i + bits.TrailingZeros64(m)>>3
}

// load8 reads the first 8 bytes of w as a little-endian word.
func load8(w string) uint64 {
	_ = w[7]
	return uint64(w[0]) | uint64(w[1])<<8 | uint64(w[2])<<16 | uint64(w[3])<<24 |
		uint64(w[4])<<32 | uint64(w[5])<<40 | uint64(w[6])<<48 | uint64(w[7])<<56
}

// lookMask has the high bit set in each byte of x that JSON strings do not
// hold as it is (a control character, quote, backslash or non-ASCII byte),
// a word at a time; a false alarm only above such a byte, never below.
func lookMask(x uint64) uint64 {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	q, bs := x^(ones*'"'), x^(ones*'\\')
	return (x | (x-ones*0x20)&^x | (q-ones)&^q | (bs-ones)&^bs) & highs
}

// strings writes a list of strings at depth (the depth of the key holding it).
func (p *prettyAppender) strings(list []string, depth int) {
	if len(list) == 0 {
		p.b = append(p.b, "[]"...)
		return
	}
	p.b = append(p.b, '[')
	for i, s := range list {
		if i > 0 {
			p.b = append(p.b, ',')
		}
		p.newline(depth + 1)
		p.str(s)
	}
	p.newline(depth)
	p.b = append(p.b, ']')
}

// list writes the elements of a list of objects, each written by item at
// depth+1.
func list[T any](p *prettyAppender, xs []T, depth int, item func(x T, depth int)) {
	if len(xs) == 0 {
		p.b = append(p.b, "[]"...)
		return
	}
	p.b = append(p.b, '[')
	for i, x := range xs {
		if i > 0 {
			p.b = append(p.b, ',')
		}
		p.newline(depth + 1)
		item(x, depth+1)
	}
	p.newline(depth)
	p.b = append(p.b, ']')
}

func (p *prettyAppender) entity(e memstore.Entity, depth int) {
	p.b = append(p.b, '{')
	p.key("name", depth+1, true)
	p.str(e.Name)
	p.key("entityType", depth+1, false)
	p.str(e.EntityType)
	p.key("observations", depth+1, false)
	p.strings(e.Observations, depth+1)
	p.newline(depth)
	p.b = append(p.b, '}')
}

func (p *prettyAppender) relation(r memstore.Relation, depth int) {
	p.b = append(p.b, '{')
	p.key("from", depth+1, true)
	p.str(r.From)
	p.key("to", depth+1, false)
	p.str(r.To)
	p.key("relationType", depth+1, false)
	p.str(r.RelationType)
	p.newline(depth)
	p.b = append(p.b, '}')
}

func (p *prettyAppender) added(a memstore.AddedObservations, depth int) {
	p.b = append(p.b, '{')
	p.key("entityName", depth+1, true)
	p.str(a.EntityName)
	p.key("addedObservations", depth+1, false)
	p.strings(a.AddedObservations, depth+1)
	p.newline(depth)
	p.b = append(p.b, '}')
}

// graphSize estimates the length of g's indented text.
func graphSize(g memstore.Graph) int {
	n := 64
	for _, e := range g.Entities {
		n += 90 + len(e.Name) + len(e.EntityType)
		for _, o := range e.Observations {
			n += 12 + len(o)
		}
	}
	for _, r := range g.Relations {
		n += 80 + len(r.From) + len(r.To) + len(r.RelationType)
	}
	return n
}

// prettyFast renders the lists the write tools return (a whole graph is
// rendered by graphRender); ok is false for other types.
func prettyFast(v any) (string, bool) {
	var p prettyAppender
	switch v := v.(type) {
	case []memstore.Entity, []memstore.Relation, []memstore.AddedObservations:
		// A nil list at the top is null, as encoding/json has it.
		if v, _ := json.Marshal(v); string(v) == "null" {
			return "null", true
		}
	}
	switch v := v.(type) {
	case []memstore.Entity:
		p.b = make([]byte, 0, graphSize(memstore.Graph{Entities: v}))
		list(&p, v, 0, p.entity)
	case []memstore.Relation:
		p.b = make([]byte, 0, graphSize(memstore.Graph{Relations: v}))
		list(&p, v, 0, p.relation)
	case []memstore.AddedObservations:
		list(&p, v, 0, p.added)
	default:
		return "", false
	}
	return string(p.b), true
}

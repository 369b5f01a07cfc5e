package jsonschema

import (
	"bytes"
	"encoding/json"
)

// FillNullArrays returns data, a JSON document (as json.Marshal writes
// it), with every null that stands where the schema takes only an array
// replaced by [] (a nil Go slice, which encoding/json writes as null),
// and whether it replaced any. A null the schema allows (anyOf null, or a
// list of types with null) stays, and so does data when it holds no null
// such: the bytes are then returned as they are, without copying. The
// document is not validated; malformed JSON is returned unchanged.
func (s *Schema) FillNullArrays(data []byte) ([]byte, bool) {
	if !bytes.Contains(data, []byte("null")) {
		return data, false
	}
	f := filler{data: data}
	if !f.value(s.root, 0) || len(f.edits) == 0 {
		return data, false
	}
	out := make([]byte, 0, len(data)+len(f.edits))
	last := 0
	for _, at := range f.edits {
		out = append(out, data[last:at]...)
		out = append(out, "[]"...)
		last = at + len("null")
	}
	return append(out, data[last:]...), true
}

// filler scans a document beside its schema, noting where a null must
// become [].
type filler struct {
	data  []byte
	pos   int
	edits []int // offsets of the nulls to replace, in order
}

func (f *filler) space() {
	for f.pos < len(f.data) {
		switch f.data[f.pos] {
		case ' ', '\t', '\n', '\r':
			f.pos++
		default:
			return
		}
	}
}

// value scans one value that n describes (nil: anything); false when
// the document is malformed or too deep.
func (f *filler) value(n *node, depth int) bool {
	if depth > MaxDepth {
		return false
	}
	n = refs(n)
	if n != nil && n.types == tArray && len(n.anyOf) == 0 && len(n.oneOf) == 0 && f.pos < len(f.data) {
		if f.space(); bytes.HasPrefix(f.data[f.pos:], []byte("null")) {
			f.edits = append(f.edits, f.pos)
		}
	}
	n = resolved(n)
	f.space()
	if f.pos >= len(f.data) {
		return false
	}
	switch f.data[f.pos] {
	case '{':
		f.pos++
		for first := true; ; first = false {
			f.space()
			if f.pos < len(f.data) && f.data[f.pos] == '}' && first {
				f.pos++
				return true
			}
			start := f.pos
			if !f.skipString() {
				return false
			}
			key := f.data[start+1 : f.pos-1]
			if bytes.IndexByte(key, '\\') >= 0 {
				var k string
				if json.Unmarshal(f.data[start:f.pos], &k) != nil {
					return false
				}
				key = []byte(k)
			}
			f.space()
			if f.pos >= len(f.data) || f.data[f.pos] != ':' {
				return false
			}
			f.pos++
			if !f.value(propertyOf(n, key), depth+1) {
				return false
			}
			f.space()
			if f.pos >= len(f.data) {
				return false
			}
			if f.data[f.pos] == '}' {
				f.pos++
				return true
			}
			if f.data[f.pos] != ',' {
				return false
			}
			f.pos++
		}
	case '[':
		f.pos++
		for i := 0; ; i++ {
			f.space()
			if f.pos < len(f.data) && f.data[f.pos] == ']' && i == 0 {
				f.pos++
				return true
			}
			if !f.value(itemOf(n, i), depth+1) {
				return false
			}
			f.space()
			if f.pos >= len(f.data) {
				return false
			}
			if f.data[f.pos] == ']' {
				f.pos++
				return true
			}
			if f.data[f.pos] != ',' {
				return false
			}
			f.pos++
		}
	case '"':
		return f.skipString()
	case 'n':
		if !bytes.HasPrefix(f.data[f.pos:], []byte("null")) {
			return false
		}
		f.pos += len("null")
		return true
	default: // a number, true or false
		start := f.pos
		for f.pos < len(f.data) {
			switch f.data[f.pos] {
			case ',', '}', ']', ' ', '\t', '\n', '\r':
				return f.pos > start
			}
			f.pos++
		}
		return f.pos > start
	}
}

func (f *filler) skipString() bool {
	if f.pos >= len(f.data) || f.data[f.pos] != '"' {
		return false
	}
	for f.pos++; f.pos < len(f.data); f.pos++ {
		switch f.data[f.pos] {
		case '\\':
			f.pos++
		case '"':
			f.pos++
			return true
		}
	}
	return false
}

// refs follows $refs.
func refs(n *node) *node {
	for range 64 {
		if n == nil || n.ref == nil || n.types != 0 {
			return n
		}
		n = n.ref
	}
	return nil
}

// resolved follows $refs, and enters the one branch of an anyOf or oneOf
// that is not the null type (the form of a nullable object or array).
func resolved(n *node) *node {
	for range 64 {
		switch {
		case n == nil:
			return nil
		case n.ref != nil && n.types == 0:
			n = n.ref
		case n.types == 0 && len(n.anyOf) == 2:
			n = nonNull(n.anyOf)
		case n.types == 0 && len(n.oneOf) == 2:
			n = nonNull(n.oneOf)
		default:
			return n
		}
	}
	return nil
}

func nonNull(alts []*node) *node {
	a, b := resolved(alts[0]), resolved(alts[1])
	switch {
	case b != nil && b.types == tNull:
		return a
	case a != nil && a.types == tNull:
		return b
	}
	return nil
}

// propertyOf is the schema of the member key of an object n describes.
func propertyOf(n *node, key []byte) *node {
	if n == nil {
		return nil
	}
	if i := n.lookup(key); i >= 0 && n.props[i].schema != nil {
		return n.props[i].schema
	}
	for _, p := range n.patterns {
		if p.re.Match(key) {
			return p.schema
		}
	}
	return n.additional
}

// itemOf is the schema of item i of an array n describes.
func itemOf(n *node, i int) *node {
	if n == nil {
		return nil
	}
	if i < len(n.prefix) {
		return n.prefix[i]
	}
	return n.items
}

package jsonschema

import (
	"bytes"
	"encoding/json"
	"hash/maphash"
)

// JSON equality for enum, const and uniqueItems: numbers compare by value
// (1 == 1.0 == 1e0), strings after decoding escapes, objects regardless of
// member order.

// decodeAny decodes a well-formed JSON value, keeping numbers as
// json.Number. It allocates and is used only for arrays and objects.
func decodeAny(b []byte) any {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if d.Decode(&v) != nil {
		return nil
	}
	return v
}

// equalAny compares two values decoded with UseNumber.
func equalAny(x, y any) bool {
	switch x := x.(type) {
	case nil:
		return y == nil
	case bool:
		y, ok := y.(bool)
		return ok && x == y
	case string:
		y, ok := y.(string)
		return ok && x == y
	case json.Number:
		y, ok := y.(json.Number)
		return ok && cmpDec(parseDec([]byte(x)), parseDec([]byte(y))) == 0
	case []any:
		y, ok := y.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !equalAny(x[i], y[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		y, ok := y.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, xv := range x {
			yv, ok := y[k]
			if !ok || !equalAny(xv, yv) {
				return false
			}
		}
		return true
	}
	return false
}

// hashSeed is random per process so that inputs cannot be crafted to
// collide and make uniqueItems quadratic.
var hashSeed = maphash.MakeSeed()

func mix(h uint64) uint64 {
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	h *= 0xc4ceb3fe1a85ec53
	h ^= h >> 33
	return h
}

// hashValue hashes the well-formed value at d[i] so that JSON-equal values
// hash equally. It returns the index after the value.
func (v *validator) hashValue(i int) (uint64, int) {
	d := v.data
	i = skipWS(d, i)
	switch d[i] {
	case '{':
		h := uint64(0x6f626a)
		i = skipWS(d, i+1)
		if d[i] == '}' {
			return mix(h), i + 1
		}
		for {
			kh, e := v.hashValue(i)
			i = skipWS(d, e) + 1 // ':'
			vh, e := v.hashValue(i)
			h += mix(kh*31 ^ vh) // commutative: member order does not matter
			i = skipWS(d, e)
			if d[i] == '}' {
				return mix(h), i + 1
			}
			i++
		}
	case '[':
		h := uint64(0x617272)
		i = skipWS(d, i+1)
		if d[i] == ']' {
			return mix(h), i + 1
		}
		for {
			eh, e := v.hashValue(i)
			h = mix(h*31 ^ eh)
			i = skipWS(d, e)
			if d[i] == ']' {
				return mix(h), i + 1
			}
			i++
		}
	case '"':
		end, _, esc, _ := scanString(d, i)
		raw := d[i+1 : end-1]
		if !esc {
			return maphash.Bytes(hashSeed, raw), end
		}
		off := len(v.buf)
		v.buf = appendUnescaped(v.buf, raw)
		h := maphash.Bytes(hashSeed, v.buf[off:])
		v.buf = v.buf[:off]
		return h, end
	case 't':
		return 1, i + 4
	case 'f':
		return 2, i + 5
	case 'n':
		return 3, i + 4
	default:
		end, _ := scanNumber(d, i)
		x := parseDec(d[i:end])
		var mh maphash.Hash
		mh.SetSeed(hashSeed)
		mh.Write(x.a)
		mh.Write(x.b)
		h := mix(mh.Sum64() ^ uint64(x.point))
		if x.neg {
			h = ^h
		}
		return h, end
	}
}

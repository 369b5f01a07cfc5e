package mcpgen

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"
)

// plainResult is a tools/call result of the plain shape, which
// scanToolResult reads by hand: text blocks, isError, structuredContent
// and _meta kept raw. json.Unmarshal reads it by reflection, which was
// the client's largest own cost in a small call over HTTP
// (docs/bench/log.md items 65 and 71). Anything else (another kind of
// block, a block with more than type and text, a member of the stateless
// head that asks for more rounds, a key encoding/json would match
// ignoring case, a duplicate) is left to json.Unmarshal, so that the
// result decodes as it always did.
type plainResult struct {
	resultType        string
	content           []Content
	structuredContent json.RawMessage
	isError           bool
	meta              json.RawMessage
}

// toolResultKeys are the members json.Unmarshal matches to a field of
// toolAnswer or typedAnswer, which a key spelled another way (another
// case, a Unicode fold) must not reach by hand.
var toolResultKeys = [...]string{"resultType", "content", "structuredContent", "isError", "_meta", "inputRequests", "requestState", "taskId"}

// scanToolResult reads the tools/call result b into r when it is a
// valid JSON object of the plain shape; false otherwise, r then being
// of no use. The raw members (structuredContent, _meta) are slices of
// b, as decodeMessage's are of the message: b is the caller's.
func scanToolResult(b []byte, r *plainResult) bool {
	*r = plainResult{}
	if !json.Valid(b) {
		return false
	}
	var seen [5]bool // resultType, content, structuredContent, isError, _meta
	return objectMembers(b, skipSpace(b, 0), func(key, v []byte) bool {
		slot := -1
		ok := true
		switch string(key) {
		case "resultType":
			slot = 0
			r.resultType, ok = stringValue(v)
		case "content":
			slot = 1
			r.content, ok = textBlocks(v)
		case "structuredContent":
			slot = 2
			r.structuredContent = v
		case "isError":
			slot = 3
			switch string(v) {
			case "true":
				r.isError = true
			case "false", "null":
			default:
				ok = false
			}
		case "_meta":
			slot = 4
			r.meta = v
		default:
			// inputRequests, requestState, taskId (another round or a
			// task), or a key that may match a field another way.
			if bytes.IndexByte(key, '\\') >= 0 {
				return false
			}
			for _, k := range toolResultKeys {
				if bytes.EqualFold(key, []byte(k)) {
					return false
				}
			}
		}
		if slot >= 0 {
			if seen[slot] {
				return false
			}
			seen[slot] = true
		}
		return ok
	})
}

// textBlocks reads a content array of text blocks ({"type":...,
// "text":...} and nothing else in each); false for anything else. null
// is no blocks (nil), [] an empty list, as json.Unmarshal gives them.
func textBlocks(v []byte) ([]Content, bool) {
	if string(v) == "null" {
		return nil, true
	}
	if v[0] != '[' {
		return nil, false
	}
	blocks := []Content{}
	ok := arrayElements(v, func(e []byte) bool {
		var c Content
		var seenType, seenText bool
		ok := objectMembers(e, 0, func(key, v []byte) bool {
			var ok bool
			switch string(key) {
			case "type":
				if seenType {
					return false
				}
				seenType = true
				c.Type, ok = stringValue(v)
			case "text":
				if seenText {
					return false
				}
				seenText = true
				c.Text, ok = stringValue(v)
			}
			return ok
		})
		blocks = append(blocks, c)
		return ok
	})
	return blocks, ok
}

// stringValue is the JSON string (or null: "") v as json.Unmarshal
// decodes it into a string; false when v is neither. A string with no
// escape and valid UTF-8 is copied as it is; json.Unmarshal decodes the
// others (escapes, invalid UTF-8 it replaces).
func stringValue(v []byte) (string, bool) {
	if string(v) == "null" {
		return "", true
	}
	if v[0] != '"' {
		return "", false
	}
	inner := v[1 : len(v)-1]
	if bytes.IndexByte(inner, '\\') < 0 && utf8.Valid(inner) {
		return string(inner), true
	}
	var s string
	if json.Unmarshal(v, &s) != nil {
		return "", false
	}
	return s, true
}

// objectMembers calls fn with the key (its raw bytes between the
// quotes) and the raw value of each member of the object at b[i], in
// valid JSON, until fn returns false; false when b[i] is not an object
// or fn returned false. The values are cut to their length, so that an
// append to one copies it.
func objectMembers(b []byte, i int, fn func(key, value []byte) bool) bool {
	if i >= len(b) || b[i] != '{' {
		return false
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return true
	}
	for i < len(b) {
		if b[i] != '"' {
			return false
		}
		end := stringEnd(b, i)
		key := b[i+1 : end-1]
		i = skipSpace(b, end)
		if i == len(b) || b[i] != ':' {
			return false
		}
		i = skipSpace(b, i+1)
		vEnd := valueEnd(b, i)
		if vEnd < 0 || !fn(key, b[i:vEnd:vEnd]) {
			return false
		}
		i = skipSpace(b, vEnd)
		if i == len(b) {
			return false
		}
		if b[i] == '}' {
			return true
		}
		if b[i] != ',' {
			return false
		}
		i = skipSpace(b, i+1)
	}
	return false
}

// arrayElements calls fn with each element of the array v, in valid
// JSON, until fn returns false; false when v is not an array or fn
// returned false.
func arrayElements(v []byte, fn func(elem []byte) bool) bool {
	if len(v) == 0 || v[0] != '[' {
		return false
	}
	i := skipSpace(v, 1)
	if i < len(v) && v[i] == ']' {
		return true
	}
	for i < len(v) {
		end := valueEnd(v, i)
		if end < 0 || !fn(v[i:end:end]) {
			return false
		}
		i = skipSpace(v, end)
		if i == len(v) {
			return false
		}
		if v[i] == ']' {
			return true
		}
		if v[i] != ',' {
			return false
		}
		i = skipSpace(v, i+1)
	}
	return false
}

package jsonrpc

import (
	"bytes"
	"encoding"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Errors from encoding/json name Go types and struct fields ("json: cannot
// unmarshal number into Go struct field params.name of type string"), which
// mean nothing to a client. DecodeError restates them in the client's
// terms: where the value is (a JSON Pointer into the message), what was
// expected and what was found.

// DecodeError describes an error returned by json.Unmarshal(data, v) for
// the client: "/params/arguments/count: expected integer from -128 to 127,
// got number 300". base is the JSON Pointer of data within the message
// ("/params", "/params/arguments"). A coded [*Error] (from a custom
// UnmarshalJSON) is returned unchanged; anything else becomes code (the
// error's code when err is a sentinel such as [ErrInvalidParams] is passed
// as kind) with the description as its message.
func DecodeError(kind *Error, data []byte, base string, err error) error {
	var coded *Error
	if errors.As(err, &coded) {
		return err
	}
	return fmt.Errorf("%w: %s", kind, Describe(data, base, err))
}

// Describe returns the text of [DecodeError]: "path: what is wrong".
func Describe(data []byte, base string, err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		ptr, got, ok := locate(data, int(te.Offset)-1)
		if !ok || !sameKind(got, te.Value) {
			// The offset was not into data (an error from a nested
			// decoder): fall back to the field path, without indices.
			ptr, got = fieldPointer(te.Field), te.Value
		}
		return fmt.Sprintf("%s: expected %s, got %s", at(base+ptr), expected(te.Type), got)
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		msg := fmt.Sprintf("invalid JSON at byte %d: %s", se.Offset, se.Error())
		if base != "" {
			msg = base + ": " + msg
		}
		return msg
	}
	var pe *time.ParseError
	if errors.As(err, &pe) {
		return fmt.Sprintf("%s: expected an RFC 3339 date-time, got %s", at(base), strconv.Quote(pe.Value))
	}
	// An error from a custom UnmarshalJSON, which encoding/json does not
	// locate: keep its text without the Go method name ("Time.UnmarshalJSON: ").
	msg := strings.TrimPrefix(err.Error(), "json: ")
	if m := goMethodPrefix.FindString(msg); m != "" {
		msg = msg[len(m):]
	}
	return fmt.Sprintf("%s: %s", at(base), msg)
}

var goMethodPrefix = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*\.Unmarshal(JSON|Text): `)

// sameKind reports whether a description from found and the Value of an
// UnmarshalTypeError ("number", "number 300", "bool", "string") name the
// same kind of JSON value.
func sameKind(got, value string) bool {
	g, _, _ := strings.Cut(got, " ")
	v, _, _ := strings.Cut(value, " ")
	return g == v || g == "boolean" && v == "bool"
}

func at(ptr string) string {
	if ptr == "" {
		return "the message"
	}
	return ptr
}

// fieldPointer turns encoding/json's dotted field path into a pointer,
// when the value could not be located (it has no array indices).
func fieldPointer(field string) string {
	if field == "" {
		return ""
	}
	return "/" + strings.ReplaceAll(escapePointer(field), ".", "/")
}

// EscapePointer escapes one JSON Pointer reference token (RFC 6901):
// "~" becomes "~0" and "/" becomes "~1".
func EscapePointer(s string) string { return escapePointer(s) }

func escapePointer(s string) string {
	if !strings.ContainsAny(s, "~/") {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

var (
	textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()
	rawMessage      = reflect.TypeFor[json.RawMessage]()
)

// expected names the JSON a Go type accepts.
func expected(t reflect.Type) string {
	if t == nil {
		return "a different value"
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == rawMessage {
		return "any JSON value"
	}
	if reflect.PointerTo(t).Implements(textUnmarshaler) {
		return "string"
	}
	switch t.Kind() {
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "boolean"
	case reflect.Int8, reflect.Int16, reflect.Int32:
		bits := t.Bits()
		return fmt.Sprintf("integer from %d to %d", int64(-1)<<(bits-1), int64(1)<<(bits-1)-1)
	case reflect.Int, reflect.Int64:
		return "integer"
	case reflect.Uint8, reflect.Uint16, reflect.Uint32:
		return fmt.Sprintf("integer from 0 to %d", uint64(1)<<t.Bits()-1)
	case reflect.Uint, reflect.Uint64, reflect.Uintptr:
		return "non-negative integer"
	case reflect.Float32, reflect.Float64:
		return "number"
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return "base64 string"
		}
		return "array"
	case reflect.Array:
		return fmt.Sprintf("array of %d items", t.Len())
	case reflect.Map, reflect.Struct:
		return "object"
	case reflect.Interface:
		return "any JSON value"
	}
	return "a different value"
}

// Found describes a JSON value as the client wrote it: its type and, for
// scalars, the value (shortened): `string "abc"`, `number 5`, `object`.
func Found(v []byte) string { return found(v) }

func found(v []byte) string {
	if len(v) == 0 {
		return "nothing"
	}
	switch v[0] {
	case '{':
		return "object"
	case '[':
		return "array"
	case 'n':
		return "null"
	case 't', 'f':
		return "boolean " + string(v)
	case '"':
		const max = 40
		s, err := String(v)
		if err != nil {
			return "string"
		}
		if r := []rune(s); len(r) > max {
			s = string(r[:max]) + "…"
		}
		return "string " + strconv.Quote(s)
	}
	if len(v) > 40 {
		return "number " + string(v[:40]) + "…"
	}
	return "number " + string(v)
}

// locate returns the JSON Pointer of the innermost value of data that
// contains byte pos, with a description of that value. It reads data once
// as a token stream (linear time, whatever the nesting).
func locate(data []byte, pos int) (ptr string, what string, ok bool) {
	if pos < 0 || pos >= len(data) {
		return "", "", false
	}
	type frame struct {
		object    bool
		expectKey bool
		key       string
		index     int
	}
	var stack []frame
	pointer := func() string {
		var b strings.Builder
		for _, f := range stack {
			b.WriteByte('/')
			if f.object {
				b.WriteString(escapePointer(f.key))
			} else {
				b.WriteString(strconv.Itoa(f.index))
			}
		}
		return b.String()
	}
	done := func() { // a value of the innermost container ended
		if n := len(stack); n > 0 {
			if stack[n-1].object {
				stack[n-1].expectKey = true
			} else {
				stack[n-1].index++
			}
		}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	for {
		start := int(dec.InputOffset())
		tok, err := dec.Token()
		if err != nil {
			return "", "", false
		}
		end := int(dec.InputOffset())
		if n := len(stack); n > 0 && stack[n-1].object && stack[n-1].expectKey {
			if key, isKey := tok.(string); isKey {
				stack[n-1].key, stack[n-1].expectKey = key, false
				continue
			}
		}
		if d, isDelim := tok.(json.Delim); isDelim && (d == '}' || d == ']') {
			if pos < end { // between the members of this container
				stack = stack[:len(stack)-1]
				return pointer(), "a value of another type", true
			}
			stack = stack[:len(stack)-1]
			done()
			continue
		}
		if pos >= start && pos < end {
			i := skipWS(data, start)
			for i < len(data) && (data[i] == ',' || data[i] == ':') {
				i = skipWS(data, i+1)
			}
			vend, err := SkipValue(data, i, 0)
			if err != nil {
				return "", "", false
			}
			return pointer(), found(data[i:vend]), true
		}
		if d, isDelim := tok.(json.Delim); isDelim {
			stack = append(stack, frame{object: d == '{', expectKey: d == '{'})
			continue
		}
		done()
	}
}

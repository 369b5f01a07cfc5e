// Package jsonschema validates raw JSON documents against the subset of
// JSON Schema 2020-12 that the MCP code generator emits for tool inputs and
// outputs.
//
// A schema is compiled once with [Compile]; [Schema.Validate] then checks a
// JSON document directly from its bytes, in one forward scan, without
// decoding it into maps or interfaces, and without allocating when the
// document is valid (error paths allocate, and so does comparing an array
// or object against enum/const values that are arrays or objects). The same scan checks JSON
// syntax strictly (RFC 8259 plus valid UTF-8), so a caller needs no separate
// json.Valid call. Subschemas of allOf, anyOf, oneOf, not, $ref and
// patternProperties re-scan the bytes of the value they apply to.
//
// Supported keywords:
//
//   - any type: type (string or array, "integer" accepts 1.0), enum, const,
//     allOf, anyOf, oneOf, not, if/then/else, $ref (local: "#", "#/$defs/…",
//     "#/definitions/…", any "#/json/pointer", "#anchor", and the $id of a
//     (sub)schema), $defs, definitions, true and false schemas;
//   - objects: properties, required, additionalProperties,
//     patternProperties, propertyNames, minProperties, maxProperties;
//   - arrays: items, prefixItems, minItems, maxItems, uniqueItems;
//   - strings: minLength, maxLength (in Unicode code points, after escapes
//     are decoded), pattern (Go RE2 syntax, unanchored; \uXXXX is
//     translated), format ("date-time", "date", "email", "uri" and "uuid"
//     are checked; other formats are annotations);
//   - numbers: minimum, maximum, exclusiveMinimum, exclusiveMaximum,
//     multipleOf, all compared exactly in decimal (no float rounding);
//   - annotations, accepted and ignored: $schema (2020-12, 2019-09 or
//     draft-07), $id, $anchor, $comment, title, description, default,
//     examples, deprecated, readOnly, writeOnly, contentEncoding,
//     contentMediaType, contentSchema, and any keyword starting with "x-".
//
// Any other keyword makes [Compile] fail, so nothing is silently ignored.
//
// Patterns use Go's RE2 engine rather than ECMA-262: look-around and
// back-references are rejected at compile time; "\s", "\d" and "\w" are
// ASCII-only, and "." matches "\r", "\u2028" and "\u2029" (ECMA excludes
// them).
package jsonschema

import (
	"errors"
	"strconv"
	"strings"
)

// MaxDepth is the deepest nesting of arrays and objects that Validate
// accepts; deeper documents fail with [ErrTooDeep] so that hostile inputs
// cannot exhaust the stack or pin a CPU.
const MaxDepth = 512

// EvalStepsPerByte bounds the work Validate may spend on one document: at
// most EvalStepsPerByte*len(data)+65536 subschema evaluations. Only schemas
// that nest anyOf/oneOf/allOf inside recursive $refs can approach it; a
// document that would exceed it fails with [ErrTooComplex].
const EvalStepsPerByte = 64

var (
	// ErrSyntax is wrapped by the *InputError returned for malformed JSON
	// (including bad escapes and invalid UTF-8).
	ErrSyntax = errors.New("invalid JSON")
	// ErrTooDeep is wrapped by the *InputError returned for documents nested
	// deeper than MaxDepth.
	ErrTooDeep = errors.New("JSON nested too deeply")
	// ErrTooComplex is wrapped by the *InputError returned when validation
	// would take more than EvalStepsPerByte steps per input byte.
	ErrTooComplex = errors.New("JSON too expensive to validate")
)

// InputError reports a document that could not be validated at all because
// it is not well-formed JSON or exceeds a limit. It wraps [ErrSyntax],
// [ErrTooDeep] or [ErrTooComplex]; use errors.Is to tell them apart.
type InputError struct {
	Offset int    // byte offset in the input where the problem was found
	Msg    string // what is wrong, e.g. "invalid escape sequence"
	kind   error
}

// Error implements error.
func (e *InputError) Error() string {
	return "jsonschema: " + e.kind.Error() + " at offset " + strconv.Itoa(e.Offset) + ": " + e.Msg
}

// Unwrap returns ErrSyntax, ErrTooDeep or ErrTooComplex.
func (e *InputError) Unwrap() error { return e.kind }

// ValidationError reports the first place where a well-formed document does
// not satisfy the schema.
type ValidationError struct {
	// Path is the location of the offending value as a JSON Pointer
	// (RFC 6901), e.g. "/entities/0/name"; "" is the whole document.
	Path string
	// Message says what is wrong, e.g. `expected string, got number`.
	Message string
	// Keyword is the schema keyword that failed, e.g. "type" or "required".
	Keyword string

	segs []pathSeg // outermost first
}

// Field returns the location in a form friendlier to humans and models,
// e.g. `entities[0].name`; it is "" for the whole document.
func (e *ValidationError) Field() string {
	var b strings.Builder
	for _, s := range e.segs {
		switch {
		case s.isIndex:
			b.WriteByte('[')
			b.WriteString(strconv.Itoa(s.index))
			b.WriteByte(']')
		case isIdent(s.key):
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(s.key)
		default:
			b.WriteByte('[')
			b.WriteString(strconv.Quote(s.key))
			b.WriteByte(']')
		}
	}
	return b.String()
}

// Error returns "field: message", or just the message for the whole
// document.
func (e *ValidationError) Error() string {
	if f := e.Field(); f != "" {
		return f + ": " + e.Message
	}
	return e.Message
}

type pathSeg struct {
	key     string
	index   int
	isIndex bool
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '_' || c == '$' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || i > 0 && '0' <= c && c <= '9' {
			continue
		}
		return false
	}
	return true
}

func pointer(segs []pathSeg) string {
	var b strings.Builder
	for _, s := range segs {
		b.WriteByte('/')
		if s.isIndex {
			b.WriteString(strconv.Itoa(s.index))
			continue
		}
		for i := 0; i < len(s.key); i++ {
			switch s.key[i] {
			case '~':
				b.WriteString("~0")
			case '/':
				b.WriteString("~1")
			default:
				b.WriteByte(s.key[i])
			}
		}
	}
	return b.String()
}

// Schema is a compiled schema. It is immutable and safe for concurrent use.
type Schema struct {
	root *node
}

// MustCompile is like Compile but panics on error; it is meant for schemas
// embedded in generated code.
func MustCompile(schema []byte) *Schema {
	s, err := Compile(schema)
	if err != nil {
		panic(err)
	}
	return s
}

// ValidationErrors are the places where a well-formed document does not
// satisfy the schema, in document order: what [Schema.ValidateAll] found.
type ValidationErrors []*ValidationError

// Error lists every failure, separated by "; ".
func (es ValidationErrors) Error() string {
	msgs := make([]string, len(es))
	for i, e := range es {
		msgs[i] = e.Error()
	}
	return strings.Join(msgs, "; ")
}

// ValidateAll is [Schema.Validate] that does not stop at the first
// failure: it returns nil, an *InputError, or [ValidationErrors] holding
// up to limit failures (at least one), found in one more walk of the
// document once the fast check has failed. A value that fails is
// skipped, so what is inside it is not reported twice; failures within
// anyOf or oneOf branches are one failure, as in Validate.
func (s *Schema) ValidateAll(data []byte, limit int) error {
	err := s.Validate(data)
	if _, ok := err.(*ValidationError); !ok || limit <= 1 {
		if ve, ok := err.(*ValidationError); ok {
			return ValidationErrors{ve}
		}
		return err
	}
	v := getValidator(data)
	defer putValidator(v)
	v.detail, v.collect, v.limit = true, true, limit
	_, err = v.validate(s.root, 0, 0)
	found := v.found
	v.found = nil
	switch e := err.(type) {
	case nil:
	case *vErr:
		found = append(found, e.export())
	default:
		if err != errEnough {
			return err
		}
	}
	if len(found) == 0 {
		return ValidationErrors{&ValidationError{Message: "does not match the schema"}} // unreachable
	}
	return ValidationErrors(found)
}

// Validate checks that data is a single well-formed JSON value (surrounding
// whitespace allowed) that satisfies s. It returns nil, a *ValidationError,
// or an *InputError wrapping ErrSyntax, ErrTooDeep or ErrTooComplex; input
// errors take precedence over validation errors. Limiting the size of data
// is the caller's job.
func (s *Schema) Validate(data []byte) error {
	v := getValidator(data)
	defer putValidator(v)
	end, err := v.validate(s.root, 0, 0)
	if err == nil {
		if i := skipWS(data, end); i != len(data) {
			return syntaxError(i, "unexpected data after top-level value")
		}
		return nil
	}
	if err != errInvalid {
		return err
	}
	// The document does not match. Make sure it is well-formed first, then
	// run again collecting details about the failure.
	if err := checkSyntax(data); err != nil {
		return err
	}
	v.reset(data)
	v.detail = true
	if _, err = v.validate(s.root, 0, 0); err == nil {
		return &ValidationError{Message: "does not match the schema"} // unreachable
	}
	if ve, ok := err.(*vErr); ok {
		return ve.export()
	}
	return err
}

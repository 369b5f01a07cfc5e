package schemaprog

import (
	"encoding/json"
	"fmt"
	"math/big"
	"regexp"
	"strconv"
	"strings"
)

// Keywords of the `jsonschema` struct tag: comma-separated keyword=value
// pairs, `\,` for a comma inside a value. Each value is checked against
// the field's JSON type; a mistake is an error, never a dropped keyword.

// keyword is one keyword=value of a tag.
type keyword struct {
	key, val string
	bare     bool
}

// splitTag splits a tag value on unescaped commas.
func splitTag(tag string) []keyword {
	var out []keyword
	var cur strings.Builder
	flush := func() {
		part := cur.String()
		cur.Reset()
		if strings.TrimSpace(part) == "" {
			return
		}
		k, v, ok := strings.Cut(part, "=")
		out = append(out, keyword{key: strings.TrimSpace(k), val: v, bare: !ok})
	}
	for i := 0; i < len(tag); i++ {
		switch {
		case tag[i] == '\\' && i+1 < len(tag) && tag[i+1] == ',':
			cur.WriteByte(',')
			i++
		case tag[i] == ',':
			flush()
		default:
			cur.WriteByte(tag[i])
		}
	}
	flush()
	return out
}

const knownKeywords = "nullable=false, title, description, minLength, maxLength, pattern, format, minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf, minItems, maxItems, uniqueItems, enum, default, example"

var (
	integerRe = regexp.MustCompile(`^-?(0|[1-9][0-9]*)$`)
	numberRe  = regexp.MustCompile(quotedNumber)
)

// applyTags adds the keywords of f's jsonschema and jsonschema_extras tags
// to s, reporting every bad one at loc. It reports whether the tag set a
// description.
func (d *deriver) applyTags(s *sch, f field, loc string) (described bool) {
	bad := func(k keyword, hint, format string, args ...any) {
		d.failHint(loc, hint, "jsonschema tag: "+format, args...)
	}
	var enum, examples, defaults []any
	var enumTarget *obj
	keywords := splitTag(f.tag.Get("jsonschema"))
	// nullable=false first: the other keywords then apply to the
	// non-null schema.
	for _, k := range keywords {
		if k.key != "nullable" {
			continue
		}
		if b, err := strconv.ParseBool(k.val); err != nil || b || k.bare {
			bad(k, "write nullable=false to refuse null where the Go type allows it", "nullable=%q: only nullable=false is a keyword", k.val)
			continue
		}
		if s.nilSlice {
			continue // never null in an output already
		}
		if !s.null {
			bad(k, "drop it: only pointers, slices and maps may be null", "nullable=false on a field that cannot be null")
			continue
		}
		notNull(s)
		// The encoder may still write null (a nil map): a narrowing the
		// runtime checks, not a derivation.
		d.inexact = d.inexact || d.output
	}
	if it, ok := s.o.vals["items"].(*obj); ok && s.kind == "array" {
		s.o.set("items", it.clone()) // item keywords go to this copy
	}
	for _, k := range keywords {
		if k.key == "nullable" {
			continue
		}
		if k.bare && k.key != "uniqueItems" {
			if k.key == "required" {
				bad(k, "a field is required unless its json tag has omitempty or omitzero", "%q is not a keyword here: required comes from the json tag", k.key)
			} else {
				bad(k, "write keyword=value; keywords: "+knownKeywords, "%q has no value", k.key)
			}
			continue
		}
		switch k.key {
		case "title":
			s.o.set("title", k.val)
		case "description":
			s.o.set("description", k.val)
			described = true
		case "minLength", "maxLength":
			t, ok := d.target(s, "string", k, bad)
			if !ok {
				continue
			}
			n, err := strconv.ParseUint(k.val, 10, 31)
			if err != nil {
				bad(k, "write a non-negative integer, e.g. "+k.key+"=1", "%s=%q is not a non-negative integer", k.key, k.val)
				continue
			}
			t.set(k.key, n)
			d.inexact = true
		case "pattern":
			t, ok := d.target(s, "string", k, bad)
			if !ok {
				continue
			}
			if _, err := regexp.Compile(k.val); err != nil {
				bad(k, "patterns use RE2 syntax (no look-around or back-references)", "pattern %q does not compile: %v", k.val, err)
				continue
			}
			t.set("pattern", k.val)
			d.inexact = true
		case "format":
			t, ok := d.target(s, "string", k, bad)
			if !ok {
				continue
			}
			if k.val == "" {
				bad(k, "e.g. format=date-time, format=email, format=uri, format=uuid", "empty format")
				continue
			}
			t.set("format", k.val)
			d.inexact = true
		case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf":
			t, ok := d.target(s, "number", k, bad)
			if !ok {
				continue
			}
			r, ok := new(big.Rat).SetString(k.val)
			if !ok || !numberRe.MatchString(k.val) {
				bad(k, "write a JSON number, e.g. "+k.key+"=1", "%s=%q is not a number", k.key, k.val)
				continue
			}
			if k.key == "multipleOf" && r.Sign() <= 0 {
				bad(k, "multipleOf must be greater than 0", "multipleOf=%s is not positive", k.val)
				continue
			}
			// A bound of the Go type that is already tighter stays.
			if prev, ok := t.vals[k.key].(json.Number); ok && (k.key == "minimum" || k.key == "maximum") {
				p, _ := new(big.Rat).SetString(string(prev))
				if (k.key == "minimum" && p.Cmp(r) > 0) || (k.key == "maximum" && p.Cmp(r) < 0) {
					continue
				}
			}
			t.set(k.key, json.Number(k.val))
			d.inexact = true
		case "minItems", "maxItems":
			if s.kind != "array" {
				bad(k, k.key+" applies to slices and arrays", "%s on a field that is %s in JSON", k.key, kindPhrase(s))
				continue
			}
			n, err := strconv.ParseUint(k.val, 10, 31)
			if err != nil {
				bad(k, "write a non-negative integer, e.g. "+k.key+"=1", "%s=%q is not a non-negative integer", k.key, k.val)
				continue
			}
			s.o.set(k.key, n)
			d.inexact = true
		case "uniqueItems":
			if s.kind != "array" {
				bad(k, "uniqueItems applies to slices and arrays", "uniqueItems on a field that is %s in JSON", kindPhrase(s))
				continue
			}
			b := true
			if !k.bare {
				var err error
				if b, err = strconv.ParseBool(k.val); err != nil {
					bad(k, "write uniqueItems or uniqueItems=true", "uniqueItems=%q is not a boolean", k.val)
					continue
				}
			}
			s.o.set("uniqueItems", b)
			d.inexact = d.inexact || b
		case "enum":
			t, kind, ok := d.scalarTarget(s, k, bad)
			if !ok {
				continue
			}
			v, err := scalarValue(kind, k.val)
			if err != nil {
				bad(k, "each enum value must be a "+kind, "enum=%q: %v", k.val, err)
				continue
			}
			enumTarget = t
			enum = append(enum, v)
		case "default":
			kind := s.kind
			if kind == "array" && s.item != nil {
				kind = s.item.kind
			}
			v, err := scalarValue(kind, k.val)
			if err != nil {
				bad(k, "the default must be a value of the field's JSON type", "default=%q: %v", k.val, err)
				continue
			}
			defaults = append(defaults, v)
		case "example":
			if s.kind == "array" || s.kind == "object" || s.kind == "" {
				bad(k, "examples apply to strings, numbers and booleans", "example on a field that is %s in JSON", kindPhrase(s))
				continue
			}
			v, err := scalarValue(s.kind, k.val)
			if err != nil {
				bad(k, "each example must be a "+s.kind, "example=%q: %v", k.val, err)
				continue
			}
			examples = append(examples, v)
		default:
			bad(k, "keywords: "+knownKeywords+"; extra keywords go in jsonschema_extras:\"x-name=value\"", "unknown keyword %q", k.key)
		}
	}
	if enumTarget != nil {
		if t, ok := enumTarget.vals["type"].([]string); ok && len(t) == 2 && t[1] == "null" {
			enum = append(enum, nil)
		}
		enumTarget.set("enum", enum)
		d.inexact = true
	}
	if len(defaults) > 0 {
		if s.kind == "array" {
			s.o.set("default", defaults)
		} else {
			s.o.set("default", defaults[len(defaults)-1])
		}
	}
	if len(examples) > 0 {
		s.o.set("examples", examples)
	}
	for _, k := range splitTag(f.tag.Get("jsonschema_extras")) {
		if !strings.HasPrefix(k.key, "x-") {
			d.failHint(loc, "name extra keywords x-something: the runtime's validator refuses keywords it does not know", "jsonschema_extras: %q does not start with x-", k.key)
			continue
		}
		s.o.set(k.key, k.val)
	}
	return described
}

// target returns the object a string or number keyword goes to: the field,
// or the items of an array field.
func (d *deriver) target(s *sch, kind string, k keyword, bad func(keyword, string, string, ...any)) (*obj, bool) {
	matches := func(x *sch) bool {
		return x != nil && (x.kind == kind || (kind == "number" && x.kind == "integer"))
	}
	if matches(s) {
		return s.o, true
	}
	if s.kind == "array" && matches(s.item) {
		if it, ok := s.o.vals["items"].(*obj); ok {
			return it, true
		}
	}
	what := map[string]string{"string": "strings", "number": "numbers"}[kind]
	bad(k, fmt.Sprintf("%s applies to %s (and to the items of slices of %s)", k.key, what, what), "%s on a field that is %s in JSON", k.key, kindPhrase(s))
	return nil, false
}

// scalarTarget is target for enum: any scalar field or scalar items.
func (d *deriver) scalarTarget(s *sch, k keyword, bad func(keyword, string, string, ...any)) (*obj, string, bool) {
	switch s.kind {
	case "string", "integer", "number", "boolean":
		return s.o, s.kind, true
	case "array":
		if s.item != nil {
			switch s.item.kind {
			case "string", "integer", "number", "boolean":
				if it, ok := s.o.vals["items"].(*obj); ok {
					return it, s.item.kind, true
				}
			}
		}
	}
	bad(k, "enum applies to strings, numbers and booleans (and their slices)", "enum on a field that is %s in JSON", kindPhrase(s))
	return nil, "", false
}

// scalarValue parses a tag value as a JSON value of kind.
func scalarValue(kind, v string) (any, error) {
	switch kind {
	case "string":
		return v, nil
	case "integer":
		if !integerRe.MatchString(v) {
			return nil, fmt.Errorf("not an integer")
		}
		return json.Number(v), nil
	case "number":
		if !numberRe.MatchString(v) {
			return nil, fmt.Errorf("not a number")
		}
		return json.Number(v), nil
	case "boolean":
		b, err := strconv.ParseBool(v)
		if err != nil {
			return nil, fmt.Errorf("not a boolean")
		}
		return b, nil
	}
	return nil, fmt.Errorf("the field is %s in JSON", kindPhrase(&sch{kind: kind}))
}

func kindPhrase(s *sch) string {
	switch s.kind {
	case "":
		return "described by its type's JSONSchema method"
	case "object":
		return "an object"
	case "array":
		return "an array"
	case "integer":
		return "an integer"
	}
	return "a " + s.kind
}

// notNull undoes nullable: s no longer accepts null.
func notNull(s *sch) {
	s.null = false
	if alts, ok := s.o.vals["anyOf"].([]any); ok && len(alts) == 2 {
		if inner, ok := alts[0].(*obj); ok {
			s.o = inner.clone()
			return
		}
	}
	if t, ok := s.o.vals["type"].([]string); ok && len(t) == 2 && t[1] == "null" {
		s.o.set("type", t[0])
	}
	if e, ok := s.o.vals["enum"].([]any); ok && len(e) > 0 && e[len(e)-1] == nil {
		s.o.set("enum", e[:len(e)-1])
	}
}

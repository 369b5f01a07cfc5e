package jsonschema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

type typeMask uint8

const (
	tNull typeMask = 1 << iota
	tBoolean
	tObject
	tArray
	tNumber
	tString
	tInteger // integral numbers; implied by tNumber
)

var typeNames = []struct {
	name string
	t    typeMask
}{
	{"object", tObject}, {"array", tArray}, {"string", tString},
	{"number", tNumber}, {"integer", tInteger}, {"boolean", tBoolean}, {"null", tNull},
}

// String renders a mask as e.g. "string or null".
func (m typeMask) String() string {
	if m&tNumber != 0 {
		m &^= tInteger
	}
	var parts []string
	for _, tn := range typeNames {
		if m&tn.t != 0 {
			parts = append(parts, tn.name)
		}
	}
	return strings.Join(parts, " or ")
}

type formatKind uint8

const (
	fmtNone formatKind = iota
	fmtDateTime
	fmtDate
	fmtEmail
	fmtURI
	fmtUUID
)

var formats = map[string]formatKind{
	"date-time": fmtDateTime,
	"date":      fmtDate,
	"email":     fmtEmail,
	"uri":       fmtURI,
	"uuid":      fmtUUID,
}

// node is a compiled schema.
type node struct {
	loc     string // JSON Pointer of the schema in the document, for errors
	isTrue  bool   // the schema is true or {} (only annotations)
	isFalse bool

	types typeMask // 0: any type

	// objects
	props     []propEntry // properties and required names
	propIndex map[string]int
	required  []int // indexes into props, in "required" order
	patterns  []patternProp
	additional,
	propertyNames *node
	minProps, maxProps int // -1: absent

	// arrays
	prefix             []*node
	items              *node
	minItems, maxItems int // -1: absent
	unique             bool

	// strings
	minLen, maxLen int // -1: absent
	pattern        *regexp.Regexp
	patternSrc     string
	format         formatKind
	formatName     string

	// numbers
	minimum, maximum, exclMin, exclMax, multiple *numLimit

	enum, cnst *valueSet

	// applicators on the same instance
	ref                 *node
	refStr              string
	allOf, anyOf, oneOf []*node
	not                 *node
	ifS, thenS, elseS   *node // elseS/thenS are nil when there is no "if"

	// derived by finish
	objChecks, arrChecks, strChecks, numChecks bool
	applicators                                bool
	ownTrivial                                 bool // nothing to check besides applicators
	anyString                                  bool // type string and nothing else to check
}

type propEntry struct {
	name   string
	schema *node // nil: only named in "required"
	req    int   // bit index among required names, or -1
	plain  bool  // name is written in JSON as it is: no escapes needed
}

type patternProp struct {
	re     *regexp.Regexp
	src    string
	schema *node
}

type numLimit struct {
	d    dec
	text string
}

type valueSet struct {
	strs      []string
	strSet    map[string]struct{}
	nums      []dec
	tru, fals bool
	null      bool
	composite []any
	display   string // e.g. `["a","b"]`
}

func (s *valueSet) hasString(b []byte) bool {
	if s.strSet != nil {
		_, ok := s.strSet[string(b)]
		return ok
	}
	for _, c := range s.strs {
		if string(b) == c {
			return true
		}
	}
	return false
}

func (s *valueSet) hasNumber(x dec) bool {
	for _, c := range s.nums {
		if cmpDec(x, c) == 0 {
			return true
		}
	}
	return false
}

func (s *valueSet) hasComposite(b []byte) bool {
	if len(s.composite) == 0 {
		return false
	}
	x := decodeAny(b)
	for _, c := range s.composite {
		if equalAny(x, c) {
			return true
		}
	}
	return false
}

// annotations are keywords accepted and ignored.
var annotations = map[string]bool{
	"$schema": true, "$id": true, "$anchor": true, "$comment": true,
	"title": true, "description": true, "default": true, "examples": true,
	"deprecated": true, "readOnly": true, "writeOnly": true,
	"contentEncoding": true, "contentMediaType": true, "contentSchema": true,
	// OpenAPI's singular example, which schemas derived from OpenAPI
	// documents carry (the MCP registry's server.json schema does).
	"example": true,
}

var knownDialects = map[string]bool{
	"https://json-schema.org/draft/2020-12/schema": true,
	"https://json-schema.org/draft/2019-09/schema": true,
	"http://json-schema.org/draft-07/schema":       true,
}

type resource struct {
	loc     string // JSON Pointer of the resource root in the document
	anchors map[string]*node
}

type compiler struct {
	byLoc     map[string]*node
	resources map[string]*resource // by absolute URI without fragment; "" is the document
	nodes     []*node
	refs      []pendingRef
}

type pendingRef struct {
	n    *node
	base string
}

// Compile parses a JSON Schema document. It fails on malformed JSON, on
// malformed keyword values, on patterns that RE2 cannot compile, on $refs
// that do not resolve within the document, on $ref cycles that would loop
// without descending into the instance, and on keywords it does not
// support (naming the keyword and the schema location).
func Compile(schema []byte) (*Schema, error) {
	dd := json.NewDecoder(bytes.NewReader(schema))
	dd.UseNumber()
	var raw any
	if err := dd.Decode(&raw); err != nil {
		return nil, fmt.Errorf("jsonschema: parse schema: %w", err)
	}
	if _, err := dd.Token(); err != io.EOF {
		return nil, errors.New("jsonschema: parse schema: unexpected data after top-level value")
	}
	c := &compiler{byLoc: map[string]*node{}, resources: map[string]*resource{}}
	c.resources[""] = &resource{loc: "", anchors: map[string]*node{}}
	if m, ok := raw.(map[string]any); ok {
		if s, ok := m["$schema"]; ok {
			str, _ := s.(string)
			if !knownDialects[strings.TrimSuffix(str, "#")] {
				return nil, fmt.Errorf("jsonschema: at #: unsupported $schema %q (want draft 2020-12)", str)
			}
		}
	}
	root, err := c.compile(raw, "", "")
	if err != nil {
		return nil, err
	}
	for _, p := range c.refs {
		if p.n.ref, err = c.resolve(p.base, p.n.refStr); err != nil {
			return nil, fmt.Errorf("jsonschema: at %s: $ref %q: %w", where(p.n.loc), p.n.refStr, err)
		}
	}
	if err := c.checkCycles(); err != nil {
		return nil, err
	}
	for _, n := range c.nodes {
		n.finish()
	}
	return &Schema{root: collapse(root)}, nil
}

func where(loc string) string { return "#" + loc }

// compileErr is a Compile error that already names its location.
type compileErr struct{ msg string }

func (e *compileErr) Error() string { return e.msg }

func errAt(loc, format string, args ...any) error {
	return &compileErr{"jsonschema: at " + where(loc) + ": " + fmt.Sprintf(format, args...)}
}

func escapeToken(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

func (c *compiler) compile(raw any, loc, base string) (*node, error) {
	n := &node{loc: loc, minProps: -1, maxProps: -1, minItems: -1, maxItems: -1, minLen: -1, maxLen: -1}
	c.nodes = append(c.nodes, n)
	c.byLoc[loc] = n
	var m map[string]any
	switch s := raw.(type) {
	case bool:
		n.isTrue, n.isFalse = s, !s
		return n, nil
	case map[string]any:
		m = s
	default:
		return nil, errAt(loc, "schema must be an object or a boolean, got %s", jsonKind(raw))
	}
	if id, ok := m["$id"]; ok {
		s, ok := id.(string)
		if !ok {
			return nil, errAt(loc, "$id must be a string")
		}
		u, err := resolveURI(base, s)
		if err != nil {
			return nil, errAt(loc, "$id %q: %v", s, err)
		}
		if r, dup := c.resources[u]; dup && !(loc == "" && r.loc == "") {
			return nil, errAt(loc, "duplicate $id %q", s)
		}
		base = u
		c.resources[u] = &resource{loc: loc, anchors: map[string]*node{}}
	}
	if a, ok := m["$anchor"]; ok {
		s, ok := a.(string)
		if !ok || s == "" {
			return nil, errAt(loc, "$anchor must be a non-empty string")
		}
		res := c.resources[base]
		if res.anchors[s] != nil {
			return nil, errAt(loc, "duplicate $anchor %q", s)
		}
		res.anchors[s] = n
	}

	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var required []string
	for _, k := range keys {
		val := m[k]
		kloc := loc + "/" + escapeToken(k)
		var err error
		switch k {
		case "$defs", "definitions":
			_, err = c.schemaMap(val, kloc, base)
		case "type":
			n.types, err = parseTypes(val)
		case "properties":
			var props map[string]*node
			if props, err = c.schemaMap(val, kloc, base); err == nil {
				names := slices.Sorted(maps.Keys(props))
				for _, name := range names {
					n.props = append(n.props, propEntry{name: name, schema: props[name], req: -1})
				}
			}
		case "required":
			required, err = stringArray(val)
		case "additionalProperties":
			n.additional, err = c.compile(val, kloc, base)
		case "propertyNames":
			n.propertyNames, err = c.compile(val, kloc, base)
		case "patternProperties":
			var pats map[string]*node
			if pats, err = c.schemaMap(val, kloc, base); err == nil {
				for _, src := range slices.Sorted(maps.Keys(pats)) {
					re, perr := compilePattern(src)
					if perr != nil {
						return nil, errAt(kloc, "pattern %q: %v", src, perr)
					}
					n.patterns = append(n.patterns, patternProp{re: re, src: src, schema: pats[src]})
				}
				if len(n.patterns) > 64 {
					err = errors.New("more than 64 patterns are not supported")
				}
			}
		case "minProperties":
			n.minProps, err = nonNegInt(val)
		case "maxProperties":
			n.maxProps, err = nonNegInt(val)
		case "items":
			if _, isArr := val.([]any); isArr {
				err = errors.New("array form of items is not supported in 2020-12; use prefixItems")
			} else {
				n.items, err = c.compile(val, kloc, base)
			}
		case "prefixItems":
			n.prefix, err = c.schemaArray(val, kloc, base)
		case "minItems":
			n.minItems, err = nonNegInt(val)
		case "maxItems":
			n.maxItems, err = nonNegInt(val)
		case "uniqueItems":
			b, ok := val.(bool)
			if !ok {
				err = errors.New("must be a boolean")
			}
			n.unique = b
		case "minLength":
			n.minLen, err = nonNegInt(val)
		case "maxLength":
			n.maxLen, err = nonNegInt(val)
		case "pattern":
			s, ok := val.(string)
			if !ok {
				err = errors.New("must be a string")
				break
			}
			n.patternSrc = s
			if n.pattern, err = compilePattern(s); err != nil {
				err = fmt.Errorf("%q: %v", s, err)
			}
		case "format":
			s, ok := val.(string)
			if !ok {
				err = errors.New("must be a string")
			}
			n.format, n.formatName = formats[s], s
		case "minimum":
			n.minimum, err = number(val)
		case "maximum":
			n.maximum, err = number(val)
		case "exclusiveMinimum":
			n.exclMin, err = number(val)
		case "exclusiveMaximum":
			n.exclMax, err = number(val)
		case "multipleOf":
			if n.multiple, err = number(val); err == nil && n.multiple.d.sign() <= 0 {
				err = errors.New("must be greater than 0")
			} else if err == nil && n.multiple.d.n() > 19 {
				err = errors.New("more than 19 significant digits are not supported")
			}
		case "enum":
			arr, ok := val.([]any)
			if !ok {
				err = errors.New("must be an array")
				break
			}
			n.enum = newValueSet(arr, arr)
		case "const":
			n.cnst = newValueSet([]any{val}, val)
		case "allOf":
			n.allOf, err = c.schemaArray(val, kloc, base)
		case "anyOf":
			n.anyOf, err = c.schemaArray(val, kloc, base)
		case "oneOf":
			n.oneOf, err = c.schemaArray(val, kloc, base)
		case "not":
			n.not, err = c.compile(val, kloc, base)
		case "if":
			n.ifS, err = c.compile(val, kloc, base)
		case "then":
			n.thenS, err = c.compile(val, kloc, base)
		case "else":
			n.elseS, err = c.compile(val, kloc, base)
		case "$ref":
			s, ok := val.(string)
			if !ok {
				err = errors.New("must be a string")
				break
			}
			n.refStr = s
			c.refs = append(c.refs, pendingRef{n: n, base: base})
		case "$schema":
			if loc != "" {
				err = errors.New("only allowed at the document root")
			}
		default:
			if annotations[k] || strings.HasPrefix(k, "x-") {
				continue
			}
			return nil, errAt(loc, "unsupported keyword %q", k)
		}
		if err != nil {
			var ce *compileErr
			if errors.As(err, &ce) {
				return nil, err
			}
			return nil, errAt(loc, "%s: %v", k, err)
		}
	}
	// Merge "required" into the property table.
	for _, name := range required {
		i := slices.IndexFunc(n.props, func(p propEntry) bool { return p.name == name })
		if i < 0 {
			i = len(n.props)
			n.props = append(n.props, propEntry{name: name, req: -1})
		}
		if n.props[i].req >= 0 {
			return nil, errAt(loc, "required: duplicate name %q", name)
		}
		n.props[i].req = len(n.required)
		n.required = append(n.required, i)
	}
	for i := range n.props {
		n.props[i].plain = plainName(n.props[i].name)
	}
	if len(n.props) > 8 {
		n.propIndex = make(map[string]int, len(n.props))
		for i, p := range n.props {
			n.propIndex[p.name] = i
		}
	}
	return n, nil
}

func (c *compiler) schemaMap(val any, loc, base string) (map[string]*node, error) {
	m, ok := val.(map[string]any)
	if !ok {
		return nil, errors.New("must be an object")
	}
	out := make(map[string]*node, len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		n, err := c.compile(m[k], loc+"/"+escapeToken(k), base)
		if err != nil {
			return nil, err
		}
		out[k] = n
	}
	return out, nil
}

func (c *compiler) schemaArray(val any, loc, base string) ([]*node, error) {
	arr, ok := val.([]any)
	if !ok || len(arr) == 0 {
		return nil, errors.New("must be a non-empty array of schemas")
	}
	out := make([]*node, len(arr))
	for i, s := range arr {
		n, err := c.compile(s, loc+"/"+strconv.Itoa(i), base)
		if err != nil {
			return nil, err
		}
		out[i] = n
	}
	return out, nil
}

func parseTypes(val any) (typeMask, error) {
	one := func(v any) (typeMask, error) {
		s, ok := v.(string)
		if !ok {
			return 0, errors.New("must be a string or an array of strings")
		}
		for _, tn := range typeNames {
			if tn.name == s {
				return tn.t, nil
			}
		}
		return 0, fmt.Errorf("unknown type %q", s)
	}
	arr, ok := val.([]any)
	if !ok {
		return one(val)
	}
	if len(arr) == 0 {
		return 0, errors.New("must not be an empty array")
	}
	var m typeMask
	for _, v := range arr {
		t, err := one(v)
		if err != nil {
			return 0, err
		}
		m |= t
	}
	return m, nil
}

func stringArray(val any) ([]string, error) {
	arr, ok := val.([]any)
	if !ok {
		return nil, errors.New("must be an array of strings")
	}
	out := make([]string, len(arr))
	for i, v := range arr {
		s, ok := v.(string)
		if !ok {
			return nil, errors.New("must be an array of strings")
		}
		out[i] = s
	}
	return out, nil
}

func number(val any) (*numLimit, error) {
	num, ok := val.(json.Number)
	if !ok {
		return nil, errors.New("must be a number")
	}
	return &numLimit{d: parseDec([]byte(num)), text: string(num)}, nil
}

func nonNegInt(val any) (int, error) {
	num, ok := val.(json.Number)
	if ok {
		if d := parseDec([]byte(num)); d.isInt() && !d.neg {
			return d.toInt(), nil
		}
	}
	return 0, errors.New("must be a non-negative integer")
}

// newValueSet indexes vals; display is shown in error messages.
func newValueSet(vals []any, display any) *valueSet {
	s := &valueSet{}
	for _, v := range vals {
		switch v := v.(type) {
		case nil:
			s.null = true
		case bool:
			if v {
				s.tru = true
			} else {
				s.fals = true
			}
		case string:
			s.strs = append(s.strs, v)
		case json.Number:
			s.nums = append(s.nums, parseDec([]byte(v)))
		default:
			s.composite = append(s.composite, v)
		}
	}
	if len(s.strs) > 8 {
		s.strSet = make(map[string]struct{}, len(s.strs))
		for _, v := range s.strs {
			s.strSet[v] = struct{}{}
		}
	}
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(display)
	s.display = strings.TrimSuffix(b.String(), "\n")
	if len(s.display) > 300 {
		cut := 300
		for cut > 0 && !utf8.RuneStart(s.display[cut]) {
			cut--
		}
		s.display = s.display[:cut] + "…"
	}
	return s
}

func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case json.Number:
		return "number"
	case []any:
		return "array"
	}
	return "object"
}

// compilePattern compiles an ECMA-262 pattern with RE2, translating \uXXXX
// escapes, which RE2 lacks.
func compilePattern(src string) (*regexp.Regexp, error) {
	var b strings.Builder
	for i := 0; i < len(src); i++ {
		c := src[i]
		if c != '\\' || i+1 >= len(src) {
			b.WriteByte(c)
			continue
		}
		if src[i+1] == 'u' && i+6 <= len(src) {
			if _, ok := hex4([]byte(src), i+2); ok {
				b.WriteString(`\x{` + src[i+2:i+6] + `}`)
				i += 5
				continue
			}
		}
		b.WriteByte(c)
		b.WriteByte(src[i+1])
		i++
	}
	return regexp.Compile(b.String())
}

func resolveURI(base, ref string) (string, error) {
	r, err := url.Parse(ref)
	if err != nil {
		return "", err
	}
	if base != "" {
		b, err := url.Parse(base)
		if err != nil {
			return "", err
		}
		r = b.ResolveReference(r)
	}
	r.Fragment, r.RawFragment = "", ""
	return r.String(), nil
}

// resolve finds the node a $ref points at.
func (c *compiler) resolve(base, ref string) (*node, error) {
	uri, frag, _ := strings.Cut(ref, "#")
	if uri == "" {
		uri = base
	} else {
		var err error
		if uri, err = resolveURI(base, uri); err != nil {
			return nil, err
		}
	}
	res := c.resources[uri]
	if res == nil {
		return nil, errors.New("only references within the schema document are supported")
	}
	frag, err := url.PathUnescape(frag)
	if err != nil {
		return nil, err
	}
	if frag != "" && frag[0] != '/' {
		if n := res.anchors[frag]; n != nil {
			return n, nil
		}
		return nil, errors.New("no such $anchor")
	}
	if n := c.byLoc[res.loc+frag]; n != nil {
		return n, nil
	}
	return nil, errors.New("does not point at a schema in this document")
}

// checkCycles rejects schemas where following $ref, allOf, anyOf, oneOf
// and not from a node leads back to it: validation would never terminate.
func (c *compiler) checkCycles() error {
	const (
		white = iota
		grey
		black
	)
	color := make(map[*node]int, len(c.nodes))
	var visit func(n *node) error
	visit = func(n *node) error {
		switch color[n] {
		case grey:
			return errAt(n.loc, "$ref cycle that never descends into the instance")
		case black:
			return nil
		}
		color[n] = grey
		for _, s := range n.sameInstance() {
			if err := visit(s); err != nil {
				return err
			}
		}
		color[n] = black
		return nil
	}
	for _, n := range c.nodes {
		if err := visit(n); err != nil {
			return err
		}
	}
	return nil
}

func (n *node) sameInstance() []*node {
	var out []*node
	if n.ref != nil {
		out = append(out, n.ref)
	}
	out = append(out, n.allOf...)
	out = append(out, n.anyOf...)
	out = append(out, n.oneOf...)
	for _, s := range []*node{n.not, n.ifS, n.thenS, n.elseS} {
		if s != nil {
			out = append(out, s)
		}
	}
	return out
}

// finish derives flags used by the validator and short-circuits children
// that are pure $refs.
func (n *node) finish() {
	if n.isTrue || n.isFalse {
		return
	}
	n.objChecks = len(n.props) > 0 || len(n.patterns) > 0 || n.additional != nil ||
		n.propertyNames != nil || n.minProps >= 0 || n.maxProps >= 0
	n.arrChecks = len(n.prefix) > 0 || n.items != nil || n.minItems >= 0 || n.maxItems >= 0 || n.unique
	n.strChecks = n.minLen >= 0 || n.maxLen >= 0 || n.pattern != nil || n.format != fmtNone
	n.numChecks = n.minimum != nil || n.maximum != nil || n.exclMin != nil || n.exclMax != nil || n.multiple != nil
	if n.ifS == nil || n.thenS == nil && n.elseS == nil {
		n.ifS, n.thenS, n.elseS = nil, nil, nil // without both, no effect
	}
	n.applicators = n.ref != nil || len(n.allOf) > 0 || len(n.anyOf) > 0 || len(n.oneOf) > 0 || n.not != nil || n.ifS != nil
	n.ownTrivial = n.types == 0 && !n.objChecks && !n.arrChecks && !n.strChecks && !n.numChecks &&
		n.enum == nil && n.cnst == nil
	if n.ownTrivial && !n.applicators {
		n.isTrue = true
	}
	n.anyString = n.types == tString && !n.strChecks && n.enum == nil && n.cnst == nil && !n.applicators
	for i := range n.props {
		n.props[i].schema = collapse(n.props[i].schema)
	}
	for i := range n.patterns {
		n.patterns[i].schema = collapse(n.patterns[i].schema)
	}
	n.additional = collapse(n.additional)
	n.propertyNames = collapse(n.propertyNames)
	n.items = collapse(n.items)
	for i := range n.prefix {
		n.prefix[i] = collapse(n.prefix[i])
	}
	n.ref = collapse(n.ref)
	for _, l := range [][]*node{n.allOf, n.anyOf, n.oneOf} {
		for i := range l {
			l[i] = collapse(l[i])
		}
	}
	n.not = collapse(n.not)
	n.ifS, n.thenS, n.elseS = collapse(n.ifS), collapse(n.thenS), collapse(n.elseS)
}

// collapse skips nodes that consist of nothing but a $ref.
func collapse(n *node) *node {
	for n != nil && n.ref != nil && n.types == 0 && n.ownTrivialRaw() &&
		len(n.allOf) == 0 && len(n.anyOf) == 0 && len(n.oneOf) == 0 && n.not == nil &&
		n.ifS == nil && n.thenS == nil && n.elseS == nil {
		n = n.ref
	}
	return n
}

func (n *node) ownTrivialRaw() bool {
	return !n.isTrue && !n.isFalse && len(n.props) == 0 && len(n.patterns) == 0 && n.additional == nil &&
		n.propertyNames == nil && n.minProps < 0 && n.maxProps < 0 &&
		len(n.prefix) == 0 && n.items == nil && n.minItems < 0 && n.maxItems < 0 && !n.unique &&
		n.minLen < 0 && n.maxLen < 0 && n.pattern == nil && n.format == fmtNone &&
		n.minimum == nil && n.maximum == nil && n.exclMin == nil && n.exclMax == nil && n.multiple == nil &&
		n.enum == nil && n.cnst == nil
}

// plainName reports whether JSON holds name as it is between the quotes:
// valid UTF-8 with no control character, quote or backslash, so that a
// key whose raw bytes equal name decodes to name.
func plainName(name string) bool {
	for i := 0; i < len(name); i++ {
		if c := name[i]; c < utf8.RuneSelf && !strPlain[c] {
			return false
		}
	}
	return utf8.ValidString(name)
}

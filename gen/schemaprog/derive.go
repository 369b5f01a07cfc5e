package schemaprog

import (
	"encoding"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// The wire form of a Go type is decided, in this order, by:
//
//  1. a JSONSchema() method on the type (or its pointer): the type says
//     what its JSON looks like;
//  2. a few well-known types whose MarshalJSON is known: time.Time (an
//     RFC 3339 string), big.Int (an integer), json.Number (a number);
//  3. json.Marshaler (output) or json.Unmarshaler (input): an unknown
//     form, refused;
//  4. encoding.TextMarshaler (output) or encoding.TextUnmarshaler (input):
//     a string;
//  5. the kind: booleans, numbers (with the bounds of int8 to int32, uint8
//     to uint32 and float32; unsigned integers are at least 0), strings, []byte (base64), slices and arrays, maps (keys of
//     string or integer kind, or text marshalers), structs (by
//     encoding/json's field rules); pointers, slices and maps may be null.
//
// Named structs, maps, slices and arrays used more than once in a schema,
// or recursively, go to $defs and are referenced locally, so the document
// stays self-contained and its size linear in the number of types.

var (
	marshalerType       = reflect.TypeFor[json.Marshaler]()
	unmarshalerType     = reflect.TypeFor[json.Unmarshaler]()
	textMarshalerType   = reflect.TypeFor[encoding.TextMarshaler]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// known are types with a MarshalJSON/UnmarshalJSON whose wire form is
// documented, so no JSONSchema method is needed.
var known = map[reflect.Type]func() *obj{
	reflect.TypeFor[time.Time]():       func() *obj { return newObj("type", "string", "format", "date-time") },
	reflect.TypeFor[big.Int]():         func() *obj { return newObj("type", "integer") },
	reflect.TypeFor[json.Number]():     func() *obj { return newObj("type", "number") },
	reflect.TypeFor[json.RawMessage](): nil, // any JSON at all: refused
}

// textFormats adds a format to text types whose text is known.
var textFormats = map[string]string{
	"github.com/google/uuid.UUID": "uuid",
}

// sch is a derived schema and what it accepts on the wire.
type sch struct {
	o    *obj
	kind string // "string", "integer", "number", "boolean", "array", "object", or "" (described by the type itself)
	null bool   // null is accepted too
	item *sch   // for arrays: the items
	// nilSlice: a slice in an output, which the runtime sends as [] when
	// nil; nullable=false on it says what is so already.
	nilSlice bool
}

// deriver derives one schema document.
type deriver struct {
	output    bool // describe what the encoder writes (else what the decoder reads)
	comments  map[string]string
	root      reflect.Type
	uses      map[reflect.Type]int
	recursive map[reflect.Type]bool
	defs      *obj
	defNames  map[reflect.Type]string
	defKinds  map[reflect.Type]*sch
	taken     map[string]bool
	layouts   map[reflect.Type]reflect.Type // JSONSchema() reflect.Type results
	owners    map[reflect.Type]reflect.Type // layout type -> the type whose doc comments it uses
	errs      []Error
	errSeen   map[string]bool
	// inexact is set when some part of the schema is not derived from
	// the Go types alone (a JSONSchema method, a format, a constraint
	// tag): a value of the type may then break it.
	inexact bool
}

func newDeriver(output bool, comments map[string]string) *deriver {
	return &deriver{output: output, comments: comments, uses: map[reflect.Type]int{}, recursive: map[reflect.Type]bool{},
		defs: newObj(), defNames: map[reflect.Type]string{}, defKinds: map[reflect.Type]*sch{}, layouts: map[reflect.Type]reflect.Type{}, owners: map[reflect.Type]reflect.Type{}, taken: map[string]bool{}, errSeen: map[string]bool{}}
}

// document derives the schema of t as a whole document.
func (d *deriver) document(t reflect.Type) *obj {
	// json.Marshal(out) cannot address a result passed by value; the
	// decoder always decodes into addressable memory.
	addr := !d.output || t.Kind() == reflect.Pointer
	for t.Kind() == reflect.Pointer {
		t = t.Elem() // a nil result is the runtime's business, not the schema's
	}
	d.root = t
	d.count(t, map[reflect.Type]bool{})
	s, ok := d.ownForm(t, "", addr)
	if !ok {
		s = d.build(t, "", addr)
	}
	if typ, ok := s.o.vals["type"].([]string); ok && len(typ) == 2 && typ[1] == "null" {
		// A nil map or slice as a whole result or input is the runtime's
		// business (it refuses a null result and decodes null as zero).
		s.o.set("type", typ[0])
	}
	doc := newObj("$schema", "https://json-schema.org/draft/2020-12/schema")
	for _, k := range s.o.keys {
		doc.set(k, s.o.vals[k])
	}
	if len(d.defs.keys) > 0 {
		doc.set("$defs", d.defs)
	}
	return singleTyped(doc).(*obj)
}

func (d *deriver) fail(at, format string, args ...any) {
	d.failHint(at, "", format, args...)
}

func (d *deriver) failHint(at, hint, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if d.errSeen[at+"\x00"+msg] {
		return
	}
	d.errSeen[at+"\x00"+msg] = true
	d.errs = append(d.errs, Error{Field: at, Msg: msg, Hint: hint})
}

// typeName is how messages name a type: package name and type, as Go
// source spells it.
func typeName(t reflect.Type) string { return t.String() }

// defCandidate reports whether t may live in $defs.
func defCandidate(t reflect.Type) bool {
	if t.Name() == "" || t.PkgPath() == "" {
		return false
	}
	switch t.Kind() {
	case reflect.Struct, reflect.Map, reflect.Slice, reflect.Array:
		return true
	}
	return false
}

// count walks the type graph once per type, counting references to the
// named composite types and finding the recursive ones.
func (d *deriver) count(t reflect.Type, stack map[reflect.Type]bool) {
	if l := d.layoutOf(t); l != nil {
		d.count(l, stack)
		return
	}
	if d.hasOwnForm(t) {
		return
	}
	if t.Kind() == reflect.Pointer {
		d.count(t.Elem(), stack)
		return
	}
	if defCandidate(t) {
		d.uses[t]++
		if stack[t] {
			d.recursive[t] = true
			return
		}
		if d.uses[t] > 1 {
			return
		}
		stack[t] = true
		defer delete(stack, t)
	}
	switch t.Kind() {
	case reflect.Slice:
		if !isBytes(t) {
			d.count(t.Elem(), stack)
		}
	case reflect.Array, reflect.Map:
		d.count(t.Elem(), stack)
	case reflect.Struct:
		for _, f := range structFields(t) {
			d.count(f.typ, stack)
		}
	}
}

// hasOwnForm reports whether t's own methods (or the table of known
// types) decide its wire form in this direction.
func (d *deriver) hasOwnForm(t reflect.Type) bool {
	if t.Kind() == reflect.Pointer {
		return false
	}
	if _, ok := known[t]; ok {
		return true
	}
	if schemaMethod(t).IsValid() {
		return true
	}
	pt := reflect.PointerTo(t)
	if d.output {
		return pt.Implements(marshalerType) || pt.Implements(textMarshalerType)
	}
	return pt.Implements(unmarshalerType) || pt.Implements(textUnmarshalerType)
}

func isBytes(t reflect.Type) bool {
	if t.Kind() != reflect.Slice || t.Elem().Kind() != reflect.Uint8 {
		return false
	}
	e := t.Elem()
	pe := reflect.PointerTo(e)
	return !pe.Implements(marshalerType) && !pe.Implements(textMarshalerType)
}

// schemaMethod finds a JSONSchema method on t or *t, ready to call.
func schemaMethod(t reflect.Type) reflect.Value {
	if m, ok := t.MethodByName("JSONSchema"); ok && m.Type.NumIn() == 1 && m.Type.NumOut() == 1 {
		return reflect.Zero(t).MethodByName("JSONSchema")
	}
	if m, ok := reflect.PointerTo(t).MethodByName("JSONSchema"); ok && m.Type.NumIn() == 1 && m.Type.NumOut() == 1 {
		return reflect.New(t).MethodByName("JSONSchema")
	}
	return reflect.Value{}
}

// schema derives the schema of a value of type t found at the field at
// (for messages). addr says whether encoding/json can take the value's
// address (it then also uses methods declared on the pointer).
func (d *deriver) schema(t reflect.Type, at string, addr bool) *sch {
	if t.Kind() == reflect.Pointer {
		s := d.schema(t.Elem(), at, true)
		return nullable(s)
	}
	if t == d.root && d.uses[t] > 1 {
		return d.refTo(t, "#")
	}
	if s, ok := d.ownForm(t, at, addr); ok {
		return s
	}
	if defCandidate(t) && (d.uses[t] > 1 || d.recursive[t]) {
		name, ok := d.defNames[t]
		if !ok {
			name = d.defName(t)
			d.defNames[t] = name
			d.defs.set(name, nil) // reserve the slot: keeps $defs in first-use order
			body := d.build(t, at, addr)
			d.defs.set(name, body.o)
			d.defKinds[t] = body
		}
		return d.refTo(t, "#/$defs/"+jsonPointerEscape(name))
	}
	return d.build(t, at, addr)
}

func (d *deriver) refTo(t reflect.Type, ref string) *sch {
	s := &sch{o: newObj("$ref", ref), kind: kindOf(t)}
	if body := d.defKinds[t]; body != nil {
		s.kind, s.item, s.null, s.nilSlice = body.kind, body.item, body.null, body.nilSlice
	}
	return s
}

// kindOf is the JSON type a composite Go type is described with, before
// its schema is built (a recursive reference needs it early).
func kindOf(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Struct, reflect.Map:
		return "object"
	case reflect.Slice:
		if isBytes(t) {
			return "string"
		}
		return "array"
	case reflect.Array:
		return "array"
	}
	return ""
}

func jsonPointerEscape(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

var nonDefChar = regexp.MustCompile(`[^A-Za-z0-9_.-]+`)

// defName names t in $defs: its type name, qualified by its package when
// another type took the name, numbered as a last resort.
func (d *deriver) defName(t reflect.Type) string {
	if o, ok := d.owners[t]; ok {
		t = o // a layout is named after the type it describes
	}
	base := strings.Trim(nonDefChar.ReplaceAllString(t.Name(), "_"), "_")
	name := base
	if d.taken[name] {
		pkg := t.PkgPath()
		name = pkg[strings.LastIndex(pkg, "/")+1:] + "." + base
	}
	for i := 2; d.taken[name]; i++ {
		name = fmt.Sprintf("%s%d", base, i)
	}
	d.taken[name] = true
	return name
}

// ownForm handles types whose methods decide their JSON.
func (d *deriver) ownForm(t reflect.Type, at string, addr bool) (*sch, bool) {
	if m := schemaMethod(t); m.IsValid() {
		d.inexact = true
		if l := d.layoutOf(t); l != nil {
			return d.schema(l, at, true), true
		}
		return d.callSchemaMethod(t, m, at), true
	}
	if mk, ok := known[t]; ok {
		if mk == nil {
			d.failHint(at, "use a concrete type, or give the field's type a JSONSchema() method", "%s has no schema: it holds any JSON value", typeName(t))
			return &sch{o: newObj("type", "object")}, true
		}
		s := &sch{o: mk()}
		s.kind, _ = s.o.vals["type"].(string)
		return s, true
	}
	pt := reflect.PointerTo(t)
	jsonIface, textIface, verb := marshalerType, textMarshalerType, "MarshalJSON"
	if !d.output {
		jsonIface, textIface, verb = unmarshalerType, textUnmarshalerType, "UnmarshalJSON"
	}
	onValue := t.Implements(jsonIface) || t.Implements(textIface)
	if d.output && !onValue && !addr && (pt.Implements(jsonIface) || pt.Implements(textIface)) {
		m := "MarshalJSON"
		if !pt.Implements(jsonIface) {
			m = "MarshalText"
		}
		d.failHint(at, fmt.Sprintf("declare %s on %s rather than on its pointer, or use *%s here", m, typeName(t), typeName(t)),
			"%s declares %s on *%s, which encoding/json ignores for a value it cannot address (a result or a map value): the JSON would be the Go layout", typeName(t), m, typeName(t))
		return &sch{o: newObj("type", "object")}, true
	}
	switch {
	case pt.Implements(jsonIface):
		d.failHint(at, fmt.Sprintf("add a method `func (%s) JSONSchema() *jsonschema.Schema` that describes its JSON (or a map[string]any / json.RawMessage holding the schema)", t.Name()),
			"%s has its own JSON form (%s), which mcpgen cannot know", typeName(t), verb)
		return &sch{o: newObj("type", "object")}, true
	case pt.Implements(textIface):
		s := &sch{o: newObj("type", "string"), kind: "string"}
		if f := textFormats[t.PkgPath()+"."+t.Name()]; f != "" {
			s.o.set("format", f)
			d.inexact = true
		}
		return s, true
	}
	return nil, false
}

// layoutOf returns the type whose schema describes t when t's JSONSchema
// method returns a reflect.Type (a MarshalJSON that writes the fields of a
// plain copy of the struct says so this way). The fields' doc comments
// are looked up under t.
func (d *deriver) layoutOf(t reflect.Type) reflect.Type {
	if l, ok := d.layouts[t]; ok {
		return l
	}
	d.layouts[t] = nil
	m := schemaMethod(t)
	if !m.IsValid() || m.Type().Out(0) != reflect.TypeFor[reflect.Type]() {
		return nil
	}
	var l reflect.Type
	func() {
		defer func() { recover() }()
		l, _ = m.Call(nil)[0].Interface().(reflect.Type)
	}()
	if l == nil || l == t || schemaMethod(l).IsValid() {
		return nil // reported by callSchemaMethod
	}
	d.layouts[t] = l
	if l.Kind() == reflect.Struct && t.Kind() == reflect.Struct {
		d.owners[l] = t
	}
	return l
}

func (d *deriver) callSchemaMethod(t reflect.Type, m reflect.Value, at string) (s *sch) {
	s = &sch{o: newObj("type", "object")}
	defer func() {
		if r := recover(); r != nil {
			d.fail(at, "%s.JSONSchema panicked: %v", typeName(t), r)
		}
	}()
	out := m.Call(nil)[0].Interface()
	var raw []byte
	switch v := out.(type) {
	case reflect.Type:
		d.fail(at, "%s.JSONSchema returned %v, which is nil, the type itself or a type with a JSONSchema method of its own", typeName(t), v)
		return s
	case json.RawMessage:
		raw = v
	case []byte:
		raw = v
	case string:
		raw = []byte(v)
	default:
		var err error
		if raw, err = json.Marshal(v); err != nil {
			d.fail(at, "%s.JSONSchema: %v", typeName(t), err)
			return s
		}
	}
	v, err := parseOrdered(raw)
	if err != nil {
		d.fail(at, "%s.JSONSchema returned invalid JSON: %v", typeName(t), err)
		return s
	}
	o, ok := v.(*obj)
	if !ok || len(o.keys) == 0 {
		// An empty or boolean schema accepts anything; the generator
		// reports it where it lands.
		o = newObj()
	}
	s.o = o
	if k, ok := o.vals["type"].(string); ok {
		s.kind = k
	}
	return s
}

// build derives t's schema from its kind.
func (d *deriver) build(t reflect.Type, at string, addr bool) *sch {
	switch t.Kind() {
	case reflect.Bool:
		return &sch{o: newObj("type", "boolean"), kind: "boolean"}
	case reflect.Int, reflect.Int64:
		// No bounds: encoding/json itself refuses a number out of
		// range, and ±9223372036854775807 would tell the model nothing.
		return &sch{o: newObj("type", "integer"), kind: "integer"}
	case reflect.Int8, reflect.Int16, reflect.Int32:
		bits := t.Bits()
		lo := -(int64(1) << (bits - 1))
		hi := int64(1)<<(bits-1) - 1
		return &sch{o: newObj("type", "integer", "minimum", json.Number(strconv.FormatInt(lo, 10)), "maximum", json.Number(strconv.FormatInt(hi, 10))), kind: "integer"}
	case reflect.Uint, reflect.Uint64, reflect.Uintptr:
		// The sign matters to the model; the top of the range, as for
		// int64, does not.
		return &sch{o: newObj("type", "integer", "minimum", json.Number("0")), kind: "integer"}
	case reflect.Uint8, reflect.Uint16, reflect.Uint32:
		hi := uint64(1)<<t.Bits() - 1
		return &sch{o: newObj("type", "integer", "minimum", json.Number("0"), "maximum", json.Number(strconv.FormatUint(hi, 10))), kind: "integer"}
	case reflect.Float32:
		// The shortest decimal of the largest float32, as encoding/json
		// writes it; anything up to it decodes (rounding down).
		m := json.Number(strconv.FormatFloat(math.MaxFloat32, 'g', -1, 32))
		return &sch{o: newObj("type", "number", "minimum", "-"+m, "maximum", m), kind: "number"}
	case reflect.Float64:
		// Beyond these, encoding/json fails to decode (and Go cannot hold it).
		m := json.Number(strconv.FormatFloat(math.MaxFloat64, 'g', -1, 64))
		return &sch{o: newObj("type", "number", "minimum", "-"+m, "maximum", m), kind: "number"}
	case reflect.String:
		return &sch{o: newObj("type", "string"), kind: "string"}
	case reflect.Slice:
		if isBytes(t) {
			return nullable(&sch{o: newObj("type", "string", "contentEncoding", "base64", "pattern", base64Pattern), kind: "string"})
		}
		item := d.schema(t.Elem(), at, true)
		s := &sch{o: newObj("type", "array", "items", item.o), kind: "array", item: item}
		if d.output {
			// The runtime sends a nil slice of a result as [], never null
			// (jsonschema.Schema.FillNullArrays).
			s.nilSlice = true
			return s
		}
		return nullable(s)
	case reflect.Array:
		item := d.schema(t.Elem(), at, addr)
		n := json.Number(strconv.Itoa(t.Len()))
		return &sch{o: newObj("type", "array", "items", item.o, "minItems", n, "maxItems", n), kind: "array", item: item}
	case reflect.Map:
		o := newObj("type", "object")
		if names := d.keySchema(t.Key(), at); names != nil {
			o.set("propertyNames", names)
		}
		o.set("additionalProperties", d.schema(t.Elem(), at, !d.output).o)
		return nullable(&sch{o: o, kind: "object"})
	case reflect.Struct:
		return d.structSchema(t, addr)
	case reflect.Interface:
		d.failHint(at, "use a concrete type, or a type with a JSONSchema() method", "%s can hold any JSON value: it has no schema", typeName(t))
	default:
		d.failHint(at, "use a JSON type (string, number, bool, struct, slice, map), or tag the field json:\"-\"", "%s cannot be carried in JSON", typeName(t))
	}
	return &sch{o: newObj("type", "object")}
}

// base64Pattern matches standard base64 with padding, which is what
// encoding/json writes for []byte (contentEncoding alone is only an
// annotation, so the pattern is what refuses other strings).
const base64Pattern = `^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$`

// integerPattern matches the decimal integers of t's range, as map keys
// and ",string" fields spell them: encoding/json refuses the others.
func integerPattern(t reflect.Type) string {
	bits := uint(t.Bits())
	switch t.Kind() {
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		max := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), bits), big.NewInt(1))
		return "^(" + decimalUpTo(max.String()) + ")$"
	}
	max := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), bits-1), big.NewInt(1))
	min := new(big.Int).Lsh(big.NewInt(1), bits-1)
	return "^(" + decimalUpTo(max.String()) + "|-(" + decimalFrom1To(min.String()) + "))$"
}

// decimalUpTo is a regexp alternation matching 0..max in canonical decimal.
func decimalUpTo(max string) string { return "0|" + decimalFrom1To(max) }

// decimalFrom1To matches 1..max in canonical decimal (no leading zeros).
func decimalFrom1To(max string) string {
	var alts []string
	n := len(max)
	if n > 1 { // every number with fewer digits
		alts = append(alts, fmt.Sprintf("[1-9][0-9]{0,%d}", n-2))
	}
	// n digits, at most max: agree with a prefix of max, then a smaller digit.
	for i := 0; i < n; i++ {
		lo := byte('0')
		if i == 0 {
			lo = '1'
		}
		hi := max[i] - 1
		if hi >= lo {
			alts = append(alts, fmt.Sprintf("%s[%c-%c][0-9]{%d}", max[:i], lo, hi, n-i-1))
		}
	}
	alts = append(alts, max)
	return strings.Join(alts, "|")
}

// keySchema describes map keys as encoding/json writes and reads them: a
// string kind as is, a text (un)marshaler through its text, integers in
// decimal. nil means any string.
func (d *deriver) keySchema(k reflect.Type, at string) *obj {
	if k.Kind() == reflect.String {
		return nil
	}
	pk := reflect.PointerTo(k)
	if (d.output && (k.Implements(textMarshalerType) || pk.Implements(textMarshalerType))) ||
		(!d.output && pk.Implements(textUnmarshalerType)) {
		return nil
	}
	switch k.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return newObj("pattern", integerPattern(k))
	}
	d.failHint(at, "use map keys of a string or integer type, or a type with MarshalText and UnmarshalText", "map key type %s has no JSON form", typeName(k))
	return nil
}

func (d *deriver) structSchema(t reflect.Type, addr bool) *sch {
	props := newObj()
	var required []string
	for _, f := range structFields(t) {
		owner := f.owner
		if o, ok := d.owners[owner]; ok {
			owner = o
		}
		loc := fieldKey(owner, f.goName)
		d.checkTag(f, loc)
		s := d.fieldSchema(f, loc, addr)
		props.set(f.name, s.o)
		if !f.json.OmitEmpty && !f.json.OmitZero && !f.viaPtr {
			required = append(required, f.name)
		}
	}
	o := newObj("type", "object", "properties", props)
	if len(required) > 0 {
		o.set("required", required)
	}
	o.set("additionalProperties", false)
	return &sch{o: o, kind: "object"}
}

// checkTag reports json tag mistakes encoding/json passes over silently.
func (d *deriver) checkTag(f field, loc string) {
	if f.json.Invalid != "" {
		d.failHint(loc, "use letters, digits and !#$%&()*+-./:;<=>?@[]^_{|}~ and space", "json name %q is not valid: encoding/json ignores it and uses %q", f.json.Invalid, f.goName)
	}
	for _, o := range f.json.Unknown {
		d.failHint(loc, "the options are omitempty, omitzero and string", "unknown json tag option %q (encoding/json ignores it)", o)
	}
	if f.json.String && !f.quoted {
		d.failHint(loc, "drop ,string: it applies to strings, numbers and booleans", "json option ,string has no effect on %s", typeName(f.typ))
	}
}

func fieldKey(owner reflect.Type, goName string) string {
	name := owner.Name()
	if i := strings.IndexByte(name, '['); i >= 0 {
		name = name[:i]
	}
	return owner.PkgPath() + "." + name + "." + goName
}

func (d *deriver) fieldSchema(f field, loc string, addr bool) *sch {
	var s *sch
	if f.quoted {
		s = d.quoted(f, loc)
	} else {
		s = d.schema(f.typ, loc, addr)
	}
	s = shallow(s)
	desc := d.comments[loc]
	if d.applyTags(s, f, loc) {
		desc = ""
	}
	if desc != "" {
		s.o.set("description", desc)
	}
	return s
}

// shallow copies s so that keywords can be added to the copy.
func shallow(s *sch) *sch {
	c := *s
	c.o = s.o.clone()
	return &c
}

var (
	// A JSON string literal: what encoding/json writes inside the
	// string of a ",string" string field, and what it can read back.
	quotedString = `^"([^"\\\x00-\x1f]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*"$`
	quotedNumber = `^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$`
)

// quoted describes a ",string" field: its JSON sits inside a string.
func (d *deriver) quoted(f field, loc string) *sch {
	t, null := f.typ, false
	if t.Name() == "" && t.Kind() == reflect.Pointer {
		t, null = t.Elem(), true
	}
	if d.hasOwnForm(t) {
		d.failHint(loc, "drop ,string", "json option ,string on %s, a type with its own JSON form", typeName(t))
	}
	o := newObj("type", "string")
	switch t.Kind() {
	case reflect.Bool:
		o.set("enum", []any{"true", "false"})
	case reflect.String:
		o.set("pattern", quotedString)
	case reflect.Float32, reflect.Float64:
		o.set("pattern", quotedNumber)
	default:
		o.set("pattern", integerPattern(t))
	}
	s := &sch{o: o, kind: "string"}
	if null {
		return nullable(s)
	}
	return s
}

// nullable lets s accept null as well.
func nullable(s *sch) *sch {
	if s.null {
		return s
	}
	c := shallow(s)
	c.null, c.nilSlice = true, false
	typ, hasType := c.o.vals["type"].(string)
	_, hasRef := c.o.vals["$ref"]
	_, hasEnum := c.o.vals["enum"]
	_, hasConst := c.o.vals["const"]
	if !hasType || hasRef || hasConst || len(c.o.keys) == 0 {
		c.o = newObj("anyOf", []any{s.o, newObj("type", "null")})
		return c
	}
	c.o.set("type", []string{typ, "null"})
	if hasEnum {
		c.o.set("enum", append(append([]any(nil), c.o.vals["enum"].([]any)...), nil))
	}
	return c
}

// annotationKeys stay on the outside when a nullable schema is split into
// anyOf branches: they describe the property, not one of its types.
var annotationKeys = map[string]bool{"title": true, "description": true, "default": true, "examples": true,
	"deprecated": true, "readOnly": true, "writeOnly": true, "$comment": true}

// singleTyped rewrites every schema object in v whose type is a list,
// [T, "null"] (nullable's form while keywords are added), as anyOf a
// schema of type T and one of type null: clients that map tool schemas
// onto a single-type dialect (the OpenAPI subset of Gemini's function
// declarations) refuse a list of types, and MCP Inspector --strict warns
// about one. It builds new objects: the objects of v may be shared.
func singleTyped(v any) any {
	switch x := v.(type) {
	case *obj:
		c := &obj{vals: make(map[string]any, len(x.vals))}
		for _, k := range x.keys {
			val := x.vals[k]
			switch k {
			case "enum", "const", "default", "examples":
			default:
				val = singleTyped(val)
			}
			c.set(k, val)
		}
		typ, ok := c.vals["type"].([]string)
		if !ok || len(typ) != 2 || typ[1] != "null" {
			return c
		}
		outer, inner := newObj(), newObj()
		for _, k := range c.keys {
			val := c.vals[k]
			switch {
			case k == "type":
				inner.set(k, typ[0])
			case k == "enum":
				var vals []any
				for _, e := range val.([]any) {
					if e != nil {
						vals = append(vals, e)
					}
				}
				inner.set(k, vals)
			case annotationKeys[k] || strings.HasPrefix(k, "x-"):
				outer.set(k, val)
			default:
				inner.set(k, val)
			}
		}
		outer.set("anyOf", []any{inner, newObj("type", "null")})
		return outer
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = singleTyped(e)
		}
		return out
	}
	return v
}

package jsonschema

import (
	"cmp"
	"errors"
	"fmt"
	"math/bits"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// The validator walks the document once, recursively, with the schema node
// that applies at each point. Validation runs first in "fast" mode, where a
// mismatch is the allocation-free errInvalid; only when that fails does
// Validate re-run in "detail" mode to build a *vErr with the path and
// message. Both runs take exactly the same decisions.

var errInvalid = errors.New("jsonschema: value does not match the schema")

// vErr is a validation failure in detail mode.
type vErr struct {
	segs     []pathSeg // innermost first: appended while unwinding
	msg      string
	kw       string
	expected typeMask // for type mismatches at the failing value itself
	got      string
}

func (e *vErr) Error() string { return e.msg }

func (e *vErr) export() *ValidationError {
	segs := slices.Clone(e.segs)
	slices.Reverse(segs)
	return &ValidationError{Path: pointer(segs), Message: e.msg, Keyword: e.kw, segs: segs}
}

type itemRef struct {
	h          uint64
	idx, start int
}

type validator struct {
	data            []byte
	detail          bool
	steps, maxSteps int
	bits            []uint64  // "required" bitsets of objects with > 64 required names
	buf             []byte    // decoded strings
	items           []itemRef // uniqueItems bookkeeping

	// collect (detail mode of ValidateAll only): a failing property or
	// item is recorded in found and the walk goes on past it, with path
	// the location of the value being checked (outermost first), until
	// limit failures are found. Branches tried by anyOf, oneOf, not and
	// if are never recorded: their failures are expected.
	collect bool
	path    []pathSeg
	found   []*ValidationError
	limit   int
}

var validatorPool = sync.Pool{New: func() any { return new(validator) }}

func getValidator(data []byte) *validator {
	v := validatorPool.Get().(*validator)
	v.reset(data)
	return v
}

func putValidator(v *validator) {
	v.data = nil
	if cap(v.buf) > 1<<16 {
		v.buf = nil
	}
	if cap(v.items) > 1<<12 {
		v.items = nil
	}
	if cap(v.bits) > 1<<10 {
		v.bits = nil
	}
	validatorPool.Put(v)
}

func (v *validator) reset(data []byte) {
	v.data = data
	v.detail = false
	v.collect = false
	v.path = v.path[:0]
	v.found = nil
	v.steps = 0
	v.maxSteps = EvalStepsPerByte*len(data) + 1<<16
	v.bits = v.bits[:0]
	v.buf = v.buf[:0]
	v.items = v.items[:0]
}

type mark struct{ bits, buf, items int }

func (v *validator) mark() mark { return mark{len(v.bits), len(v.buf), len(v.items)} }

func (v *validator) restore(m mark) {
	v.bits, v.buf, v.items = v.bits[:m.bits], v.buf[:m.buf], v.items[:m.items]
}

func (v *validator) errf(kw, format string, args ...any) error {
	return &vErr{kw: kw, msg: fmt.Sprintf(format, args...)}
}

func (v *validator) typeErr(n *node, got string) error {
	if !v.detail {
		return errInvalid
	}
	return &vErr{kw: "type", msg: "expected " + n.types.String() + ", got " + got, expected: n.types, got: got}
}

func (v *validator) tooComplex(i int) error {
	return &InputError{Offset: i, Msg: "validation exceeded " + strconv.Itoa(v.maxSteps) + " steps", kind: ErrTooComplex}
}

// skip checks the syntax of an unconstrained value and charges for it.
func (v *validator) skip(i, depth int) (int, error) {
	end, err := skipValue(v.data, i, depth)
	v.steps += (end - i) >> 6
	return end, err
}

// validate checks the value at v.data[i] (after whitespace) against n and
// returns the index after it. depth is the number of enclosing arrays and
// objects.
func (v *validator) validate(n *node, i, depth int) (int, error) {
	d := v.data
	i = skipWS(d, i)
	if i >= len(d) {
		return 0, unexpected(d, i)
	}
	if n == nil || n.isTrue {
		return v.skip(i, depth)
	}
	if v.steps++; v.steps > v.maxSteps {
		return 0, v.tooComplex(i)
	}
	if n.isFalse {
		if !v.detail {
			return 0, errInvalid
		}
		return 0, &vErr{kw: "false", msg: "no value is allowed here"}
	}
	if n.anyString && d[i] == '"' {
		// What str does for a string with nothing to check but its syntax.
		end, _, _, err := scanString(d, i)
		if err != nil {
			return 0, err
		}
		v.steps += (end - i) >> 6
		return end, nil
	}
	if n.ownTrivial {
		return v.applicators(n, i, depth, -1)
	}
	var end int
	var err error
	switch d[i] {
	case '{':
		if n.types != 0 && n.types&tObject == 0 {
			return 0, v.typeErr(n, "object")
		}
		if n.objChecks {
			end, err = v.object(n, i, depth)
		} else {
			end, err = v.skip(i, depth)
		}
		if err == nil && (n.enum != nil || n.cnst != nil) {
			err = v.checkComposite(n, d[i:end])
		}
	case '[':
		if n.types != 0 && n.types&tArray == 0 {
			return 0, v.typeErr(n, "array")
		}
		if n.arrChecks {
			end, err = v.array(n, i, depth)
		} else {
			end, err = v.skip(i, depth)
		}
		if err == nil && (n.enum != nil || n.cnst != nil) {
			err = v.checkComposite(n, d[i:end])
		}
	case '"':
		if n.types != 0 && n.types&tString == 0 {
			return 0, v.typeErr(n, "string")
		}
		end, err = v.str(n, i)
	case 't', 'f', 'n':
		t, got := tBoolean, "boolean"
		if d[i] == 'n' {
			t, got = tNull, "null"
		}
		if n.types != 0 && n.types&t == 0 {
			return 0, v.typeErr(n, got)
		}
		if end, err = scanLiteral(d, i); err == nil && (n.enum != nil || n.cnst != nil) {
			err = v.checkLiteral(n, d[i])
		}
	default:
		if end, err = scanNumber(d, i); err != nil {
			return 0, err
		}
		if n.types != 0 && n.types&tNumber == 0 {
			if n.types&tInteger == 0 {
				return 0, v.typeErr(n, "number")
			}
			if !parseDec(d[i:end]).isInt() {
				return 0, v.typeErr(n, "number")
			}
		}
		if n.numChecks || n.enum != nil || n.cnst != nil {
			err = v.num(n, parseDec(d[i:end]))
		}
	}
	if err != nil {
		return 0, err
	}
	if n.applicators {
		return v.applicators(n, i, depth, end)
	}
	return end, nil
}

// applicators checks $ref, allOf, anyOf, oneOf and not on the value at
// v.data[start:]. end is the index after the value, or -1 if the value has
// not been scanned yet.
func (v *validator) applicators(n *node, start, depth, end int) (int, error) {
	if n.ref != nil {
		e, err := v.validate(n.ref, start, depth)
		if err != nil {
			return 0, err
		}
		end = e
	}
	for _, s := range n.allOf {
		e, err := v.validate(s, start, depth)
		if err != nil {
			return 0, err
		}
		end = e
	}
	if len(n.anyOf) > 0 {
		e, err := v.anyOf(n.anyOf, start, depth)
		if err != nil {
			return 0, err
		}
		end = e
	}
	if len(n.oneOf) > 0 {
		e, err := v.oneOf(n.oneOf, start, depth)
		if err != nil {
			return 0, err
		}
		end = e
	}
	if n.not != nil {
		detail := v.detail
		v.detail = false
		m := v.mark()
		_, err := v.validate(n.not, start, depth)
		v.restore(m)
		v.detail = detail
		switch {
		case err == nil:
			if !detail {
				return 0, errInvalid
			}
			return 0, &vErr{kw: "not", msg: `must not match the schema in "not"`}
		case err != errInvalid:
			return 0, err
		}
	}
	if n.ifS != nil {
		detail := v.detail
		v.detail = false
		m := v.mark()
		e, err := v.validate(n.ifS, start, depth)
		v.restore(m)
		v.detail = detail
		branch := n.thenS
		switch {
		case err == nil:
			end = e
		case err == errInvalid:
			branch = n.elseS
		default:
			return 0, err
		}
		if branch != nil {
			if end, err = v.validate(branch, start, depth); err != nil {
				return 0, err
			}
		}
	}
	if end < 0 {
		return v.skip(start, depth)
	}
	return end, nil
}

func (v *validator) anyOf(branches []*node, start, depth int) (int, error) {
	detail := v.detail
	v.detail = false
	for _, s := range branches {
		m := v.mark()
		e, err := v.validate(s, start, depth)
		if err != errInvalid {
			v.detail = detail
			return e, err
		}
		v.restore(m)
	}
	v.detail = detail
	if !detail {
		return 0, errInvalid
	}
	return 0, v.explain(branches, start, depth, "anyOf")
}

func (v *validator) oneOf(branches []*node, start, depth int) (int, error) {
	detail := v.detail
	v.detail = false
	end, first, second := -1, -1, -1
	for k, s := range branches {
		m := v.mark()
		e, err := v.validate(s, start, depth)
		v.restore(m)
		if err == errInvalid {
			continue
		}
		if err != nil {
			v.detail = detail
			return 0, err
		}
		if first >= 0 {
			second = k
			break
		}
		first, end = k, e
	}
	v.detail = detail
	switch {
	case first >= 0 && second < 0:
		return end, nil
	case !detail:
		return 0, errInvalid
	case first < 0:
		return 0, v.explain(branches, start, depth, "oneOf")
	}
	return 0, v.errf("oneOf", "must match exactly one schema in oneOf, but matches both schema %d and schema %d", first, second)
}

// explain builds the error for a value that matches none of branches.
func (v *validator) explain(branches []*node, start, depth int, kw string) error {
	collect := v.collect
	v.collect = false // the branches' failures make one error, not several
	defer func() { v.collect = collect }()
	var rest []*vErr
	var expected typeMask
	got := ""
	for _, s := range branches {
		m := v.mark()
		_, err := v.validate(s, start, depth)
		v.restore(m)
		ve, ok := err.(*vErr)
		if !ok {
			if err != nil {
				return err
			}
			continue
		}
		if ve.expected != 0 && len(ve.segs) == 0 {
			expected |= ve.expected
			got = ve.got
			continue
		}
		rest = append(rest, ve)
	}
	switch len(rest) {
	case 0:
		if expected == 0 {
			return &vErr{kw: kw, msg: "must match at least one schema in " + kw}
		}
		return &vErr{kw: kw, msg: "expected " + expected.String() + ", got " + got, expected: expected, got: got}
	case 1:
		return rest[0]
	}
	best := rest[0]
	for _, e := range rest[1:] {
		if len(e.segs) > len(best.segs) {
			best = e
		}
	}
	if len(best.segs) > 0 {
		return best
	}
	msgs := make([]string, len(rest))
	for k, e := range rest {
		msgs[k] = e.msg
	}
	return &vErr{kw: kw, msg: "must satisfy at least one of: " + strings.Join(msgs, "; or ")}
}

func (v *validator) object(n *node, i, depth int) (int, error) {
	d := v.data
	if depth >= MaxDepth {
		return 0, tooDeep(i)
	}
	nreq := len(n.required)
	var req uint64 // bitset of required names seen, if nreq <= 64
	boff := len(v.bits)
	if nreq > 64 {
		for k := 0; k < (nreq+63)/64; k++ {
			v.bits = append(v.bits, 0)
		}
	}
	count := 0
	// With a few properties (no index), a key is recognised by comparing
	// its raw bytes with their names, cheaper than scanning it and then
	// looking it up.
	byBytes := n.propIndex == nil
	i = skipWS(d, i+1)
	if i < len(d) && d[i] == '}' {
		i++
	} else {
		for {
			if i >= len(d) || d[i] != '"' {
				return 0, expectKey(d, i)
			}
			ks := i
			ke, kesc, known := 0, false, -1
			if byBytes {
				for k := range n.props {
					// A plain name holds no quote or backslash, so equal
					// bytes followed by a quote are the whole key.
					p := &n.props[k]
					if e := i + 1 + len(p.name); p.plain && e < len(d) && d[e] == '"' && string(d[i+1:e]) == p.name {
						ke, known = e+1, k
						break
					}
				}
			}
			var err error
			if known < 0 {
				if ke, _, kesc, err = scanString(d, i); err != nil {
					return 0, err
				}
			}
			v.steps += (ke - ks) >> 6
			i = skipWS(d, ke)
			if i >= len(d) || d[i] != ':' {
				return 0, expected(d, i, "':' after object key")
			}
			keySeg := func() pathSeg { return pathSeg{key: v.key(ks, ke, kesc)} }
			i++
			if count++; n.maxProps >= 0 && count == n.maxProps+1 {
				if !v.detail {
					return 0, errInvalid
				}
				if err := v.fail(v.errf("maxProperties", "must have at most %d properties", n.maxProps)); err != nil {
					return 0, err
				}
			}
			if n.propertyNames != nil {
				if _, err := v.validate(n.propertyNames, ks, depth+1); err != nil {
					if ve, ok := err.(*vErr); ok {
						ve.msg = "invalid property name " + strconv.Quote(v.key(ks, ke, kesc)) + ": " + ve.msg
						ve.kw = "propertyNames"
						ve.expected = 0
					}
					if err = v.fail(err); err != nil {
						return 0, err
					}
				}
			}

			// Look the key up before validating the value, which may reuse v.buf.
			key := d[ks+1 : ke-1]
			koff := len(v.buf)
			if kesc {
				v.buf = appendUnescaped(v.buf, key)
				key = v.buf[koff:]
			}
			pi := known
			if pi < 0 {
				pi = n.lookup(key)
			}
			var pmask uint64
			for k := range n.patterns {
				if n.patterns[k].re.Match(key) {
					pmask |= 1 << k
				}
			}
			v.buf = v.buf[:koff]

			end := -1
			matched := pmask != 0
			if pi >= 0 {
				p := &n.props[pi]
				if r := p.req; r >= 0 {
					if nreq <= 64 {
						req |= 1 << r
					} else {
						v.bits[boff+r>>6] |= 1 << (r & 63)
					}
				}
				if p.schema != nil {
					matched = true
					if end, err = v.member(p.schema, i, depth+1, keySeg); err != nil {
						return 0, v.inKey(err, ks, ke, kesc)
					}
				}
			}
			for pmask != 0 {
				k := bits.TrailingZeros64(pmask)
				pmask &= pmask - 1
				if end, err = v.member(n.patterns[k].schema, i, depth+1, keySeg); err != nil {
					return 0, v.inKey(err, ks, ke, kesc)
				}
			}
			if !matched && n.additional != nil {
				if n.additional.isFalse {
					if !v.detail {
						return 0, errInvalid
					}
					err := v.fail(&vErr{kw: "additionalProperties", msg: "additional property " + strconv.Quote(v.key(ks, ke, kesc)) + " is not allowed"})
					if err != nil {
						return 0, err
					}
				} else if end, err = v.member(n.additional, i, depth+1, keySeg); err != nil {
					return 0, v.inKey(err, ks, ke, kesc)
				}
			}
			if end < 0 {
				if end, err = v.skip(skipWS(d, i), depth+1); err != nil {
					return 0, err
				}
			}
			i = skipWS(d, end)
			if i < len(d) && d[i] == ',' {
				i = skipWS(d, i+1)
				continue
			}
			if i < len(d) && d[i] == '}' {
				i++
				break
			}
			return 0, expected(d, i, "',' or '}' in object")
		}
	}
	if nreq > 0 {
		if nreq > 64 || req != 1<<nreq-1 { // 1<<64-1 wraps to all ones
			var missing []string
			for r, pi := range n.required {
				var seen bool
				if nreq <= 64 {
					seen = req&(1<<r) != 0
				} else {
					seen = v.bits[boff+r>>6]&(1<<(r&63)) != 0
				}
				if !seen {
					if !v.detail {
						return 0, errInvalid
					}
					missing = append(missing, strconv.Quote(n.props[pi].name))
				}
			}
			var err error
			if len(missing) == 1 {
				err = &vErr{kw: "required", msg: "missing required property " + missing[0]}
			} else if len(missing) > 1 {
				err = &vErr{kw: "required", msg: "missing required properties " + strings.Join(missing, ", ")}
			}
			if err != nil {
				if err = v.fail(err); err != nil {
					return 0, err
				}
			}
		}
		v.bits = v.bits[:boff]
	}
	if n.minProps >= 0 && count < n.minProps {
		if !v.detail {
			return 0, errInvalid
		}
		if err := v.fail(v.errf("minProperties", "must have at least %d properties", n.minProps)); err != nil {
			return 0, err
		}
	}
	return i, nil
}

func (n *node) lookup(key []byte) int {
	if n.propIndex != nil {
		if i, ok := n.propIndex[string(key)]; ok {
			return i
		}
		return -1
	}
	for i := range n.props {
		if n.props[i].name == string(key) {
			return i
		}
	}
	return -1
}

// key returns the decoded object key d[ks:ke] (with quotes).
func (v *validator) key(ks, ke int, esc bool) string {
	raw := v.data[ks+1 : ke-1]
	if !esc {
		return string(raw)
	}
	return string(appendUnescaped(nil, raw))
}

func (v *validator) inKey(err error, ks, ke int, esc bool) error {
	if ve, ok := err.(*vErr); ok {
		ve.segs = append(ve.segs, pathSeg{key: v.key(ks, ke, esc)})
	}
	return err
}

// errEnough stops a collecting walk once limit failures are recorded.
var errEnough = errors.New("jsonschema: enough failures found")

// collecting says whether failures are recorded here and the walk goes on.
func (v *validator) collecting() bool { return v.collect && v.detail }

// record keeps err, a failure of the value at v.path (which seg, when
// set, extends), and returns errEnough once the limit is reached; any
// other error is returned as it is.
func (v *validator) record(err error, seg *pathSeg) error {
	ve, ok := err.(*vErr)
	if !ok {
		return err
	}
	inner := slices.Clone(ve.segs)
	slices.Reverse(inner)
	segs := slices.Clone(v.path)
	if seg != nil {
		segs = append(segs, *seg)
	}
	segs = append(segs, inner...)
	v.found = append(v.found, &ValidationError{Path: pointer(segs), Message: ve.msg, Keyword: ve.kw, segs: segs})
	if len(v.found) >= v.limit {
		return errEnough
	}
	return nil
}

// member validates the value of an object member or array item at
// v.data[i] against n; when collecting, a failure is recorded and the
// value skipped, so that the walk goes on after it.
func (v *validator) member(n *node, i, depth int, seg func() pathSeg) (int, error) {
	if !v.collecting() {
		return v.validate(n, i, depth)
	}
	s := seg()
	v.path = append(v.path, s)
	end, err := v.validate(n, i, depth)
	v.path = v.path[:len(v.path)-1]
	if err == nil {
		return end, nil
	}
	if err = v.record(err, &s); err != nil {
		return 0, err
	}
	return skipValue(v.data, skipWS(v.data, i), depth)
}

// fail is a failure of the value being checked (at v.path): returned, or
// when collecting recorded, so that the caller goes on.
func (v *validator) fail(err error) error {
	if !v.collecting() {
		return err
	}
	return v.record(err, nil)
}

func (v *validator) array(n *node, i, depth int) (int, error) {
	d := v.data
	if depth >= MaxDepth {
		return 0, tooDeep(i)
	}
	ioff := len(v.items)
	idx := 0
	i = skipWS(d, i+1)
	if i < len(d) && d[i] == ']' {
		i++
	} else {
		for {
			if idx == n.maxItems {
				if !v.detail {
					return 0, errInvalid
				}
				if err := v.fail(v.errf("maxItems", "must have at most %d items", n.maxItems)); err != nil {
					return 0, err
				}
			}
			sub := n.items
			if idx < len(n.prefix) {
				sub = n.prefix[idx]
			} else if sub != nil && sub.isFalse && idx == len(n.prefix) {
				if !v.detail {
					return 0, errInvalid
				}
				if err := v.fail(v.errf("items", "must have at most %d items", len(n.prefix))); err != nil {
					return 0, err
				}
			}
			if sub != nil && sub.isFalse && idx >= len(n.prefix) {
				sub = nil // reported once above, when collecting: the rest are skipped
			}
			i = skipWS(d, i)
			if n.unique {
				v.items = append(v.items, itemRef{idx: idx, start: i})
			}
			at := idx
			end, err := v.member(sub, i, depth+1, func() pathSeg { return pathSeg{index: at, isIndex: true} })
			if err != nil {
				if ve, ok := err.(*vErr); ok {
					ve.segs = append(ve.segs, pathSeg{index: idx, isIndex: true})
				}
				return 0, err
			}
			idx++
			i = skipWS(d, end)
			if i < len(d) && d[i] == ',' {
				i++
				continue
			}
			if i < len(d) && d[i] == ']' {
				i++
				break
			}
			return 0, expected(d, i, "',' or ']' in array")
		}
	}
	if idx < n.minItems {
		if !v.detail {
			return 0, errInvalid
		}
		if err := v.fail(v.errf("minItems", "must have at least %d items", n.minItems)); err != nil {
			return 0, err
		}
	}
	if n.unique {
		a, b, dup := v.duplicate(v.items[ioff:])
		v.items = v.items[:ioff]
		if dup {
			if !v.detail {
				return 0, errInvalid
			}
			if err := v.fail(v.errf("uniqueItems", "must not contain duplicate items (items %d and %d are equal)", a, b)); err != nil {
				return 0, err
			}
		}
	}
	return i, nil
}

// duplicate reports the indexes of two equal items, if any, preferring
// the pair whose later item comes first. It sorts by a seeded hash and
// compares only items whose hashes are equal, so it takes O(n log n).
func (v *validator) duplicate(list []itemRef) (int, int, bool) {
	if len(list) < 2 {
		return 0, 0, false
	}
	for k := range list {
		list[k].h, _ = v.hashValue(list[k].start)
	}
	slices.SortFunc(list, func(a, b itemRef) int {
		if c := cmp.Compare(a.h, b.h); c != 0 {
			return c
		}
		return cmp.Compare(a.idx, b.idx)
	})
	a, b := -1, -1
	for k := 0; k < len(list); {
		run := k + 1
		for run < len(list) && list[run].h == list[k].h {
			run++
		}
		// Items in a run are equal barring a 64-bit hash collision.
		for j := k + 1; j < run; j++ {
			if v.equalAt(list[k].start, list[j].start) {
				if b < 0 || list[j].idx < b {
					a, b = list[k].idx, list[j].idx
				}
				break
			}
		}
		k = run
	}
	return a, b, b >= 0
}

// equalAt compares the well-formed values at v.data[i:] and v.data[j:].
func (v *validator) equalAt(i, j int) bool {
	ei, _ := skipValue(v.data, i, 0)
	ej, _ := skipValue(v.data, j, 0)
	return equalAny(decodeAny(v.data[i:ei]), decodeAny(v.data[j:ej]))
}

func (v *validator) str(n *node, i int) (int, error) {
	d := v.data
	end, runes, esc, err := scanString(d, i)
	if err != nil {
		return 0, err
	}
	v.steps += (end - i) >> 6
	if n.minLen >= 0 && runes < n.minLen {
		if !v.detail {
			return 0, errInvalid
		}
		return 0, v.errf("minLength", "must be at least %d characters long", n.minLen)
	}
	if n.maxLen >= 0 && runes > n.maxLen {
		if !v.detail {
			return 0, errInvalid
		}
		return 0, v.errf("maxLength", "must be at most %d characters long", n.maxLen)
	}
	if n.pattern == nil && n.format == fmtNone && n.enum == nil && n.cnst == nil {
		return end, nil
	}
	s := d[i+1 : end-1]
	off := len(v.buf)
	if esc {
		v.buf = appendUnescaped(v.buf, s)
		s = v.buf[off:]
	}
	err = v.strValue(n, s)
	v.buf = v.buf[:off]
	return end, err
}

func (v *validator) strValue(n *node, s []byte) error {
	if n.pattern != nil && !n.pattern.Match(s) {
		if !v.detail {
			return errInvalid
		}
		return &vErr{kw: "pattern", msg: "must match pattern " + n.patternSrc}
	}
	if n.format != fmtNone && !checkFormat(n.format, s) {
		if !v.detail {
			return errInvalid
		}
		return &vErr{kw: "format", msg: "must be a valid " + n.formatName}
	}
	if n.enum != nil && !n.enum.hasString(s) {
		return v.enumErr(n.enum)
	}
	if n.cnst != nil && !n.cnst.hasString(s) {
		return v.constErr(n.cnst)
	}
	return nil
}

func (v *validator) enumErr(s *valueSet) error {
	if !v.detail {
		return errInvalid
	}
	return &vErr{kw: "enum", msg: "must be one of " + s.display}
}

func (v *validator) constErr(s *valueSet) error {
	if !v.detail {
		return errInvalid
	}
	return &vErr{kw: "const", msg: "must be equal to " + s.display}
}

func (v *validator) num(n *node, x dec) error {
	fail := func(kw, op string, l *numLimit) error {
		if !v.detail {
			return errInvalid
		}
		return &vErr{kw: kw, msg: "must be " + op + l.text}
	}
	if l := n.minimum; l != nil && cmpDec(x, l.d) < 0 {
		return fail("minimum", ">= ", l)
	}
	if l := n.maximum; l != nil && cmpDec(x, l.d) > 0 {
		return fail("maximum", "<= ", l)
	}
	if l := n.exclMin; l != nil && cmpDec(x, l.d) <= 0 {
		return fail("exclusiveMinimum", "> ", l)
	}
	if l := n.exclMax; l != nil && cmpDec(x, l.d) >= 0 {
		return fail("exclusiveMaximum", "< ", l)
	}
	if l := n.multiple; l != nil && !multipleOf(x, l.d) {
		return fail("multipleOf", "a multiple of ", l)
	}
	if n.enum != nil && !n.enum.hasNumber(x) {
		return v.enumErr(n.enum)
	}
	if n.cnst != nil && !n.cnst.hasNumber(x) {
		return v.constErr(n.cnst)
	}
	return nil
}

func (v *validator) checkLiteral(n *node, c byte) error {
	in := func(s *valueSet) bool {
		switch c {
		case 't':
			return s.tru
		case 'f':
			return s.fals
		}
		return s.null
	}
	if n.enum != nil && !in(n.enum) {
		return v.enumErr(n.enum)
	}
	if n.cnst != nil && !in(n.cnst) {
		return v.constErr(n.cnst)
	}
	return nil
}

func (v *validator) checkComposite(n *node, b []byte) error {
	if n.enum != nil && !n.enum.hasComposite(b) {
		return v.enumErr(n.enum)
	}
	if n.cnst != nil && !n.cnst.hasComposite(b) {
		return v.constErr(n.cnst)
	}
	return nil
}

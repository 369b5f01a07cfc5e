package jsonschema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math/big"
	"math/rand/v2"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// A deliberately naive reference validator over decoded values, used to
// cross-check the byte-level validator. Numbers are compared with big.Rat.

var errRefSkip = errors.New("reference cannot decide")

// refDecode decodes data with numbers as json.Number, failing with
// errRefSkip on duplicate keys (which the two validators treat differently)
// or absurd exponents.
func refDecode(data []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var parse func() (any, error)
	parse = func() (any, error) {
		tok, err := d.Token()
		if err != nil {
			return nil, err
		}
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '[':
				arr := []any{}
				for d.More() {
					v, err := parse()
					if err != nil {
						return nil, err
					}
					arr = append(arr, v)
				}
				_, err := d.Token()
				return arr, err
			case '{':
				obj := map[string]any{}
				for d.More() {
					k, err := d.Token()
					if err != nil {
						return nil, err
					}
					v, err := parse()
					if err != nil {
						return nil, err
					}
					if _, dup := obj[k.(string)]; dup {
						return nil, errRefSkip
					}
					obj[k.(string)] = v
				}
				_, err := d.Token()
				return obj, err
			}
		case json.Number:
			if _, ok := refRat(t); !ok {
				return nil, errRefSkip
			}
		}
		return tok, nil
	}
	return parse()
}

func refRat(n json.Number) (*big.Rat, bool) {
	s := string(n)
	if i := strings.IndexAny(s, "eE"); i >= 0 && len(strings.TrimLeft(s[i+1:], "+-0")) > 3 {
		return nil, false
	}
	r, ok := new(big.Rat).SetString(s)
	return r, ok
}

func refNorm(v any) any {
	switch v := v.(type) {
	case json.Number:
		r, _ := refRat(v)
		return "num:" + r.RatString()
	case string:
		return "str:" + v
	case []any:
		out := make([]any, len(v))
		for i := range v {
			out[i] = refNorm(v[i])
		}
		return out
	case map[string]any:
		out := map[string]any{}
		for k, x := range v {
			out[k] = refNorm(x)
		}
		return out
	}
	return v
}

func refEqual(a, b any) bool { return reflect.DeepEqual(refNorm(a), refNorm(b)) }

type refValidator struct{ root any }

func (r refValidator) valid(s any, v any) bool {
	if b, ok := s.(bool); ok {
		return b
	}
	m := s.(map[string]any)
	num := func(k string) (*big.Rat, bool) {
		n, ok := m[k].(json.Number)
		if !ok {
			return nil, false
		}
		return refRat(n)
	}
	if t, ok := m["type"]; ok {
		var types []any
		if ts, ok := t.([]any); ok {
			types = ts
		} else {
			types = []any{t}
		}
		match := false
		for _, t := range types {
			match = match || refIsType(t.(string), v)
		}
		if !match {
			return false
		}
	}
	if e, ok := m["enum"]; ok {
		found := false
		for _, c := range e.([]any) {
			found = found || refEqual(c, v)
		}
		if !found {
			return false
		}
	}
	if c, ok := m["const"]; ok && !refEqual(c, v) {
		return false
	}
	switch v := v.(type) {
	case string:
		n := utf8.RuneCountInString(v)
		if x, ok := num("minLength"); ok && big.NewRat(int64(n), 1).Cmp(x) < 0 {
			return false
		}
		if x, ok := num("maxLength"); ok && big.NewRat(int64(n), 1).Cmp(x) > 0 {
			return false
		}
		if p, ok := m["pattern"].(string); ok && !regexp.MustCompile(p).MatchString(v) {
			return false
		}
		if f, ok := m["format"].(string); ok && formats[f] != fmtNone && !checkFormat(formats[f], []byte(v)) {
			return false
		}
	case json.Number:
		x, _ := refRat(v)
		if y, ok := num("minimum"); ok && x.Cmp(y) < 0 {
			return false
		}
		if y, ok := num("maximum"); ok && x.Cmp(y) > 0 {
			return false
		}
		if y, ok := num("exclusiveMinimum"); ok && x.Cmp(y) <= 0 {
			return false
		}
		if y, ok := num("exclusiveMaximum"); ok && x.Cmp(y) >= 0 {
			return false
		}
		if y, ok := num("multipleOf"); ok && !new(big.Rat).Quo(x, y).IsInt() {
			return false
		}
	case []any:
		if x, ok := num("minItems"); ok && big.NewRat(int64(len(v)), 1).Cmp(x) < 0 {
			return false
		}
		if x, ok := num("maxItems"); ok && big.NewRat(int64(len(v)), 1).Cmp(x) > 0 {
			return false
		}
		if m["uniqueItems"] == true {
			for i := range v {
				for j := i + 1; j < len(v); j++ {
					if refEqual(v[i], v[j]) {
						return false
					}
				}
			}
		}
		prefix, _ := m["prefixItems"].([]any)
		for i, item := range v {
			if i < len(prefix) {
				if !r.valid(prefix[i], item) {
					return false
				}
			} else if is, ok := m["items"]; ok && !r.valid(is, item) {
				return false
			}
		}
	case map[string]any:
		if x, ok := num("minProperties"); ok && big.NewRat(int64(len(v)), 1).Cmp(x) < 0 {
			return false
		}
		if x, ok := num("maxProperties"); ok && big.NewRat(int64(len(v)), 1).Cmp(x) > 0 {
			return false
		}
		if req, ok := m["required"].([]any); ok {
			for _, k := range req {
				if _, ok := v[k.(string)]; !ok {
					return false
				}
			}
		}
		props, _ := m["properties"].(map[string]any)
		pats, _ := m["patternProperties"].(map[string]any)
		for k, x := range v {
			if pn, ok := m["propertyNames"]; ok && !r.valid(pn, k) {
				return false
			}
			matched := false
			if ps, ok := props[k]; ok {
				matched = true
				if !r.valid(ps, x) {
					return false
				}
			}
			for p, ps := range pats {
				if regexp.MustCompile(p).MatchString(k) {
					matched = true
					if !r.valid(ps, x) {
						return false
					}
				}
			}
			if ap, ok := m["additionalProperties"]; ok && !matched && !r.valid(ap, x) {
				return false
			}
		}
	}
	if ref, ok := m["$ref"].(string); ok {
		target := r.root
		for _, tok := range strings.Split(strings.TrimPrefix(ref, "#"), "/")[1:] {
			target = target.(map[string]any)[tok]
		}
		if !r.valid(target, v) {
			return false
		}
	}
	if all, ok := m["allOf"].([]any); ok {
		for _, s := range all {
			if !r.valid(s, v) {
				return false
			}
		}
	}
	if anyOf, ok := m["anyOf"].([]any); ok {
		found := false
		for _, s := range anyOf {
			found = found || r.valid(s, v)
		}
		if !found {
			return false
		}
	}
	if oneOf, ok := m["oneOf"].([]any); ok {
		n := 0
		for _, s := range oneOf {
			if r.valid(s, v) {
				n++
			}
		}
		if n != 1 {
			return false
		}
	}
	if not, ok := m["not"]; ok && r.valid(not, v) {
		return false
	}
	if cond, ok := m["if"]; ok {
		branch, ok := m["else"]
		if r.valid(cond, v) {
			branch, ok = m["then"]
		}
		if ok && !r.valid(branch, v) {
			return false
		}
	}
	return true
}

func refIsType(t string, v any) bool {
	switch v := v.(type) {
	case nil:
		return t == "null"
	case bool:
		return t == "boolean"
	case string:
		return t == "string"
	case []any:
		return t == "array"
	case map[string]any:
		return t == "object"
	case json.Number:
		if t == "number" {
			return true
		}
		r, _ := refRat(v)
		return t == "integer" && r.IsInt()
	}
	return false
}

// Schemas exercised by the differential test and the fuzzer.
var diffSchemas = []string{
	`true`,
	ingestSchema,
	messageSchema,
	`{
	  "type": "object",
	  "properties": {
	    "s": {"type": "string", "minLength": 2, "maxLength": 5, "pattern": "^[a-c]"},
	    "n": {"type": "number", "minimum": -2.5, "exclusiveMaximum": 1e3, "multipleOf": 0.5},
	    "i": {"type": ["integer", "null"], "exclusiveMinimum": 0, "maximum": 12345678901234567890},
	    "e": {"enum": ["x", 1, null, [1, "a"], {"k": true}]},
	    "c": {"const": {"a": [1.0, "b"]}},
	    "a": {"type": "array", "prefixItems": [{"type": "string"}, {"type": "boolean"}], "items": {"type": "integer"}, "minItems": 1, "maxItems": 4},
	    "u": {"type": "array", "uniqueItems": true},
	    "o": {"anyOf": [{"type": "string", "format": "date"}, {"type": "integer", "multipleOf": 3}, {"type": "object", "required": ["z"]}]},
	    "one": {"oneOf": [{"type": "integer"}, {"minimum": 10}]},
	    "not": {"not": {"type": ["string", "array"]}, "if": {"type": "integer"}, "then": {"minimum": 0}, "else": {"type": ["null", "object"]}},
	    "all": {"allOf": [{"type": "object", "minProperties": 1}, {"maxProperties": 2}, {"propertyNames": {"maxLength": 2}}]},
	    "r": {"$ref": "#/$defs/tree"}
	  },
	  "patternProperties": {"^p": {"type": "integer"}, "q$": {"minimum": 5}},
	  "additionalProperties": {"type": ["boolean", "string"]},
	  "required": ["s"],
	  "$defs": {
	    "tree": {"type": "object", "properties": {"v": {"type": "integer"}, "kids": {"type": "array", "items": {"$ref": "#/$defs/tree"}}}, "additionalProperties": false}
	  }
	}`,
	`{"type": "array", "items": {"anyOf": [{"type": "string", "maxLength": 1}, {"type": "array", "items": {"type": "number"}, "uniqueItems": true}, {"type": "object", "additionalProperties": false, "properties": {"a": {"const": 1}}}]}}`,
}

// checkAgainstReference validates data with s and with the reference and
// reports disagreements. It also checks the syntax verdict against
// encoding/json.
func checkAgainstReference(t *testing.T, s *Schema, ref refValidator, data []byte) {
	t.Helper()
	err := s.Validate(data)
	syntaxOK := json.Valid(data) && utf8.Valid(data)
	var ve *ValidationError
	switch {
	case errors.Is(err, ErrTooDeep):
		return
	case errors.Is(err, ErrSyntax):
		if syntaxOK {
			t.Fatalf("Validate(%q) = %v, but the JSON is valid", data, err)
		}
		return
	case err == nil || errors.As(err, &ve):
		if !syntaxOK {
			t.Fatalf("Validate(%q) = %v, but the JSON is malformed", data, err)
		}
		if ve != nil && (ve.Message == "does not match the schema" || ve.Keyword == "") {
			t.Fatalf("Validate(%q) = %#v: detailed run disagreed with the fast run", data, ve)
		}
	default:
		t.Fatalf("Validate(%q) = %v (%T), unexpected error", data, err, err)
	}
	v, derr := refDecode(data)
	if derr != nil {
		return
	}
	if want := ref.valid(ref.root, v); want != (err == nil) {
		t.Fatalf("Validate(%s) = %v, reference says valid=%v", data, err, want)
	}
}

func compileDiffSchemas(t testing.TB) ([]*Schema, []refValidator) {
	var ss []*Schema
	var refs []refValidator
	for _, src := range diffSchemas {
		ss = append(ss, MustCompile([]byte(src)))
		root, err := refDecode([]byte(src))
		if err != nil {
			t.Fatal(err)
		}
		refs = append(refs, refValidator{root})
	}
	return ss, refs
}

// randValue generates JSON likely to exercise diffSchemas.
func randValue(r *rand.Rand, depth int) string {
	keys := []string{"s", "n", "i", "e", "c", "a", "u", "o", "one", "not", "all", "r", "v", "kids", "p1", "xq", "z", "k", "a\\u0062", "message", "entities", "name", "entityType", "observations"}
	strs := []string{`""`, `"a"`, `"ab"`, `"abc"`, `"bcdef"`, `"zz"`, `"2024-02-29"`, `"2023-02-29"`, `"x"`, `"\u00e9\u00e9"`, `"b\ud83d\ude00"`, `"k"`, `"a\"b"`}
	nums := []string{"0", "-0", "1", "1.0", "3", "6e0", "0.5", "-2.5", "-3", "1e3", "999.5", "12345678901234567890", "12345678901234567891", "1e-7", "10", "15", "2.25", "-1E1"}
	switch k := r.IntN(10); {
	case depth > 3 || k < 3:
		return strs[r.IntN(len(strs))]
	case k < 6:
		return nums[r.IntN(len(nums))]
	case k < 7:
		return []string{"true", "false", "null"}[r.IntN(3)]
	case k < 8:
		var parts []string
		for range r.IntN(5) {
			parts = append(parts, randValue(r, depth+1))
		}
		return "[" + strings.Join(parts, ",") + "]"
	default:
		var parts []string
		for range r.IntN(5) {
			parts = append(parts, fmt.Sprintf("%q:%s", keys[r.IntN(len(keys))], randValue(r, depth+1)))
		}
		return "{" + strings.ReplaceAll(strings.Join(parts, ","), `\\u`, `\u`) + "}"
	}
}

// kitchenPools holds valid and invalid values for each property of
// diffSchemas[3], so that generated objects often fail on just one keyword.
var kitchenPools = map[string][]string{
	"s":      {`"ab"`, `"abc"`, `"bcdef"`, `"\u0061b"`, `"a"`, `"abcdef"`, `"zz"`, `"c\u00e9"`, `1`},
	"n":      {`1.5`, `-2.5`, `999.5`, `0`, `-0.0`, `1e3`, `-3`, `0.25`, `"1"`, `2e2`, `-25e-1`},
	"i":      {`null`, `1`, `12345678901234567890`, `12345678901234567891`, `0`, `1.0`, `2.5`, `1.2345678901234567890e19`},
	"e":      {`"x"`, `1`, `1.0`, `null`, `[1,"a"]`, `[1.0,"\u0061"]`, `{"k":true}`, `"y"`, `2`, `[1]`, `{"k":false}`, `true`},
	"c":      {`{"a":[1,"b"]}`, `{"a":[1.00,"b"]}`, `{"a":["b",1]}`, `{"a":[1,"b"],"x":1}`, `[1,"b"]`},
	"a":      {`["x",true,1]`, `["x"]`, `[]`, `["x",1]`, `["x",true,1,2]`, `["x",true,1,2,3]`, `[1]`, `["x",false,1.5]`},
	"u":      {`[1,2]`, `[1,1.0]`, `[[1],[1]]`, `[{"a":1,"b":2},{"b":2,"a":1}]`, `["a","\u0061"]`, `[]`, `[1,"1"]`, `[[1,2],[2,1]]`, `[{"a":[]},{"a":{}}]`, `[0,-0]`},
	"o":      {`"2024-01-01"`, `"2023-02-29"`, `9`, `10`, `{"z":1}`, `{}`, `null`, `-3e0`},
	"one":    {`1`, `10`, `10.5`, `5.5`, `"x"`, `1e1`},
	"not":    {`1`, `"x"`, `[]`, `{}`, `null`},
	"all":    {`{"a":1}`, `{}`, `{"a":1,"b":2,"c":3}`, `{"abc":1}`, `[]`, `{"ab":1,"cd":2}`},
	"r":      {`{"v":1,"kids":[{"v":2},{"kids":[]}]}`, `{"v":1.5}`, `{"x":1}`, `{"kids":[{"v":"x"}]}`, `{"kids":[{"kids":[{"v":3}]}]}`, `{}`},
	"p1":     {`1`, `1.5`, `"x"`},
	"xq":     {`7`, `3`, `"x"`},
	"pq":     {`7`, `3`, `7.5`},
	"z":      {`true`, `"s"`, `1`, `null`},
	`\u0073`: {`"abc"`, `"a"`},
}

func randKitchen(r *rand.Rand) string {
	var parts []string
	if r.IntN(8) > 0 {
		parts = append(parts, `"s":`+kitchenPools["s"][r.IntN(4)])
	}
	for _, k := range slices.Sorted(maps.Keys(kitchenPools)) {
		if pool := kitchenPools[k]; r.IntN(4) == 0 {
			parts = append(parts, `"`+k+`":`+pool[r.IntN(len(pool))])
		}
	}
	r.Shuffle(len(parts), func(i, j int) { parts[i], parts[j] = parts[j], parts[i] })
	return "{" + strings.Join(parts, ",") + "}"
}

func randIngest(r *rand.Rand) string {
	names := []string{`"a"`, `""`, `1`, `"\u00e9"`}
	var ents []string
	for range r.IntN(4) {
		var fields []string
		if r.IntN(8) > 0 {
			fields = append(fields, `"name":`+names[r.IntN(len(names))])
		}
		if r.IntN(8) > 0 {
			fields = append(fields, `"entityType":"t"`)
		}
		if r.IntN(8) > 0 {
			fields = append(fields, `"observations":`+[]string{`[]`, `["x","y"]`, `["x",2]`, `"x"`}[r.IntN(4)])
		}
		if r.IntN(10) == 0 {
			fields = append(fields, `"extra":1`)
		}
		ents = append(ents, "{"+strings.Join(fields, ",")+"}")
	}
	return `{"entities":[` + strings.Join(ents, ",") + "]}"
}

func TestDifferential(t *testing.T) {
	ss, refs := compileDiffSchemas(t)
	r := rand.New(rand.NewPCG(1, 2))
	valid := make([]int, len(ss))
	total := make([]int, len(ss))
	for n := range 30000 {
		inputs := []string{randValue(r, 0)}
		switch n % 3 {
		case 0:
			inputs = append(inputs, randKitchen(r))
		case 1:
			inputs = append(inputs, randIngest(r))
		}
		for _, in := range inputs {
			data := []byte(in)
			for k := range ss {
				checkAgainstReference(t, ss[k], refs[k], data)
				total[k]++
				if ss[k].Validate(data) == nil {
					valid[k]++
				}
			}
		}
	}
	t.Logf("valid/total per schema: %v / %v", valid, total)
}

func FuzzValidate(f *testing.F) {
	ss, refs := compileDiffSchemas(f)
	for _, seed := range []string{
		`{"message":"hello"}`, string(ingestPayload(2)), `[1,"a",{"b":null}]`,
		`{"s":"ab","n":1.5,"i":null,"e":[1,"a"],"c":{"a":[1,"b"]},"a":["x",true,1],"u":[1,2],"o":"2024-01-01","r":{"kids":[{"v":1}]}}`,
		`{"p":1,"xq":7,"other":"s","s":"abc"}`, `"\ud800"`, "\"\xff\"", `[1,2,`, `{"a":1}}`, `1e99999`, `-0.0e-0`,
	} {
		for k := range ss {
			f.Add(uint8(k), []byte(seed))
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		k := int(which) % len(ss)
		checkAgainstReference(t, ss[k], refs[k], data)
	})
}

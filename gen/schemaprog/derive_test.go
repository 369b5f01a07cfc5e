package schemaprog

import (
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// TestIntegerPattern checks the patterns of integer map keys and ",string"
// integers against every value of the small types and the edges of the
// large ones: exactly the decimal spellings strconv accepts for the type.
func TestIntegerPattern(t *testing.T) {
	for _, c := range []struct {
		typ    reflect.Type
		lo, hi int64
	}{
		{reflect.TypeFor[int8](), -128, 127},
		{reflect.TypeFor[uint8](), 0, 255},
		{reflect.TypeFor[int16](), -32768, 32767},
		{reflect.TypeFor[uint16](), 0, 65535},
	} {
		re := regexp.MustCompile(integerPattern(c.typ))
		for i := int64(-70000); i < 70000; i++ {
			if got, want := re.MatchString(strconv.FormatInt(i, 10)), i >= c.lo && i <= c.hi; got != want {
				t.Fatalf("%v: pattern matches %d = %v, want %v", c.typ, i, got, want)
			}
		}
		for _, s := range []string{"01", "-0", "+1", "1.0", "1e2", ""} {
			if re.MatchString(s) {
				t.Errorf("%v: pattern matches %q", c.typ, s)
			}
		}
	}
	for typ, cases := range map[reflect.Type]map[string]bool{
		reflect.TypeFor[int64](): {"9223372036854775807": true, "-9223372036854775808": true, "0": true,
			"9223372036854775808": false, "-9223372036854775809": false, "99999999999999999999": false},
		reflect.TypeFor[uint64](): {"18446744073709551615": true, "18446744073709551616": false, "-1": false},
	} {
		re := regexp.MustCompile(integerPattern(typ))
		for s, want := range cases {
			if re.MatchString(s) != want {
				t.Errorf("%v: pattern matches %s = %v, want %v", typ, s, !want, want)
			}
		}
	}
}

type fA struct {
	Name string
	A    int `json:"a"`
}
type fB struct {
	Name string
	B    int `json:"b"`
}
type fTagged struct {
	Name string `json:"Name"` // tagged: wins over fA.Name and fB.Name
}
type fDeep struct{ fA }
type fRoot struct {
	fA
	fB
	*fTagged
	fDeep         // fDeep.fA is deeper: hidden
	Dash   string `json:"-,"`
	Skip   string `json:"-"`
	Inline fA     `json:"inline"`
	hidden int
}
type fTwice struct {
	fDeep
	fX
}
type fX struct{ fA } // fA twice at depth 2: its fields cancel out

// TestStructFieldsFollowEncodingJSON compares the members structFields
// finds with the keys encoding/json writes for values with every field
// set.
func TestStructFieldsFollowEncodingJSON(t *testing.T) {
	for _, v := range []any{
		fRoot{fTagged: &fTagged{Name: "t"}, hidden: 1},
		fTwice{},
	} {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		var want []string
		for k := range m {
			want = append(want, k)
		}
		var got []string
		for _, f := range structFields(reflect.TypeOf(v)) {
			got = append(got, f.name)
		}
		sort.Strings(want)
		sort.Strings(got)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%T: structFields = %q, encoding/json writes %q", v, got, want)
		}
	}
}

// TestNilPointerEmbedding checks that fields promoted through a nil
// embedded pointer are optional: encoding/json leaves them out.
func TestNilPointerEmbedding(t *testing.T) {
	line := Derive("k", reflect.TypeFor[fRoot](), true, nil)
	if len(line.Errors) > 0 {
		t.Fatal(line.Errors)
	}
	var doc struct {
		Required []string `json:"required"`
	}
	if err := json.Unmarshal(line.Schema, &doc); err != nil {
		t.Fatal(err)
	}
	if slices.Contains(doc.Required, "Name") {
		t.Errorf("Name, promoted through *fTagged, is required: %s", line.Schema)
	}
	if !slices.Contains(doc.Required, "-") || !slices.Contains(doc.Required, "inline") {
		t.Errorf("required = %q, want - and inline in it", doc.Required)
	}
	b, _ := json.Marshal(fRoot{})
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	if _, ok := m["Name"]; ok {
		t.Fatalf("encoding/json wrote Name for a nil *fTagged: %s", b)
	}
}

// Sixteen levels, each using the next twice: inlined, the schema would
// hold 2^16 copies of the deepest type.
type (
	lv0  struct{ A, B lv1 }
	lv1  struct{ A, B lv2 }
	lv2  struct{ A, B lv3 }
	lv3  struct{ A, B lv4 }
	lv4  struct{ A, B lv5 }
	lv5  struct{ A, B lv6 }
	lv6  struct{ A, B lv7 }
	lv7  struct{ A, B lv8 }
	lv8  struct{ A, B lv9 }
	lv9  struct{ A, B lv10 }
	lv10 struct{ A, B lv11 }
	lv11 struct{ A, B lv12 }
	lv12 struct{ A, B lv13 }
	lv13 struct{ A, B lv14 }
	lv14 struct{ A, B lv15 }
	lv15 struct{ A, B string }
)

// TestSharedTypesStaySmall checks that types used more than once are
// described once, in $defs, so the size is linear in the number of types.
func TestSharedTypesStaySmall(t *testing.T) {
	line := Derive("k", reflect.TypeFor[lv0](), false, nil)
	if len(line.Errors) > 0 {
		t.Fatal(line.Errors)
	}
	if len(line.Schema) > 8<<10 {
		t.Fatalf("schema of 16 levels is %d bytes", len(line.Schema))
	}
	var doc struct {
		Defs map[string]json.RawMessage `json:"$defs"`
	}
	if err := json.Unmarshal(line.Schema, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Defs) != 15 {
		t.Errorf("%d $defs, want 15 (lv1..lv15)", len(doc.Defs))
	}
}

// Tree is recursive through a map.
type Tree map[string]Tree

// TestRecursiveMap checks that a type recursive through a map is a
// reference to itself, not an endless expansion.
func TestRecursiveMap(t *testing.T) {
	type holder struct {
		T Tree `json:"t"`
	}
	line := Derive("k", reflect.TypeFor[holder](), true, nil)
	if len(line.Errors) > 0 {
		t.Fatal(line.Errors)
	}
	want := `"$defs":{"Tree":{"anyOf":[{"type":"object","additionalProperties":{"$ref":"#/$defs/Tree"}},{"type":"null"}]}}`
	if !strings.Contains(string(line.Schema), want) {
		t.Errorf("schema = %s, want it to contain %s", line.Schema, want)
	}
}

// TestIntegerBounds checks which integer kinds carry minimum and maximum:
// the sized ones, whose range is narrower than what a JSON number can
// hold, do; int, int64, uint, uint64 and uintptr do not, since
// encoding/json refuses a number out of their range itself (the runtime
// answers invalid params) and bounds of ±9223372036854775807 tell the
// model nothing. Unsigned kinds keep minimum 0.
func TestIntegerBounds(t *testing.T) {
	type ints struct {
		I   int     `json:"i"`
		I8  int8    `json:"i8"`
		I16 int16   `json:"i16"`
		I32 int32   `json:"i32"`
		I64 int64   `json:"i64"`
		U   uint    `json:"u"`
		U8  uint8   `json:"u8"`
		U16 uint16  `json:"u16"`
		U32 uint32  `json:"u32"`
		U64 uint64  `json:"u64"`
		P   uintptr `json:"p"`
		// A tag's bound applies as it stands.
		Tagged int64 `json:"tagged" jsonschema:"minimum=-5,maximum=5"`
	}
	want := map[string]string{
		"i":      `{"type":"integer"}`,
		"i8":     `{"type":"integer","minimum":-128,"maximum":127}`,
		"i16":    `{"type":"integer","minimum":-32768,"maximum":32767}`,
		"i32":    `{"type":"integer","minimum":-2147483648,"maximum":2147483647}`,
		"i64":    `{"type":"integer"}`,
		"u":      `{"type":"integer","minimum":0}`,
		"u8":     `{"type":"integer","minimum":0,"maximum":255}`,
		"u16":    `{"type":"integer","minimum":0,"maximum":65535}`,
		"u32":    `{"type":"integer","minimum":0,"maximum":4294967295}`,
		"u64":    `{"type":"integer","minimum":0}`,
		"p":      `{"type":"integer","minimum":0}`,
		"tagged": `{"type":"integer","minimum":-5,"maximum":5}`,
	}
	for _, output := range []bool{false, true} {
		line := Derive("k", reflect.TypeFor[ints](), output, nil)
		if len(line.Errors) > 0 {
			t.Fatal(line.Errors)
		}
		var doc struct {
			Properties map[string]json.RawMessage `json:"properties"`
		}
		if err := json.Unmarshal(line.Schema, &doc); err != nil {
			t.Fatal(err)
		}
		for name, w := range want {
			if got := string(doc.Properties[name]); got != w {
				t.Errorf("output=%v: %s: schema %s, want %s", output, name, got, w)
			}
		}
	}
}

// TestSingleTyped: no schema has a list of types (MCP Inspector --strict
// warns of them: single-type clients such as Gemini's function
// declarations may refuse the tool). What may be null is anyOf its type
// and null, annotations outside, an enum's null in the null branch; a
// slice of an output is an array (the runtime sends [] for nil), of an
// input it still takes null, as it did; nullable=false on an output slice
// is accepted and changes nothing.
func TestSingleTyped(t *testing.T) {
	type inner struct {
		N int `json:"n"`
	}
	type mixed struct {
		// A pointer.
		P     *string          `json:"p" jsonschema:"minLength=1"`
		Kind  *string          `json:"kind" jsonschema:"enum=a,enum=b"`
		List  []string         `json:"list"`
		Fixed []string         `json:"fixed" jsonschema:"nullable=false,minItems=1"`
		Bytes []byte           `json:"bytes"`
		Map   map[string]int   `json:"map"`
		In    *inner           `json:"in"`
		Deep  map[string][]int `json:"deep"`
	}
	for _, output := range []bool{false, true} {
		line := Derive("k", reflect.TypeFor[mixed](), output, map[string]string{})
		if len(line.Errors) > 0 {
			t.Fatal(line.Errors)
		}
		var doc any
		if err := json.Unmarshal(line.Schema, &doc); err != nil {
			t.Fatal(err)
		}
		var walk func(v any, at string)
		walk = func(v any, at string) {
			switch x := v.(type) {
			case map[string]any:
				if _, ok := x["type"].([]any); ok {
					t.Errorf("output %v: %s has a list of types: %v", output, at, x["type"])
				}
				for k, e := range x {
					walk(e, at+"/"+k)
				}
			case []any:
				for i, e := range x {
					walk(e, fmt.Sprintf("%s/%d", at, i))
				}
			}
		}
		walk(doc, "#")
		props := doc.(map[string]any)["properties"].(map[string]any)
		js := func(name string) string {
			b, _ := json.Marshal(props[name])
			return string(b)
		}
		wantP := `{"anyOf":[{"minLength":1,"type":"string"},{"type":"null"}]}`
		if got := js("p"); got != wantP {
			t.Errorf("output %v: p = %s, want %s", output, got, wantP)
		}
		if got, want := js("kind"), `{"anyOf":[{"enum":["a","b"],"type":"string"},{"type":"null"}]}`; got != want {
			t.Errorf("output %v: kind = %s, want %s", output, got, want)
		}
		if got, want := js("fixed"), `{"items":{"type":"string"},"minItems":1,"type":"array"}`; got != want {
			t.Errorf("output %v: fixed = %s, want %s", output, got, want)
		}
		wantList := `{"anyOf":[{"items":{"type":"string"},"type":"array"},{"type":"null"}]}`
		if output {
			wantList = `{"items":{"type":"string"},"type":"array"}`
		}
		if got := js("list"); got != wantList {
			t.Errorf("output %v: list = %s, want %s", output, got, wantList)
		}
		if got := js("in"); !strings.HasPrefix(got, `{"anyOf":[{"additionalProperties":false`) {
			t.Errorf("output %v: in = %s", output, got)
		}
	}
}

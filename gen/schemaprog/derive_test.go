package schemaprog

import (
	"encoding/json"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strconv"
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

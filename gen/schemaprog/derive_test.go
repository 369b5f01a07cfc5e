package schemaprog

import (
	"reflect"
	"regexp"
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

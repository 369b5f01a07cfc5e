package jsonschema

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"
)

func randNumber(r *rand.Rand) string {
	var b strings.Builder
	if r.IntN(3) == 0 {
		b.WriteByte('-')
	}
	intDigits := r.IntN(25)
	if intDigits == 0 || r.IntN(4) == 0 {
		b.WriteByte('0')
	} else {
		b.WriteByte(byte('1' + r.IntN(9)))
		for range intDigits - 1 {
			b.WriteByte(byte('0' + r.IntN(10)*r.IntN(2))) // plenty of zeros
		}
	}
	if r.IntN(2) == 0 {
		b.WriteByte('.')
		for range 1 + r.IntN(20) {
			b.WriteByte(byte('0' + r.IntN(10)*r.IntN(2)))
		}
	}
	if r.IntN(2) == 0 {
		b.WriteString([]string{"e", "E", "e+", "e-", "E-"}[r.IntN(5)])
		fmt.Fprint(&b, r.IntN(40))
	}
	return b.String()
}

func TestDecimalAgainstBigRat(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	rat := func(s string) *big.Rat {
		x, ok := new(big.Rat).SetString(s)
		if !ok {
			t.Fatalf("big.Rat cannot parse %q", s)
		}
		return x
	}
	for range 100000 {
		xs, ys := randNumber(r), randNumber(r)
		if end, err := scanNumber([]byte(xs), 0); err != nil || end != len(xs) {
			t.Fatalf("scanNumber(%q) = %d, %v", xs, end, err)
		}
		x, y := parseDec([]byte(xs)), parseDec([]byte(ys))
		rx, ry := rat(xs), rat(ys)
		if got, want := cmpDec(x, y), rx.Cmp(ry); got != want {
			t.Fatalf("cmpDec(%s, %s) = %d, want %d", xs, ys, got, want)
		}
		if got, want := x.isInt(), rx.IsInt(); got != want {
			t.Fatalf("isInt(%s) = %v, want %v", xs, got, want)
		}
		if y.sign() > 0 && y.n() <= 19 {
			if got, want := multipleOf(x, y), new(big.Rat).Quo(rx, ry).IsInt(); got != want {
				t.Fatalf("multipleOf(%s, %s) = %v, want %v", xs, ys, got, want)
			}
		}
	}
}

func TestMultipleOf(t *testing.T) {
	for _, tc := range []struct {
		x, m string
		want bool
	}{
		{"0.07", "0.01", true}, {"0.075", "0.01", false}, {"1e30", "8", true}, {"1e30", "7", false},
		{"1e100", "1024", true}, {"1e100", "3", false}, {"4.5", "1.5", true}, {"4.6", "1.5", false},
		{"123456789012345678901234567890", "3", true}, {"123456789012345678901234567890", "9999999999999999999", false},
		{"9999999999999999999e5", "9999999999999999999", true}, {"0", "7", true}, {"-14", "7", true},
		{"1e999999999999", "1e-5", true}, {"1e-999999999", "1e-5", false},
	} {
		if got := multipleOf(parseDec([]byte(tc.x)), parseDec([]byte(tc.m))); got != tc.want {
			t.Errorf("multipleOf(%s, %s) = %v, want %v", tc.x, tc.m, got, tc.want)
		}
	}
	if _, err := Compile([]byte(`{"multipleOf":12345678901234567890.5}`)); err == nil {
		t.Error("multipleOf with 21 significant digits compiled")
	}
}

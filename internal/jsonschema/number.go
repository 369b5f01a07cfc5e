package jsonschema

import (
	"math"
	"math/bits"
)

// dec is an exact view of a JSON number token, without allocating:
// value = ±0.D × 10^point where D is the concatenation a+b of decimal
// digits with no leading or trailing zeros. D is empty for zero.
type dec struct {
	neg   bool
	a, b  []byte
	point int
}

// maxExp saturates exponents; numbers this large or small compare right
// anyway because no input has that many digits.
const maxExp = 1 << 40

// parseDec parses a well-formed JSON number token.
func parseDec(tok []byte) dec {
	var x dec
	i := 0
	if tok[0] == '-' {
		x.neg = true
		i++
	}
	s := i
	for i < len(tok) && isDigit(tok[i]) {
		i++
	}
	ip := tok[s:i]
	var fp []byte
	if i < len(tok) && tok[i] == '.' {
		i++
		s = i
		for i < len(tok) && isDigit(tok[i]) {
			i++
		}
		fp = tok[s:i]
	}
	exp := 0
	if i < len(tok) && (tok[i] == 'e' || tok[i] == 'E') {
		i++
		eneg := false
		if tok[i] == '+' || tok[i] == '-' {
			eneg = tok[i] == '-'
			i++
		}
		for ; i < len(tok); i++ {
			if exp < maxExp {
				exp = exp*10 + int(tok[i]-'0')
			}
		}
		if eneg {
			exp = -exp
		}
	}
	point := len(ip) + exp
	for len(ip) > 0 && ip[0] == '0' {
		ip = ip[1:]
		point--
	}
	if len(ip) == 0 {
		for len(fp) > 0 && fp[0] == '0' {
			fp = fp[1:]
			point--
		}
	}
	for len(fp) > 0 && fp[len(fp)-1] == '0' {
		fp = fp[:len(fp)-1]
	}
	if len(fp) == 0 {
		for len(ip) > 0 && ip[len(ip)-1] == '0' {
			ip = ip[:len(ip)-1]
		}
	}
	if len(ip)+len(fp) == 0 {
		return dec{}
	}
	x.a, x.b, x.point = ip, fp, point
	return x
}

func (x dec) n() int     { return len(x.a) + len(x.b) }
func (x dec) zero() bool { return x.n() == 0 }
func (x dec) at(k int) byte {
	if k < len(x.a) {
		return x.a[k]
	}
	return x.b[k-len(x.a)]
}

func (x dec) sign() int {
	switch {
	case x.zero():
		return 0
	case x.neg:
		return -1
	}
	return 1
}

// isInt reports whether x has no fractional part.
func (x dec) isInt() bool { return x.zero() || x.point >= x.n() }

func cmpInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// cmpDec compares x and y exactly.
func cmpDec(x, y dec) int {
	sx, sy := x.sign(), y.sign()
	if sx != sy || sx == 0 {
		return cmpInt(sx, sy)
	}
	m := cmpInt(x.point, y.point)
	if m == 0 {
		nx, ny := x.n(), y.n()
		for k := 0; k < nx && k < ny && m == 0; k++ {
			m = cmpInt(int(x.at(k)), int(y.at(k)))
		}
		if m == 0 {
			m = cmpInt(nx, ny)
		}
	}
	return m * sx
}

// multipleOf reports whether x is an integer multiple of m, exactly. m
// must be positive with at most 19 significant digits (Compile checks).
// It runs in time linear in the digits of x and does not allocate.
func multipleOf(x, m dec) bool {
	if x.zero() {
		return true
	}
	// |x| = A×10^a and m = B×10^b, where A and B have no trailing zeros.
	var B uint64
	for k := 0; k < m.n(); k++ {
		B = B*10 + uint64(m.at(k)-'0')
	}
	a, b := x.point-x.n(), m.point-m.n()
	if a < b {
		// x/m = A / (B×10^(b-a)) needs 10 | A, but A has no trailing zero.
		return false
	}
	// Is A×10^(a-b) divisible by B? Compute A mod B digit by digit.
	var r uint64
	for k := 0; k < x.n(); k++ {
		hi, lo := bits.Mul64(r, 10)
		lo, carry := bits.Add64(lo, uint64(x.at(k)-'0'), 0)
		_, r = bits.Div64(hi+carry, lo, B)
	}
	// Multiplying by 10 reaches 0 mod B within 64 steps if it ever does,
	// since B < 2^64 has fewer than 64 factors of 2 and of 5.
	for k := min(a-b, 70); k > 0 && r != 0; k-- {
		hi, lo := bits.Mul64(r, 10)
		_, r = bits.Div64(hi, lo, B)
	}
	return r == 0
}

// toInt converts a non-negative integral dec to int, saturating.
func (x dec) toInt() int {
	if x.zero() {
		return 0
	}
	if x.point > 18 {
		return math.MaxInt
	}
	v := 0
	for k := 0; k < x.point; k++ {
		v *= 10
		if k < x.n() {
			v += int(x.at(k) - '0')
		}
	}
	return v
}

package jsonschema

import "unicode/utf8"

// Format checks. They are lenient where the RFCs are baroque but reject
// values that are plainly not of the format. None allocates.

func checkFormat(f formatKind, s []byte) bool {
	switch f {
	case fmtDateTime:
		return isDateTime(s)
	case fmtDate:
		return len(s) == 10 && isDate(s)
	case fmtEmail:
		return isEmail(s)
	case fmtURI:
		return isURI(s)
	case fmtUUID:
		return isUUID(s)
	}
	return true
}

// digits parses s[i:i+n] as a decimal number, or returns -1.
func digits(s []byte, i, n int) int {
	if i+n > len(s) {
		return -1
	}
	v := 0
	for _, c := range s[i : i+n] {
		if !isDigit(c) {
			return -1
		}
		v = v*10 + int(c-'0')
	}
	return v
}

// isDate checks an RFC 3339 full-date at the start of s: YYYY-MM-DD.
func isDate(s []byte) bool {
	if len(s) < 10 || s[4] != '-' || s[7] != '-' {
		return false
	}
	y, m, d := digits(s, 0, 4), digits(s, 5, 2), digits(s, 8, 2)
	if y < 0 || m < 1 || m > 12 || d < 1 {
		return false
	}
	days := [13]int{0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}[m]
	if m == 2 && y%4 == 0 && (y%100 != 0 || y%400 == 0) {
		days = 29
	}
	return d <= days
}

// isDateTime checks an RFC 3339 date-time:
// YYYY-MM-DDTHH:MM:SS[.frac](Z|±HH:MM), "T" and "Z" in either case.
func isDateTime(s []byte) bool {
	if len(s) < 20 || !isDate(s) || s[10] != 'T' && s[10] != 't' {
		return false
	}
	t := s[11:]
	if t[2] != ':' || t[5] != ':' {
		return false
	}
	h, m, sec := digits(t, 0, 2), digits(t, 3, 2), digits(t, 6, 2)
	if h < 0 || h > 23 || m < 0 || m > 59 || sec < 0 || sec > 60 {
		return false
	}
	i := 8
	if i < len(t) && t[i] == '.' {
		i++
		j := i
		for i < len(t) && isDigit(t[i]) {
			i++
		}
		if i == j {
			return false
		}
	}
	switch {
	case i < len(t) && (t[i] == 'Z' || t[i] == 'z'):
		return i+1 == len(t)
	case i < len(t) && (t[i] == '+' || t[i] == '-'):
		oh, om := digits(t, i+1, 2), digits(t, i+4, 2)
		return len(t) == i+6 && t[i+3] == ':' && oh >= 0 && oh <= 23 && om >= 0 && om <= 59
	}
	return false
}

func isUUID(s []byte) bool {
	if len(s) != 36 {
		return false
	}
	for i, c := range s {
		if i == 8 || i == 13 || i == 18 || i == 23 {
			if c != '-' {
				return false
			}
		} else if !isHex(c) {
			return false
		}
	}
	return true
}

func isAlpha(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }

// isEmail checks addr-spec of RFC 5322 leniently: a dot-atom or quoted
// local part, "@", and a domain of dot-separated labels or an address
// literal in brackets. Non-ASCII UTF-8 is allowed (RFC 6531).
func isEmail(s []byte) bool {
	at := -1
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == '@' {
			at = i
			break
		}
	}
	if at < 1 || at == len(s)-1 || at > 64 || len(s)-at-1 > 255 {
		return false
	}
	local, domain := s[:at], s[at+1:]
	if local[0] == '"' {
		if len(local) < 2 || local[len(local)-1] != '"' {
			return false
		}
		for i := 1; i < len(local)-1; i++ {
			c := local[i]
			if c == '\\' {
				i++
				continue
			}
			if c < 0x20 || c == '"' || c == 0x7f {
				return false
			}
		}
	} else if !isDotAtom(local, "!#$%&'*+-/=?^_`{|}~") {
		return false
	}
	if domain[0] == '[' {
		if domain[len(domain)-1] != ']' || len(domain) < 3 {
			return false
		}
		for _, c := range domain[1 : len(domain)-1] {
			if c <= ' ' || c == '[' || c == ']' || c == '\\' || c >= 0x7f {
				return false
			}
		}
		return true
	}
	if !isDotAtom(domain, "-") {
		return false
	}
	// Labels must not start or end with a hyphen.
	for i, c := range domain {
		if c == '-' && (i == 0 || i == len(domain)-1 || domain[i-1] == '.' || domain[i+1] == '.') {
			return false
		}
	}
	return true
}

// isDotAtom checks one or more runs of allowed characters (alphanumerics,
// extra, or non-ASCII) separated by single dots.
func isDotAtom(s []byte, extra string) bool {
	if len(s) == 0 || s[0] == '.' || s[len(s)-1] == '.' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '.':
			if s[i-1] == '.' {
				return false
			}
		case isAlpha(c) || isDigit(c) || c >= 0x80:
		default:
			ok := false
			for j := 0; j < len(extra); j++ {
				ok = ok || extra[j] == c
			}
			if !ok {
				return false
			}
		}
	}
	return utf8.Valid(s)
}

// isURI checks an absolute URI (RFC 3986): a scheme, ":", and characters
// allowed in URIs with well-formed percent-encoding and at most one "#".
func isURI(s []byte) bool {
	if len(s) == 0 || !isAlpha(s[0]) {
		return false
	}
	i := 1
	for i < len(s) && (isAlpha(s[i]) || isDigit(s[i]) || s[i] == '+' || s[i] == '-' || s[i] == '.') {
		i++
	}
	if i == len(s) || s[i] != ':' {
		return false
	}
	hash := false
	for i++; i < len(s); i++ {
		c := s[i]
		switch {
		case isAlpha(c) || isDigit(c):
		case c == '%':
			if i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
				return false
			}
			i += 2
		case c == '#':
			if hash {
				return false
			}
			hash = true
		default:
			if c >= 0x80 || !uriChar[c] {
				return false
			}
		}
	}
	return true
}

// uriChar marks the ASCII punctuation allowed in a URI: unreserved,
// gen-delims except "#", and sub-delims.
var uriChar = func() (t [128]bool) {
	for _, c := range "-._~:/?[]@!$&'()*+,;=" {
		t[c] = true
	}
	return t
}()

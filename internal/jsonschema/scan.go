package jsonschema

import (
	"encoding/binary"
	"math/bits"
	"strconv"
	"unicode/utf8"
)

// Low-level JSON scanning over raw bytes. Every function takes the index of
// the first byte of a token and returns the index just past it.

func syntaxError(off int, msg string) *InputError {
	return &InputError{Offset: off, Msg: msg, kind: ErrSyntax}
}

func tooDeep(off int) *InputError {
	return &InputError{Offset: off, Msg: "more than " + strconv.Itoa(MaxDepth) + " nested arrays/objects", kind: ErrTooDeep}
}

func unexpected(d []byte, i int) *InputError {
	if i >= len(d) {
		return syntaxError(i, "unexpected end of JSON input")
	}
	c := d[i]
	if c >= 0x20 && c < 0x7f {
		return syntaxError(i, "unexpected character '"+string(rune(c))+"'")
	}
	return syntaxError(i, "unexpected byte 0x"+hex2(c))
}

func hex2(c byte) string {
	const digits = "0123456789abcdef"
	return string([]byte{digits[c>>4], digits[c&15]})
}

func skipWS(d []byte, i int) int {
	for i < len(d) {
		switch d[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// strPlain marks bytes that may appear unescaped in a string and are a
// whole code point: printable ASCII except '"' and '\\'.
var strPlain = func() (t [256]bool) {
	for c := 0x20; c < 0x80; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func hexVal(c byte) rune {
	switch {
	case c <= '9':
		return rune(c - '0')
	case c >= 'a':
		return rune(c - 'a' + 10)
	default:
		return rune(c - 'A' + 10)
	}
}

// hex4 decodes the four hex digits at d[i:i+4]; ok is false if they are not
// all there.
func hex4(d []byte, i int) (r rune, ok bool) {
	if i+4 > len(d) {
		return 0, false
	}
	for _, c := range d[i : i+4] {
		if !isHex(c) {
			return 0, false
		}
		r = r<<4 | hexVal(c)
	}
	return r, true
}

// specialMask has the high bit set in each byte of w that is not
// strPlain (a control character, '"', '\\' or a non-ASCII byte), and
// possibly in bytes above such a byte (borrows run upwards), never below:
// its lowest set bit marks the first byte that needs a look.
func specialMask(w uint64) uint64 {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	q := w ^ '"'*ones
	b := w ^ '\\'*ones
	ctl := (w - 0x20*ones) &^ w // high bit set where a byte is < 0x20
	zq := (q - ones) &^ q       // ... where a byte is '"'
	zb := (b - ones) &^ b       // ... where a byte is '\\'
	return (ctl | zq | zb | w) & highs
}

// scanString scans the string whose opening quote is at d[i]. It returns
// the index after the closing quote, the number of code points of the
// decoded string, and whether it contains escapes.
func scanString(d []byte, i int) (end, runes int, esc bool, err error) {
	j := i + 1
	for {
		s := j
		for j+8 <= len(d) {
			if m := specialMask(binary.LittleEndian.Uint64(d[j:])); m != 0 {
				j += bits.TrailingZeros64(m) >> 3 // the first byte to look at
				break
			}
			j += 8
		}
		for j < len(d) && strPlain[d[j]] {
			j++
		}
		runes += j - s
		if j >= len(d) {
			return 0, 0, false, syntaxError(j, "unterminated string")
		}
		switch c := d[j]; {
		case c == '"':
			return j + 1, runes, esc, nil
		case c == '\\':
			esc = true
			if j+1 >= len(d) {
				return 0, 0, false, syntaxError(j, "unterminated string")
			}
			switch d[j+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				j += 2
			case 'u':
				r, ok := hex4(d, j+2)
				if !ok {
					return 0, 0, false, syntaxError(j, "invalid \\u escape")
				}
				j += 6
				if 0xD800 <= r && r < 0xDC00 && j+1 < len(d) && d[j] == '\\' && d[j+1] == 'u' {
					// A surrogate pair decodes to a single code point.
					if r2, ok := hex4(d, j+2); ok && 0xDC00 <= r2 && r2 < 0xE000 {
						j += 6
					}
				}
			default:
				return 0, 0, false, syntaxError(j, "invalid escape sequence")
			}
			runes++
		case c < 0x20:
			return 0, 0, false, syntaxError(j, "control character in string")
		default:
			r, size := utf8.DecodeRune(d[j:])
			if r == utf8.RuneError && size == 1 {
				return 0, 0, false, syntaxError(j, "invalid UTF-8 in string")
			}
			j += size
			runes++
		}
	}
}

// appendUnescaped appends the decoded form of the body of a well-formed
// JSON string (without quotes) to dst. Lone surrogates decode to U+FFFD,
// as in encoding/json.
func appendUnescaped(dst, s []byte) []byte {
	for i := 0; i < len(s); {
		c := s[i]
		if c != '\\' {
			j := i + 1
			for j < len(s) && s[j] != '\\' {
				j++
			}
			dst = append(dst, s[i:j]...)
			i = j
			continue
		}
		switch s[i+1] {
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		case 'n':
			dst = append(dst, '\n')
		case 'r':
			dst = append(dst, '\r')
		case 't':
			dst = append(dst, '\t')
		case 'u':
			r, _ := hex4(s, i+2)
			i += 6
			if 0xD800 <= r && r < 0xE000 {
				r2 := rune(-1)
				if r < 0xDC00 && i+1 < len(s) && s[i] == '\\' && s[i+1] == 'u' {
					if x, ok := hex4(s, i+2); ok && 0xDC00 <= x && x < 0xE000 {
						r2 = x
					}
				}
				if r2 >= 0 {
					r = 0x10000 + (r-0xD800)<<10 + (r2 - 0xDC00)
					i += 6
				} else {
					r = utf8.RuneError
				}
			}
			dst = utf8.AppendRune(dst, r)
			continue
		default: // '"', '\\', '/'
			dst = append(dst, s[i+1])
		}
		i += 2
	}
	return dst
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// scanNumber scans a JSON number starting at d[i].
func scanNumber(d []byte, i int) (int, error) {
	j := i
	if j < len(d) && d[j] == '-' {
		j++
	}
	switch {
	case j < len(d) && d[j] == '0':
		j++
	case j < len(d) && '1' <= d[j] && d[j] <= '9':
		j++
		for j < len(d) && isDigit(d[j]) {
			j++
		}
	default:
		return 0, unexpected(d, j)
	}
	if j < len(d) && d[j] == '.' {
		j++
		if j >= len(d) || !isDigit(d[j]) {
			return 0, syntaxError(j, "expected digit after decimal point")
		}
		for j < len(d) && isDigit(d[j]) {
			j++
		}
	}
	if j < len(d) && (d[j] == 'e' || d[j] == 'E') {
		j++
		if j < len(d) && (d[j] == '+' || d[j] == '-') {
			j++
		}
		if j >= len(d) || !isDigit(d[j]) {
			return 0, syntaxError(j, "expected digit in exponent")
		}
		for j < len(d) && isDigit(d[j]) {
			j++
		}
	}
	return j, nil
}

// scanLiteral scans true, false or null at d[i].
func scanLiteral(d []byte, i int) (int, error) {
	var lit string
	switch d[i] {
	case 't':
		lit = "true"
	case 'f':
		lit = "false"
	default:
		lit = "null"
	}
	if len(d)-i < len(lit) || string(d[i:i+len(lit)]) != lit {
		return 0, syntaxError(i, "invalid literal")
	}
	return i + len(lit), nil
}

// skipValue checks the syntax of the value starting at d[i] (after
// whitespace) and returns the index after it. depth is the number of
// arrays/objects enclosing the value.
func skipValue(d []byte, i, depth int) (int, error) {
	i = skipWS(d, i)
	if i >= len(d) {
		return 0, unexpected(d, i)
	}
	switch c := d[i]; c {
	case '"':
		end, _, _, err := scanString(d, i)
		return end, err
	case '{':
		if depth >= MaxDepth {
			return 0, tooDeep(i)
		}
		i = skipWS(d, i+1)
		if i < len(d) && d[i] == '}' {
			return i + 1, nil
		}
		for {
			if i >= len(d) || d[i] != '"' {
				return 0, expectKey(d, i)
			}
			var err error
			if i, _, _, err = scanString(d, i); err != nil {
				return 0, err
			}
			i = skipWS(d, i)
			if i >= len(d) || d[i] != ':' {
				return 0, expected(d, i, "':' after object key")
			}
			if i, err = skipValue(d, i+1, depth+1); err != nil {
				return 0, err
			}
			i = skipWS(d, i)
			if i < len(d) && d[i] == ',' {
				i = skipWS(d, i+1)
				continue
			}
			if i < len(d) && d[i] == '}' {
				return i + 1, nil
			}
			return 0, expected(d, i, "',' or '}' in object")
		}
	case '[':
		if depth >= MaxDepth {
			return 0, tooDeep(i)
		}
		i = skipWS(d, i+1)
		if i < len(d) && d[i] == ']' {
			return i + 1, nil
		}
		for {
			var err error
			if i, err = skipValue(d, i, depth+1); err != nil {
				return 0, err
			}
			i = skipWS(d, i)
			if i < len(d) && d[i] == ',' {
				i++
				continue
			}
			if i < len(d) && d[i] == ']' {
				return i + 1, nil
			}
			return 0, expected(d, i, "',' or ']' in array")
		}
	case 't', 'f', 'n':
		return scanLiteral(d, i)
	default:
		return scanNumber(d, i)
	}
}

func expected(d []byte, i int, what string) *InputError {
	if i >= len(d) {
		return syntaxError(i, "unexpected end of JSON input, expected "+what)
	}
	e := unexpected(d, i)
	e.Msg += ", expected " + what
	return e
}

func expectKey(d []byte, i int) *InputError { return expected(d, i, "string object key") }

// checkSyntax reports whether data is exactly one well-formed JSON value.
func checkSyntax(d []byte) error {
	end, err := skipValue(d, 0, 0)
	if err != nil {
		return err
	}
	if i := skipWS(d, end); i != len(d) {
		return syntaxError(i, "unexpected data after top-level value")
	}
	return nil
}

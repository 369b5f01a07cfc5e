package memstore

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// jsLower returns s lower-cased exactly as JavaScript's
// String.prototype.toLowerCase does in Node (ICU, root locale), because the
// reference server's search_nodes compares text.toLowerCase() with
// query.toLowerCase() and our results must be identical.
//
// It differs from strings.ToLower in three ways:
//   - U+0130 (İ) maps to "i\u0307" (the unconditional full mapping of
//     SpecialCasing.txt) instead of plain "i";
//   - U+03A3 (Σ) maps to final sigma U+03C2 (ς) in the Final_Sigma context of
//     Unicode §3.13, and to U+03C3 (σ) elsewhere;
//   - characters whose lower-case mapping was added after the Unicode version
//     of Go's tables are taken from jsLowerExtra.
func jsLower(s string) string {
	// ASCII fast path: most text is ASCII and needs no allocation when it
	// has no upper-case letters.
	upper := false
	i := 0
	for ; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf {
			break
		}
		if 'A' <= c && c <= 'Z' {
			upper = true
		}
	}
	if i == len(s) {
		if !upper {
			return s
		}
		b := []byte(s)
		for j, c := range b {
			if 'A' <= c && c <= 'Z' {
				b[j] = c + ('a' - 'A')
			}
		}
		return string(b)
	}

	var b strings.Builder
	b.Grow(len(s) + 8)
	for j := 0; j < len(s); {
		r, size := utf8.DecodeRuneInString(s[j:])
		switch {
		case r == 'İ':
			b.WriteString("i\u0307")
		case r == 'Σ':
			if isFinalSigma(s, j, j+size) {
				b.WriteRune('ς')
			} else {
				b.WriteRune('σ')
			}
		case r < utf8.RuneSelf:
			if 'A' <= r && r <= 'Z' {
				r += 'a' - 'A'
			}
			b.WriteByte(byte(r))
		default:
			if l, ok := jsLowerExtra[r]; ok {
				b.WriteRune(l)
			} else {
				b.WriteRune(unicode.ToLower(r))
			}
		}
		j += size
	}
	return b.String()
}

// isFinalSigma reports whether the Σ at s[start:end] is in the Final_Sigma
// context: preceded by a cased letter (skipping case-ignorable characters)
// and not followed by one (again skipping case-ignorable characters). Like
// ICU, a character that is both case-ignorable and cased is skipped.
func isFinalSigma(s string, start, end int) bool {
	before := false
	for j := start; j > 0; {
		r, size := utf8.DecodeLastRuneInString(s[:j])
		j -= size
		if isCaseIgnorable(r) {
			continue
		}
		before = isCased(r)
		break
	}
	if !before {
		return false
	}
	for j := end; j < len(s); {
		r, size := utf8.DecodeRuneInString(s[j:])
		j += size
		if isCaseIgnorable(r) {
			continue
		}
		return !isCased(r)
	}
	return true
}

// isCased implements the Unicode Cased property (D135): Lowercase,
// Uppercase or general category Lt.
func isCased(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z'
	}
	if c, ok := jsCasedExtra[r]; ok {
		return c
	}
	return unicode.In(r, unicode.Ll, unicode.Lu, unicode.Lt, unicode.Other_Lowercase, unicode.Other_Uppercase)
}

// isCaseIgnorable implements the Unicode Case_Ignorable property (D136):
// general category Mn, Me, Cf, Lm or Sk, or Word_Break MidLetter,
// MidNumLet or Single_Quote.
func isCaseIgnorable(r rune) bool {
	switch r {
	case '\'', '.', ':', 0x00B7, 0x0387, 0x055F, 0x05F4, 0x2018, 0x2019,
		0x2024, 0x2027, 0xFE13, 0xFE52, 0xFE55, 0xFF07, 0xFF0E, 0xFF1A:
		return true
	}
	if r < utf8.RuneSelf {
		return r == '^' || r == '`' // Sk
	}
	if c, ok := jsIgnorableExtra[r]; ok {
		return c
	}
	return unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf, unicode.Lm, unicode.Sk)
}

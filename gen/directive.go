package gen

import (
	"fmt"
	"go/token"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A directive is one `//mcp:<kind> key=value ...` comment line.
//
// Grammar (kept small and regular):
//
//	directive = "//mcp:" kind { space option }
//	option    = key [ "=" value ]
//	value     = bare | quoted
//	bare      = any run of non-space characters
//	quoted    = a Go double-quoted string literal
//
// A key without a value is the boolean true (`readonly`); `key=false` says
// false explicitly.
type directive struct {
	Kind    string
	Pos     token.Pos // of the comment
	Options []option
}

type option struct {
	Key    string
	Value  string
	Bare   bool // no "=value"
	Pos    token.Pos
	ValPos token.Pos
}

const directivePrefix = "//mcp:"

// parseDirective parses one comment line at pos. ok is false when the line
// is not a directive at all. The scanner works on runes: a value such as
// title=Voilà is one value, although its UTF-8 bytes include 0xA0.
func parseDirective(text string, pos token.Pos) (d directive, ok bool, err error) {
	if !strings.HasPrefix(text, directivePrefix) {
		return d, false, nil
	}
	rest := text[len(directivePrefix):]
	i := strings.IndexFunc(rest, unicode.IsSpace)
	if i < 0 {
		i = len(rest)
	}
	d.Kind, d.Pos = rest[:i], pos
	if d.Kind == "" {
		return d, true, posError{pos, "missing directive kind after //mcp:", "write //mcp:tool, //mcp:resource, //mcp:prompt or //mcp:server, with no space after the colon"}
	}
	off := len(directivePrefix) + i
	space := func(at int) bool {
		r, _ := utf8.DecodeRuneInString(text[at:])
		return unicode.IsSpace(r)
	}
	next := func(at int) int {
		_, n := utf8.DecodeRuneInString(text[at:])
		return at + n
	}
	for off < len(text) {
		for off < len(text) && space(off) {
			off = next(off)
		}
		if off >= len(text) {
			break
		}
		start := off
		for off < len(text) && text[off] != '=' && !space(off) {
			off = next(off)
		}
		o := option{Key: text[start:off], Pos: pos + token.Pos(start)}
		if o.Key == "" {
			return d, true, posError{pos + token.Pos(start), "expected key before '='", "write key=value"}
		}
		if off >= len(text) || text[off] != '=' {
			o.Bare = true
			d.Options = append(d.Options, o)
			continue
		}
		off++ // '='
		o.ValPos = pos + token.Pos(off)
		if off < len(text) && text[off] == '"' {
			end, err := quotedEnd(text, off)
			if err != nil {
				return d, true, posError{o.ValPos, err.Error(), `close the quotes: title="My tool"`}
			}
			v, err := strconv.Unquote(text[off:end])
			if err != nil {
				return d, true, posError{o.ValPos, fmt.Sprintf("malformed quoted value %s: bad escape", text[off:end]),
					`a quoted value is a Go string literal: escape only with \" \\ \n \t \uXXXX (a lone backslash is written \\)`}
			}
			o.Value, off = v, end
		} else {
			vs := off
			for off < len(text) && !space(off) {
				off = next(off)
			}
			o.Value = text[vs:off]
			if o.Value == "" {
				return d, true, posError{o.ValPos, fmt.Sprintf("missing value after %s=", o.Key), "write a value, or drop the = for a boolean"}
			}
		}
		d.Options = append(d.Options, o)
	}
	return d, true, nil
}

func quotedEnd(text string, start int) (int, error) {
	for i := start + 1; i < len(text); i++ {
		switch text[i] {
		case '\\':
			i++
		case '"':
			return i + 1, nil
		}
	}
	return 0, fmt.Errorf("unterminated quoted value")
}

type posError struct {
	pos  token.Pos
	msg  string
	hint string
}

func (e posError) Error() string { return e.msg }

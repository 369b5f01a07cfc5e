package gen

import (
	"fmt"
	"go/token"
	"strconv"
	"strings"
	"unicode"
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
// is not a directive at all.
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
	off := len(directivePrefix) + i
	for off < len(text) {
		for off < len(text) && unicode.IsSpace(rune(text[off])) {
			off++
		}
		if off >= len(text) {
			break
		}
		start := off
		for off < len(text) && text[off] != '=' && !unicode.IsSpace(rune(text[off])) {
			off++
		}
		o := option{Key: text[start:off], Pos: pos + token.Pos(start)}
		if o.Key == "" {
			return d, true, posError{pos + token.Pos(start), "expected key before '='"}
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
				return d, true, posError{o.ValPos, err.Error()}
			}
			v, err := strconv.Unquote(text[off:end])
			if err != nil {
				return d, true, posError{o.ValPos, fmt.Sprintf("malformed quoted value: %v", err)}
			}
			o.Value, off = v, end
		} else {
			vs := off
			for off < len(text) && !unicode.IsSpace(rune(text[off])) {
				off++
			}
			o.Value = text[vs:off]
			if o.Value == "" {
				return d, true, posError{o.ValPos, fmt.Sprintf("missing value after %s=", o.Key)}
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
	pos token.Pos
	msg string
}

func (e posError) Error() string { return e.msg }

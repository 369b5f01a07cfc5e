package mcpgen

import (
	"encoding/json"
	"unicode/utf8"
)

// appendToolResult appends the wire form of a tool result, with
// `"resultType":"complete"` first when modern is set. Text blocks are
// escaped straight into the answer (exactly as encoding/json escapes them),
// or copied when they came encoded (protocol.EncodedTextContent), and
// structuredContent is copied verbatim: it was produced as compact,
// valid JSON (checked in runTool unless the generator proved it). A result
// is thus copied once, into a buffer sized for it up front, instead of
// being marshalled, compacted and copied again; a large one whose text
// came encoded is not copied at all (toolResultParts).
func appendToolResult(modern bool, r *CallToolResult) ([]byte, error) {
	size := 64 + len(r.StructuredContent) + len(r.Meta)
	for i := range r.Content {
		if t := r.Content[i].EncodedText(); t != nil {
			size += 32 + len(t)
		} else {
			size += 32 + escapedLen(r.Content[i].Text)
		}
	}
	b := make([]byte, 0, size)
	if modern {
		b = append(b, `{"resultType":"complete","content":`...)
	} else {
		b = append(b, `{"content":`...)
	}
	if r.Content == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i := range r.Content {
			if i > 0 {
				b = append(b, ',')
			}
			c := &r.Content[i]
			if plainText(c) {
				b = append(b, `{"type":"text","text":`...)
				if t := c.EncodedText(); t != nil {
					b = append(b, t...)
				} else {
					b = appendJSONString(b, c.Text)
				}
				b = append(b, '}')
				continue
			}
			cb, err := json.Marshal(c)
			if err != nil {
				return nil, err
			}
			b = append(b, cb...)
		}
		b = append(b, ']')
	}
	if len(r.StructuredContent) > 0 {
		b = append(b, `,"structuredContent":`...)
		b = append(b, r.StructuredContent...)
	}
	if r.IsError {
		b = append(b, `,"isError":true`...)
	}
	if len(r.Meta) > 0 {
		meta, err := json.Marshal(r.Meta) // a component's own, so checked
		if err != nil {
			return nil, err
		}
		b = append(b, `,"_meta":`...)
		b = append(b, meta...)
	}
	return append(b, '}'), nil
}

// largeResult is the size from which a tool result whose text came encoded
// is sent in pieces rather than copied into one buffer.
const largeResult = 64 << 10

// toolResultParts returns the wire form of r in pieces when it is a large
// result of one text block that came encoded and structuredContent (a
// graph of mcp-memory): the pieces are the component's own buffers, sent
// as they lie; nil otherwise.
func toolResultParts(modern bool, r *CallToolResult) [][]byte {
	if len(r.Content) != 1 || r.IsError || len(r.Meta) > 0 || len(r.StructuredContent) == 0 || !plainText(&r.Content[0]) {
		return nil
	}
	text := r.Content[0].EncodedText()
	if text == nil || len(text)+len(r.StructuredContent) < largeResult {
		return nil
	}
	head := `{"content":[{"type":"text","text":`
	if modern {
		head = `{"resultType":"complete","content":[{"type":"text","text":`
	}
	return [][]byte{[]byte(head), text, []byte(`}],"structuredContent":`), r.StructuredContent, []byte("}")}
}

// plainText reports whether c is a text block with nothing but its text.
func plainText(c *Content) bool {
	return c.Type == "text" && c.Data == "" && c.MimeType == "" && c.URI == "" && c.Name == "" &&
		c.Title == "" && c.Description == "" && c.Resource == nil && c.Annotations == nil && len(c.Meta) == 0
}

// jsonSafe[c] is true for the ASCII bytes encoding/json writes as they are
// (with HTML escaping on, as json.Marshal has it).
var jsonSafe = func() (t [utf8.RuneSelf]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\' && c != '<' && c != '>' && c != '&'
	}
	return t
}()

const hexDigits = "0123456789abcdef"

// appendJSONString appends s as a JSON string, byte for byte as
// json.Marshal writes it: <, > and & as \u003c..., U+2028 and U+2029
// escaped, invalid UTF-8 as \ufffd, short escapes for \b \f \n \r \t.
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if jsonSafe[c] {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// escapedLen is len(appendJSONString(nil, s)).
func escapedLen(s string) int {
	n := len(s) + 2
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case jsonSafe[c]:
			case c == '\\' || c == '"' || c == '\b' || c == '\f' || c == '\n' || c == '\r' || c == '\t':
				n++
			default:
				n += 5
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			n += 5 // one byte becomes \ufffd
		} else if r == '\u2028' || r == '\u2029' {
			n += 3
		}
		i += size
	}
	return n
}

package jsonrpc

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestResultPartsEncodeAsOne: a result held in pieces is written, encoded
// and marshalled exactly as the same result in one buffer, and Done runs
// Release once.
func TestResultPartsEncodeAsOne(t *testing.T) {
	whole := NewResponse(json.RawMessage(`7`), json.RawMessage(`{"content":[{"type":"text","text":"a"}],"structuredContent":{"x":1}}`))
	released := 0
	parts := &Message{JSONRPC: Version, ID: json.RawMessage(`7`),
		ResultParts: [][]byte{[]byte(`{"content":[{"type":"text","text":`), []byte(`"a"`), []byte(`}],"structuredContent":`), []byte(`{"x":1}`), []byte(`}`)},
		Release:     func() { released++ }}
	for name, render := range map[string]func(*Message) string{
		"Encode":      func(m *Message) string { b, _ := Encode(m); return string(b) },
		"WriteLine":   func(m *Message) string { var sb strings.Builder; WriteLine(&sb, m); return sb.String() },
		"Write":       func(m *Message) string { var sb strings.Builder; Write(&sb, m); return sb.String() },
		"MarshalJSON": func(m *Message) string { b, _ := json.Marshal(m); return string(b) },
		"in a batch":  func(m *Message) string { b, _ := json.Marshal([]*Message{m}); return string(b) },
	} {
		if got, want := render(parts), render(whole); got != want {
			t.Errorf("%s: pieces give %s, one buffer %s", name, got, want)
		}
	}
	// A line break in a piece is compacted away, as in one buffer.
	parts.ResultParts[3] = []byte("{\"x\":\n1}")
	if b, _ := Encode(parts); strings.Contains(string(b), "\n") {
		t.Errorf("Encode kept a line break: %s", b)
	}
	parts.Done()
	parts.Done()
	if released != 1 {
		t.Fatalf("Release ran %d times", released)
	}
}

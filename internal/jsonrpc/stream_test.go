package jsonrpc

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"testing"
)

// bytesStream is a Stream over b; failAt > 0 makes WriteTo fail after
// writing that many bytes.
type bytesStream struct {
	b      []byte
	failAt int
}

func (s bytesStream) Len() int64 { return int64(len(s.b)) }
func (s bytesStream) WriteTo(w io.Writer) (int64, error) {
	if s.failAt > 0 {
		n, _ := w.Write(s.b[:s.failAt])
		return int64(n), errors.New("read error")
	}
	n, err := w.Write(s.b)
	return int64(n), err
}

// TestResultStream: a streamed result is written, encoded and marshalled
// (inside a batch's array) as the same result held in memory, WrittenLen
// is what Write writes, and a stream failing part-way is ErrIncomplete.
func TestResultStream(t *testing.T) {
	result := []byte(`{"content":[{"type":"text","text":"a \"b\" \u2028"}],"structuredContent":{"n":1}}`)
	held := NewResponse(json.RawMessage(`7`), result)
	streamed := &Message{JSONRPC: Version, ID: json.RawMessage(`7`), ResultStream: bytesStream{b: result}}

	want, _ := Encode(held)
	if got, err := Encode(streamed); err != nil || !bytes.Equal(got, want) {
		t.Fatalf("Encode: %s, %v; want %s", got, err, want)
	}
	var w bytes.Buffer
	if err := WriteLine(&w, streamed); err != nil || w.String() != string(want)+"\n" {
		t.Fatalf("WriteLine: %q, %v", w.String(), err)
	}
	w.Reset()
	if err := Write(&w, streamed); err != nil || int64(w.Len()) != WrittenLen(streamed) {
		t.Fatalf("Write wrote %d bytes, %v; WrittenLen says %d", w.Len(), err, WrittenLen(streamed))
	}
	wantBatch, _ := json.Marshal([]*Message{held, held})
	if got, err := json.Marshal([]*Message{streamed, held}); err != nil || !bytes.Equal(got, wantBatch) {
		t.Fatalf("a batch: %s, %v; want %s", got, err, wantBatch)
	}

	broken := &Message{JSONRPC: Version, ID: json.RawMessage(`7`), ResultStream: bytesStream{b: result, failAt: 10}}
	w.Reset()
	if err := WriteLine(&w, broken); !errors.Is(err, ErrIncomplete) || json.Valid(w.Bytes()) {
		t.Fatalf("a stream failing part-way: %v after %q; want ErrIncomplete and no whole message", err, w.String())
	}
	if _, err := Encode(broken); err == nil {
		t.Fatal("Encode of a stream failing part-way: no error")
	}
}

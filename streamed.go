package mcpgen

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/mcpgen/mcpgen/internal/jsonrpc"
)

// Body is part of a result held outside memory, so that a result of
// hundreds of megabytes (mcp-memory's read_graph of a large graph) is not
// held in memory on its way to the client: its component renders it into
// a Body (a [Spill], say) while it reads its data, and the transport
// copies the body into the answer after the handler returned, between the
// fixed parts of the JSON-RPC response. stdio, HTTP JSON and HTTP SSE
// answers are all written this way; the process holds a few buffers,
// whatever the answer's size. A result type opts in by implementing
// [StreamedText] (the text block of a tool result, or the text of a
// resource) and, for a tool with structured output, [StreamedJSON];
// [StructuredResult] and [ResourceJSON] find them.
//
// A Body holds Len bytes of one JSON value (for a text, a JSON string,
// quotes included) with no line break outside its strings. WriteTo writes
// those bytes, from the start, each time it is called; calls are never
// concurrent. The runtime calls Close once the answer is written or
// dropped; Close must allow a second call.
//
// Errors: render the body completely before the handler returns, so that
// a failure of the data source (a store failing mid-walk) is an ordinary
// error of the call, answered as any other, and nothing of the answer has
// been written yet. Once writing has begun, only reading the body back or
// the client's connection can fail; the message is then cut short, never
// completed with made-up bytes: stdio closes its output (the client sees
// the stream end, not a broken line followed by more messages), HTTP
// aborts the response, whose Content-Length (JSON answers) or unfinished
// event (SSE) tells the client it is incomplete.
//
// Limits hold as for other answers: a streamed answer's whole length
// counts against its caller's pending bytes
// ([Limits].MaxPendingBytesPerPrincipal) and its concurrency slot stays
// taken until it is written or dropped. A task stores its result, so a
// tool run as a task reads its body into memory once.
//
// Output schemas: a streamed structuredContent of at most 1 MiB is read
// back and checked against the tool's output schema like any other; a
// larger one is not read back, and the result type vouches for it (render
// it from typed values, and test it against the schema, as mcp-memory's
// graph does).
type Body interface {
	// Len is the number of bytes WriteTo writes.
	Len() int64
	// WriteTo writes the whole body to w, from its first byte.
	WriteTo(w io.Writer) (int64, error)
	// Close releases what holds the body (a temporary file, say).
	Close() error
}

// StreamedText is implemented by result types whose text is rendered into
// a Body rather than held in memory: a tool result's text block
// (StructuredResult, with StreamedJSON) or a resource's text
// (ResourceJSON). A nil Body means the type has none this time, and the
// result is encoded as usual. See [Body].
type StreamedText interface {
	// StreamedText returns the body of the text, or nil.
	StreamedText() Body
}

// StreamedJSON is implemented by result types whose structuredContent
// (compact JSON) is rendered into a Body; StructuredResult streams the
// result when the type gives both StreamedText and StreamedJSON.
type StreamedJSON interface {
	// StreamedJSON returns the body of the structuredContent, or nil.
	StreamedJSON() Body
}

// maxCheckedStream is the largest streamed structuredContent read back to
// be checked against its output schema: what a Spill of 1 MiB holds in
// memory, checked without a copy. Reading back and checking a larger one
// cost about as much as rendering it (read_graph of a 14,000-entity graph,
// docs/bench/log.md item 54), and a body that large is rendered from typed
// values by code whose tests check it against the schema.
const maxCheckedStream = 1 << 20

// toolBodies are the streamed parts of a tool result: its one text block
// and its structuredContent.
type toolBodies struct {
	text, structured Body
}

// streamedResult is the tool result of out, whose text and
// structuredContent are bodies: Content holds one empty text block in
// place of the text until the runtime writes the answer (or reads the
// bodies into memory: readStreams).
func streamedResult[T any](out T, text, structured Body) *CallToolResult {
	res := &CallToolResult{Content: []Content{{Type: "text"}}, streamed: &toolBodies{text, structured}}
	res.OnRelease(func() { text.Close(); structured.Close() })
	if r, ok := any(out).(Releaser); ok {
		res.OnRelease(r.Release)
	}
	return res
}

// streamedBodies returns out's text and structuredContent bodies when it
// gives both.
func streamedBodies[T any](out T) (text, structured Body) {
	st, ok1 := any(out).(StreamedText)
	sj, ok2 := any(out).(StreamedJSON)
	if !ok1 || !ok2 {
		return nil, nil
	}
	text, structured = st.StreamedText(), sj.StreamedJSON()
	if text == nil || structured == nil {
		return nil, nil
	}
	return text, structured
}

// bodyBytes reads a body into memory.
func bodyBytes(b Body) ([]byte, error) {
	var buf bytes.Buffer
	buf.Grow(int(b.Len()))
	if n, err := b.WriteTo(&buf); err != nil || n != b.Len() {
		return nil, fmt.Errorf("read streamed result: %d of %d bytes: %v", n, b.Len(), err)
	}
	return buf.Bytes(), nil
}

// readStreams reads a streamed result's bodies into memory, making it an
// ordinary result (for a task, which stores it), unless they take more
// than max bytes (when max > 0: a task's result limit). The bodies are
// closed when the result is released, as before.
func (r *CallToolResult) readStreams(max int64) error {
	if r.streamed == nil {
		return nil
	}
	if n := r.streamed.text.Len() + r.streamed.structured.Len(); max > 0 && n > max {
		r.Release()
		return fmt.Errorf("%w: the task's result takes %d bytes, more than the limit of %d bytes (%s) the server keeps", jsonrpc.ErrInternal, n, max, sizeString(max))
	}
	text, err := bodyBytes(r.streamed.text)
	if err != nil {
		r.Release()
		return err
	}
	structured, err := bodyBytes(r.streamed.structured)
	if err != nil {
		r.Release()
		return err
	}
	r.Content = []Content{EncodedTextContent(text)}
	r.StructuredContent = structured
	r.streamed = nil
	return nil
}

// checkStreamed checks a streamed structuredContent, when it is small
// enough to be read back, with check (the output schema's, or JSON
// validity); a larger one is the result type's word (see "Streamed
// results").
func checkStreamed(r *CallToolResult, check func([]byte) error) error {
	body := r.streamed.structured
	if body.Len() > maxCheckedStream {
		return nil
	}
	var b []byte
	var err error
	if m, ok := body.(interface{ Bytes() ([]byte, error) }); ok {
		b, err = m.Bytes() // a Spill's own bytes, not a copy, while in memory
	} else {
		b, err = bodyBytes(body)
	}
	if err != nil {
		return err
	}
	return check(b)
}

// streamParts is a result written as fixed pieces and bodies in turn (a
// jsonrpc.Stream): the JSON around a streamed text is the runtime's, the
// bodies the component's.
type streamParts []streamPart

// streamPart is a fixed piece (b) or a body.
type streamPart struct {
	b    []byte
	body Body
}

func (p streamParts) Len() int64 {
	var n int64
	for _, part := range p {
		if part.body != nil {
			n += part.body.Len()
		} else {
			n += int64(len(part.b))
		}
	}
	return n
}

func (p streamParts) WriteTo(w io.Writer) (int64, error) {
	var total int64
	for _, part := range p {
		if part.body == nil {
			n, err := w.Write(part.b)
			total += int64(n)
			if err != nil {
				return total, err
			}
			continue
		}
		n, err := part.body.WriteTo(w)
		total += n
		if err == nil && n != part.body.Len() {
			err = fmt.Errorf("a body wrote %d bytes of %d", n, part.body.Len())
		}
		if err != nil {
			return total, err
		}
	}
	return total, nil
}

// toolResultStream is the wire form of a streamed tool result, with
// `"resultType":"complete"` first when modern is set; nil for a result
// that is not streamed.
func toolResultStream(modern bool, r *CallToolResult) jsonrpc.Stream {
	if r.streamed == nil {
		return nil
	}
	head := `{"content":[{"type":"text","text":`
	if modern {
		head = `{"resultType":"complete","content":[{"type":"text","text":`
	}
	return streamParts{
		{b: []byte(head)}, {body: r.streamed.text},
		{b: []byte(`}],"structuredContent":`)}, {body: r.streamed.structured},
		{b: []byte("}")},
	}
}

// streamMark stands in for a streamed resource text while the rest of the
// result is marshalled; the encoded result is then cut around it.
const streamMark = "\x00mcpgen: streamed text\x00"

// resourceStream is the wire form of a resources/read result (v: a
// *ReadResourceResult, or one with cache hints) whose text is a body:
// the result is marshalled as usual, by marshal, with a mark in place of
// the text, and the body is written where the mark was. It returns nil
// when the result holds no body, and the bodies to close once written.
func resourceStream(v any, marshal func(any) ([]byte, error)) (jsonrpc.Stream, func(), error) {
	var res *ReadResourceResult
	switch v := v.(type) {
	case *ReadResourceResult:
		res = v
	case cached:
		res = v.ReadResourceResult
	}
	if res == nil {
		return nil, nil, nil
	}
	at := -1
	for i := range res.Contents {
		if res.Contents[i].body != nil {
			at = i
			break
		}
	}
	if at < 0 {
		return nil, nil, nil
	}
	body := res.Contents[at].body
	done := func() { body.Close() }
	contents := res.Contents
	res.Contents = append([]ResourceContents(nil), contents...)
	mark := streamMark
	res.Contents[at].Text = &mark
	b, err := marshal(v)
	res.Contents = contents
	if err != nil {
		done()
		return nil, nil, err
	}
	quoted, _ := json.Marshal(streamMark)
	i := bytes.Index(b, quoted)
	if i < 0 || bytes.Index(b[i+len(quoted):], quoted) >= 0 {
		done()
		return nil, nil, errors.New("streamed resource text: its place in the result is not found once")
	}
	return streamParts{{b: b[:i]}, {body: body}, {b: b[i+len(quoted):]}}, done, nil
}

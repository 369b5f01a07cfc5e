package mcpgen

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// spilled is a result rendered into spills, as mcp-memory's read_graph
// is; closed counts Close calls on its bodies.
type spilled struct {
	text, js Body
}

func (s spilled) StreamedText() Body { return s.text }
func (s spilled) StreamedJSON() Body { return s.js }

// bigResult is a text (encoded as a JSON string) and a structuredContent
// of about 300 KB each, with escapes and non-ASCII text in both.
func bigResult() (text, js []byte) {
	var plain strings.Builder
	var items []string
	for i := range 3000 {
		fmt.Fprintf(&plain, "line %d: \"quoted\" \\ tab\t é ✓ <tag>&\n", i)
		items = append(items, fmt.Sprintf(`{"i":%d,"s":"é \"q\" \u2028 <x>"}`, i))
	}
	text, _ = json.Marshal(plain.String())
	js = []byte(`{"items":[` + strings.Join(items, ",") + `]}`)
	return text, js
}

// spillOf returns a spill holding b, moved to a file (its memory limit
// is far below len(b)).
func spillOf(t *testing.T, b []byte) *Spill {
	t.Helper()
	s := NewSpill(1 << 10)
	for len(b) > 0 { // in pieces, as a component renders
		n := min(len(b), 10_000)
		if _, err := s.Write(b[:n]); err != nil {
			t.Fatal(err)
		}
		b = b[n:]
	}
	if !s.Spilled() {
		t.Fatal("the spill holds its bytes in memory; want a file")
	}
	return s
}

// streamedServer has two tools answering the same result: "streamed"
// from spills, "held" from memory (EncodedText and EncodedJSON), and
// counts the spills closed.
func streamedServer(t *testing.T, text, js []byte) (srv *Server, closed *atomic.Int32) {
	closed = new(atomic.Int32)
	var released atomic.Int32
	def := Definition{Name: "test", Version: "1.0.0", Tools: []Tool{
		{
			Info: ToolInfo{Name: "streamed", InputSchema: json.RawMessage(`{"type":"object"}`)},
			Call: func(ctx context.Context, req *Request, _ json.RawMessage) (*CallToolResult, error) {
				_ = req.Progress(ctx, 1, 2, "rendered") // a progress token makes it an SSE answer
				return StructuredResult(spilled{countClose{spillOf(t, text), closed}, countClose{spillOf(t, js), closed}}, nil)
			},
		},
		{
			Info: ToolInfo{Name: "held", InputSchema: json.RawMessage(`{"type":"object"}`)},
			Call: func(ctx context.Context, req *Request, _ json.RawMessage) (*CallToolResult, error) {
				_ = req.Progress(ctx, 1, 2, "rendered")
				return StructuredResult(rendered{text, js, &released}, nil)
			},
		},
	}}
	srv = New(def, Options{})
	t.Cleanup(srv.Close)
	return srv, closed
}

// countClose counts the Close calls of a body.
type countClose struct {
	Body
	n *atomic.Int32
}

func (c countClose) Close() error { c.n.Add(1); return c.Body.Close() }

// TestStreamedResultSameBytes: a result streamed from spills (files) is
// answered byte for byte as the same result held in memory, over stdio,
// HTTP JSON and HTTP SSE, legacy and stateless, and its spills are
// closed once written.
func TestStreamedResultSameBytes(t *testing.T) {
	text, js := bigResult()
	srv, closed := streamedServer(t, text, js)

	// stdio, stateless.
	call := func(tool string, meta map[string]any) string {
		params := map[string]any{"name": tool, "arguments": map[string]any{}}
		if meta != nil {
			params["_meta"] = meta
		}
		return modernBody(1, "tools/call", params)
	}
	var out bytes.Buffer
	in := call("streamed", nil) + "\n" + call("held", nil) + "\n"
	if err := ServeStdio(context.Background(), srv, strings.NewReader(in), &out); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 2 {
		t.Fatalf("stdio: %d lines, want 2", len(lines))
	}
	if lines[0] != lines[1] {
		t.Fatalf("stdio: the streamed answer differs from the held one:\n%.300s\n%.300s", lines[0], lines[1])
	}
	checkStreamedAnswer(t, "stdio", []byte(lines[0]), text, js)

	// HTTP: JSON, then SSE (a progress token: the tool's notification
	// goes out before the answer).
	ts := httptest.NewServer(HTTPHandler(srv, HTTPOptions{}))
	t.Cleanup(ts.Close)
	answer := func(tool string, sse bool) []byte {
		var meta map[string]any
		if sse {
			meta = map[string]any{"progressToken": "p"}
		}
		resp := post(t, ts.URL+"/mcp", modernHeaders("tools/call", tool), call(tool, meta))
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if err != nil || resp.StatusCode != 200 {
			t.Fatalf("%s: status %d, %v", tool, resp.StatusCode, err)
		}
		if !sse {
			if resp.Header.Get("Content-Type") != "application/json" || resp.ContentLength != int64(len(b)) {
				t.Fatalf("%s: Content-Type %q, Content-Length %d for %d bytes", tool, resp.Header.Get("Content-Type"), resp.ContentLength, len(b))
			}
			return b
		}
		for _, ev := range strings.Split(string(b), "\n\n") {
			if data, ok := strings.CutPrefix(ev, "event: message\ndata: "); ok && strings.Contains(data, `"result"`) {
				return []byte(data)
			}
		}
		t.Fatalf("%s: no answer in the event stream %.300s", tool, b)
		return nil
	}
	for _, sse := range []bool{false, true} {
		got, want := answer("streamed", sse), answer("held", sse)
		if !bytes.Equal(got, want) {
			t.Fatalf("HTTP (SSE %v): the streamed answer differs from the held one:\n%.300s\n%.300s", sse, got, want)
		}
		checkStreamedAnswer(t, fmt.Sprintf("HTTP (SSE %v)", sse), got, text, js)
	}
	if n := closed.Load(); n < 6 {
		t.Fatalf("%d spills closed after 3 streamed answers, want 6", n)
	}
}

// checkStreamedAnswer checks that a tools/call answer carries text and js.
func checkStreamedAnswer(t *testing.T, what string, b, text, js []byte) {
	t.Helper()
	var m struct {
		Result struct {
			Content []struct {
				Type string          `json:"type"`
				Text json.RawMessage `json:"text"`
			} `json:"content"`
			StructuredContent json.RawMessage `json:"structuredContent"`
		} `json:"result"`
	}
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("%s: %v in %.300s", what, err, b)
	}
	if len(m.Result.Content) != 1 || !bytes.Equal(m.Result.Content[0].Text, text) || !bytes.Equal(m.Result.StructuredContent, js) {
		t.Fatalf("%s: the answer does not carry the result: %.300s", what, b)
	}
}

// failing is a body that fails after writing half of itself, as a spill
// whose file cannot be read back would.
type failing struct{ b []byte }

func (f failing) Len() int64 { return int64(len(f.b)) }
func (f failing) WriteTo(w io.Writer) (int64, error) {
	n, _ := w.Write(f.b[:len(f.b)/2])
	return int64(n), errors.New("read error")
}
func (f failing) Close() error { return nil }

// TestStreamedResultFailingPartWay: a body that fails once the answer has
// begun never yields a message that parses, nor one followed by more:
// stdio closes its output after the broken line, HTTP aborts the answer
// (short of its Content-Length, or an SSE event never ended).
func TestStreamedResultFailingPartWay(t *testing.T) {
	text, js := bigResult()
	def := Definition{Name: "test", Version: "1.0.0", Tools: []Tool{{
		Info: ToolInfo{Name: "broken", InputSchema: json.RawMessage(`{"type":"object"}`)},
		Call: func(ctx context.Context, req *Request, _ json.RawMessage) (*CallToolResult, error) {
			_ = req.Progress(ctx, 1, 2, "rendered")
			// The text fails: a small structuredContent is read once more
			// for its check before the answer begins.
			return StructuredResult(spilled{failing{text}, spillOf(t, js)}, nil)
		},
	}}}
	srv := New(def, Options{})
	t.Cleanup(srv.Close)
	call := func(id int, meta map[string]any) string {
		params := map[string]any{"name": "broken", "arguments": map[string]any{}}
		if meta != nil {
			params["_meta"] = meta
		}
		return modernBody(id, "tools/call", params)
	}

	// stdio: the client reads a broken line and then the end of the
	// stream; a later request is not answered on it.
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- ServeStdio(context.Background(), srv, inR, outW) }()
	go fmt.Fprintln(inW, call(1, nil))
	got, err := io.ReadAll(outR)
	if err != nil {
		t.Fatalf("stdio: %v", err)
	}
	if json.Valid(got) || bytes.Contains(got, []byte("\n")) || len(got) == 0 {
		t.Fatalf("stdio: read %d bytes (%.100s...): want a part of one line, then the end", len(got), got)
	}
	fmt.Fprintln(inW, call(2, nil)) // the server stops reading after it
	inW.Close()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("stdio: ServeStdio still runs after its output failed")
	}

	// HTTP JSON: fewer bytes than Content-Length, and a read error.
	ts := httptest.NewServer(HTTPHandler(srv, HTTPOptions{}))
	t.Cleanup(ts.Close)
	resp := post(t, ts.URL+"/mcp", modernHeaders("tools/call", "broken"), call(3, nil))
	b, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err == nil || int64(len(b)) >= resp.ContentLength || json.Valid(b) {
		t.Fatalf("HTTP JSON: read %d of %d bytes, error %v; want a cut answer and an error", len(b), resp.ContentLength, err)
	}

	// HTTP SSE: the stream breaks off inside the answer's event.
	resp = post(t, ts.URL+"/mcp", modernHeaders("tools/call", "broken"), call(4, map[string]any{"progressToken": "p"}))
	r := bufio.NewReader(resp.Body)
	var last string
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			if line == "" || strings.HasPrefix(line, "data: ") && json.Valid([]byte(strings.TrimPrefix(line, "data: "))) {
				t.Fatalf("HTTP SSE: the stream ended after %q (%v); want it cut inside the answer", last, err)
			}
			break
		}
		if strings.Contains(line, `"result"`) {
			t.Fatalf("HTTP SSE: a whole line with the answer: %.200s", line)
		}
		last = line
	}
	resp.Body.Close()
}

// TestStreamedResultCountedUntilWritten: a streamed answer the client
// does not read counts its whole length against its caller's pending
// bytes and holds its concurrency slot, like an answer held in memory,
// until the write deadline drops it; then its spills are closed.
func TestStreamedResultCountedUntilWritten(t *testing.T) {
	text, js := bigResult()
	big := bytes.Repeat(text[1:len(text)-1], 30) // ~9 MB
	text = append(append([]byte{'"'}, big...), '"')
	closed := new(atomic.Int32)
	def := Definition{Name: "test", Version: "1.0.0", Tools: []Tool{{
		Info: ToolInfo{Name: "big", InputSchema: json.RawMessage(`{"type":"object"}`)},
		Call: func(context.Context, *Request, json.RawMessage) (*CallToolResult, error) {
			return StructuredResult(spilled{countClose{spillOf(t, text), closed}, countClose{spillOf(t, js), closed}}, nil)
		},
	}}}
	srv := New(def, Options{Limits: Limits{Concurrent: 1, MaxPendingBytesPerPrincipal: 1 << 30, HTTPWriteTimeout: time.Second}})
	t.Cleanup(srv.Close)
	ts := httptest.NewServer(HTTPHandler(srv, HTTPOptions{}))
	t.Cleanup(ts.Close)

	c, err := net.Dial("tcp", strings.TrimPrefix(ts.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_ = c.(*net.TCPConn).SetReadBuffer(4096)
	body := modernBody(1, "tools/call", map[string]any{"name": "big", "arguments": map[string]any{}})
	fmt.Fprintf(c, "POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/call\r\nMcp-Name: big\r\nContent-Length: %d\r\n\r\n%s", len(body), body)
	size := int64(len(text) + len(js))
	key := "addr:127.0.0.1"
	deadline := time.Now().Add(30 * time.Second)
	for PendingBytesForTest(srv, key) < size {
		if time.Now().After(deadline) {
			t.Fatalf("pending bytes %d, want at least %d while the answer is unread", PendingBytesForTest(srv, key), size)
		}
		time.Sleep(10 * time.Millisecond)
	}
	resp := post(t, ts.URL+"/mcp", modernHeaders("tools/list", ""), modernBody(2, "tools/list", nil))
	resp.Body.Close()
	if resp.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("tools/list while the streamed answer is unread: status %d, want 429 (the slot is taken)", resp.StatusCode)
	}
	for PendingBytesForTest(srv, key) != 0 || closed.Load() != 2 {
		if time.Now().After(deadline) {
			t.Fatalf("after the write deadline: %d bytes pending, %d spills closed; want 0 and 2", PendingBytesForTest(srv, key), closed.Load())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestStreamedResultChecked: a small streamed structuredContent is still
// checked against the tool's output schema, whether its spill moved to a
// file or holds its bytes in memory (read without a copy, so it is passed
// bare, not counted by a wrapper, and seen closed by its length).
func TestStreamedResultChecked(t *testing.T) {
	for _, inMemory := range []bool{false, true} {
		closed := new(atomic.Int32)
		wrongJS := []byte(`{"n":"` + strings.Repeat("x", 2000) + `"}`)
		var js Body = countClose{spillOf(t, wrongJS), closed}
		bare := NewSpill(1 << 20)
		if inMemory {
			bare.Write(wrongJS)
			js = bare
		}
		def := Definition{Name: "test", Version: "1.0.0", Tools: []Tool{{
			Info: ToolInfo{Name: "wrong", InputSchema: json.RawMessage(`{"type":"object"}`),
				OutputSchema: json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}`)},
			Call: func(context.Context, *Request, json.RawMessage) (*CallToolResult, error) {
				return StructuredResult(spilled{countClose{spillOf(t, []byte(`"`+strings.Repeat("t", 2000)+`"`)), closed}, js}, nil)
			},
		}}}
		srv := New(def, Options{})
		t.Cleanup(srv.Close)
		var out bytes.Buffer
		in := modernBody(1, "tools/call", map[string]any{"name": "wrong", "arguments": map[string]any{}}) + "\n"
		if err := ServeStdio(context.Background(), srv, strings.NewReader(in), &out); err != nil {
			t.Fatal(err)
		}
		var m msg
		if err := json.Unmarshal(out.Bytes(), &m); err != nil || m.Error == nil || m.Error.Code != -32603 {
			t.Fatalf("in memory %v: answer %s (%v): want -32603 for structuredContent that breaks the schema", inMemory, out.Bytes(), err)
		}
		want := int32(2)
		if inMemory {
			want = 1
			if bare.Len() != 0 {
				t.Fatalf("the in-memory spill holds %d bytes after the answer; want it closed", bare.Len())
			}
		}
		if closed.Load() != want {
			t.Fatalf("in memory %v: %d spills closed, want %d", inMemory, closed.Load(), want)
		}
	}
}

// textOnly is a resource value streamed from a body.
type textOnly struct{ b Body }

func (v textOnly) StreamedText() Body { return v.b }

// TestStreamedResourceSameBytes: a resource whose text is streamed from a
// spill (a file) is answered byte for byte as the same text held in
// memory, in both eras (the stateless one adds resultType and cache
// hints around it), and its spill is closed once written.
func TestStreamedResourceSameBytes(t *testing.T) {
	text, _ := bigResult()
	var plain string
	if err := json.Unmarshal(text, &plain); err != nil {
		t.Fatal(err)
	}
	closed := new(atomic.Int32)
	serve := func(streamed bool) *Server {
		read := func(context.Context, *Request) (*ReadResourceResult, error) {
			if streamed {
				return ResourceJSON("test://big", "text/plain", textOnly{countClose{spillOf(t, text), closed}}, nil)
			}
			return ResourceText("test://big", "text/plain", plain, nil)
		}
		srv := New(Definition{Name: "test", Version: "1.0.0", Resources: []Resource{{
			Info:  ResourceInfo{URI: "test://big", Name: "big", MimeType: "text/plain"},
			Cache: Cache{TTLMs: 5000},
			Read:  read,
		}}}, Options{})
		t.Cleanup(srv.Close)
		return srv
	}
	initialize := `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	legacy := `{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"test://big"}}`
	modern := modernBody(2, "resources/read", map[string]any{"uri": "test://big"})
	answers := func(streamed bool) []string {
		var out bytes.Buffer
		in := modern + "\n" + initialize + "\n" + legacy + "\n"
		if err := ServeStdio(context.Background(), serve(streamed), strings.NewReader(in), &out); err != nil {
			t.Fatal(err)
		}
		// Requests run concurrently: order the answers by id.
		lines := make([]string, 3)
		for _, line := range strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n") {
			var m msg
			if err := json.Unmarshal([]byte(line), &m); err != nil {
				t.Fatalf("%v: %.300s", err, line)
			}
			switch string(m.ID) {
			case "2":
				lines[0] = line
			case "0":
				lines[1] = line
			case "1":
				lines[2] = line
			}
		}
		return lines
	}
	got, want := answers(true), answers(false)
	if len(got) != 3 || len(want) != 3 {
		t.Fatalf("%d and %d answers, want 3", len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("answer %d: the streamed resource differs from the held one:\n%.300s\n%.300s", i, got[i], want[i])
		}
	}
	for _, i := range []int{0, 2} {
		var m struct {
			Result struct {
				Contents []struct{ Text string } `json:"contents"`
			} `json:"result"`
		}
		if err := json.Unmarshal([]byte(got[i]), &m); err != nil || len(m.Result.Contents) != 1 || m.Result.Contents[0].Text != plain {
			t.Fatalf("answer %d does not carry the text: %.300s (%v)", i, got[i], err)
		}
	}
	if !strings.Contains(got[0], `"ttlMs":5000`) {
		t.Fatalf("the stateless answer lacks its cache hints: %.300s", got[0])
	}
	if n := closed.Load(); n != 2 {
		t.Fatalf("%d spills closed after 2 streamed answers, want 2", n)
	}
}

// TestStreamedResultAsTask: a streamed tool run as a task stores its
// result read into memory (the same text and structuredContent) and
// closes its spills.
func TestStreamedResultAsTask(t *testing.T) {
	text, js := bigResult()
	closed := new(atomic.Int32)
	s := New(Definition{Name: "test", Version: "1.0.0", Tools: []Tool{{
		Info: ToolInfo{Name: "streamed", InputSchema: json.RawMessage(`{"type":"object"}`)},
		Task: "optional",
		Call: func(context.Context, *Request, json.RawMessage) (*CallToolResult, error) {
			return StructuredResult(spilled{countClose{spillOf(t, text), closed}, countClose{spillOf(t, js), closed}}, nil)
		},
	}}}, Options{Tasks: true})
	t.Cleanup(s.Close)
	created := result(t, handle(t, s, nil, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"streamed","arguments":{},`+modernMeta+`}}`))
	id, _ := created["taskId"].(string)
	if created["resultType"] != "task" || id == "" {
		t.Fatalf("tools/call: %v", created)
	}
	get := `{"jsonrpc":"2.0","id":2,"method":"tasks/get","params":{"taskId":"` + id + `",` + modernMeta + `}}`
	deadline := time.Now().Add(10 * time.Second)
	for {
		resp := handle(t, s, nil, get)
		var v struct {
			Status string `json:"status"`
			Result struct {
				Content []struct {
					Text json.RawMessage `json:"text"`
				} `json:"content"`
				StructuredContent json.RawMessage `json:"structuredContent"`
			} `json:"result"`
		}
		if err := json.Unmarshal(resp.Result, &v); err != nil {
			t.Fatalf("tasks/get: %v in %.300s", err, resp.Result)
		}
		if v.Status == "completed" {
			// Stored as json.Marshal encodes it (HTML-escaped), held
			// results alike: compare the values.
			var gotText, wantText string
			var gotJS, wantJS any
			_ = json.Unmarshal(text, &wantText)
			_ = json.Unmarshal(js, &wantJS)
			if len(v.Result.Content) != 1 || json.Unmarshal(v.Result.Content[0].Text, &gotText) != nil || gotText != wantText ||
				json.Unmarshal(v.Result.StructuredContent, &gotJS) != nil || !reflect.DeepEqual(gotJS, wantJS) {
				t.Fatalf("the task's result is not the streamed one: %.300s", resp.Result)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("task still %q: %.300s", v.Status, resp.Result)
		}
		time.Sleep(5 * time.Millisecond)
	}
	if n := closed.Load(); n != 2 {
		t.Fatalf("%d spills closed once the task stored its result, want 2", n)
	}
}

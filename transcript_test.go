package mcpgen

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/tools/txtar"
)

// Protocol transcripts, in the style of the go-sdk's
// mcp/testdata/conformance/server/*.txtar: each archive under
// testdata/transcripts is served by a fresh server over the real stdio
// transport (io.Pipe), and the messages the server writes are compared with
// the archive's expected ones.
//
// An archive holds:
//
//   - a comment saying what it covers (and which bug, if one is pinned);
//   - optionally "options": a JSON object {"pageSize":N, "tasks":bool,
//     "closeServer":bool} (closeServer calls Server.Close after the last
//     client line, which ends listen streams gracefully);
//   - optionally "tools", "resources", "prompts": the fixture components to
//     register, one name a line (all of them when the file is absent);
//   - "client": the lines the client sends, one JSON-RPC message (or batch,
//     or deliberately broken line) a line; blank lines and lines starting
//     with "#" are skipped;
//   - "server": the lines expected back, one JSON value a line.
//
// Sending is synchronous, so that notifications land in a fixed order:
// after each line the client waits for what that line must get back. For a
// request, the response with its id (for subscriptions/listen, the
// acknowledgement instead); for a batch with a request or a bad member, an
// array; for a line the server cannot read as a message (broken JSON, not
// an object, neither a call nor a response, an empty batch), an error with
// a null id. Notifications are not waited for. A client line that is a
// response (result or error, no method) is not sent in turn: it answers the
// next request the server sends, taking that request's id, as in the go-sdk
// harness. After the last line the client closes stdin, and everything the
// server writes until stdio.Serve returns is kept too.
//
// Client lines may use placeholders, each written as a JSON string:
//
//   - "<$key>": the value of key in the latest server message that has it
//     (searched depth-first), e.g. "<$requestState>", "<$nextCursor>";
//   - "<$key@ID>": the value of key in the response to request ID;
//   - "<$key!tamper>": that string with one bit of its base64url payload
//     flipped, to forge a signed token;
//   - "<nest:N>": N nested arrays, [[[...]]].
//
// Server lines are compared as JSON values (object key order does not
// matter); the string "<any>" matches any value. Run with -update to
// rewrite the server files from the actual output: "<any>" is kept where
// the old file had it, and the values that vary from run to run
// (volatileKeys) are replaced by "<any>".

var update = flag.Bool("update", false, "rewrite the server file of each transcript in testdata/transcripts from the actual output")

// volatileKeys hold values that change from run to run; -update writes
// "<any>" for them.
var volatileKeys = map[string]bool{"requestState": true, "taskId": true, "createdAt": true, "lastUpdatedAt": true}

// transcriptSecret signs cursors and requestState, so that cursors are the
// same in every run.
var transcriptSecret = []byte("transcript-secret")

// transcriptTimeout bounds each wait for the server.
const transcriptTimeout = 10 * time.Second

type transcript struct {
	name    string
	path    string
	archive *txtar.Archive
	opts    struct {
		PageSize    int  `json:"pageSize"`
		Tasks       bool `json:"tasks"`
		CloseServer bool `json:"closeServer"`
	}
	features features
	client   []string // raw lines
	server   []*jnode // expected messages
}

func TestTranscripts(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("testdata", "transcripts", "*.txtar"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no transcripts found: %v", err)
	}
	for _, path := range paths {
		tr, err := loadTranscript(path)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		t.Run(tr.name, func(t *testing.T) {
			t.Parallel()
			got := runTranscript(t, tr)
			if *update {
				if err := tr.write(got); err != nil {
					t.Fatal(err)
				}
				return
			}
			if diff := compareTranscript(tr.server, got); diff != "" {
				t.Errorf("%s: the server's messages differ from the transcript:\n%s\n"+
					"If the new output is right, run: go test ./internal/server -run 'TestTranscripts/%s$' -update",
					tr.path, diff, tr.name)
			}
		})
	}
}

func loadTranscript(path string) (*transcript, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	tr := &transcript{
		name:    strings.TrimSuffix(filepath.Base(path), ".txtar"),
		path:    path,
		archive: txtar.Parse(data),
	}
	if len(bytes.TrimSpace(tr.archive.Comment)) == 0 {
		return nil, fmt.Errorf("the archive needs a comment saying what it covers")
	}
	names := func(data []byte) []string {
		out := []string{}
		for line := range strings.Lines(string(data)) {
			if f := strings.TrimSpace(line); f != "" {
				out = append(out, f)
			}
		}
		return out
	}
	seen := map[string]bool{}
	for _, f := range tr.archive.Files {
		if seen[f.Name] {
			return nil, fmt.Errorf("duplicate file %q", f.Name)
		}
		seen[f.Name] = true
		switch f.Name {
		case "options":
			dec := json.NewDecoder(bytes.NewReader(f.Data))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&tr.opts); err != nil {
				return nil, fmt.Errorf("options: %v", err)
			}
		case "tools":
			tr.features.tools = names(f.Data)
		case "resources":
			tr.features.resources = names(f.Data)
		case "prompts":
			tr.features.prompts = names(f.Data)
		case "client":
			for line := range strings.Lines(string(f.Data)) {
				line = strings.TrimRight(line, "\r\n")
				if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
					continue
				}
				tr.client = append(tr.client, line)
			}
		case "server":
			for i, line := range strings.Split(string(f.Data), "\n") {
				if strings.TrimSpace(line) == "" {
					continue
				}
				n, err := parseJSON([]byte(line))
				if err != nil {
					return nil, fmt.Errorf("server line %d: %v", i+1, err)
				}
				tr.server = append(tr.server, n)
			}
		default:
			return nil, fmt.Errorf("unexpected file %q", f.Name)
		}
	}
	if !seen["client"] {
		return nil, fmt.Errorf("no client file")
	}
	if !seen["server"] && !*update {
		return nil, fmt.Errorf("no server file (run with -update to create it)")
	}
	return tr, nil
}

// write replaces the archive's server file with got.
func (tr *transcript) write(got []*jnode) error {
	var buf bytes.Buffer
	for i, g := range got {
		var want *jnode
		if i < len(tr.server) {
			want = tr.server[i]
		}
		buf.WriteString(carryPlaceholders(want, g).encode())
		buf.WriteByte('\n')
	}
	arch := &txtar.Archive{Comment: tr.archive.Comment}
	replaced := false
	for _, f := range tr.archive.Files {
		if f.Name == "server" {
			f.Data, replaced = buf.Bytes(), true
		}
		arch.Files = append(arch.Files, f)
	}
	if !replaced {
		arch.Files = append(arch.Files, txtar.File{Name: "server", Data: buf.Bytes()})
	}
	return os.WriteFile(tr.path, txtar.Format(arch), 0o666)
}

// runTranscript serves tr over stdio and returns what the server wrote.
func runTranscript(t *testing.T, tr *transcript) []*jnode {
	t.Helper()
	fx := newFixture()
	srv := New(fx.definition(tr.features), Options{PageSize: tr.opts.PageSize, Tasks: tr.opts.Tasks, Secret: transcriptSecret})
	defer srv.Close()

	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	served := make(chan error, 1)
	go func() {
		served <- ServeStdio(context.Background(), srv, inR, outW)
		outW.Close()
	}()
	// The reader never blocks the server: lines queue up until read.
	lines := make(chan []byte, 1<<16)
	go func() {
		br := bufio.NewReaderSize(outR, 1<<20)
		for {
			line, err := br.ReadBytes('\n')
			if len(bytes.TrimSpace(line)) > 0 {
				lines <- line
			}
			if err != nil {
				close(lines)
				return
			}
		}
	}()

	c := &transcriptClient{t: t, in: inW, lines: lines, byID: map[string]*jnode{}}
	for _, line := range tr.client {
		if n, err := parseJSON([]byte(line)); err == nil && isResponse(n) {
			c.answers = append(c.answers, n)
		}
	}
	for i, line := range tr.client {
		c.step(i+1, line)
	}
	if tr.opts.CloseServer {
		srv.Close()
	}
	inW.Close()
	select {
	case err := <-served:
		if err != nil {
			t.Errorf("stdio.Serve: %v", err)
		}
	case <-time.After(transcriptTimeout):
		t.Fatalf("stdio.Serve did not return %v after the client closed stdin", transcriptTimeout)
	}
	for line := range lines {
		c.record(line)
	}
	if len(c.answers) > 0 {
		t.Errorf("%d client response line(s) were never asked for", len(c.answers))
	}
	return c.got
}

type transcriptClient struct {
	t       *testing.T
	in      io.Writer
	lines   chan []byte
	answers []*jnode          // client response lines not yet sent
	got     []*jnode          // server messages, in order
	latest  map[string]*jnode // key -> latest value seen
	byID    map[string]*jnode // request id -> its response
}

// step sends client line n and waits as the line requires.
func (c *transcriptClient) step(n int, line string) {
	t := c.t
	t.Helper()
	parsed, err := parseJSON([]byte(line))
	if err == nil && isResponse(parsed) {
		return // a response: sent when the server asks (see await)
	}
	c.send(c.expand(n, line))
	switch {
	case err != nil || (parsed.kind != '{' && parsed.kind != '['):
		// Not a message at all: answered with an error whose id is null.
		c.await(n, "null", false)
	case parsed.kind == '{':
		method, id := parsed.get("method"), parsed.get("id")
		switch {
		case id != nil && method != nil:
			c.await(n, id.encode(), false)
		case id == nil && method == nil:
			c.await(n, "null", false) // neither a call nor a response
		}
	case len(parsed.arr) == 0:
		c.await(n, "null", false) // an empty batch is one error
	default:
		for _, e := range parsed.arr {
			if e.kind != '{' || e.get("method") == nil || e.get("id") != nil {
				c.await(n, "", true) // something in it gets an answer
				return
			}
		}
	}
}

func isResponse(n *jnode) bool {
	return n.kind == '{' && n.get("method") == nil && (n.get("result") != nil || n.get("error") != nil)
}

func (c *transcriptClient) send(line string) {
	if _, err := io.WriteString(c.in, line+"\n"); err != nil {
		c.t.Fatalf("write to the server: %v", err)
	}
}

// await reads server messages until the answer to the line just sent
// arrives: the response with that id, a response with a null id (the
// server could not read the id), or for a batch an array. Server-to-client
// requests are answered on the way.
func (c *transcriptClient) await(n int, id string, batch bool) {
	t := c.t
	t.Helper()
	timeout := time.After(transcriptTimeout)
	for {
		select {
		case line, ok := <-c.lines:
			if !ok {
				t.Fatalf("client line %d: the server closed stdout before answering", n)
			}
			m := c.record(line)
			if m.kind == '[' {
				if batch {
					return
				}
				continue
			}
			method, mid := m.get("method"), m.get("id")
			switch {
			case method != nil && mid != nil: // a server-to-client request
				if len(c.answers) == 0 {
					t.Fatalf("client line %d: the server sent %s and the client file has no response line left for it", n, line)
				}
				a := c.answers[0].clone()
				c.answers = c.answers[1:]
				a.set("id", mid)
				c.send(a.encode())
			case method == nil && mid != nil && (mid.kind == 'n' || mid.encode() == id):
				return
			case method != nil && method.str == "notifications/subscriptions/acknowledged":
				if sid := m.path("params", "_meta", "io.modelcontextprotocol/subscriptionId"); sid != nil && sid.encode() == id {
					return // a listen stream is acknowledged, not answered
				}
			}
		case <-timeout:
			t.Fatalf("client line %d: no answer from the server within %v", n, transcriptTimeout)
		}
	}
}

// record parses and keeps one server line.
func (c *transcriptClient) record(line []byte) *jnode {
	m, err := parseJSON(bytes.TrimSpace(line))
	if err != nil {
		c.t.Fatalf("the server wrote a line that is not JSON: %v\n%s", err, line)
	}
	c.got = append(c.got, m)
	if c.latest == nil {
		c.latest = map[string]*jnode{}
	}
	m.walk(func(k string, v *jnode) { c.latest[k] = v })
	if m.kind == '{' && m.get("method") == nil && m.get("id") != nil {
		c.byID[m.get("id").encode()] = m
	}
	return m
}

var (
	placeholderRe = regexp.MustCompile(`"<\$([A-Za-z0-9_]+)(?:@([^>!"]+))?(!tamper)?>"`)
	nestRe        = regexp.MustCompile(`"<nest:([0-9]+)>"`)
)

// expand replaces the placeholders of client line n.
func (c *transcriptClient) expand(n int, line string) string {
	line = nestRe.ReplaceAllStringFunc(line, func(s string) string {
		k, _ := strconv.Atoi(nestRe.FindStringSubmatch(s)[1])
		return strings.Repeat("[", k) + strings.Repeat("]", k)
	})
	return placeholderRe.ReplaceAllStringFunc(line, func(s string) string {
		m := placeholderRe.FindStringSubmatch(s)
		key, id, tamper := m[1], m[2], m[3] != ""
		var v *jnode
		if id != "" {
			if resp := c.byID[id]; resp != nil {
				resp.walk(func(k string, x *jnode) {
					if k == key && v == nil {
						v = x
					}
				})
			}
		} else {
			v = c.latest[key]
		}
		if v == nil {
			c.t.Fatalf("client line %d: %s names a value no server message has had yet", n, s)
		}
		if tamper {
			return quote(tamperToken(v.str))
		}
		return v.encode()
	})
}

// tamperToken flips one bit of a base64url token's first byte.
func tamperToken(tok string) string {
	b, err := base64.RawURLEncoding.DecodeString(tok)
	if err != nil || len(b) == 0 {
		return "x" + tok
	}
	b[0] ^= 1
	return base64.RawURLEncoding.EncodeToString(b)
}

// compareTranscript describes how got differs from want, or returns "".
func compareTranscript(want, got []*jnode) string {
	var b strings.Builder
	for i := 0; i < max(len(want), len(got)); i++ {
		switch {
		case i >= len(want):
			fmt.Fprintf(&b, "message %d: unexpected\n  got:  %s\n", i+1, got[i].encode())
		case i >= len(got):
			fmt.Fprintf(&b, "message %d: missing\n  want: %s\n", i+1, want[i].encode())
		default:
			if where := match(want[i], got[i], "$"); where != "" {
				fmt.Fprintf(&b, "message %d differs at %s\n  want: %s\n  got:  %s\n", i+1, where, want[i].encode(), got[i].encode())
			}
		}
	}
	return b.String()
}

// match returns the path of the first difference between want and got, or
// "" when they match.
func match(want, got *jnode, path string) string {
	if want.kind == '"' && want.str == "<any>" {
		return ""
	}
	if want.kind != got.kind {
		return path
	}
	switch want.kind {
	case '{':
		if len(want.keys) != len(got.keys) {
			return path + " (keys " + strings.Join(want.keys, ",") + " vs " + strings.Join(got.keys, ",") + ")"
		}
		for i, k := range want.keys {
			g := got.get(k)
			if g == nil {
				return path + "." + k + " (missing)"
			}
			if d := match(want.vals[i], g, path+"."+k); d != "" {
				return d
			}
		}
	case '[':
		if len(want.arr) != len(got.arr) {
			return path + " (length)"
		}
		for i := range want.arr {
			if d := match(want.arr[i], got.arr[i], fmt.Sprintf("%s[%d]", path, i)); d != "" {
				return d
			}
		}
	case '0':
		w, err1 := strconv.ParseFloat(want.str, 64)
		g, err2 := strconv.ParseFloat(got.str, 64)
		if err1 != nil || err2 != nil || w != g {
			return path
		}
	default:
		if want.str != got.str {
			return path
		}
	}
	return ""
}

// carryPlaceholders returns got with "<any>" wherever want had it (at the
// same path) or where the key is volatile.
func carryPlaceholders(want, got *jnode) *jnode {
	if want != nil && want.kind == '"' && want.str == "<any>" {
		return &jnode{kind: '"', str: "<any>"}
	}
	switch got.kind {
	case '{':
		out := &jnode{kind: '{'}
		for i, k := range got.keys {
			var w *jnode
			if want != nil && want.kind == '{' {
				w = want.get(k)
			}
			v := carryPlaceholders(w, got.vals[i])
			if volatileKeys[k] {
				v = &jnode{kind: '"', str: "<any>"}
			}
			out.keys, out.vals = append(out.keys, k), append(out.vals, v)
		}
		return out
	case '[':
		out := &jnode{kind: '['}
		for i, e := range got.arr {
			var w *jnode
			if want != nil && want.kind == '[' && i < len(want.arr) {
				w = want.arr[i]
			}
			out.arr = append(out.arr, carryPlaceholders(w, e))
		}
		return out
	}
	return got
}

// jnode is a JSON value that keeps the order of object keys, so that
// rewritten transcripts read like the wire.
type jnode struct {
	kind byte // '{', '[', '"', '0' (number), 't'/'f' (bool), 'n' (null)
	keys []string
	vals []*jnode
	arr  []*jnode
	str  string // string value, or number literal
}

func parseJSON(data []byte) (*jnode, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	n, err := parseNode(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("trailing data after the JSON value")
	}
	return n, nil
}

func parseNode(dec *json.Decoder) (*jnode, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch v := tok.(type) {
	case json.Delim:
		switch v {
		case '{':
			n := &jnode{kind: '{'}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				val, err := parseNode(dec)
				if err != nil {
					return nil, err
				}
				n.keys, n.vals = append(n.keys, kt.(string)), append(n.vals, val)
			}
			_, err := dec.Token()
			return n, err
		case '[':
			n := &jnode{kind: '['}
			for dec.More() {
				e, err := parseNode(dec)
				if err != nil {
					return nil, err
				}
				n.arr = append(n.arr, e)
			}
			_, err := dec.Token()
			return n, err
		}
		return nil, fmt.Errorf("unexpected %v", v)
	case string:
		return &jnode{kind: '"', str: v}, nil
	case json.Number:
		return &jnode{kind: '0', str: v.String()}, nil
	case bool:
		if v {
			return &jnode{kind: 't'}, nil
		}
		return &jnode{kind: 'f'}, nil
	case nil:
		return &jnode{kind: 'n'}, nil
	}
	return nil, fmt.Errorf("unexpected token %v", tok)
}

func (n *jnode) get(key string) *jnode {
	if n == nil || n.kind != '{' {
		return nil
	}
	if i := slices.Index(n.keys, key); i >= 0 {
		return n.vals[i]
	}
	return nil
}

func (n *jnode) set(key string, v *jnode) {
	if i := slices.Index(n.keys, key); i >= 0 {
		n.vals[i] = v
		return
	}
	n.keys, n.vals = append(n.keys, key), append(n.vals, v)
}

func (n *jnode) path(keys ...string) *jnode {
	for _, k := range keys {
		n = n.get(k)
	}
	return n
}

func (n *jnode) clone() *jnode {
	c := *n
	c.keys = slices.Clone(n.keys)
	c.vals = slices.Clone(n.vals)
	c.arr = slices.Clone(n.arr)
	return &c
}

// walk calls f for every key/value pair, depth first, in order.
func (n *jnode) walk(f func(key string, v *jnode)) {
	switch n.kind {
	case '{':
		for i, k := range n.keys {
			f(k, n.vals[i])
			n.vals[i].walk(f)
		}
	case '[':
		for _, e := range n.arr {
			e.walk(f)
		}
	}
}

func (n *jnode) encode() string {
	var b strings.Builder
	n.encodeTo(&b)
	return b.String()
}

func (n *jnode) encodeTo(b *strings.Builder) {
	switch n.kind {
	case '{':
		b.WriteByte('{')
		for i, k := range n.keys {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(quote(k))
			b.WriteByte(':')
			n.vals[i].encodeTo(b)
		}
		b.WriteByte('}')
	case '[':
		b.WriteByte('[')
		for i, e := range n.arr {
			if i > 0 {
				b.WriteByte(',')
			}
			e.encodeTo(b)
		}
		b.WriteByte(']')
	case '"':
		b.WriteString(quote(n.str))
	case '0':
		b.WriteString(n.str)
	case 't':
		b.WriteString("true")
	case 'f':
		b.WriteString("false")
	default:
		b.WriteString("null")
	}
}

// quote encodes s as a JSON string without escaping <, > and &, so that
// placeholders stay readable.
func quote(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}

package mcpgen

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/jsonrpc"
)

// serve runs a server with opts over the lines of in until EOF and returns
// the messages it wrote, in order.
func serve(t *testing.T, opts Options, in io.Reader) []jsonrpc.Message {
	t.Helper()
	srv := New(Definition{Name: "stdio-test", Version: "1.0.0"}, opts)
	defer srv.Close()
	var out bytes.Buffer
	if err := ServeStdio(context.Background(), srv, in, &out); err != nil {
		t.Fatalf("Serve: %v", err)
	}
	var msgs []jsonrpc.Message
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var m jsonrpc.Message
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("output line %q: %v", line, err)
		}
		msgs = append(msgs, m)
	}
	return msgs
}

// xs is an endless stream of 'x'.
type xs struct{}

func (xs) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'x'
	}
	return len(p), nil
}

// TestOverlongLine: a line over MaxMessageBytes (here 50 MiB against a
// 1 KiB limit, never held whole) is refused with -32600 naming the limit,
// and the connection goes on serving the next line.
func TestOverlongLine(t *testing.T) {
	in := io.MultiReader(
		strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"`),
		io.LimitReader(xs{}, 50<<20),
		strings.NewReader(`"}}`+"\n"+`{"jsonrpc":"2.0","id":2,"method":"ping"}`+"\n"),
	)
	msgs := serve(t, Options{Limits: Limits{MaxMessageBytes: 1024}}, in)
	if len(msgs) != 2 {
		t.Fatalf("%d messages, want 2: %+v", len(msgs), msgs)
	}
	e := msgs[0].Error
	if e == nil || e.Code != jsonrpc.CodeInvalidRequest || string(msgs[0].ID) != "null" ||
		!strings.Contains(e.Message, "1024 bytes (1 KiB)") || !strings.Contains(string(e.Data), `"maxBytes":1024`) {
		t.Fatalf("first answer %+v (error %+v)", msgs[0], e)
	}
	if string(msgs[1].ID) != "2" || msgs[1].Error != nil {
		t.Fatalf("the next line was not served: %+v", msgs[1])
	}
}

// TestLineAtTheLimit: a line of exactly MaxMessageBytes is served.
func TestLineAtTheLimit(t *testing.T) {
	head, tail := `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"`, `"}}`
	line := head + strings.Repeat("x", 1024-len(head)-len(tail)) + tail
	msgs := serve(t, Options{Limits: Limits{MaxMessageBytes: 1024}}, strings.NewReader(line+"\r\n"))
	if len(msgs) != 1 || msgs[0].Error != nil {
		t.Fatalf("%+v", msgs)
	}
}

// TestRateLimitStdio: over the rate, the request gets -31429 saying when
// to retry; the connection keeps working.
func TestRateLimitStdio(t *testing.T) {
	in := strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n" +
		`{"jsonrpc":"2.0","id":2,"method":"ping"}` + "\n")
	msgs := serve(t, Options{Limits: Limits{Rate: 0.001, Burst: 1}}, in)
	if len(msgs) != 2 {
		t.Fatalf("%+v", msgs)
	}
	// Requests run concurrently: either may be the one refused.
	ok, refused := msgs[0], msgs[1]
	if ok.Error != nil {
		ok, refused = refused, ok
	}
	if ok.Error != nil || refused.Error == nil || refused.Error.Code != CodeTooManyRequests ||
		!strings.Contains(refused.Error.Message, "retry after") || !strings.Contains(string(refused.Error.Data), `"limit":"rate"`) {
		t.Fatalf("answers %+v / %+v", ok, refused.Error)
	}
}

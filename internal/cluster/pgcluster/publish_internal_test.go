package pgcluster

import (
	"context"
	"errors"
	"strings"
	"testing"

	"go.uber.org/zap"
)

// TestBatches: messages queued while none is sent go in one NOTIFY, in
// order; one equal to the message queued just before it is merged; a
// batch that would pass the size bound starts the next; and the payloads
// decode back into the messages, in order. One message alone keeps the
// form replicas read before batching.
func TestBatches(t *testing.T) {
	p := publisher{wake: make(chan struct{}, 1), maxSize: 120}
	big := strings.Repeat("x", 60)
	entries := []string{
		"mcp/s/notify\ni{\"a\":1}",
		"mcp/s/notify\ni{\"a\":1}", // merged with the one before
		"mcp/s/session\ni{\"b\":2}",
		"mcp/s/notify\ni{\"a\":1}", // not merged: another came between
		"mcp/s/notify\ni" + big,    // does not fit: a second batch
		"mcp/s/response\nr42",
		"mcp/s/response\nr42", // merged
	}
	var batches []*batch
	for _, e := range entries {
		bt, err := p.add(e, len("origin"))
		if err != nil {
			t.Fatal(err)
		}
		if len(batches) == 0 || batches[len(batches)-1] != bt {
			batches = append(batches, bt)
		}
	}
	if len(batches) != 2 || len(p.queue) != 2 {
		t.Fatalf("%d batches (%d queued), want 2", len(batches), len(p.queue))
	}
	if st := p.stats; st.Messages != 7 || st.Merged != 2 {
		t.Fatalf("stats %+v, want 7 messages, 2 merged", st)
	}
	want := [][]string{
		{"mcp/s/notify " + `{"a":1}`, "mcp/s/session " + `{"b":2}`, "mcp/s/notify " + `{"a":1}`},
		{"mcp/s/notify " + big, "mcp/s/response row 42"},
	}
	b := &Backend{log: zap.NewNop()}
	for i, bt := range batches {
		body := encodeBatch("origin", bt)
		if len(body) > p.maxSize {
			t.Errorf("batch %d: %d bytes, over the bound %d", i, len(body), p.maxSize)
		}
		var got []string
		for _, e := range bt.entries {
			topic, rest, _ := strings.Cut(e, "\n")
			if rest[0] == 'r' {
				got = append(got, topic+" row "+rest[1:])
				continue
			}
			got = append(got, topic+" "+rest[1:])
		}
		if strings.Join(got, "|") != strings.Join(want[i], "|") {
			t.Errorf("batch %d holds %q, want %q", i, got, want[i])
		}
		if i == 1 {
			continue // holds a row reference: decoding it reads the table
		}
		ms, err := b.decode(context.Background(), body)
		if err != nil {
			t.Fatalf("batch %d: decode %q: %v", i, body, err)
		}
		var dec []string
		for _, m := range ms {
			if m.Origin != "origin" {
				t.Errorf("origin %q", m.Origin)
			}
			dec = append(dec, m.Topic+" "+string(m.Payload))
		}
		if strings.Join(dec, "|") != strings.Join(want[i], "|") {
			t.Errorf("batch %d decodes to %q, want %q", i, dec, want[i])
		}
	}

	one := &batch{entries: []string{"mcp/s/notify\ni{}"}}
	if got := encodeBatch("r1", one); got != "r1 mcp/s/notify\ni{}" {
		t.Errorf("one message encodes to %q, want the form before batching", got)
	}
	ms, err := b.decode(context.Background(), "r1 mcp/s/notify\ni{}")
	if err != nil || len(ms) != 1 || ms[0].Topic != "mcp/s/notify" || string(ms[0].Payload) != "{}" || ms[0].Origin != "r1" {
		t.Errorf("one message decodes to %+v, %v", ms, err)
	}
}

// TestDecodeRefusesForeignPayloads: a NOTIFY on the channel that is not
// ours is refused, keeping the messages before the damage.
func TestDecodeRefusesForeignPayloads(t *testing.T) {
	b := &Backend{log: zap.NewNop()}
	for _, s := range []string{
		"no line break",
		"origin topic\n",         // no kind
		"origin topic\nx",        // unknown kind
		"origin\n12 short",       // length past the end
		"origin\n-1 t\ni",        // negative length
		"origin\nabc t\ni",       // not a length
		"origin\n4 nonl",         // an entry without its topic line
		"origin\n4 t\nix9 t\nix", // the second is cut short
	} {
		ms, err := b.decode(context.Background(), s)
		if !errors.Is(err, errBadPayload) {
			t.Errorf("decode(%q) = %v, %v; want errBadPayload", s, ms, err)
		}
	}
	ms, err := b.decode(context.Background(), "origin\n4 t\nix9 t\nix")
	if len(ms) != 1 || string(ms[0].Payload) != "x" || err == nil {
		t.Errorf("a payload damaged after its first message: %+v, %v; want that message and an error", ms, err)
	}
}

// TestPublishAfterClose: a closed backend's publisher refuses at once.
func TestPublishAfterClose(t *testing.T) {
	p := publisher{wake: make(chan struct{}, 1), maxSize: maxNotify, closed: true}
	if _, err := p.add("t\ni", 6); err == nil {
		t.Fatal("a closed publisher took a message")
	}
}

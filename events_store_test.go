package mcpgen_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen"
	"github.com/mcpgen/mcpgen/eventstore"
	"github.com/mcpgen/mcpgen/internal/eventsql/storetest"
	"github.com/mcpgen/mcpgen/internal/jsonrpc"
)

func TestMemoryEventStore(t *testing.T) {
	storetest.Run(t, func(*testing.T) mcpgen.EventStore { return &mcpgen.MemoryEventStore{} })
}

// noClaims is a store whose process never gets to send: it stands for
// one that dies between the emit and the delivery.
type noClaims struct{ mcpgen.EventStore }

func (noClaims) Claim(context.Context, string, time.Time, time.Duration, int) ([]mcpgen.EventDelivery, error) {
	return nil, nil
}

// TestEventsSurviveRestart: on the SQLite store, a cursor taken before a
// restart resumes after it, and events owed to a webhook when the process
// stopped are delivered by the next one.
func TestEventsSurviveRestart(t *testing.T) {
	var mu sync.Mutex
	got := map[string]int{}
	arrived := make(chan string, 10)
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		var v map[string]any
		_ = json.Unmarshal(b, &v)
		if v["type"] == "verification" {
			_ = json.NewEncoder(w).Encode(map[string]any{"challenge": v["challenge"]})
			return
		}
		mu.Lock()
		defer mu.Unlock()
		got[r.Header.Get("webhook-id")]++
		w.WriteHeader(204)
		arrived <- r.Header.Get("webhook-id")
	}))
	defer hs.Close()
	def := mcpgen.Definition{Name: "notes", Events: []mcpgen.EventType{{Name: "note.changed"}}}
	path := filepath.Join(t.TempDir(), "events.db")
	alice := mcpgen.Principal{Subject: "alice"}
	start := func(sends bool) (*mcpgen.Server, eventstore.Store) {
		st, err := eventstore.Open(context.Background(), path)
		if err != nil {
			t.Fatal(err)
		}
		var store mcpgen.EventStore = st
		if !sends {
			store = noClaims{st}
		}
		return mcpgen.New(def, mcpgen.Options{Events: mcpgen.EventOptions{Store: store, WebhookAllow: []string{hs.URL},
			PollInterval: 20 * time.Millisecond, RetryBase: 10 * time.Millisecond, Attempts: 1000}}), st
	}
	call := func(s *mcpgen.Server, method, params string) map[string]any {
		t.Helper()
		m, err := jsonrpc.Decode([]byte(`{"jsonrpc":"2.0","id":1,"method":"` + method + `","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},` + params + `}}`))
		if err != nil {
			t.Fatal(err)
		}
		resp := mcpgen.HandleForTest(context.Background(), s, m, alice, "")
		if resp.Error != nil {
			t.Fatalf("%s: %s", method, resp.Error.Message)
		}
		var v map[string]any
		_ = json.Unmarshal(resp.Result, &v)
		return v
	}
	s1, st1 := start(false)
	cursor := call(s1, "events/poll", `"name":"note.changed","cursor":null`)["cursor"].(string)
	call(s1, "events/subscribe", `"name":"note.changed","delivery":{"url":"`+hs.URL+`","secret":"whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"},"cursor":null`)
	for _, n := range []string{"a", "b"} {
		if err := mcpgen.EmitTo(context.Background(), s1, "", "note.changed", map[string]string{"note": n}); err != nil {
			t.Fatal(err)
		}
	}
	s1.Close()
	st1.Close()

	s2, st2 := start(true)
	defer st2.Close()
	defer s2.Close()
	r := call(s2, "events/poll", `"name":"note.changed","cursor":"`+cursor+`"`)
	evs := r["events"].([]any)
	if len(evs) != 2 || r["truncated"] != false || !strings.Contains(string(mustJSON(evs[1])), `"note":"b"`) {
		t.Fatalf("poll after the restart: %v", r)
	}
	ids := map[string]bool{}
	for len(ids) < 2 {
		select {
		case id := <-arrived:
			ids[id] = true
		case <-time.After(10 * time.Second):
			t.Fatalf("delivered after the restart: %v", ids)
		}
	}
	for _, e := range evs {
		if !ids[e.(map[string]any)["eventId"].(string)] {
			t.Errorf("event %v not delivered", e)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	for id, n := range got {
		if n != 1 {
			t.Errorf("%s delivered %d times", id, n)
		}
	}
}

func mustJSON(v any) []byte { b, _ := json.Marshal(v); return b }

// BenchmarkEmit is the cost of one event: Emit with a payload of a few
// fields, appended to the log with one outbox row per subscription, on
// the memory store and SQLite (PostgreSQL: pgcluster's BenchmarkEmit).
// docs/bench/log.md has the numbers.
func BenchmarkEmit(b *testing.B) {
	for _, name := range []string{"memory", "sqlite"} {
		for _, subs := range []int{0, 1} {
			b.Run(fmt.Sprintf("%s/subscriptions=%d", name, subs), func(b *testing.B) {
				var st mcpgen.EventStore = &mcpgen.MemoryEventStore{MaxEvents: 1 << 20}
				if name == "sqlite" {
					s, err := eventstore.Open(context.Background(), filepath.Join(b.TempDir(), "events.db"))
					if err != nil {
						b.Fatal(err)
					}
					defer s.Close()
					st = s
				}
				storetest.Bench(b, st, subs)
			})
		}
	}
}

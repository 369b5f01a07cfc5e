package storetest

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen"
)

// Bench measures one event from end to end on a server whose events are
// kept in st: emitted, appended to the log with one outbox row per
// subscription, and sent, signed, to each of subs webhook subscriptions
// (a local endpoint answering 204), until the outbox is empty.
func Bench(b *testing.B, st mcpgen.EventStore, subs int) {
	var delivered atomic.Int64
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		delivered.Add(1)
		_, _ = io.Copy(io.Discard, r.Body)
		w.WriteHeader(http.StatusNoContent)
	}))
	defer hook.Close()
	def := mcpgen.Definition{Name: "bench", Events: []mcpgen.EventType{{Name: "entity.changed"}}}
	srv := mcpgen.New(def, mcpgen.Options{Events: mcpgen.EventOptions{Store: st, WebhookAllow: []string{hook.URL}, PollInterval: 10 * time.Millisecond}})
	defer srv.Close()
	ctx := context.Background()
	for i := range subs {
		sub := &mcpgen.EventSubscription{ID: fmt.Sprintf("sub_%d", i), Name: "entity.changed", Arguments: []byte(`{}`),
			URL: hook.URL + "/hook", Secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", Principal: mcpgen.Principal{Subject: "bench"},
			PrincipalKey: "sub:bench", Expires: time.Now().Add(time.Hour), Verified: true, Active: true}
		if err := st.SaveSubscription(ctx, sub); err != nil {
			b.Fatal(err)
		}
	}
	type payload struct {
		Graph, Entity, EntityType, Change string
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := mcpgen.EmitTo(ctx, srv, "", "entity.changed", payload{"default", fmt.Sprint("e", i), "person", "created"}); err != nil {
			b.Fatal(err)
		}
	}
	for i := range subs {
		for {
			low, err := st.PendingBelow(ctx, fmt.Sprintf("sub_%d", i), 0)
			if err != nil {
				b.Fatal(err)
			}
			if low == 0 {
				break
			}
			time.Sleep(time.Millisecond)
		}
	}
	b.ReportMetric(float64(delivered.Load())/float64(b.N), "deliveries/op")
}

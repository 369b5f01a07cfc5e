// Package clustertest is the behaviour every [cluster.Backend] must have,
// as a test any implementation runs against itself.
package clustertest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/cluster"
)

// Store opens replicas of one shared store.
type Store struct {
	// Replica returns a new replica (its own ID) on the shared store; the
	// test closes it.
	Replica func(t *testing.T) cluster.Backend
	// ExpireLeases makes every task lease look overdue (nil when closing
	// the owner is enough for its tasks to count as dead).
	ExpireLeases func(t *testing.T)
}

// Run checks the contract of cluster.Backend.
func Run(t *testing.T, st Store) {
	ctx := context.Background()
	t.Run("sessions", func(t *testing.T) {
		a, b := st.Replica(t), st.Replica(t)
		now := time.Now().Truncate(time.Millisecond)
		s := cluster.Session{
			ID: "s-" + cluster.NewID(), Subject: "alice", Version: "2025-11-25",
			Client: json.RawMessage(`{"name":"c","version":"1"}`), ClientCaps: json.RawMessage(`{"sampling":{}}`),
			Created: now, Expires: now.Add(time.Hour),
		}
		if err := a.CreateSession(ctx, s); err != nil {
			t.Fatal(err)
		}
		got, err := b.LoadSession(ctx, s.ID)
		if err != nil {
			t.Fatalf("load on another replica: %v", err)
		}
		if got.Subject != "alice" || got.Version != s.Version || string(got.Client) != string(s.Client) || string(got.ClientCaps) != string(s.ClientCaps) || !got.Created.Equal(now) {
			t.Fatalf("loaded %+v, want %+v", got, s)
		}
		for _, u := range []cluster.SessionUpdate{{LogLevel: "debug"}, {Initialized: true}, {Subscribe: "test://a"}, {Subscribe: "test://b"}, {Subscribe: "test://c"}, {Subscribe: "test://a"}, {Unsubscribe: "test://c"}} {
			if _, err := b.UpdateSession(ctx, s.ID, u); err != nil {
				t.Fatal(err)
			}
		}
		got, _ = a.LoadSession(ctx, s.ID)
		if got.LogLevel != "debug" || !got.Initialized || strings.Join(got.Subscribed, ",") != "test://a,test://b" {
			t.Fatalf("after updates: %+v", got)
		}
		if got, err := a.UpdateSession(ctx, s.ID, cluster.SessionUpdate{Expires: now.Add(-time.Hour)}); err != nil || !got.Expires.Equal(s.Expires) || got.LogLevel != "debug" {
			t.Fatalf("an update must never shorten a session or change what it does not name: %+v %v", got, err)
		}
		if err := a.TouchSession(ctx, s.ID, now.Add(-time.Second)); err != nil {
			t.Fatal(err)
		}
		if _, err := b.LoadSession(ctx, s.ID); err != nil {
			t.Fatalf("a touch must never shorten a session: %v", err)
		}
		ok, err := b.DeleteSession(ctx, s.ID)
		if err != nil || !ok {
			t.Fatalf("delete: %v %v", ok, err)
		}
		if _, err := a.LoadSession(ctx, s.ID); !errors.Is(err, cluster.ErrNotFound) {
			t.Fatalf("load after delete: %v, want ErrNotFound", err)
		}
		if ok, _ := a.DeleteSession(ctx, s.ID); ok {
			t.Fatal("second delete reported an existing session")
		}
		if _, err := a.UpdateSession(ctx, s.ID, cluster.SessionUpdate{LogLevel: "info"}); !errors.Is(err, cluster.ErrNotFound) {
			t.Fatalf("update after delete: %v, want ErrNotFound", err)
		}
		old := s
		old.ID, old.Expires = "s-"+cluster.NewID(), now.Add(-time.Minute)
		if err := a.CreateSession(ctx, old); err != nil {
			t.Fatal(err)
		}
		if _, err := b.LoadSession(ctx, old.ID); !errors.Is(err, cluster.ErrNotFound) {
			t.Fatalf("an expired session was found: %v", err)
		}
	})
	t.Run("concurrent session updates all stay", func(t *testing.T) {
		// Two replicas subscribe one session to different resources at
		// once, many times over: no subscription may be lost.
		a, b := st.Replica(t), st.Replica(t)
		now := time.Now()
		s := cluster.Session{ID: "s-" + cluster.NewID(), Subject: "alice", Version: "2025-11-25", Client: json.RawMessage(`{}`), ClientCaps: json.RawMessage(`{}`), Created: now, Expires: now.Add(time.Hour)}
		if err := a.CreateSession(ctx, s); err != nil {
			t.Fatal(err)
		}
		const each = 20
		var wg sync.WaitGroup
		errs := make(chan error, 2*each)
		for i := range each {
			for name, r := range map[string]cluster.Backend{"a": a, "b": b} {
				wg.Add(1)
				go func() {
					defer wg.Done()
					_, err := r.UpdateSession(ctx, s.ID, cluster.SessionUpdate{Subscribe: fmt.Sprintf("test://%s/%d", name, i)})
					errs <- err
				}()
			}
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
		got, err := b.LoadSession(ctx, s.ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Subscribed) != 2*each {
			t.Fatalf("%d subscriptions stored after %d concurrent ones: %v", len(got.Subscribed), 2*each, got.Subscribed)
		}
	})

	t.Run("tasks", func(t *testing.T) {
		a, b := st.Replica(t), st.Replica(t)
		now := time.Now().Truncate(time.Millisecond)
		tk := cluster.Task{ID: "t-" + cluster.NewID(), Subject: "alice", Owner: a.ID(), Status: "working",
			Created: now, Updated: now, Expires: now.Add(time.Hour)}
		if ok, err := a.PutTask(ctx, tk); err != nil || !ok {
			t.Fatalf("put: %v %v", ok, err)
		}
		tk.Status, tk.InputRequests = "input_required", json.RawMessage(`{"q":{"method":"elicitation/create"}}`)
		if ok, err := a.PutTask(ctx, tk); err != nil || !ok {
			t.Fatalf("update: %v %v", ok, err)
		}
		got, err := b.LoadTask(ctx, tk.ID)
		if err != nil || got.Status != "input_required" || string(got.InputRequests) != string(tk.InputRequests) || got.Owner != a.ID() || got.Subject != "alice" {
			t.Fatalf("load on another replica: %+v %v", got, err)
		}
		tk.Status, tk.InputRequests, tk.Result = "completed", nil, json.RawMessage(`{"content":[]}`)
		if ok, _ := a.PutTask(ctx, tk); !ok {
			t.Fatal("completing was refused")
		}
		tk.Status = "cancelled"
		if ok, _ := b.PutTask(ctx, tk); ok {
			t.Fatal("a terminal task was changed")
		}
		if got, _ := b.LoadTask(ctx, tk.ID); got.Status != "completed" || string(got.Result) != `{"content":[]}` {
			t.Fatalf("terminal task: %+v", got)
		}
		if _, err := b.LoadTask(ctx, "t-none"); !errors.Is(err, cluster.ErrNotFound) {
			t.Fatalf("unknown task: %v", err)
		}
	})
	t.Run("dead owner fails its tasks", func(t *testing.T) {
		a, b := st.Replica(t), st.Replica(t)
		now := time.Now()
		running := cluster.Task{ID: "t-" + cluster.NewID(), Subject: "bob", Owner: a.ID(), Status: "working",
			Created: now, Updated: now, Expires: now.Add(time.Hour)}
		if _, err := a.PutTask(ctx, running); err != nil {
			t.Fatal(err)
		}
		if got, _ := b.LoadTask(ctx, running.ID); got.Status != "working" {
			t.Fatalf("a live owner's task: %q", got.Status)
		}
		_ = a.Close()
		if st.ExpireLeases != nil {
			st.ExpireLeases(t)
		}
		got, err := b.LoadTask(ctx, running.ID)
		if err != nil || got.Status != "failed" || got.Message != cluster.DeadTaskMessage || len(got.Error) == 0 {
			t.Fatalf("task of a dead owner: %+v %v", got, err)
		}
	})
	t.Run("signing keys", func(t *testing.T) {
		a, b := st.Replica(t), st.Replica(t)
		ka, err := a.SigningKeys(ctx)
		if err != nil || len(ka) == 0 || len(ka[0]) < 32 {
			t.Fatalf("keys: %d %v", len(ka), err)
		}
		kb, err := b.SigningKeys(ctx)
		if err != nil || !bytes.Equal(ka[0], kb[0]) {
			t.Fatal("two replicas got different signing keys")
		}
	})
	t.Run("subscribers", func(t *testing.T) {
		a, b := st.Replica(t), st.Replica(t)
		prefix := "subs-" + cluster.NewID() + "/" // this test's own
		names := func() string {
			t.Helper()
			ids, err := a.Subscribers(ctx, prefix)
			if err != nil {
				t.Fatal(err)
			}
			var out []string
			for _, id := range ids {
				switch id {
				case a.ID():
					out = append(out, "a")
				case b.ID():
					out = append(out, "b")
				default:
					t.Fatalf("subscriber %q is neither replica", id)
				}
			}
			slices.Sort(out)
			return strings.Join(out, ",")
		}
		if got := names(); got != "" {
			t.Fatalf("subscribers before any subscription: %q", got)
		}
		stopA := a.Subscribe(prefix, func(cluster.Message) {})
		defer stopA()
		stopB := b.Subscribe(prefix, func(cluster.Message) {})
		stopOther := b.Subscribe("other-"+prefix, func(cluster.Message) {})
		defer stopOther()
		stopB2 := b.Subscribe(prefix, func(cluster.Message) {})
		if got := names(); got != "a,b" {
			t.Fatalf("subscribers once both subscribed: %q, want a,b", got)
		}
		stopB()
		if got := names(); got != "a,b" {
			t.Fatalf("subscribers while b holds a second subscription: %q, want a,b", got)
		}
		stopB2()
		if got := names(); got != "a" {
			t.Fatalf("subscribers after b cancelled: %q, want a", got)
		}
		_ = a.Close() // a closed replica confirms nothing
		if ids, err := b.Subscribers(ctx, prefix); err != nil || len(ids) != 0 {
			t.Fatalf("subscribers after a closed: %v %v, want none", ids, err)
		}
	})
	t.Run("publish reaches every replica in order", func(t *testing.T) {
		a, b := st.Replica(t), st.Replica(t)
		got := make(chan cluster.Message, 16)
		stop := b.Subscribe("x/", func(m cluster.Message) {
			if !m.Lost {
				got <- m
			}
		})
		defer stop()
		big := bytes.Repeat([]byte("é"), 12000) // past NOTIFY's payload limit
		for _, p := range []struct {
			topic string
			body  []byte
		}{{"y/ignored", []byte("no")}, {"x/1", []byte(`{"n":1}`)}, {"x/2", big}, {"x/3", []byte("three")}} {
			if err := a.Publish(ctx, p.topic, p.body); err != nil {
				t.Fatal(err)
			}
		}
		for i, want := range []string{"x/1", "x/2", "x/3"} {
			select {
			case m := <-got:
				if m.Topic != want || m.Origin != a.ID() {
					t.Fatalf("message %d: topic %q origin %q, want %q from %q", i, m.Topic, m.Origin, want, a.ID())
				}
				if want == "x/2" && !bytes.Equal(m.Payload, big) {
					t.Fatalf("large payload came back as %d bytes, want %d", len(m.Payload), len(big))
				}
			case <-time.After(10 * time.Second):
				t.Fatalf("message %s never arrived", want)
			}
		}
	})
}

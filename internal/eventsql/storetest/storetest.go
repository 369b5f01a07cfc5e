// Package storetest is the contract every [mcpgen.EventStore] meets, run
// by the tests of each store (memory, SQLite, PostgreSQL).
package storetest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen"
)

// Run checks the store open returns (a fresh one per call).
func Run(t *testing.T, open func(t *testing.T) mcpgen.EventStore) {
	t.Run("Log", func(t *testing.T) { testLog(t, open(t)) })
	t.Run("Subscriptions", func(t *testing.T) { testSubscriptions(t, open(t)) })
	t.Run("Outbox", func(t *testing.T) { testOutbox(t, open(t)) })
	t.Run("ClaimOnce", func(t *testing.T) { testClaimOnce(t, open(t)) })
	t.Run("Prune", func(t *testing.T) { testPrune(t, open(t)) })
	t.Run("Feed", func(t *testing.T) { testFeed(t, open(t)) })
	t.Run("FeedRace", func(t *testing.T) { testFeedRace(t, open(t)) })
	t.Run("ConcurrentAppends", func(t *testing.T) { testConcurrentAppends(t, open(t)) })
}

var bg = context.Background()

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func appendN(t *testing.T, s mcpgen.EventStore, name, part string, n int, to ...string) []int64 {
	t.Helper()
	var seqs []int64
	for i := range n {
		e := &mcpgen.EventRecord{ID: fmt.Sprintf("evt_%s_%d", name, i), Name: name, Partition: part, Time: time.Now().UTC(), Data: json.RawMessage(fmt.Sprintf(`{"i":%d}`, i))}
		must(t, s.Append(bg, e, to))
		seqs = append(seqs, e.Seq)
	}
	return seqs
}

func testLog(t *testing.T, s mcpgen.EventStore) {
	oldest, newest, err := s.Bounds(bg)
	if err != nil || oldest != 0 || newest != 0 {
		t.Fatalf("empty bounds: %d %d %v", oldest, newest, err)
	}
	a := appendN(t, s, "a", "", 3)
	b := appendN(t, s, "b", "", 1)
	appendN(t, s, "a", "p2", 2)
	for i := 1; i < len(a); i++ {
		if a[i] <= a[i-1] || b[0] <= a[2] {
			t.Fatalf("positions not increasing: %v %v", a, b)
		}
	}
	oldest, newest, _ = s.Bounds(bg)
	if oldest != a[0] || newest != a[0]+5 {
		t.Errorf("bounds %d %d", oldest, newest)
	}
	got, err := s.Events(bg, "a", "", a[0], newest, 10)
	must(t, err)
	if len(got) != 2 || got[0].Seq != a[1] || string(got[1].Data) != `{"i":2}` || got[0].ID != "evt_a_1" || got[0].Time.IsZero() {
		t.Fatalf("events after %d: %+v", a[0], got)
	}
	if got, _ := s.Events(bg, "a", "", 0, a[1], 10); len(got) != 2 {
		t.Errorf("upto: %+v", got)
	}
	if got, _ := s.Events(bg, "a", "", 0, newest, 1); len(got) != 1 {
		t.Errorf("limit: %+v", got)
	}
	if got, _ := s.Events(bg, "a", "p2", 0, newest, 10); len(got) != 2 {
		t.Errorf("partition p2: %+v", got)
	}
}

func sub(id, name, principal string) *mcpgen.EventSubscription {
	return &mcpgen.EventSubscription{ID: id, Name: name, Arguments: json.RawMessage(`{}`), URL: "https://example.com/" + id,
		Secret: "whsec_x", Principal: mcpgen.Principal{Subject: principal, Scopes: []string{"s"}}, PrincipalKey: "sub:" + principal,
		Created: time.Now().UTC(), Expires: time.Now().Add(time.Hour).UTC(), Verified: true, Active: true}
}

func testSubscriptions(t *testing.T, s mcpgen.EventStore) {
	must(t, s.SaveSubscription(bg, sub("s1", "a", "alice")))
	must(t, s.SaveSubscription(bg, sub("s2", "a", "alice")))
	must(t, s.SaveSubscription(bg, sub("s3", "b", "bob")))
	got, err := s.Subscription(bg, "s1")
	must(t, err)
	if got == nil || got.Principal.Subject != "alice" || got.Secret != "whsec_x" || !got.Verified || got.Expires.IsZero() {
		t.Fatalf("s1: %+v", got)
	}
	if none, err := s.Subscription(bg, "nope"); none != nil || err != nil {
		t.Errorf("missing: %v %v", none, err)
	}
	u := sub("s1", "a", "alice")
	u.Failures, u.LastError = 2, "http_5xx"
	must(t, s.SaveSubscription(bg, u))
	if got, _ := s.Subscription(bg, "s1"); got.Failures != 2 || got.LastError != "http_5xx" {
		t.Errorf("update: %+v", got)
	}
	if all, _ := s.Subscriptions(bg, "a", ""); len(all) != 2 {
		t.Errorf("subscriptions to a: %+v", all)
	}
	if n, _ := s.CountSubscriptions(bg, "sub:alice"); n != 2 {
		t.Errorf("alice has %d", n)
	}
	appendN(t, s, "a", "", 1, "s1", "s2")
	if ok, err := s.DeleteSubscription(bg, "s1"); !ok || err != nil {
		t.Errorf("delete: %v %v", ok, err)
	}
	if ok, _ := s.DeleteSubscription(bg, "s1"); ok {
		t.Error("deleted twice")
	}
	ds, _ := s.Claim(bg, "r1", time.Now(), time.Minute, 10)
	if len(ds) != 1 || ds[0].Subscription != "s2" {
		t.Errorf("the deleted subscription's delivery is still owed: %+v", ds)
	}
}

func testOutbox(t *testing.T, s mcpgen.EventStore) {
	must(t, s.SaveSubscription(bg, sub("s1", "a", "alice")))
	seqs := appendN(t, s, "a", "", 2, "s1")
	must(t, s.Enqueue(bg, []mcpgen.EventDelivery{{Subscription: "s1", Control: json.RawMessage(`{"type":"gap","cursor":"1"}`), Due: time.Now()}}))
	now := time.Now()
	ds, err := s.Claim(bg, "r1", now, time.Minute, 10)
	must(t, err)
	if len(ds) != 3 || ds[0].Event == nil || ds[0].Event.Seq != seqs[0] || string(ds[0].Event.Data) != `{"i":0}` || ds[2].Control == nil || ds[2].Event != nil {
		t.Fatalf("claim: %+v", ds)
	}
	if again, _ := s.Claim(bg, "r2", now, time.Minute, 10); len(again) != 0 {
		t.Fatalf("leased deliveries claimed again: %+v", again)
	}
	if low, _ := s.PendingBelow(bg, "s1", ds[0].ID); low != seqs[1] {
		t.Errorf("pending below, except the first: %d", low)
	}
	must(t, s.Complete(bg, ds[0].ID))
	must(t, s.Retry(bg, ds[1].ID, now.Add(time.Hour), 3))
	// The lease of the third runs out: due again for anyone.
	later, _ := s.Claim(bg, "r2", now.Add(2*time.Minute), time.Minute, 10)
	if len(later) != 1 || later[0].ID != ds[2].ID {
		t.Fatalf("after the lease: %+v", later)
	}
	retried, _ := s.Claim(bg, "r2", now.Add(2*time.Hour), time.Minute, 10)
	if len(retried) != 2 {
		t.Fatalf("after the retry time: %+v", retried)
	}
	for _, d := range retried {
		if d.ID == ds[1].ID && d.Attempts != 3 {
			t.Errorf("attempts %d", d.Attempts)
		}
	}
}

// testClaimOnce: owners claiming at once never get the same delivery.
func testClaimOnce(t *testing.T, s mcpgen.EventStore) {
	must(t, s.SaveSubscription(bg, sub("s1", "a", "alice")))
	appendN(t, s, "a", "", 60, "s1")
	var mu sync.Mutex
	seen := map[int64]string{}
	var wg sync.WaitGroup
	for w := range 3 {
		wg.Add(1)
		go func(owner string) {
			defer wg.Done()
			for {
				ds, err := s.Claim(bg, owner, time.Now(), time.Minute, 7)
				if err != nil {
					t.Error(err)
					return
				}
				if len(ds) == 0 {
					return
				}
				mu.Lock()
				for _, d := range ds {
					if o, dup := seen[d.ID]; dup {
						t.Errorf("delivery %d claimed by %s and %s", d.ID, o, owner)
					}
					seen[d.ID] = owner
				}
				mu.Unlock()
			}
		}(fmt.Sprint("r", w))
	}
	wg.Wait()
	if len(seen) != 60 {
		t.Errorf("%d of 60 claimed", len(seen))
	}
}

func testPrune(t *testing.T, s mcpgen.EventStore) {
	old := sub("old", "a", "alice")
	old.Expires = time.Now().Add(-time.Minute)
	must(t, s.SaveSubscription(bg, old))
	must(t, s.SaveSubscription(bg, sub("live", "a", "alice")))
	seqs := appendN(t, s, "a", "", 5, "old", "live")
	must(t, s.Prune(bg, time.Now(), time.Now().Add(-time.Hour), 2))
	oldest, newest, _ := s.Bounds(bg)
	if oldest != seqs[3] || newest != seqs[4] {
		t.Errorf("after keeping 2: bounds %d %d, want %d %d", oldest, newest, seqs[3], seqs[4])
	}
	if got, _ := s.Subscription(bg, "old"); got != nil {
		t.Error("expired subscription kept")
	}
	if got, _ := s.Subscription(bg, "live"); got == nil {
		t.Error("live subscription pruned")
	}
	ds, _ := s.Claim(bg, "r", time.Now(), time.Minute, 100)
	pruned := 0
	for _, d := range ds {
		if d.Subscription == "old" {
			t.Errorf("delivery of an expired subscription kept: %+v", d)
		}
		if d.Event == nil {
			pruned++
		}
	}
	if len(ds) != 5 || pruned != 3 {
		t.Errorf("live deliveries %d (want 5), %d without their pruned event (want 3)", len(ds), pruned)
	}
	// Prune by age.
	must(t, s.Prune(bg, time.Now(), time.Now().Add(time.Hour), 100))
	if oldest, _, _ := s.Bounds(bg); oldest != 0 {
		t.Errorf("events older than the cutoff kept: oldest %d", oldest)
	}
}

func feedEvent(name string, i int) *mcpgen.EventRecord {
	return &mcpgen.EventRecord{ID: fmt.Sprintf("evt_%s_%d", name, i), Name: name, Time: time.Now().UTC(), Data: json.RawMessage(fmt.Sprintf(`{"i":%d}`, i))}
}

// testFeed: AppendFeed moves the cursor with its events, atomically, and
// only forward.
func testFeed(t *testing.T, s mcpgen.EventStore) {
	if at, ok, err := s.FeedCursor(bg, "g"); err != nil || ok || at != 0 {
		t.Fatalf("new feed: cursor %d %v %v, want none", at, ok, err)
	}
	must(t, s.SaveSubscription(bg, sub("s1", "f", "alice")))
	must(t, s.AppendFeed(bg, "g", 0, 3, []*mcpgen.EventRecord{feedEvent("f", 1), feedEvent("f", 2)}, [][]string{{"s1"}, nil}))
	if at, ok, err := s.FeedCursor(bg, "g"); err != nil || !ok || at != 3 {
		t.Fatalf("cursor %d %v %v, want 3", at, ok, err)
	}
	for _, r := range [][2]int64{{3, 3}, {3, 2}, {0, 4}, {2, 5}} {
		// Not past the cursor, or from a cursor it has left: a pass that
		// read 0 or 2 and saw more changes than the one that moved it to
		// 3 would tell 1..3 again.
		err := s.AppendFeed(bg, "g", r[0], r[1], []*mcpgen.EventRecord{feedEvent("f", 9)}, [][]string{{"s1"}})
		if !errors.Is(err, mcpgen.ErrFeedRecorded) {
			t.Fatalf("AppendFeed from %d to %d with the cursor at 3: %v, want ErrFeedRecorded", r[0], r[1], err)
		}
	}
	must(t, s.AppendFeed(bg, "g", 3, 5, nil, nil)) // positions without events
	must(t, s.AppendFeed(bg, "other", 0, 1, []*mcpgen.EventRecord{feedEvent("f", 3)}, [][]string{nil}))
	if at, _, _ := s.FeedCursor(bg, "g"); at != 5 {
		t.Errorf("cursor %d after an empty append to 5", at)
	}
	evs, err := s.Events(bg, "f", "", 0, 1<<62, 100)
	must(t, err)
	var got []string
	for _, e := range evs {
		got = append(got, string(e.Data))
	}
	if fmt.Sprint(got) != `[{"i":1} {"i":2} {"i":3}]` {
		t.Errorf("events %v: a refused append must store nothing", got)
	}
	ds, err := s.Claim(bg, "r1", time.Now().Add(time.Second), time.Minute, 10)
	must(t, err)
	if len(ds) != 1 || ds[0].Subscription != "s1" || ds[0].Event == nil || string(ds[0].Event.Data) != `{"i":1}` {
		t.Errorf("deliveries %+v, want the first event's to s1 only", ds)
	}
}

// testFeedRace: passes racing over one feed (replicas, or goroutines)
// record each position's events once.
func testFeedRace(t *testing.T, s mcpgen.EventStore) {
	const passes, positions = 4, 25
	var wg sync.WaitGroup
	errs := make(chan error, passes)
	for range passes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for at := int64(1); at <= positions; at++ {
				err := s.AppendFeed(bg, "race", at-1, at, []*mcpgen.EventRecord{feedEvent("r", int(at))}, [][]string{nil})
				if err != nil && !errors.Is(err, mcpgen.ErrFeedRecorded) {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	evs, err := s.Events(bg, "r", "", 0, 1<<62, 1000)
	must(t, err)
	if len(evs) != positions {
		t.Fatalf("%d events recorded for %d positions by %d racing passes", len(evs), positions, passes)
	}
	for i, e := range evs {
		if want := fmt.Sprintf(`{"i":%d}`, i+1); string(e.Data) != want {
			t.Fatalf("event %d is %s, want %s: positions out of order", i, e.Data, want)
		}
	}
}

// testConcurrentAppends: appends made at once (which a store may commit
// together) each get their own position and their own deliveries, and
// the log holds every one in position order.
func testConcurrentAppends(t *testing.T, s mcpgen.EventStore) {
	must(t, s.SaveSubscription(bg, sub("s1", "a", "alice")))
	const writers, each = 8, 15
	var wg sync.WaitGroup
	errs := make(chan error, writers*each)
	var mu sync.Mutex
	byID := map[string]int64{}
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				id := fmt.Sprintf("evt_%d_%d", w, i)
				var to []string
				if i%3 == 0 {
					to = []string{"s1"}
				}
				e := &mcpgen.EventRecord{ID: id, Name: "a", Time: time.Now().UTC(), Data: json.RawMessage(fmt.Sprintf(`{"w":%d,"i":%d}`, w, i))}
				if err := s.Append(bg, e, to); err != nil {
					errs <- err
					return
				}
				mu.Lock()
				byID[id] = e.Seq
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	seqs := map[int64]bool{}
	for id, seq := range byID {
		if seq <= 0 || seqs[seq] {
			t.Fatalf("%s got position %d, zero or given twice", id, seq)
		}
		seqs[seq] = true
	}
	_, newest, err := s.Bounds(bg)
	must(t, err)
	got, err := s.Events(bg, "a", "", 0, newest, writers*each+1)
	must(t, err)
	if len(got) != writers*each {
		t.Fatalf("%d events in the log, want %d", len(got), writers*each)
	}
	for i, e := range got {
		if byID[e.ID] != e.Seq || (i > 0 && e.Seq <= got[i-1].Seq) {
			t.Fatalf("event %s at %d in the log, its Append said %d (or out of order)", e.ID, e.Seq, byID[e.ID])
		}
	}
	ds, err := s.Claim(bg, "r1", time.Now(), time.Minute, writers*each)
	must(t, err)
	if want := writers * ((each + 2) / 3); len(ds) != want {
		t.Fatalf("%d deliveries owed, want %d", len(ds), want)
	}
	for _, d := range ds {
		var w, i int
		if d.Event == nil || byID[d.Event.ID] != d.Seq {
			t.Fatalf("delivery of the wrong event: %+v", d)
		}
		if _, err := fmt.Sscanf(d.Event.ID, "evt_%d_%d", &w, &i); err != nil || i%3 != 0 {
			t.Fatalf("delivery of the wrong event: %+v", d)
		}
	}
}

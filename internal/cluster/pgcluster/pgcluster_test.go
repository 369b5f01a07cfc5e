package pgcluster_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"github.com/mcpgen/mcpgen/internal/cluster"
	"github.com/mcpgen/mcpgen/internal/cluster/clustertest"
	"github.com/mcpgen/mcpgen/internal/cluster/pgcluster"
	"github.com/mcpgen/mcpgen/internal/testutil/pgtest"
)

func open(t testing.TB, url string, log *zap.Logger) *pgcluster.Backend {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	b, err := pgcluster.Open(ctx, url, log)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Close() })
	return b
}

func TestContract(t *testing.T) {
	url, schema := pgtest.URL(t, "pgcluster")
	conn := pgtest.Connect(t)
	defer conn.Close(context.Background())
	clustertest.Run(t, clustertest.Store{
		Replica: func(t *testing.T) cluster.Backend { return open(t, url, nil) },
		ExpireLeases: func(t *testing.T) {
			if _, err := conn.Exec(context.Background(), `UPDATE "`+schema+`".mcp_tasks SET lease = now() - interval '1 second'`); err != nil {
				t.Fatal(err)
			}
		},
	})
}

// TestOpenUnreachable: a replica that cannot reach the database fails to
// start with a message naming the URL without its password.
func TestOpenUnreachable(t *testing.T) {
	_, err := pgcluster.Open(context.Background(), "postgres://app:s3cret@127.0.0.1:1/db?sslmode=disable", nil)
	if err == nil {
		t.Fatal("Open succeeded against a closed port")
	}
	msg := err.Error()
	if strings.Contains(msg, "s3cret") || !strings.Contains(msg, "postgres://app:xxxxx@127.0.0.1:1/db") || !errors.Is(err, cluster.ErrUnavailable) {
		t.Fatalf("error %q: want the URL without the password, wrapping ErrUnavailable", msg)
	}
	if _, err := pgcluster.Open(context.Background(), "mysql://x@y/z", nil); err == nil || !strings.Contains(err.Error(), "postgres://") {
		t.Fatalf("a non-PostgreSQL URL: %v", err)
	}
}

// TestOutage cuts the connection to the database: calls fail with
// ErrUnavailable, the outage is logged once, and the backend recovers by
// itself when the connection is restored, telling subscribers that
// messages may have been lost.
func TestOutage(t *testing.T) {
	url, _ := pgtest.URL(t, "outage")
	cut := pgtest.NewCut(t)
	core, logs := observer.New(zapcore.InfoLevel)
	b := open(t, cut.Rewrite(url), zap.New(core))
	other := open(t, url, nil) // a replica that keeps its connection
	lost := make(chan struct{}, 4)
	got := make(chan string, 16)
	defer b.Subscribe("t/", func(m cluster.Message) {
		if m.Lost {
			lost <- struct{}{}
		} else {
			got <- string(m.Payload)
		}
	})()
	ctx := context.Background()
	s := cluster.Session{ID: "s-" + cluster.NewID(), Version: "2025-11-25", Created: time.Now(), Expires: time.Now().Add(time.Hour)}
	if err := b.CreateSession(ctx, s); err != nil {
		t.Fatal(err)
	}

	cut.Down()
	for i := 0; i < 3; i++ {
		if _, err := b.LoadSession(ctx, s.ID); !errors.Is(err, cluster.ErrUnavailable) {
			t.Fatalf("during the outage: %v, want ErrUnavailable", err)
		}
	}
	if err := b.Publish(ctx, "t/x", []byte("lost")); !errors.Is(err, cluster.ErrUnavailable) {
		t.Fatalf("publish during the outage: %v", err)
	}
	if n := logs.FilterMessageSnippet("unreachable").Len(); n != 1 {
		t.Fatalf("the outage was logged %d times, want once", n)
	}

	cut.Up()
	deadline := time.Now().Add(30 * time.Second)
	for {
		_, err := b.LoadSession(ctx, s.ID)
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no recovery after the connection came back: %v", err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	select {
	case <-lost:
	case <-time.After(30 * time.Second):
		t.Fatal("subscribers were not told that messages may have been lost")
	}
	if err := other.Publish(ctx, "t/x", []byte("after")); err != nil {
		t.Fatal(err)
	}
	select {
	case p := <-got:
		if p != "after" {
			t.Fatalf("received %q, want the message published after the outage", p)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the listener did not come back")
	}
	if n := logs.FilterMessageSnippet("unreachable").Len(); n != 1 {
		t.Fatalf("one outage was logged %d times", n)
	}
	if logs.FilterMessageSnippet("reachable again").Len() == 0 {
		t.Fatal("the recovery was not logged")
	}
}

// TestIDsThatCannotExist: PostgreSQL refuses text that is not valid UTF-8
// or holds a NUL byte (SQLSTATE 22021). Such an id, which a client can
// send as Mcp-Session-Id or a task id, was reported as a failed query,
// which the runtime answers as an outage (503, retry); it names no
// session or task, so the lookups answer ErrNotFound, and delete says it
// did not exist.
func TestIDsThatCannotExist(t *testing.T) {
	url, _ := pgtest.URL(t, "pgcluster")
	b := open(t, url, nil)
	ctx := context.Background()
	for _, id := range []string{"\xff\xfe", "a\x00b"} {
		if _, err := b.LoadSession(ctx, id); !errors.Is(err, cluster.ErrNotFound) {
			t.Errorf("LoadSession(%q): %v, want ErrNotFound", id, err)
		}
		if err := b.TouchSession(ctx, id, time.Now().Add(time.Minute)); !errors.Is(err, cluster.ErrNotFound) {
			t.Errorf("TouchSession(%q): %v, want ErrNotFound", id, err)
		}
		if _, err := b.UpdateSession(ctx, id, cluster.SessionUpdate{LogLevel: "info"}); !errors.Is(err, cluster.ErrNotFound) {
			t.Errorf("UpdateSession(%q): %v, want ErrNotFound", id, err)
		}
		if ok, err := b.DeleteSession(ctx, id); ok || err != nil {
			t.Errorf("DeleteSession(%q): %v %v, want false, nil", id, ok, err)
		}
		if _, err := b.LoadTask(ctx, id); !errors.Is(err, cluster.ErrNotFound) {
			t.Errorf("LoadTask(%q): %v, want ErrNotFound", id, err)
		}
	}
}

// TestPublishConcurrently: many goroutines publishing at once through one
// replica (so that their messages share NOTIFYs) reach another replica
// each once, each goroutine's in the order it published them, a payload
// too large for a NOTIFY among them.
func TestPublishConcurrently(t *testing.T) {
	url, _ := pgtest.URL(t, "publish")
	a, b := open(t, url, nil), open(t, url, nil)
	const writers, each = 16, 40
	got := make(chan cluster.Message, writers*each)
	defer b.Subscribe("p/", func(m cluster.Message) { got <- m })()
	large := strings.Repeat("y", 9000)
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				payload := fmt.Sprintf("%d %d", w, i)
				if w == 0 && i == each/2 {
					payload += " " + large
				}
				if err := a.Publish(context.Background(), "p/x", []byte(payload)); err != nil {
					t.Errorf("publish %s: %v", payload, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	next := make([]int, writers)
	timeout := time.After(30 * time.Second)
	for n := 0; n < writers*each; n++ {
		select {
		case m := <-got:
			var w, i int
			if _, err := fmt.Sscanf(string(m.Payload), "%d %d", &w, &i); err != nil || m.Origin != a.ID() || m.Topic != "p/x" {
				t.Fatalf("message %q from %s on %s", m.Payload, m.Origin, m.Topic)
			}
			if i != next[w] {
				t.Fatalf("writer %d: message %d arrived, want %d", w, i, next[w])
			}
			if w == 0 && i == each/2 && !strings.HasSuffix(string(m.Payload), large) {
				t.Fatalf("the large payload arrived as %d bytes", len(m.Payload))
			}
			next[w]++
		case <-timeout:
			t.Fatalf("%d of %d messages arrived; per writer %v", n, writers*each, next)
		}
	}
	st := a.PublishStats()
	if st.Messages != writers*each || st.Merged != 0 || st.Notifies < 1 || st.Notifies > st.Messages {
		t.Fatalf("stats %+v: want %d messages, none merged, at most one NOTIFY each", st, writers*each)
	}
	t.Logf("%d messages in %d NOTIFYs, %d bytes", st.Messages, st.Notifies, st.Bytes)
}

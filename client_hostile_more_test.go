package mcpgen_test

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"iter"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen"
)

// The hostile-server suite for what the client follows beyond one call:
// log messages, subscriptions and tasks (see client_hostile_test.go for
// the bounds and helpers).

// lastErr runs an iterator to its end and returns its error, if any.
func lastErr[T any](seq iter.Seq2[T, error]) error {
	for _, err := range seq {
		if err != nil {
			return err
		}
	}
	return nil
}

// sse starts an SSE answer and returns its writer.
func sse(w http.ResponseWriter) *bufio.Writer {
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	return bufio.NewWriterSize(w, 64<<10)
}

// TestHostileClientLogFlood: the answer to a call carries 200,000 log
// messages (about 30 MB) before its result. OnLog gets each one as it is
// read, the call returns its result, and the client holds none of them:
// the heap stays within the suite's bound.
func TestHostileClientLogFlood(t *testing.T) {
	const flood = 200_000
	srv := serveMCP(t, false, func(w http.ResponseWriter, r *http.Request, m rpc) {
		if m.Method != "tools/call" {
			writeJSON(w, m.ID, `{}`)
			return
		}
		bw := sse(w)
		pad := strings.Repeat("x", 80)
		for i := range flood {
			fmt.Fprintf(bw, "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":\"info\",\"data\":\"%d %s\"}}\n\n", i, pad)
		}
		fmt.Fprintf(bw, "data: {\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":%s}\n\n", m.ID, textResult)
		bw.Flush()
	})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var logs atomic.Int64
	c := connect(t, ctx, srv.URL, mcpgen.ClientOptions{OnLog: func(m mcpgen.LogMessage) {
		if m.Level == "info" {
			logs.Add(1)
		}
	}})
	defer c.Close()
	if err := c.SetLogLevel(ctx, "debug"); err != nil {
		t.Fatal(err)
	}
	attack(t, cancel, srv.conns.Load, func() {
		if _, err := c.CallTool(ctx, "noisy", nil); err != nil {
			t.Errorf("call: %v", err)
		}
	})
	if n := logs.Load(); n != flood {
		t.Errorf("OnLog got %d messages, want %d", n, flood)
	}
}

// taskServer answers tools/call with a task and tasks/get with what view
// returns for the n-th poll; it counts the tasks/cancel it receives.
func taskServer(t *testing.T, view func(n int64) string, cancels *atomic.Int64) *mcpServer {
	var polls atomic.Int64
	return serveMCP(t, false, func(w http.ResponseWriter, r *http.Request, m rpc) {
		switch m.Method {
		case "tools/call":
			writeJSON(w, m.ID, `{"resultType":"task","taskId":"t1","status":"working","pollIntervalMs":0}`)
		case "tasks/get":
			writeJSON(w, m.ID, view(polls.Add(1)))
		case "tasks/cancel":
			cancels.Add(1)
			writeJSON(w, m.ID, `{}`)
		default:
			writeJSON(w, m.ID, `{}`)
		}
	})
}

// TestHostileClientEndlessTask: a task that never ends, and one that asks
// a new question at every poll. The first is followed until the caller's
// context ends (then CallTool cancels it; TaskResult leaves it running);
// the second is given up after 16 rounds of questions and cancelled,
// whatever the context. Neither makes the client hold more as it goes.
func TestHostileClientEndlessTask(t *testing.T) {
	t.Run("working for ever", func(t *testing.T) {
		var cancels atomic.Int64
		srv := taskServer(t, func(int64) string {
			return `{"resultType":"complete","taskId":"t1","status":"working","pollIntervalMs":0}`
		}, &cancels)
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		c := connect(t, ctx, srv.URL, mcpgen.ClientOptions{})
		defer c.Close()
		attack(t, cancel, srv.conns.Load, func() {
			cctx, stop := context.WithTimeout(ctx, time.Second)
			defer stop()
			if _, err := c.CallTool(cctx, "slow", nil); !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("call: %v, want the context's deadline", err)
			}
			rctx, stop2 := context.WithTimeout(ctx, 500*time.Millisecond)
			defer stop2()
			if _, err := c.TaskResult(rctx, "t1"); !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("TaskResult: %v, want the context's deadline", err)
			}
		})
		if n := cancels.Load(); n != 1 {
			t.Errorf("%d tasks/cancel, want 1 (CallTool's; TaskResult leaves the task)", n)
		}
	})
	t.Run("questions for ever", func(t *testing.T) {
		var cancels atomic.Int64
		srv := taskServer(t, func(n int64) string {
			return fmt.Sprintf(`{"resultType":"complete","taskId":"t1","status":"input_required","pollIntervalMs":0,"inputRequests":{"q%d":{"method":"roots/list","params":{}}}}`, n)
		}, &cancels)
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		var asked atomic.Int64
		c := connect(t, ctx, srv.URL, mcpgen.ClientOptions{Roots: func(context.Context) ([]mcpgen.Root, error) {
			asked.Add(1)
			return nil, nil
		}})
		defer c.Close()
		attack(t, cancel, srv.conns.Load, func() {
			if _, err := c.CallTool(ctx, "curious", nil); err == nil || !strings.Contains(err.Error(), "asked for input 16 times") {
				t.Errorf("call: %v, want the task given up after 16 rounds", err)
			}
		})
		if n := asked.Load(); n != 16 {
			t.Errorf("the handler answered %d questions, want 16", n)
		}
		if n := cancels.Load(); n != 1 {
			t.Errorf("%d tasks/cancel, want 1", n)
		}
	})
}

// TestHostileClientListen: a subscriptions/listen that the server never
// acknowledges fails when the caller's context ends, leaving nothing
// running; one acknowledged and then flooded with 100,000 notifications
// hands each to the subscription as it is read, holds none, and ends
// with Close.
func TestHostileClientListen(t *testing.T) {
	t.Run("never acknowledged", func(t *testing.T) {
		srv := serveMCP(t, false, func(w http.ResponseWriter, r *http.Request, m rpc) {
			if m.Method != "subscriptions/listen" {
				writeJSON(w, m.ID, `{}`)
				return
			}
			sse(w).Flush()
			w.(http.Flusher).Flush()
			<-r.Context().Done()
		})
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		c := connect(t, ctx, srv.URL, mcpgen.ClientOptions{})
		defer c.Close()
		attack(t, cancel, srv.conns.Load, func() {
			lctx, stop := context.WithTimeout(ctx, 500*time.Millisecond)
			defer stop()
			if _, err := c.Listen(lctx, mcpgen.ListenFilter{ToolsListChanged: true}, nil); !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("listen: %v, want the context's deadline", err)
			}
		})
	})
	t.Run("flooded", func(t *testing.T) {
		const flood = 100_000
		srv := serveMCP(t, false, func(w http.ResponseWriter, r *http.Request, m rpc) {
			if m.Method != "subscriptions/listen" {
				writeJSON(w, m.ID, `{}`)
				return
			}
			bw := sse(w)
			fmt.Fprintf(bw, "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/subscriptions/acknowledged\",\"params\":{\"_meta\":{\"io.modelcontextprotocol/subscriptionId\":%s},\"notifications\":{\"resourceSubscriptions\":[\"u:1\"]}}}\n\n", m.ID)
			for range flood {
				fmt.Fprintf(bw, "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/resources/updated\",\"params\":{\"_meta\":{\"io.modelcontextprotocol/subscriptionId\":%s},\"uri\":\"u:1\"}}\n\n", m.ID)
			}
			bw.Flush()
			<-r.Context().Done()
		})
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		c := connect(t, ctx, srv.URL, mcpgen.ClientOptions{})
		defer c.Close()
		var got atomic.Int64
		all := make(chan struct{})
		attack(t, cancel, srv.conns.Load, func() {
			sub, err := c.Subscribe(ctx, "u:1", func(string) {
				if got.Add(1) == flood {
					close(all)
				}
			})
			if err != nil {
				t.Fatalf("subscribe: %v", err)
			}
			select {
			case <-all:
			case <-ctx.Done():
				t.Errorf("%d of %d notifications delivered", got.Load(), flood)
			}
			if err := sub.Close(); err != nil {
				t.Errorf("close: %v", err)
			}
		})
	})
}

// TestHostileClientManyQuestions: an input_required round of more than
// 32 questions is refused before any reaches a handler; 32 are answered.
func TestHostileClientManyQuestions(t *testing.T) {
	for _, n := range []int{32, 33, 5000} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			srv := serveMCP(t, false, func(w http.ResponseWriter, r *http.Request, m rpc) {
				if bytes.Contains(m.Params, []byte(`"inputResponses"`)) {
					writeJSON(w, m.ID, textResult)
					return
				}
				var qs strings.Builder
				for i := range n {
					if i > 0 {
						qs.WriteByte(',')
					}
					fmt.Fprintf(&qs, `"q%d":{"method":"roots/list","params":{}}`, i)
				}
				writeJSON(w, m.ID, `{"resultType":"input_required","inputRequests":{`+qs.String()+`}}`)
			})
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			var asked atomic.Int64
			c := connect(t, ctx, srv.URL, mcpgen.ClientOptions{Roots: func(context.Context) ([]mcpgen.Root, error) {
				asked.Add(1)
				return nil, nil
			}})
			defer c.Close()
			_, err := c.CallTool(ctx, "curious", nil)
			if n <= 32 {
				if err != nil || asked.Load() != int64(n) {
					t.Fatalf("call: %v after %d answers, want done after %d", err, asked.Load(), n)
				}
				return
			}
			if !errors.Is(err, mcpgen.ErrUnexpectedResult) || !strings.Contains(err.Error(), fmt.Sprintf("asked %d questions at once", n)) {
				t.Errorf("call: %v, want the round refused", err)
			}
			if a := asked.Load(); a != 0 {
				t.Errorf("the handler answered %d questions, want none", a)
			}
		})
	}
}

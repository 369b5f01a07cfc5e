package interop_test

import (
	"encoding/json"
	"errors"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/mcpgen/mcpgen"
)

// TestTypeScriptClientFeatures drives a server written with the
// TypeScript SDK's low-level Server (testdata/features.mjs, over stdio)
// with what the client offers beyond calls: the log level
// (logging/setLevel) and the log messages at or above it, a subscription
// to a resource (resources/subscribe, its updates, resources/unsubscribe
// on Close), and the tool list page by page and through the iterator.
// The server speaks the legacy revisions only.
func TestTypeScriptClientFeatures(t *testing.T) {
	tl := needTools(t)
	t.Parallel()
	script, err := filepath.Abs(filepath.Join("testdata", "features.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	esm := filepath.Dir(filepath.Dir(tl.examples)) // the SDK's dist/esm
	for _, era := range eras {
		t.Run(eraName(era.ask), func(t *testing.T) {
			var mu sync.Mutex
			var logs []string
			opts := mcpgen.ClientOptions{OnLog: func(m mcpgen.LogMessage) {
				var s string
				json.Unmarshal(m.Data, &s)
				mu.Lock()
				logs = append(logs, m.Level+" "+m.Logger+": "+s)
				mu.Unlock()
			}}
			c := connect(t, mcpgen.CommandTransport(tl.node, script, esm), opts, era.ask, era.want)
			ctx := testContext(t)
			takeLogs := func() []string {
				mu.Lock()
				defer mu.Unlock()
				out := logs
				logs = nil
				return out
			}

			if err := c.SetLogLevel(ctx, "info"); err != nil {
				t.Fatalf("set log level: %v", err)
			}
			var updated []string
			sub, err := c.Subscribe(ctx, "file:///a.txt", func(uri string) {
				mu.Lock()
				updated = append(updated, uri)
				mu.Unlock()
			})
			if err != nil {
				t.Fatalf("subscribe: %v", err)
			}
			for _, uri := range []string{"file:///b.txt", "file:///a.txt"} {
				if _, err := c.CallTool(ctx, "touch", map[string]string{"uri": uri}); err != nil {
					t.Fatalf("touch %s: %v", uri, err)
				}
			}
			// On stdio the notifications come before the call's answer.
			if got, want := takeLogs(), []string{"info touch: touched file:///b.txt", "info touch: touched file:///a.txt"}; !slices.Equal(got, want) {
				t.Errorf("logs %q, want %q", got, want)
			}
			mu.Lock()
			if !slices.Equal(updated, []string{"file:///a.txt"}) {
				t.Errorf("updates %q, want only file:///a.txt", updated)
			}
			mu.Unlock()
			if err := sub.Close(); err != nil {
				t.Errorf("close: %v", err)
			}
			if _, err := c.CallTool(ctx, "touch", map[string]string{"uri": "file:///a.txt"}); err != nil {
				t.Fatal(err)
			}
			mu.Lock()
			if len(updated) != 1 {
				t.Errorf("updates after unsubscribing: %q", updated)
			}
			mu.Unlock()
			if _, err := c.Subscribe(ctx, "file:///none.txt", nil); err == nil {
				t.Errorf("subscribing to an unknown resource succeeded")
			}

			var paged [][]string
			for cursor := ""; ; {
				tools, next, err := c.ListToolsPage(ctx, cursor)
				if err != nil {
					t.Fatalf("page at %q: %v", cursor, err)
				}
				paged = append(paged, toolNamesInOrder(tools))
				if next == "" {
					break
				}
				cursor = next
			}
			if want := [][]string{{"one", "two"}, {"three", "four"}, {"five", "touch"}}; !slices.EqualFunc(paged, want, slices.Equal) {
				t.Errorf("pages %q, want %q", paged, want)
			}
			var all []string
			for tool, err := range c.Tools(ctx) {
				if err != nil {
					t.Fatal(err)
				}
				all = append(all, tool.Name)
			}
			if !slices.Equal(all, slices.Concat(paged...)) {
				t.Errorf("iterator %q", all)
			}
		})
	}
}

func toolNamesInOrder(tools []mcpgen.ToolInfo) []string {
	var names []string
	for _, x := range tools {
		names = append(names, x.Name)
	}
	return names
}

// TestTypeScriptTasks runs a task-augmented call (2025-11-25 tasks) on
// the TypeScript SDK's simpleStreamableHttp.js: its delay tool answers
// tools/call with a task, tasks/get reports it, tasks/result waits for
// the tool's result; a long one is cancelled.
func TestTypeScriptTasks(t *testing.T) {
	tl := needTools(t)
	t.Parallel()
	url := exampleHTTP(t, tl, "simpleStreamableHttp.js")
	c := connect(t, mcpgen.HTTPTransport(url), mcpgen.ClientOptions{}, "", "2025-11-25")
	ctx := testContext(t)
	task, err := c.StartToolTask(ctx, "delay", map[string]int{"duration": 300})
	if err != nil {
		t.Fatalf("start: %v", err)
	}
	if task.ID() == "" || task.Started().Status != "working" {
		t.Fatalf("started %+v", task.Started())
	}
	st, err := task.Get(ctx)
	if err != nil || st.TaskID != task.ID() {
		t.Errorf("get: %+v, %v", st, err)
	}
	res, err := task.Result(ctx)
	if err != nil || text(res.Content) != "Completed 300ms delay" {
		t.Fatalf("result: %+v, %v", res, err)
	}
	if st, err := c.GetTask(ctx, task.ID()); err != nil || st.Status != "completed" {
		t.Errorf("after the result: %+v, %v", st, err)
	}

	long, err := c.StartToolTask(ctx, "delay", map[string]int{"duration": 60000})
	if err != nil {
		t.Fatalf("start: %v", err)
	}
	if err := long.Cancel(ctx); err != nil {
		t.Fatalf("cancel: %v", err)
	}
	if st, err := c.GetTask(ctx, long.ID()); err != nil || st.Status != "cancelled" {
		t.Errorf("after cancel: %+v, %v", st, err)
	}
	var pe *mcpgen.ProtocolError
	if _, err := c.GetTask(ctx, "no-such-task"); !errors.As(err, &pe) {
		t.Errorf("unknown task: %v, want a *ProtocolError", err)
	}
}

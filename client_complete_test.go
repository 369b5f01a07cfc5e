package mcpgen_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen"
	"github.com/mcpgen/mcpgen/generated/everything"
)

// These tests drive what the public client adds to calling: log levels
// and log messages, subscriptions, tasks and paging, against the
// everything server (mcp-everything's components) in both eras, in memory
// and over HTTP (and over stdio where the test needs no hold of the
// server).

// everythingClients connects to one everything server made with opts in
// memory and over HTTP, in both eras, and runs f with each client and the
// server.
func everythingClients(t *testing.T, sopts mcpgen.Options, copts mcpgen.ClientOptions, f func(t *testing.T, srv *mcpgen.Server, c *mcpgen.Client)) {
	t.Helper()
	srv := everything.New(sopts)
	hs := httptest.NewServer(mcpgen.HTTPHandler(srv, mcpgen.HTTPOptions{}))
	t.Cleanup(func() {
		hs.Close()
		srv.Close()
	})
	transports := []struct {
		name string
		mk   func() mcpgen.ClientTransport
	}{
		{"memory", func() mcpgen.ClientTransport { return mcpgen.InMemoryTransport(srv) }},
		{"http", func() mcpgen.ClientTransport { return mcpgen.HTTPTransport(hs.URL) }},
	}
	for _, tr := range transports {
		for _, version := range []string{"", "2025-11-25"} {
			era := mcpgen.LatestVersion
			if version != "" {
				era = version
			}
			t.Run(tr.name+"/"+era, func(t *testing.T) {
				ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
				defer cancel()
				o := copts
				o.ProtocolVersion = version
				c, err := mcpgen.Connect(ctx, tr.mk(), o)
				if err != nil {
					t.Fatalf("connect: %v", err)
				}
				defer c.Close()
				if c.ProtocolVersion() != era {
					t.Fatalf("protocol version %q, want %q", c.ProtocolVersion(), era)
				}
				f(t, srv, c)
			})
		}
	}
}

// logSink collects the log messages of OnLog.
type logSink struct {
	mu   sync.Mutex
	logs []mcpgen.LogMessage
}

func (s *logSink) add(m mcpgen.LogMessage) {
	s.mu.Lock()
	s.logs = append(s.logs, m)
	s.mu.Unlock()
}

func (s *logSink) take() []mcpgen.LogMessage {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := s.logs
	s.logs = nil
	return out
}

// Without a level the server sends no log message; SetLogLevel asks for
// them (logging/setLevel, or the logLevel of every request's _meta), and
// OnLog receives each, decoded, before the call returns; a level above
// the messages' silences them; WithLogLevel sets one call's level in the
// stateless era; an unknown level is refused before anything is sent.
func TestClientLogLevel(t *testing.T) {
	sink := &logSink{}
	forEachClient(t, mcpgen.ClientOptions{OnLog: sink.add}, func(t *testing.T, c *mcpgen.Client) {
		ctx := context.Background()
		sink.take()
		if _, err := c.CallTool(ctx, "test_tool_with_logging", nil); err != nil {
			t.Fatalf("call: %v", err)
		}
		if got := sink.take(); len(got) != 0 {
			t.Errorf("without a level the server sent %d log messages: %+v", len(got), got)
		}
		if err := c.SetLogLevel(ctx, "info"); err != nil {
			t.Fatalf("set level: %v", err)
		}
		if c.LogLevel() != "info" {
			t.Errorf("LogLevel() = %q", c.LogLevel())
		}
		if _, err := c.CallTool(ctx, "test_tool_with_logging", nil); err != nil {
			t.Fatalf("call: %v", err)
		}
		got := sink.take()
		var data []string
		for _, m := range got {
			var s string
			if err := json.Unmarshal(m.Data, &s); err != nil || m.Level != "info" || m.Logger != "test_tool_with_logging" {
				t.Errorf("log message %+v", m)
			}
			data = append(data, s)
		}
		want := []string{"Tool execution started", "Tool processing data", "Tool execution completed"}
		if !slices.Equal(data, want) {
			t.Errorf("logs %q, want %q", data, want)
		}
		if err := c.SetLogLevel(ctx, "error"); err != nil {
			t.Fatalf("set level: %v", err)
		}
		if _, err := c.CallTool(ctx, "test_tool_with_logging", nil); err != nil {
			t.Fatalf("call: %v", err)
		}
		if got := sink.take(); len(got) != 0 {
			t.Errorf("at level error the server sent %d info messages", len(got))
		}
		if c.ProtocolVersion() == mcpgen.LatestVersion {
			if _, err := c.CallTool(mcpgen.WithLogLevel(ctx, "debug"), "test_logging_tool", nil); err != nil {
				t.Fatalf("call: %v", err)
			}
			if got := sink.take(); len(got) != 1 {
				t.Errorf("WithLogLevel(debug): %d messages, want 1", len(got))
			}
		}
		if err := c.SetLogLevel(ctx, "loud"); !errors.Is(err, mcpgen.ErrInvalidParams) {
			t.Errorf("unknown level: %v, want ErrInvalidParams", err)
		}
		if _, err := c.CallTool(mcpgen.WithLogLevel(ctx, "loud"), "test_logging_tool", nil); c.ProtocolVersion() == mcpgen.LatestVersion && !errors.Is(err, mcpgen.ErrInvalidParams) {
			t.Errorf("unknown WithLogLevel: %v, want ErrInvalidParams", err)
		}
	})
}

// noteSink collects the notifications of a subscription.
type noteSink struct {
	mu  sync.Mutex
	got []mcpgen.Notification
	ch  chan struct{}
}

func newNotes() *noteSink { return &noteSink{ch: make(chan struct{}, 100)} }

func (n *noteSink) add(x mcpgen.Notification) {
	n.mu.Lock()
	n.got = append(n.got, x)
	n.mu.Unlock()
	select {
	case n.ch <- struct{}{}:
	default:
	}
}

// wait waits until a notification of method arrived, and returns it.
func (n *noteSink) wait(t *testing.T, method string) mcpgen.Notification {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		n.mu.Lock()
		for i, x := range n.got {
			if x.Method == method {
				n.got = slices.Delete(n.got, i, i+1)
				n.mu.Unlock()
				return x
			}
		}
		n.mu.Unlock()
		select {
		case <-n.ch:
		case <-deadline:
			t.Fatalf("no %s within 10 s", method)
		}
	}
}

func (n *noteSink) methods() []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	var m []string
	for _, x := range n.got {
		m = append(m, x.Method)
	}
	return m
}

// Listen subscribes in both eras: a resource's updates and the tool list's
// changes reach the subscription (subscriptions/listen, or
// resources/subscribe and the session's own notifications); another
// resource's updates do not; after Close nothing more arrives, and a
// legacy session is unsubscribed.
func TestClientListen(t *testing.T) {
	const watched = "test://watched-resource"
	everythingClients(t, mcpgen.Options{}, mcpgen.ClientOptions{}, func(t *testing.T, srv *mcpgen.Server, c *mcpgen.Client) {
		ctx := context.Background()
		got := newNotes()
		sub, err := c.Listen(ctx, mcpgen.ListenFilter{ToolsListChanged: true, ResourceSubscriptions: []string{watched}}, got.add)
		if err != nil {
			t.Fatalf("listen: %v", err)
		}
		if f := sub.Filter(); !f.ToolsListChanged || !slices.Equal(f.ResourceSubscriptions, []string{watched}) {
			t.Errorf("acknowledged filter %+v", f)
		}
		srv.ResourceUpdated("test://static-text")
		srv.ResourceUpdated(watched)
		if u := got.wait(t, "notifications/resources/updated").ResourceURI(); u != watched {
			t.Errorf("updated %q, want %q", u, watched)
		}
		if _, err := c.CallTool(ctx, "test_trigger_tool_change", nil); err != nil {
			t.Fatalf("trigger: %v", err)
		}
		got.wait(t, "notifications/tools/list_changed")
		if m := got.methods(); len(m) != 0 {
			t.Errorf("notifications not asked for: %v", m)
		}
		if err := sub.Close(); err != nil {
			t.Errorf("close: %v", err)
		}
		<-sub.Done()
		if err := sub.Err(); err != nil {
			t.Errorf("Err after Close: %v", err)
		}
		srv.ResourceUpdated(watched)
		// A second subscription shows that the first one's would have
		// arrived by now.
		again := newNotes()
		sub2, err := c.Subscribe(ctx, watched, func(uri string) {
			again.add(mcpgen.Notification{Method: "updated", Params: json.RawMessage(`"` + uri + `"`)})
		})
		if err != nil {
			t.Fatalf("subscribe: %v", err)
		}
		defer sub2.Close()
		srv.ResourceUpdated(watched)
		again.wait(t, "updated")
		if m := got.methods(); len(m) != 0 {
			t.Errorf("notifications after Close: %v", m)
		}
	})
}

// A legacy session's Listen fails with the server's error when it cannot
// subscribe; a stateless server trims what it cannot send from the
// acknowledged filter.
func TestClientListenRefused(t *testing.T) {
	everythingClients(t, mcpgen.Options{}, mcpgen.ClientOptions{}, func(t *testing.T, srv *mcpgen.Server, c *mcpgen.Client) {
		ctx := context.Background()
		sub, err := c.Listen(ctx, mcpgen.ListenFilter{TaskIDs: []string{"no-such-task"}}, nil)
		if err != nil {
			t.Fatalf("listen: %v", err)
		}
		defer sub.Close()
		if c.ProtocolVersion() == mcpgen.LatestVersion && len(sub.Filter().TaskIDs) != 0 {
			t.Errorf("a server without tasks acknowledged task ids: %+v", sub.Filter())
		}
	})
}

// A task-augmented call in the stateless era: StartToolTask returns the
// task at once, Get follows it, Listen receives its status
// notifications, Result waits for the tool's result; Cancel stops
// another; a tool that does not run as a task answers at once. In a
// legacy session, where this server runs no tasks, StartToolTask says so.
func TestClientTaskHandles(t *testing.T) {
	everythingClients(t, mcpgen.Options{Tasks: true}, mcpgen.ClientOptions{}, func(t *testing.T, srv *mcpgen.Server, c *mcpgen.Client) {
		ctx := context.Background()
		if c.ProtocolVersion() != mcpgen.LatestVersion {
			if _, err := c.StartToolTask(ctx, "slow_compute", map[string]any{"seconds": 0}); err == nil || !strings.Contains(err.Error(), "tasks.requests.tools.call") {
				t.Errorf("legacy task: %v", err)
			}
			return
		}
		task, err := c.StartToolTask(ctx, "slow_compute", map[string]any{"seconds": 1, "label": "sum"})
		if err != nil {
			t.Fatalf("start: %v", err)
		}
		if task.ID() == "" || task.Started().Status != "working" || task.Started().PollInterval <= 0 {
			t.Fatalf("started %+v", task.Started())
		}
		status := newNotes()
		sub, err := c.Listen(ctx, mcpgen.ListenFilter{TaskIDs: []string{task.ID()}}, status.add)
		if err != nil {
			t.Fatalf("listen: %v", err)
		}
		defer sub.Close()
		if !slices.Equal(sub.Filter().TaskIDs, []string{task.ID()}) {
			t.Errorf("acknowledged %+v", sub.Filter())
		}
		st, err := task.Get(ctx)
		if err != nil || st.TaskID != task.ID() {
			t.Fatalf("get: %+v, %v", st, err)
		}
		res, err := task.Result(ctx)
		if err != nil || len(res.Content) == 0 || !strings.Contains(res.Content[0].Text, "Finished sum") {
			t.Fatalf("result: %+v, %v", res, err)
		}
		if n, ok := status.wait(t, "notifications/tasks").Task(); !ok || n.TaskID != task.ID() || n.Status != "completed" {
			t.Errorf("status notification %+v", n)
		}
		res, err = c.TaskResult(ctx, task.ID())
		if err != nil || !strings.Contains(res.Content[0].Text, "Finished sum") {
			t.Errorf("TaskResult again: %+v, %v", res, err)
		}

		long, err := c.StartToolTask(ctx, "slow_compute", map[string]any{"seconds": 600})
		if err != nil {
			t.Fatalf("start: %v", err)
		}
		if err := long.Cancel(ctx); err != nil {
			t.Fatalf("cancel: %v", err)
		}
		if st, err := c.GetTask(ctx, long.ID()); err != nil || st.Status != "cancelled" || !st.Terminal() {
			t.Errorf("after cancel: %+v, %v", st, err)
		}
		if _, err := long.Result(ctx); err == nil || !strings.Contains(err.Error(), "cancelled") {
			t.Errorf("result of a cancelled task: %v", err)
		}

		now, err := c.StartToolTask(ctx, "greet", map[string]any{"name": "Ada"})
		if err != nil || now.ID() != "" {
			t.Fatalf("greet as a task: %+v, %v", now, err)
		}
		res, err = now.Result(ctx)
		if err != nil || res.Content[0].Text != "Hello, Ada!" {
			t.Errorf("greet result: %+v, %v", res, err)
		}
		if _, err := c.GetTask(ctx, "no-such-task"); err == nil {
			t.Errorf("tasks/get of an unknown task succeeded")
		}
	})
}

// Paging: the *Page methods return one page and the cursor of the next,
// the iterators follow them, and both give what the List methods give.
func TestClientPages(t *testing.T) {
	everythingClients(t, mcpgen.Options{PageSize: 3}, mcpgen.ClientOptions{}, func(t *testing.T, srv *mcpgen.Server, c *mcpgen.Client) {
		ctx := context.Background()
		all, err := c.ListTools(ctx)
		if err != nil {
			t.Fatalf("list: %v", err)
		}
		var paged []string
		pages := 0
		for cursor := ""; ; pages++ {
			tools, next, err := c.ListToolsPage(ctx, cursor)
			if err != nil {
				t.Fatalf("page %d: %v", pages, err)
			}
			if len(tools) > 3 {
				t.Errorf("page %d has %d tools", pages, len(tools))
			}
			paged = append(paged, toolNamesOf(tools)...)
			if next == "" {
				break
			}
			cursor = next
		}
		if want := toolNamesOf(all); !slices.Equal(paged, want) || pages < 2 {
			t.Errorf("%d pages gave %v, want %v", pages+1, paged, want)
		}
		var iterated []string
		for tool, err := range c.Tools(ctx) {
			if err != nil {
				t.Fatalf("iterate: %v", err)
			}
			iterated = append(iterated, tool.Name)
		}
		if !slices.Equal(iterated, paged) {
			t.Errorf("iterator gave %v", iterated)
		}
		n := 0
		for range c.Tools(ctx) {
			if n++; n == 4 {
				break
			}
		}
		resources, err := c.ListResources(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var uris []string
		for r, err := range c.Resources(ctx) {
			if err != nil {
				t.Fatal(err)
			}
			uris = append(uris, r.URI)
		}
		if len(uris) != len(resources) || len(uris) == 0 {
			t.Errorf("resources: iterator %d, list %d", len(uris), len(resources))
		}
		prompts, next, err := c.ListPromptsPage(ctx, "")
		if err != nil || len(prompts) != 3 || next == "" {
			t.Errorf("prompts page: %d, %q, %v", len(prompts), next, err)
		}
		if _, _, err := c.ListPromptsPage(ctx, "not-a-cursor"); err == nil {
			t.Errorf("a forged cursor was accepted")
		}
		for _, err := range c.ResourceTemplates(ctx) {
			if err != nil {
				t.Fatal(err)
			}
		}
		for _, err := range c.Prompts(ctx) {
			if err != nil {
				t.Fatal(err)
			}
		}
	})
}

func toolNamesOf(tools []mcpgen.ToolInfo) []string {
	var names []string
	for _, x := range tools {
		names = append(names, x.Name)
	}
	return names
}

// Listen against every transport of the everything server, mcp-everything
// itself over stdio included: the list changes a tool triggers reach a
// subscription that asks for them, and only those (the prompt list's
// change, triggered first on the same stream, does not).
func TestClientListenEveryTransport(t *testing.T) {
	forEachClient(t, mcpgen.ClientOptions{}, func(t *testing.T, c *mcpgen.Client) {
		ctx := context.Background()
		got := newNotes()
		sub, err := c.Listen(ctx, mcpgen.ListenFilter{ToolsListChanged: true}, got.add)
		if err != nil {
			t.Fatalf("listen: %v", err)
		}
		defer sub.Close()
		for _, tool := range []string{"test_trigger_prompt_change", "test_trigger_tool_change"} {
			if _, err := c.CallTool(ctx, tool, nil); err != nil {
				t.Fatalf("%s: %v", tool, err)
			}
		}
		got.wait(t, "notifications/tools/list_changed")
		if m := got.methods(); len(m) != 0 {
			t.Errorf("notifications not asked for: %v", m)
		}
	})
}

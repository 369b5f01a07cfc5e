package gen_test

import (
	"bufio"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// e2eMain serves one of the generated golden servers over stdio; the test
// drives it as an MCP client would. %[1]s is the import path of the
// folder the generated packages were placed in.
const e2eMain = `// Command e2e serves a server generated from a golden case over stdio.
package main

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/mcpgen/mcpgen/gen/testdata/golden/deps/cache"
	"github.com/mcpgen/mcpgen/gen/testdata/golden/deps/store"
	skillscomp "github.com/mcpgen/mcpgen/gen/testdata/golden/skills"
	wirecomp "github.com/mcpgen/mcpgen/gen/testdata/golden/wire"
	"github.com/mcpgen/mcpgen"

	"%[1]s/deps"
	"%[1]s/options"
	"%[1]s/prompts"
	"%[1]s/resources"
	"%[1]s/results"
	"%[1]s/skilled"
	"%[1]s/tasks"
	"%[1]s/viewed"
	"%[1]s/wire"
)

type fixedClock struct{}

func (fixedClock) Now() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) }

func main() {
	var srv *mcpgen.Server
	switch os.Args[1] {
	case "results":
		srv = results.New(mcpgen.Options{})
	case "resources":
		srv = resources.New(mcpgen.Options{})
	case "prompts":
		srv = prompts.New(mcpgen.Options{})
	case "deps":
		srv = deps.New(fixedClock{}, &cache.Server{Name: "upstream"}, store.New(), &cache.Store{}, mcpgen.Options{})
	case "tasks":
		srv = tasks.New(mcpgen.Options{Tasks: true})
	case "options":
		srv = options.New(mcpgen.Options{})
	case "skilled":
		srv = skilled.New(&skillscomp.Clock{Now: func() string { return "noon" }}, mcpgen.Options{})
	case "wire":
		srv = wire.New(&wirecomp.Greeter{Prefix: "> "}, mcpgen.Options{})
	case "viewed":
		srv = viewed.New(mcpgen.Options{})
	default:
		fmt.Fprintln(os.Stderr, "unknown server", os.Args[1])
		os.Exit(2)
	}
	if err := mcpgen.ServeStdio(context.Background(), srv, os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
`

// buildE2E generates every golden case in one run, places the output and
// a main program into the module through a build overlay (nothing is
// written to the tree) and builds it. A generated package that does not
// compile fails here.
func buildE2E(t *testing.T) string {
	t.Helper()
	res := allGolden(t)
	var b [4]byte
	_, _ = rand.Read(b[:])
	dir := "gen/testdata/e2e_out_" + hex.EncodeToString(b[:])
	o := newOverlay(t)
	for _, f := range res.Files {
		o.add(path.Join(dir, f.Path), f.Content)
	}
	o.add(path.Join(dir, "cmd", "main.go"), fmt.Appendf(nil, e2eMain, modulePath+"/"+dir))
	bin := filepath.Join(t.TempDir(), "e2e")
	if out, err := goCmd(t, "build", "-overlay", o.file(), "-o", bin, "./"+dir+"/cmd"); err != nil {
		t.Fatalf("the generated code does not compile:\n%s", out)
	}
	return bin
}

// TestEndToEnd compiles the generated golden servers and talks MCP to them
// over stdio: every tool result kind, fixed resources and templates,
// prompts, completion, injected dependencies and a task with Prepare.
func TestEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs generated servers")
	}
	bin := buildE2E(t)

	t.Run("results", func(t *testing.T) {
		c := startClient(t, bin, "results")
		list := c.result("tools/list", nil)
		var names []string
		for _, tl := range list["tools"].([]any) {
			names = append(names, tl.(map[string]any)["name"].(string))
		}
		if got := strings.Join(names, ","); got != "forget,lookup,measure,picture,shout,tally" {
			t.Errorf("tools/list names = %s", got)
		}

		r := c.callTool("shout", `{"text":"hi","bangs":2}`)
		c.wantText(r, "HI!!")
		r = c.callTool("shout", `{"text":"  "}`)
		c.wantToolError(r, "nothing to shout")
		r = c.callTool("shout", `{}`)
		c.wantToolError(r, "invalid arguments")

		r = c.callTool("measure", `{"values":[3,1,2],"unit":"m"}`)
		c.wantStructured(r, `{"count":3,"mean":2,"Min":1,"Max":3,"unit":"m","sorted":[1,2,3],"total":6}`)
		r = c.callTool("tally", `{"text":"a b A"}`)
		c.wantStructured(r, `{"a":2,"b":1}`)

		r = c.callTool("picture", `{}`)
		content := r["content"].([]any)
		if len(content) != 2 || content[1].(map[string]any)["type"] != "image" {
			t.Errorf("picture content = %v", content)
		}

		// ContentText replaces the JSON text block; structuredContent stays.
		r = c.callTool("forget", `{"fact":"the sky is green"}`)
		if sc, _ := json.Marshal(r["structuredContent"]); string(sc) != `{"fact":"the sky is green","gone":true}` {
			t.Errorf("forget structuredContent = %s", sc)
		}
		c.wantText(r, "Forgot the sky is green.")

		c.wantText(c.callTool("lookup", `{"key":"known"}`), "found known")
		c.wantToolError(c.callTool("lookup", `{"key":"other"}`), "no such key: other")
	})

	// The wire forms: the runtime checks arguments against the input
	// schema and results against the output schema, so a schema that
	// lied about the JSON would fail these calls.
	t.Run("wire", func(t *testing.T) {
		c := startClient(t, bin, "wire")
		record := `{"id":"i","kind":"k","temp":"21.5C","level":"L3","uuid":"6ba7b810-9dad-11d1-80b4-00c04fd430c8",
			"big":12345678901234567890,"addr":"192.0.2.1","at":"2026-01-02T03:04:05Z","quoted":"42","small":-5,
			"huge":18446744073709551615,"-":"dash","maybe":null,"list":[],"names":{"en":"hello"},
			"seg":{"from":{"x":1,"y":2},"to":{"x":3,"y":4}},"tree":{"a":{"b":{}}},"root":{"label":"r","children":[{"label":"c"}]}}`
		c.wantStructured(c.callTool("record", record), record)
		for _, bad := range []string{
			strings.Replace(record, `"small":-5`, `"small":300`, 1),                // int8 bound
			strings.Replace(record, `"quoted":"42"`, `"quoted":42`, 1),             // ,string wants a string
			strings.Replace(record, `"temp":"21.5C"`, `"temp":21.5`, 1),            // a text marshaler is a string
			strings.Replace(record, `"level":"L3"`, `"level":3`, 1),                // JSONSchema says "L<n>"
			strings.Replace(record, `"id":"i",`, ``, 1),                            // required
			strings.Replace(record, `"huge":18446744073709551615`, `"huge":-1`, 1), // uint64: minimum 0
		} {
			c.wantToolError(c.callTool("record", bad), "invalid arguments")
		}
		// uint64 has no maximum in the schema: the decoder refuses a
		// number out of its range, and the runtime answers invalid params.
		tooHuge := strings.Replace(record, `"huge":18446744073709551615`, `"huge":18446744073709551616`, 1)
		if code := c.errorCode("tools/call", map[string]any{"name": "record", "arguments": json.RawMessage(tooHuge)}); code != -32602 {
			t.Errorf("record with huge out of range: code %d, want -32602 (invalid params)", code)
		}
		c.wantStructured(c.callTool("browse", `{"n":2}`), `{"items":[{"name":"a"},{"name":"b"}],"more":false}`)
		c.wantStructured(c.callTool("browse", `{"n":0}`), `{"items":[],"more":false}`) // a nil slice of a result is sent as []
		c.wantStructured(c.callTool("count", `{"words":["a","b"]}`), `{"n":2}`)
		c.wantToolError(c.callTool("count", `{"words":null}`), "invalid arguments") // nullable=false
		c.wantText(c.callTool("find", `{"key":"known"}`), "found known")
		c.wantToolError(c.callTool("find", `{"key":"other"}`), "no result") // (nil, nil): no panic
		c.wantText(c.callTool("say", `{"text":"hi"}`), "> hi")
		c.wantContents("geo://Åland/Mariehamn", "text/plain", "Åland: Mariehamn")
		// Non-ASCII option values are whole (0xA0 inside "à" is no space).
		for _, tl := range c.result("tools/list", nil)["tools"].([]any) {
			if tool := tl.(map[string]any); tool["name"] == "record" && tool["title"] != "Récupère – «record»" {
				t.Errorf("record title = %q", tool["title"])
			}
		}
	})

	t.Run("resources", func(t *testing.T) {
		c := startClient(t, bin, "resources")
		c.wantContents("docs://readme", "text/markdown", "# Read me\n")
		c.wantContents("config://app", "application/json", `{"name":"demo","debug":false,"plugins":["a","b"]}`)
		logo := c.read("images://logo.png")[0]
		if logo["blob"] != base64.StdEncoding.EncodeToString([]byte{0x89, 'P', 'N', 'G'}) || logo["mimeType"] != "image/png" {
			t.Errorf("logo = %v", logo)
		}
		if n := len(c.read("bundle://all")); n != 2 {
			t.Errorf("bundle has %d contents, want 2", n)
		}
		// Templates: {+path} takes the rest of the URI, slashes included.
		c.wantContents("notes://work/2026/q1.md", "text/plain", "first quarter")
		c.wantContents("accounts://root", "application/json", `{"id":"root","admin":true}`)
		if code := c.errorCode("resources/read", map[string]any{"uri": "notes://home/nothing"}); code != -32002 {
			t.Errorf("reading a missing note: code %d, want -32002", code)
		}
		c.wantCompletion(map[string]any{"type": "ref/resource", "uri": "notes://{folder}/{+path}"}, "folder", "w", nil, "work")
		c.wantCompletion(map[string]any{"type": "ref/resource", "uri": "notes://{folder}/{+path}"}, "path", "", map[string]string{"folder": "work"}, "2026/q1.md", "plan.md")
	})

	t.Run("prompts", func(t *testing.T) {
		c := startClient(t, bin, "prompts")
		got := c.result("prompts/get", map[string]any{"name": "review", "arguments": map[string]string{"code": "x := 1", "language": "go", "focus": "naming"}})
		c.wantMessages(got, "Review this go code, focusing on naming:\nx := 1")
		got = c.result("prompts/get", map[string]any{"name": "review", "arguments": map[string]string{"code": "y"}})
		c.wantMessages(got, "Review this unknown code:\ny")
		if code := c.errorCode("prompts/get", map[string]any{"name": "review", "arguments": map[string]string{}}); code != -32602 {
			t.Errorf("prompt without its required argument: code %d, want -32602", code)
		}
		got = c.result("prompts/get", map[string]any{"name": "translate-text", "arguments": map[string]string{"text": "hallo", "target": "en"}})
		c.wantMessages(got, "Translate into en:", "Send the text.", "hallo")
		got = c.result("prompts/get", map[string]any{"name": "greeting"})
		if got["description"] != "A friendly greeting" {
			t.Errorf("greeting = %v", got)
		}
		c.wantCompletion(map[string]any{"type": "ref/prompt", "name": "review"}, "language", "py", nil, "python")
	})

	t.Run("deps", func(t *testing.T) {
		c := startClient(t, bin, "deps")
		c.wantText(c.callTool("remember", `{"key":"k","value":"v"}`), "stored k at 2026-01-02T03:04:05Z (tools/call)")
		c.wantText(c.callTool("recall", `{"key":"k"}`), "v")
		c.wantContents("store://entries/k", "", "v")
		c.wantCompletion(map[string]any{"type": "ref/resource", "uri": "store://entries/{key}"}, "key", "", nil, "k")
		got := c.result("prompts/get", map[string]any{"name": "digest", "arguments": map[string]string{"heading": "Keys"}})
		c.wantMessages(got, "Keys at 2026-01-02T03:04:05Z from upstream: k")
	})

	t.Run("tasks", func(t *testing.T) {
		c := startClient(t, bin, "tasks")
		c.wantText(c.callTool("reindex", `{}`), "reindexed")
		meta := map[string]any{
			"io.modelcontextprotocol/protocolVersion":    "2026-07-28",
			"io.modelcontextprotocol/clientCapabilities": map[string]any{"extensions": map[string]any{"io.modelcontextprotocol/tasks": map[string]any{}}},
		}
		// Prepare refuses before any task exists.
		if code := c.errorCode("tools/call", map[string]any{"_meta": meta, "name": "export", "arguments": map[string]string{"dest": "ftp://x"}}); code == 0 {
			t.Error("export to ftp:// was accepted; Prepare did not run")
		}
		started := c.result("tools/call", map[string]any{"_meta": meta, "name": "export", "arguments": map[string]string{"dest": "s3://bucket"}})
		id, _ := started["taskId"].(string)
		if started["resultType"] != "task" || id == "" {
			t.Fatalf("export did not start a task: %v", started)
		}
		deadline := time.Now().Add(10 * time.Second)
		for {
			got := c.result("tasks/get", map[string]any{"_meta": meta, "taskId": id})
			if got["status"] == "completed" {
				b, _ := json.Marshal(got["result"])
				if !strings.Contains(string(b), "exported to s3://bucket") {
					t.Errorf("task result = %s", b)
				}
				break
			}
			if got["status"] != "working" || time.Now().After(deadline) {
				t.Fatalf("task = %v", got)
			}
			time.Sleep(20 * time.Millisecond)
		}
	})

	t.Run("options", func(t *testing.T) {
		c := startClient(t, bin, "options")
		tools := map[string]map[string]any{}
		for _, tl := range c.result("tools/list", nil)["tools"].([]any) {
			m := tl.(map[string]any)
			tools[m["name"].(string)] = m
		}
		search := tools["search"]
		if search["title"] != "Search documents" || len(search["icons"].([]any)) != 2 {
			t.Errorf("search = %v", search)
		}
		hints := func(name string) string {
			a := tools[name]["annotations"].(map[string]any)
			return fmt.Sprint(a["readOnlyHint"], a["destructiveHint"], a["idempotentHint"], a["openWorldHint"])
		}
		for name, want := range map[string]string{
			"search": "true false true true",
			"purge":  "false true false false",
			"rename": "false false true false",
			"touch":  "true false false false",
		} {
			if got := hints(name); got != want {
				t.Errorf("%s hints (readOnly destructive idempotent openWorld) = %s, want %s", name, got, want)
			}
		}
		c.wantContents("status://now", "application/json", `{"ok":true}`)
		c.wantContents("profiles://ada", "text/plain", "profile of ada")
	})

	t.Run("viewed", func(t *testing.T) {
		// A client that shows views gets the links, the app-only tools
		// and the views, whose HTML is the sources' exact bytes; any
		// other client sees a server without views. Both eras.
		host := map[string]any{"extensions": map[string]any{"io.modelcontextprotocol/ui": map[string]any{"mimeTypes": []string{"text/html;profile=mcp-app"}}}}
		modern := func(caps map[string]any, params map[string]any) map[string]any {
			params["_meta"] = map[string]any{"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": caps}
			return params
		}
		tools := func(list map[string]any) string {
			var out []string
			for _, tl := range list["tools"].([]any) {
				tl := tl.(map[string]any)
				meta, _ := json.Marshal(tl["_meta"])
				out = append(out, fmt.Sprintf("%s %s", tl["name"], meta))
			}
			return strings.Join(out, "\n")
		}
		const hostTools = `alerts {"ui":{"resourceUri":"ui://weather/panels/alerts.html","visibility":["app"]},"ui/resourceUri":"ui://weather/panels/alerts.html"}
forecast {"ui":{"resourceUri":"ui://weather/panels/forecast.html","visibility":["model","app"]},"ui/resourceUri":"ui://weather/panels/forecast.html"}
get_weather {"ui":{"resourceUri":"ui://weather/dashboard.html","visibility":["model","app"]},"ui/resourceUri":"ui://weather/dashboard.html"}
refresh_weather {"ui":{"resourceUri":"ui://weather/dashboard.html","visibility":["app"]},"ui/resourceUri":"ui://weather/dashboard.html"}
units null`
		const plainTools = "forecast null\nget_weather null\nunits null"
		sources := map[string]string{
			"ui://weather/dashboard.html":       "testdata/golden/views/ui/dashboard.html",
			"ui://weather/panels/alerts.html":   "testdata/golden/views/ui/panels/alerts.html",
			"ui://weather/panels/forecast.html": "testdata/golden/views/ui/panels/forecast.html",
		}

		c := startClientWith(t, bin, "viewed", host)
		for era, params := range map[string]func(map[string]any) map[string]any{
			"legacy":     func(p map[string]any) map[string]any { return p },
			"2026-07-28": func(p map[string]any) map[string]any { return modern(host, p) },
		} {
			if got := tools(c.result("tools/list", params(map[string]any{}))); got != hostTools {
				t.Errorf("%s host: tools/list\n%s\nwant\n%s", era, got, hostTools)
			}
			listed := 0
			for _, r := range c.result("resources/list", params(map[string]any{}))["resources"].([]any) {
				r := r.(map[string]any)
				listed++
				src, err := os.ReadFile(sources[r["uri"].(string)])
				if err != nil || r["mimeType"] != "text/html;profile=mcp-app" {
					t.Errorf("%s host: listed %v (%v)", era, r, err)
					continue
				}
				got := c.result("resources/read", params(map[string]any{"uri": r["uri"]}))["contents"].([]any)
				if len(got) != 1 || got[0].(map[string]any)["text"] != string(src) {
					t.Errorf("%s host: %s reads %v, not the bytes of %s", era, r["uri"], got, sources[r["uri"].(string)])
				}
			}
			if listed != len(sources) {
				t.Errorf("%s host: resources/list listed %d views, want %d", era, listed, len(sources))
			}
			c.wantText(c.result("tools/call", params(map[string]any{"name": "refresh_weather", "arguments": map[string]any{}})), "refreshed")
		}
		if meta := c.result("resources/list", nil)["resources"].([]any)[0].(map[string]any)["_meta"]; fmt.Sprint(meta) != "map[ui:map[csp:map[connectDomains:[https://api.open-meteo.com wss://live.open-meteo.com] resourceDomains:[https://*.tile.example.org]] domain:weather.example.com permissions:map[clipboardWrite:map[] geolocation:map[]] prefersBorder:true]]" {
			t.Errorf("the dashboard's _meta = %v", meta)
		}

		p := startClient(t, bin, "viewed")
		for era, params := range map[string]func(map[string]any) map[string]any{
			"legacy":     func(p map[string]any) map[string]any { return p },
			"2026-07-28": func(p map[string]any) map[string]any { return modern(map[string]any{}, p) },
		} {
			if got := tools(p.result("tools/list", params(map[string]any{}))); got != plainTools {
				t.Errorf("%s plain client: tools/list\n%s\nwant\n%s", era, got, plainTools)
			}
			if got := p.result("resources/list", params(map[string]any{}))["resources"].([]any); len(got) != 0 {
				t.Errorf("%s plain client: resources/list = %v, want none", era, got)
			}
			if code := p.errorCode("resources/read", params(map[string]any{"uri": "ui://weather/dashboard.html"})); code != map[string]int{"legacy": -32002, "2026-07-28": -32602}[era] {
				t.Errorf("%s plain client: reading the view answered %d, want not found", era, code)
			}
			if code := p.errorCode("tools/call", params(map[string]any{"name": "refresh_weather", "arguments": map[string]any{}})); code != -32602 {
				t.Errorf("%s plain client: calling the app-only tool answered %d, want -32602 (unknown tool)", era, code)
			}
		}
	})

	t.Run("skilled", func(t *testing.T) {
		// The embedded copies serve the skill sources' exact bytes, as
		// skills/list describes them.
		c := startClient(t, bin, "skilled")
		sources := map[string]string{
			"skill://review/":                "testdata/golden/skills/docs/review/",
			"skill://acme/billing/refunds/":  "testdata/golden/skills/library/refunds/",
			"skill://acme/billing/invoices/": "testdata/golden/skills/library/invoices/",
		}
		files, dynamic := 0, 0
		for _, e := range c.result("skills/list", nil)["skills"].([]any) {
			if e.(map[string]any)["resources"] == "dynamic" {
				// The dynamic skill's files come from its Files method,
				// with the dependency New was given.
				dynamic++
				if uri := e.(map[string]any)["uri"]; uri != "skill://acme/ops/status/SKILL.md" {
					t.Errorf("dynamic skill at %v, want skill://acme/ops/status/SKILL.md", uri)
				}
				got := c.result("resources/read", map[string]any{"uri": "skill://acme/ops/status/now.txt"})["contents"].([]any)[0].(map[string]any)["text"]
				if got != "as of noon\n" {
					t.Errorf("skill://acme/ops/status/now.txt = %q, want the Files method's %q", got, "as of noon\n")
				}
				continue
			}
			for _, f := range e.(map[string]any)["resources"].([]any) {
				f := f.(map[string]any)
				uri := f["uri"].(string)
				var src string
				for prefix, dir := range sources {
					if rest, ok := strings.CutPrefix(uri, prefix); ok {
						src = dir + rest
					}
				}
				want, err := os.ReadFile(src)
				if err != nil {
					t.Fatalf("%s: no source file: %v", uri, err)
				}
				got := c.result("resources/read", map[string]any{"uri": uri})["contents"].([]any)[0].(map[string]any)["text"]
				sum := sha256.Sum256(want)
				if got != string(want) || f["digest"] != "sha256:"+hex.EncodeToString(sum[:]) || f["size"] != float64(len(want)) {
					t.Errorf("%s: served %q with %v, %v bytes; the source is %q", uri, got, f["digest"], f["size"], want)
				}
				files++
			}
		}
		if files != 6 {
			t.Errorf("skills/list described %d files, want the 6 of the golden case", files)
		}
		if dynamic != 1 {
			t.Errorf("skills/list listed %d dynamic skills, want the golden case's 1", dynamic)
		}
	})
}

// client speaks newline-delimited JSON-RPC to a server process.
type client struct {
	t      *testing.T
	in     io.WriteCloser
	out    *bufio.Scanner
	nextID int
}

func startClient(t *testing.T, bin, name string) *client {
	t.Helper()
	return startClientWith(t, bin, name, map[string]any{})
}

// startClientWith is startClient for a client with the capabilities caps.
func startClientWith(t *testing.T, bin, name string, caps map[string]any) *client {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	cmd := exec.CommandContext(ctx, bin, name)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		in.Close()
		if err := cmd.Wait(); err != nil {
			t.Errorf("server %s: %v\n%s", name, err, stderr.String())
		}
		cancel()
	})
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	c := &client{t: t, in: in, out: sc}
	c.result("initialize", map[string]any{"protocolVersion": "2025-11-25", "capabilities": caps, "clientInfo": map[string]any{"name": "e2e", "version": "0"}})
	c.send(map[string]any{"jsonrpc": "2.0", "method": "notifications/initialized"})
	return c
}

func (c *client) send(msg any) {
	c.t.Helper()
	b, _ := json.Marshal(msg)
	if _, err := c.in.Write(append(b, '\n')); err != nil {
		c.t.Fatal(err)
	}
}

// call sends one request and waits for its response, skipping
// notifications.
func (c *client) call(method string, params any) (result map[string]any, errObj map[string]any) {
	c.t.Helper()
	c.nextID++
	req := map[string]any{"jsonrpc": "2.0", "id": c.nextID, "method": method}
	if params != nil {
		req["params"] = params
	}
	c.send(req)
	for c.out.Scan() {
		var resp struct {
			ID     *int           `json:"id"`
			Result map[string]any `json:"result"`
			Error  map[string]any `json:"error"`
		}
		if err := json.Unmarshal(c.out.Bytes(), &resp); err != nil {
			c.t.Fatalf("%s: bad line %q: %v", method, c.out.Text(), err)
		}
		if resp.ID != nil && *resp.ID == c.nextID {
			return resp.Result, resp.Error
		}
	}
	c.t.Fatalf("%s: the server closed its output (%v)", method, c.out.Err())
	return nil, nil
}

func (c *client) result(method string, params any) map[string]any {
	c.t.Helper()
	res, e := c.call(method, params)
	if e != nil {
		p, _ := json.Marshal(params)
		c.t.Fatalf("%s %s: error %v", method, p, e)
	}
	return res
}

func (c *client) errorCode(method string, params any) int {
	c.t.Helper()
	res, e := c.call(method, params)
	if e == nil {
		p, _ := json.Marshal(params)
		c.t.Errorf("%s %s: got result %v, want an error", method, p, res)
		return 0
	}
	return int(e["code"].(float64))
}

func (c *client) callTool(name, args string) map[string]any {
	c.t.Helper()
	return c.result("tools/call", map[string]any{"name": name, "arguments": json.RawMessage(args)})
}

func (c *client) wantText(r map[string]any, want string) {
	c.t.Helper()
	content, _ := r["content"].([]any)
	if r["isError"] == true || len(content) != 1 || content[0].(map[string]any)["text"] != want {
		c.t.Errorf("tool result = %v, want the text %q", r, want)
	}
}

func (c *client) wantToolError(r map[string]any, substr string) {
	c.t.Helper()
	b, _ := json.Marshal(r["content"])
	if r["isError"] != true || !strings.Contains(string(b), substr) {
		c.t.Errorf("tool result = %v, want isError mentioning %q", r, substr)
	}
}

func (c *client) wantStructured(r map[string]any, want string) {
	c.t.Helper()
	var w any
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		c.t.Fatal(err)
	}
	if !reflect.DeepEqual(r["structuredContent"], w) {
		c.t.Errorf("structuredContent = %v, want %s", r["structuredContent"], want)
	}
	content, _ := r["content"].([]any)
	var text any
	if len(content) == 1 {
		_ = json.Unmarshal([]byte(content[0].(map[string]any)["text"].(string)), &text)
	}
	if !reflect.DeepEqual(text, w) {
		c.t.Errorf("text content = %v, want the same JSON as structuredContent", content)
	}
}

func (c *client) read(uri string) []map[string]any {
	c.t.Helper()
	var out []map[string]any
	for _, x := range c.result("resources/read", map[string]any{"uri": uri})["contents"].([]any) {
		out = append(out, x.(map[string]any))
	}
	return out
}

func (c *client) wantContents(uri, mime, text string) {
	c.t.Helper()
	got := c.read(uri)
	if len(got) != 1 || got[0]["uri"] != uri || got[0]["text"] != text || (got[0]["mimeType"] != mime && !(mime == "" && got[0]["mimeType"] == nil)) {
		c.t.Errorf("read %s = %v, want text %q (%s)", uri, got, text, mime)
	}
}

func (c *client) wantMessages(r map[string]any, texts ...string) {
	c.t.Helper()
	var got []string
	for _, m := range r["messages"].([]any) {
		got = append(got, fmt.Sprint(m.(map[string]any)["content"].(map[string]any)["text"]))
	}
	if !reflect.DeepEqual(got, texts) {
		c.t.Errorf("messages = %q, want %q", got, texts)
	}
}

func (c *client) wantCompletion(ref map[string]any, arg, value string, ctx map[string]string, want ...string) {
	c.t.Helper()
	params := map[string]any{"ref": ref, "argument": map[string]string{"name": arg, "value": value}}
	if ctx != nil {
		params["context"] = map[string]any{"arguments": ctx}
	}
	var got []string
	for _, v := range c.result("completion/complete", params)["completion"].(map[string]any)["values"].([]any) {
		got = append(got, v.(string))
	}
	if !reflect.DeepEqual(got, want) {
		c.t.Errorf("complete %v %s=%q: %q, want %q", ref, arg, value, got, want)
	}
}

package mcpgen_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"

	"github.com/mcpgen/mcpgen"
	notescomp "github.com/mcpgen/mcpgen/components/notes"
	"github.com/mcpgen/mcpgen/generated/everything"
	"github.com/mcpgen/mcpgen/generated/notes"
)

// The examples serve components/notes, whose generated package is
// generated/notes. Each request is a stateless 2026-07-28 call: its _meta
// names the revision and the client.
const meta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"example","version":"1.0.0"},"io.modelcontextprotocol/clientCapabilities":{}}`

// serve answers newline-separated requests as stdio would and prints the
// responses.
func serve(srv *mcpgen.Server, requests ...string) {
	in := strings.NewReader(strings.Join(requests, "\n") + "\n")
	if err := mcpgen.ServeStdio(context.Background(), srv, in, os.Stdout); err != nil {
		fmt.Println("serve:", err)
	}
}

// A tool: notes.AddNote takes the *Store dependency, which the generated
// New receives, and returns a struct, which becomes structuredContent.
func Example_tool() {
	srv := notes.New(notescomp.NewStore(), mcpgen.Options{})
	defer srv.Close()
	serve(srv,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add_note","arguments":{"id":"groceries","text":"eggs"},`+meta+`}}`)
	// Output:
	// {"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","content":[{"type":"text","text":"{\"id\":\"groceries\",\"count\":1}"}],"structuredContent":{"id":"groceries","count":1}}}
}

// A resource template: notes://{id} binds the variable to Note.ID; an
// unknown note is the era's not-found error.
func Example_resourceTemplate() {
	store := notescomp.NewStore()
	srv := notes.New(store, mcpgen.Options{})
	defer srv.Close()
	serve(srv,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add_note","arguments":{"id":"groceries","text":"eggs"},`+meta+`}}`,
	)
	serve(srv,
		`{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"notes://groceries",`+meta+`}}`,
		`{"jsonrpc":"2.0","id":3,"method":"resources/read","params":{"uri":"notes://missing",`+meta+`}}`,
	)
	// Unordered output:
	// {"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","content":[{"type":"text","text":"{\"id\":\"groceries\",\"count\":1}"}],"structuredContent":{"id":"groceries","count":1}}}
	// {"jsonrpc":"2.0","id":2,"result":{"resultType":"complete","contents":[{"uri":"notes://groceries","mimeType":"text/plain","text":"eggs"}],"ttlMs":0,"cacheScope":"private"}}
	// {"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"Resource not found: notes://missing","data":{"uri":"notes://missing"}}}
}

// A prompt: its fields are its arguments.
func Example_prompt() {
	store := notescomp.NewStore()
	srv := notes.New(store, mcpgen.Options{})
	defer srv.Close()
	serve(srv, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add_note","arguments":{"id":"groceries","text":"eggs"},`+meta+`}}`)
	serve(srv, `{"jsonrpc":"2.0","id":2,"method":"prompts/get","params":{"name":"summarize","arguments":{"id":"groceries"},`+meta+`}}`)
	// Output:
	// {"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","content":[{"type":"text","text":"{\"id\":\"groceries\",\"count\":1}"}],"structuredContent":{"id":"groceries","count":1}}}
	// {"jsonrpc":"2.0","id":2,"result":{"resultType":"complete","description":"Asks the model to summarise one note.","messages":[{"role":"user","content":{"type":"text","text":"Summarize this note in one sentence:\n\neggs"}}]}}
}

// Serving over stdio: a legacy client's initialize handshake, then a call
// in its session. A real main passes os.Stdin and os.Stdout (or uses Main).
func ExampleServeStdio() {
	srv := notes.New(notescomp.NewStore(), mcpgen.Options{})
	defer srv.Close()
	in := strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"example","version":"1.0.0"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"prompts/list"}
`)
	var out strings.Builder
	if err := mcpgen.ServeStdio(context.Background(), srv, in, &out); err != nil {
		fmt.Println(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	fmt.Println(len(lines), "responses; the second:")
	fmt.Println(lines[1])
	// Output:
	// 2 responses; the second:
	// {"jsonrpc":"2.0","id":2,"result":{"prompts":[{"name":"summarize","title":"Summarize a note","description":"Asks the model to summarise one note.","arguments":[{"name":"id","description":"The identifier of the note.","required":true}]}]}}
}

// Two servers on one listener, each at its own path of the same mux.
func ExampleHTTPHandler() {
	notesSrv := notes.New(notescomp.NewStore(), mcpgen.Options{})
	fixture := everything.New(mcpgen.Options{})
	mux := http.NewServeMux()
	mux.Handle("/notes/mcp", mcpgen.HTTPHandler(notesSrv, mcpgen.HTTPOptions{}))
	mux.Handle("/fixture/mcp", mcpgen.HTTPHandler(fixture, mcpgen.HTTPOptions{}))
	hs := httptest.NewServer(mux)
	defer hs.Close()
	hs.Config.RegisterOnShutdown(notesSrv.Close)
	hs.Config.RegisterOnShutdown(fixture.Close)

	for _, path := range []string{"/notes/mcp", "/fixture/mcp"} {
		body := `{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{` + meta + `}}`
		req, _ := http.NewRequest("POST", hs.URL+path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("MCP-Protocol-Version", "2026-07-28")
		req.Header.Set("Mcp-Method", "server/discover")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			fmt.Println(err)
			return
		}
		var discovered struct {
			Result struct {
				Meta struct {
					ServerInfo mcpgen.Implementation `json:"io.modelcontextprotocol/serverInfo"`
				} `json:"_meta"`
			} `json:"result"`
		}
		err = json.NewDecoder(resp.Body).Decode(&discovered)
		resp.Body.Close()
		if err != nil {
			fmt.Println(err)
			return
		}
		name := discovered.Result.Meta.ServerInfo.Name
		fmt.Println(path, resp.StatusCode, name)
	}
	// Output:
	// /notes/mcp 200 notes
	// /fixture/mcp 200 everything
}

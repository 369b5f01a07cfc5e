package mcpgen

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/jsonrpc"
	"github.com/mcpgen/mcpgen/internal/skills"
)

const (
	viewHTML = "<!DOCTYPE html>\n<html><body><p>Weather</p></body></html>\n"
	viewURI  = "ui://weather/dashboard.html"

	// uiCaps declares the MCP Apps extension as a host does.
	uiCaps = `{"extensions":{"io.modelcontextprotocol/ui":{"mimeTypes":["text/html;profile=mcp-app"]}}}`
)

// modernCaps is the 2026-07-28 _meta of a request with these client
// capabilities.
func modernCaps(caps string) string {
	return `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":` + caps + `}`
}

// appsDefinition is a weather server with a view: get_weather shows it,
// refresh_weather is called by the view only, and forecast has nothing to
// do with it. plain is the same server before it had the view, as a
// client that does not show views must keep seeing it.
func appsDefinition() (withViews, plain Definition) {
	text := func(s string) ToolHandler {
		return func(context.Context, *Request, json.RawMessage) (*CallToolResult, error) { return TextResult(s, nil) }
	}
	object := json.RawMessage(`{"type":"object"}`)
	plain = Definition{
		Name: "weather", Version: "1.0.0",
		Tools: []Tool{
			{Info: ToolInfo{Name: "forecast", Description: "Tomorrow's weather.", InputSchema: object}, Call: text("rain")},
			{Info: ToolInfo{Name: "get_weather", Description: "Today's weather.", InputSchema: object}, Call: text("sun")},
		},
		Resources: []Resource{{
			Info: ResourceInfo{URI: "weather://stations", Name: "stations", MimeType: "text/plain"},
			Read: func(context.Context, *Request) (*ReadResourceResult, error) {
				return ResourceText("weather://stations", "text/plain", "Paris", nil)
			},
		}},
	}
	withViews = plain
	withViews.Tools = []Tool{
		plain.Tools[0],
		plain.Tools[1],
		{Info: ToolInfo{Name: "refresh_weather", Description: "Refresh the dashboard.", InputSchema: object}, Call: text("refreshed"),
			UI: &ToolUI{ResourceURI: viewURI, Visibility: []string{"app"}}},
	}
	withViews.Tools[1].UI = &ToolUI{ResourceURI: viewURI}
	withViews.Views = []View{{
		URI: viewURI, Name: "dashboard", Title: "Weather dashboard", Content: []byte(viewHTML),
		Digest: skills.Digest([]byte(viewHTML)),
		Meta: ViewMeta{
			CSP:           ViewCSP{ConnectDomains: []string{"https://api.open-meteo.com"}},
			Permissions:   []string{"clipboardWrite"},
			PrefersBorder: Bool(true),
		},
	}}
	return withViews, plain
}

// session opens a legacy session with the client capabilities caps and
// returns the inbound that carries it.
func session(t *testing.T, s *Server, caps string) *inbound {
	t.Helper()
	in := &inbound{}
	result(t, handle(t, s, in, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":`+caps+`,"clientInfo":{"name":"host","version":"1"}}}`))
	return in
}

// exchange is one request in either era, for clients with capabilities
// caps: it returns the raw answer (result or error) as the client reads
// it.
type exchange func(method, params string) string

func legacyExchange(t *testing.T, s *Server, caps string) exchange {
	in := session(t, s, caps)
	return func(method, params string) string {
		return answerOf(t, handle(t, s, in, fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":%q,"params":{%s}}`, method, params)))
	}
}

func modernExchange(t *testing.T, s *Server, caps string) exchange {
	return func(method, params string) string {
		if params != "" {
			params = "," + params
		}
		return answerOf(t, handle(t, s, nil, fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":%q,"params":{%s%s}}`, method, modernCaps(caps), params)))
	}
}

func answerOf(t *testing.T, m *jsonrpc.Message) string {
	t.Helper()
	if m.Error != nil {
		b, _ := json.Marshal(m.Error)
		return "error " + string(b)
	}
	return string(m.Result)
}

// TestViewsHiddenFromClientsThatShowNone checks, in both eras, that a
// client that does not declare the extension (or declares it without the
// view MIME type) gets byte for byte the answers of the same server
// without views: no _meta.ui, no tool only views call, no view among the
// resources, and the view and that tool unknown when asked for by name.
func TestViewsHiddenFromClientsThatShowNone(t *testing.T) {
	withViews, plain := appsDefinition()
	requests := []struct{ method, params string }{
		{"tools/list", ""},
		{"resources/list", ""},
		{"resources/templates/list", ""},
		{"resources/read", `"uri":"` + viewURI + `"`},
		{"resources/read", `"uri":"weather://stations"`},
		{"tools/call", `"name":"refresh_weather","arguments":{}`},
		{"tools/call", `"name":"get_weather","arguments":{}`},
	}
	for _, caps := range []string{`{}`, `{"extensions":{"io.modelcontextprotocol/ui":{}}}`, `{"extensions":{"io.modelcontextprotocol/ui":{"mimeTypes":["text/html"]}}}`} {
		for era, open := range map[string]func(*testing.T, *Server, string) exchange{"legacy": legacyExchange, "2026-07-28": modernExchange} {
			a := open(t, New(withViews, Options{Secret: transcriptSecret}), caps)
			b := open(t, New(plain, Options{Secret: transcriptSecret}), caps)
			for _, r := range requests {
				if got, want := a(r.method, r.params), b(r.method, r.params); got != want {
					t.Errorf("%s, capabilities %s: %s %s\n got %s\nwant %s (the server without views)", era, caps, r.method, r.params, got, want)
				}
			}
		}
	}
}

// TestViewsShownToHosts checks what a client that declares the extension
// gets, in both eras: the tools' links (nested and flat), the tool only
// views call, the view among the resources with its metadata, and the
// view's HTML as one text item with the view MIME type.
func TestViewsShownToHosts(t *testing.T) {
	withViews, _ := appsDefinition()
	for era, open := range map[string]func(*testing.T, *Server, string) exchange{"legacy": legacyExchange, "2026-07-28": modernExchange} {
		t.Run(era, func(t *testing.T) {
			x := open(t, New(withViews, Options{}), uiCaps)
			var tools struct{ Tools []ToolInfo }
			mustDecode(t, x("tools/list", ""), &tools)
			metas := map[string]string{}
			for _, tl := range tools.Tools {
				metas[tl.Name] = string(tl.Meta)
			}
			want := map[string]string{
				"forecast":        "",
				"get_weather":     `{"ui":{"resourceUri":"ui://weather/dashboard.html","visibility":["model","app"]},"ui/resourceUri":"ui://weather/dashboard.html"}`,
				"refresh_weather": `{"ui":{"resourceUri":"ui://weather/dashboard.html","visibility":["app"]},"ui/resourceUri":"ui://weather/dashboard.html"}`,
			}
			if fmt.Sprint(metas) != fmt.Sprint(want) {
				t.Errorf("tools/list _meta by tool:\n got %v\nwant %v", metas, want)
			}

			var resources struct{ Resources []ResourceInfo }
			mustDecode(t, x("resources/list", ""), &resources)
			if n := len(resources.Resources); n != 2 || resources.Resources[1].URI != viewURI {
				t.Fatalf("resources/list = %+v, want the stations and the view", resources.Resources)
			}
			v := resources.Resources[1]
			const meta = `{"ui":{"csp":{"connectDomains":["https://api.open-meteo.com"]},"permissions":{"clipboardWrite":{}},"prefersBorder":true}}`
			if v.MimeType != ViewMimeType || v.Name != "dashboard" || v.Title != "Weather dashboard" || string(v.Meta) != meta || v.Size == nil || *v.Size != int64(len(viewHTML)) {
				t.Errorf("view entry = %+v (meta %s)", v, v.Meta)
			}

			var read ReadResourceResult
			mustDecode(t, x("resources/read", `"uri":"`+viewURI+`"`), &read)
			if len(read.Contents) != 1 {
				t.Fatalf("resources/read gave %d contents, want exactly 1 (hosts refuse more)", len(read.Contents))
			}
			c := read.Contents[0]
			if c.URI != viewURI || c.MimeType != ViewMimeType || c.Text == nil || *c.Text != viewHTML || string(c.Meta) != meta {
				t.Errorf("resources/read contents = %+v (meta %s)", c, c.Meta)
			}

			var call CallToolResult
			mustDecode(t, x("tools/call", `"name":"refresh_weather","arguments":{}`), &call)
			if len(call.Content) != 1 || call.Content[0].Text != "refreshed" {
				t.Errorf("a view's call of refresh_weather = %+v", call)
			}
		})
	}
}

// TestViewsCapability checks that the server declares the extension in
// initialize and server/discover, to every client, and that a server
// whose only resources are views declares resources.
func TestViewsCapability(t *testing.T) {
	withViews, _ := appsDefinition()
	withViews.Resources = nil
	s := New(withViews, Options{})
	for _, caps := range []string{`{}`, uiCaps} {
		legacy := result(t, handle(t, s, nil, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":`+caps+`,"clientInfo":{"name":"c","version":"1"}}}`))
		modern := result(t, handle(t, s, nil, `{"jsonrpc":"2.0","id":2,"method":"server/discover","params":{`+modernCaps(caps)+`}}`))
		for era, got := range map[string]any{"initialize": legacy["capabilities"], "server/discover": modern["capabilities"]} {
			c := got.(map[string]any)
			exts, _ := c["extensions"].(map[string]any)
			if ext, ok := exts[UIExtension].(map[string]any); !ok || len(ext) != 0 {
				t.Errorf("%s (client %s): extensions = %v, want %s: {}", era, caps, c["extensions"], UIExtension)
			}
			if c["resources"] == nil {
				t.Errorf("%s: no resources capability, so a host could not read the view", era)
			}
		}
	}
	plain := New(Definition{Name: "plain", Tools: unitDefinition().Tools}, Options{})
	init := result(t, handle(t, plain, nil, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":`+uiCaps+`,"clientInfo":{"name":"c","version":"1"}}}`))
	if strings.Contains(fmt.Sprint(init["capabilities"]), UIExtension) {
		t.Errorf("a server without views declares the extension: %v", init["capabilities"])
	}
}

// TestViewsNegotiatedPerRequest checks that in 2026-07-28 each request's
// own capabilities decide, and that a cursor of one kind of answer is
// refused by the other (their pages differ).
func TestViewsNegotiatedPerRequest(t *testing.T) {
	withViews, _ := appsDefinition()
	s := New(withViews, Options{PageSize: 1})
	host, other := modernExchange(t, s, uiCaps), modernExchange(t, s, `{}`)
	var page struct {
		Tools      []ToolInfo
		NextCursor string
	}
	var names []string
	for cursor := ""; ; {
		params := ""
		if cursor != "" {
			params = fmt.Sprintf(`"cursor":%q`, cursor)
		}
		mustDecode(t, host("tools/list", params), &page)
		names = append(names, page.Tools[0].Name)
		if cursor = page.NextCursor; cursor == "" {
			break
		}
		if got := other("tools/list", fmt.Sprintf(`"cursor":%q`, cursor)); !strings.Contains(got, "invalid cursor") {
			t.Errorf("a host's cursor in a request without the extension: %s, want invalid cursor", got)
		}
		page.NextCursor = ""
	}
	if got := strings.Join(names, ","); got != "forecast,get_weather,refresh_weather" {
		t.Errorf("a host paged through %s", got)
	}
}

// TestRendersViews checks what a tool sees of the client.
func TestRendersViews(t *testing.T) {
	def, _ := appsDefinition()
	def.Tools[0].Call = func(_ context.Context, req *Request, _ json.RawMessage) (*CallToolResult, error) {
		return TextResult(fmt.Sprint(req.RendersViews()), nil)
	}
	s := New(def, Options{})
	for caps, want := range map[string]string{uiCaps: "true", `{}`: "false", `{"extensions":{"io.modelcontextprotocol/ui":{"mimeTypes":"text/html;profile=mcp-app"}}}`: "false"} {
		for era, open := range map[string]func(*testing.T, *Server, string) exchange{"legacy": legacyExchange, "2026-07-28": modernExchange} {
			var res CallToolResult
			mustDecode(t, open(t, s, caps)("tools/call", `"name":"forecast","arguments":{}`), &res)
			if res.Content[0].Text != want {
				t.Errorf("%s, capabilities %s: RendersViews = %s, want %s", era, caps, res.Content[0].Text, want)
			}
		}
	}
}

// TestViewsRefusedAtStart checks that New refuses a definition whose views
// or links cannot be served.
func TestViewsRefusedAtStart(t *testing.T) {
	for name, c := range map[string]struct {
		change func(*Definition)
		want   string
	}{
		"missing view":   {func(d *Definition) { d.Tools[1].UI = &ToolUI{ResourceURI: "ui://weather/other.html"} }, "does not declare"},
		"bad visibility": {func(d *Definition) { d.Tools[1].UI.Visibility = []string{"user"} }, `holds "user"`},
		"empty link":     {func(d *Definition) { d.Tools[1].UI = &ToolUI{} }, "neither a view nor a visibility"},
		"wrong digest":   {func(d *Definition) { d.Views[0].Content = []byte(viewHTML + " ") }, "does not match its digest"},
		"not ui://": {func(d *Definition) {
			d.Views[0].URI = "https://weather/x.html"
			d.Tools[1].UI = nil
			d.Tools[2].UI = nil
		}, "does not start with ui://"},
		"not a document":  {func(d *Definition) { d.Views[0].Content, d.Views[0].Digest = []byte("<p>hi</p>"), "" }, "<!DOCTYPE html>"},
		"own _meta.ui":    {func(d *Definition) { d.Tools[1].Info.Meta = json.RawMessage(`{"ui":{}}`) }, "set Tool.UI"},
		"bad CSP domain":  {func(d *Definition) { d.Views[0].Meta.CSP.FrameDomains = []string{"'self'"} }, "CSP keyword"},
		"bad permission":  {func(d *Definition) { d.Views[0].Meta.Permissions = []string{"usb"} }, `permission "usb"`},
		"resource clash":  {func(d *Definition) { d.Resources[0].Info.URI = viewURI }, "has that URI already"},
		"duplicate views": {func(d *Definition) { d.Views = append(d.Views, d.Views[0]) }, "has that URI already"},
	} {
		def, _ := appsDefinition()
		def.Views = append([]View(nil), def.Views...)
		def.Tools = append([]Tool(nil), def.Tools...)
		def.Resources = append([]Resource(nil), def.Resources...)
		ui := *def.Tools[1].UI
		def.Tools[1].UI = &ui
		c.change(&def)
		_, err := build(def, Options{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: build error %v, want one containing %q", name, err, c.want)
		}
	}
}

func TestToolInfoUI(t *testing.T) {
	for meta, want := range map[string]string{
		``:                                    "false { []}",
		`{"other":1}`:                         "false { []}",
		`{"ui":{"resourceUri":"ui://a"}}`:     "true {ui://a []}",
		`{"ui/resourceUri":"ui://b"}`:         "true {ui://b []}",
		`{"ui":{"visibility":["app"]}}`:       "true { [app]}",
		`{"ui":{},"ui/resourceUri":"ui://c"}`: "true {ui://c []}",
	} {
		u, ok := ToolInfo{Meta: json.RawMessage(meta)}.UI()
		if got := fmt.Sprintf("%v {%s %v}", ok, u.ResourceURI, u.Visibility); got != want {
			t.Errorf("UI() of _meta %s = %s, want %s", meta, got, want)
		}
	}
}

func mustDecode(t *testing.T, raw string, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(raw), v); err != nil || strings.HasPrefix(raw, "error") {
		t.Fatalf("answer %s: %v", raw, err)
	}
}

// TestClientViews checks the client side over a connection, in both eras:
// with ClientOptions.Views the client declares the extension and reads
// the links and the view; without it, it sees the server as it was
// before. CheckSurface follows: app-only tools are not looked for without
// Views, and links are compared with it.
func TestClientViews(t *testing.T) {
	withViews, _ := appsDefinition()
	want := []SurfaceTool{
		{Name: "forecast", InputSchema: []byte(`{"type":"object"}`)},
		{Name: "get_weather", InputSchema: []byte(`{"type":"object"}`), UI: &ToolUI{ResourceURI: viewURI}},
		{Name: "refresh_weather", InputSchema: []byte(`{"type":"object"}`), UI: &ToolUI{ResourceURI: viewURI, Visibility: []string{"app"}}},
	}
	for _, version := range []string{"", "2025-11-25"} {
		for _, shows := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s views=%v", version, shows), func(t *testing.T) {
				ctx := context.Background()
				srv := New(withViews, Options{})
				defer srv.Close()
				c, err := Connect(ctx, InMemoryTransport(srv), ClientOptions{ProtocolVersion: version, Views: shows})
				if err != nil {
					t.Fatal(err)
				}
				defer c.Close()
				tools, err := c.ListTools(ctx)
				if err != nil {
					t.Fatal(err)
				}
				var got []string
				for _, tl := range tools {
					u, ok := tl.UI()
					got = append(got, fmt.Sprintf("%s:%v:%s:%v", tl.Name, ok, u.ResourceURI, u.Visibility))
				}
				wantTools := "forecast:false::[] get_weather:false::[]"
				if shows {
					wantTools = "forecast:false::[] get_weather:true:ui://weather/dashboard.html:[model app] refresh_weather:true:ui://weather/dashboard.html:[app]"
				}
				if strings.Join(got, " ") != wantTools {
					t.Errorf("tools = %s, want %s", strings.Join(got, " "), wantTools)
				}
				_, err = c.ReadResource(ctx, viewURI)
				if shows != (err == nil) {
					t.Errorf("reading the view: %v (client shows views: %v)", err, shows)
				}
				if err := CheckSurface(ctx, c, want); err != nil {
					t.Errorf("CheckSurface against the server's own surface: %v", err)
				}
				moved := append([]SurfaceTool(nil), want...)
				moved[1].UI = &ToolUI{ResourceURI: "ui://weather/old.html", Visibility: []string{"model"}}
				err = CheckSurface(ctx, c, moved)
				if !shows {
					if err != nil {
						t.Errorf("CheckSurface compared links over a connection that shows no views: %v", err)
					}
					return
				}
				var se *SurfaceError
				if !errors.As(err, &se) || len(se.Differences) != 2 ||
					!strings.Contains(se.Differences[0], `the server links the view "ui://weather/dashboard.html"; the client expects "ui://weather/old.html"`) ||
					!strings.Contains(se.Differences[1], "the server offers it to app,model; the client expects model") {
					t.Errorf("CheckSurface with a moved link = %v", err)
				}
			})
		}
	}
}

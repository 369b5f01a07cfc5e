package mcpgen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"sort"

	"github.com/mcpgen/mcpgen/internal/jsonrpc"
	"github.com/mcpgen/mcpgen/internal/skills"
	"github.com/mcpgen/mcpgen/internal/views"
)

// UIExtension is the capability key of the MCP Apps extension, under
// capabilities.extensions.
const UIExtension = views.Extension

// ViewMimeType is the MIME type of a view's resource and contents.
const ViewMimeType = views.MimeType

// View is a view of the MCP Apps extension (io.modelcontextprotocol/ui,
// SEP-1865): one self-contained HTML document served as a resource at a
// ui:// URI, which a host shows in a sandboxed frame and which tools link
// to (a tool's _meta.ui, see [ToolUI]). Generated code fills it from
// //mcp:view, with the document embedded and digested by mcpgen.
//
// The extension is negotiated per client. The server declares it in
// initialize and in server/discover, to every client, so that a host can
// learn that it may opt in. Everything else is shown only to a client
// that declared it itself (the extension with [ViewMimeType] among its
// mimeTypes: initialize's capabilities in the legacy era, each request's
// clientCapabilities in 2026-07-28), see [Request.RendersViews]; to any
// other client the server answers exactly as it would without views:
//
//   - tools/list carries no _meta.ui (nor the flat ui/resourceUri key);
//   - tools offered to views only (visibility ["app"]) are not listed,
//     and tools/call answers them as unknown tools: a host that shows no
//     views would hand them to the model, which the extension forbids;
//   - resources/list does not list the views, and resources/read answers
//     a view's URI as an unknown resource.
//
// The list answers of both kinds of client are encoded once, at start.
type View struct {
	// URI is the view's resource URI; it starts with ui://.
	URI string
	// Name is the view's resource name in resources/list.
	Name string
	// Title is the view's human-readable name, for the host's display.
	Title string
	// Description says what the view shows, in its resources/list entry.
	Description string
	// Content is the HTML document, served with [ViewMimeType].
	Content []byte
	// Digest is "sha256:<hex>" of Content. When set (generated code sets
	// it), New verifies it, so the binary serves what mcpgen checked;
	// when empty, New computes it.
	Digest string
	// Meta is the view's _meta.ui, on its resources/list entry and on its
	// contents.
	Meta ViewMeta
}

// ViewMeta is what a view asks of the host that shows it (_meta.ui of its
// resource): the origins its Content-Security-Policy must allow, browser
// permissions, a dedicated sandbox origin and whether it wants a border.
// Empty fields are left out on the wire, where the host's defaults apply.
type ViewMeta struct {
	// CSP lists the origins the view's Content-Security-Policy must
	// allow.
	CSP ViewCSP
	// Permissions are the browser permissions the view asks for: camera,
	// microphone, geolocation, clipboardWrite.
	Permissions []string
	// Domain is a dedicated origin for the view's sandbox, in the format
	// of the host it is meant for.
	Domain string
	// PrefersBorder asks for a visible border and background (true) or
	// none (false); nil leaves it to the host.
	PrefersBorder *bool
}

// ViewCSP lists the origins a view needs, by what for; empty means none
// (the host's restrictive default).
type ViewCSP struct {
	// ConnectDomains are the origins the view may fetch from or open a
	// WebSocket to (connect-src).
	ConnectDomains []string `json:"connectDomains,omitempty"`
	// ResourceDomains are the origins of the view's scripts, styles,
	// images, fonts and media.
	ResourceDomains []string `json:"resourceDomains,omitempty"`
	// FrameDomains are the origins of the frames the view nests
	// (frame-src).
	FrameDomains []string `json:"frameDomains,omitempty"`
	// BaseURIDomains are the origins the view's base URI may name
	// (base-uri).
	BaseURIDomains []string `json:"baseUriDomains,omitempty"`
}

func (c ViewCSP) empty() bool {
	return len(c.ConnectDomains)+len(c.ResourceDomains)+len(c.FrameDomains)+len(c.BaseURIDomains) == 0
}

// IsZero reports whether m asks for nothing, so that _meta.ui is left out.
func (m ViewMeta) IsZero() bool {
	return m.CSP.empty() && len(m.Permissions) == 0 && m.Domain == "" && m.PrefersBorder == nil
}

// MarshalJSON writes m as the extension's UIResourceMeta: permissions as
// an object of empty objects ({"camera":{}}), empty fields left out.
func (m ViewMeta) MarshalJSON() ([]byte, error) {
	var out struct {
		CSP           *ViewCSP            `json:"csp,omitempty"`
		Permissions   map[string]struct{} `json:"permissions,omitempty"`
		Domain        string              `json:"domain,omitempty"`
		PrefersBorder *bool               `json:"prefersBorder,omitempty"`
	}
	if !m.CSP.empty() {
		out.CSP = &m.CSP
	}
	if len(m.Permissions) > 0 {
		out.Permissions = map[string]struct{}{}
		for _, p := range m.Permissions {
			out.Permissions[p] = struct{}{}
		}
	}
	out.Domain, out.PrefersBorder = m.Domain, m.PrefersBorder
	return json.Marshal(out)
}

// ToolUI links a tool to the MCP Apps extension: the view a host shows
// its results in, and who may call it. It is the tool's _meta.ui; the
// runtime also writes the flat key ui/resourceUri older hosts read.
type ToolUI struct {
	// ResourceURI is the URI of the view (one of the definition's Views);
	// empty for a tool that shows no view of its own (a tool only views
	// call, say).
	ResourceURI string `json:"resourceUri,omitempty"`
	// Visibility says who may call the tool: "model", "app" (the views of
	// this server) or both; nil means both.
	Visibility []string `json:"visibility,omitempty"`
}

// AppOnly reports whether the tool is offered to views only, not to the
// model.
func (u ToolUI) AppOnly() bool { return views.AppOnly(u.Visibility) }

// UI returns the tool's link to the MCP Apps extension as its entry
// carries it (_meta.ui, else the flat ui/resourceUri key), and whether it
// has one. A server shows it only to clients that declared the
// extension ([ClientOptions].Views).
func (t ToolInfo) UI() (ToolUI, bool) {
	var meta struct {
		UI     *ToolUI `json:"ui"`
		Legacy string  `json:"ui/resourceUri"`
	}
	if len(t.Meta) == 0 || json.Unmarshal(t.Meta, &meta) != nil || meta.UI == nil && meta.Legacy == "" {
		return ToolUI{}, false
	}
	var u ToolUI
	if meta.UI != nil {
		u = *meta.UI
	}
	if u.ResourceURI == "" {
		u.ResourceURI = meta.Legacy
	}
	return u, true
}

// RendersViews reports whether the client declared the MCP Apps extension
// with the view MIME type among its mimeTypes, on this request (2026-07-28)
// or in initialize (legacy): it can show views, so it is shown the tools'
// links, the views and the tools offered to views only. A tool may use it
// to shape its text for clients that show no view.
func (r *Request) RendersViews() bool { return rendersViews(r.ClientCaps) }

// rendersViews reads client capabilities without decoding them whole:
// extensions["io.modelcontextprotocol/ui"].mimeTypes holds the view MIME
// type.
func rendersViews(caps json.RawMessage) bool {
	if len(caps) == 0 || !bytes.Contains(caps, []byte(views.Extension)) {
		return false
	}
	found := false
	_ = jsonrpc.Fields(caps, func(k, v []byte) error {
		if string(k) != `"extensions"` || len(v) == 0 || v[0] != '{' {
			return nil
		}
		return jsonrpc.Fields(v, func(k, v []byte) error {
			if string(k) != `"`+views.Extension+`"` || len(v) == 0 || v[0] != '{' {
				return nil
			}
			return jsonrpc.Fields(v, func(k, v []byte) error {
				if string(k) != `"mimeTypes"` {
					return nil
				}
				var types []string
				if json.Unmarshal(v, &types) == nil && slices.Contains(types, views.MimeType) {
					found = true
				}
				return nil
			})
		})
	})
	return found
}

// appsFeature is the MCP Apps extension of one server: its views and the
// answers only clients that show views get. It is nil for a server
// without views and without tools linked to the extension.
type appsFeature struct {
	views []*servedView          // sorted by URI
	byURI map[string]*servedView // URI -> view
	tools map[string]*ToolUI     // tool name -> its link
}

// servedView is a view with its list entry and contents, built once.
type servedView struct {
	View
	info     ResourceInfo
	contents ResourceContents
	cache    Cache
}

// uiVariant suffixes the method of a list answer encoded for clients that
// show views (their tools with _meta.ui, the tools only views call, the
// views among the resources); its cursors are sealed apart.
const uiVariant = "+ui"

// buildApps checks the definition's views and tool links and indexes
// them; nil when the server has none.
func buildApps(def *Definition, cache Cache) (*appsFeature, error) {
	a := &appsFeature{byURI: map[string]*servedView{}, tools: map[string]*ToolUI{}}
	resources := map[string]bool{}
	for _, r := range def.Resources {
		resources[r.Info.URI] = true
	}
	for _, v := range def.Views {
		if why := views.CheckURI(v.URI); why != "" {
			return nil, fmt.Errorf("view %q: the URI %s", v.URI, why)
		}
		if _, dup := a.byURI[v.URI]; dup || resources[v.URI] {
			return nil, fmt.Errorf("view %s: a resource or view has that URI already", v.URI)
		}
		if v.Name == "" {
			return nil, fmt.Errorf("view %s: no name", v.URI)
		}
		if why := views.CheckHTML(v.Content); why != "" {
			return nil, fmt.Errorf("view %s: the content %s", v.URI, why)
		}
		digest := skills.Digest(v.Content)
		if v.Digest != "" && v.Digest != digest {
			return nil, fmt.Errorf("view %s does not match its digest %s (run `go generate ./...` again)", v.URI, v.Digest)
		}
		v.Digest = digest
		if err := checkViewMeta(v.Meta); err != nil {
			return nil, fmt.Errorf("view %s: %w", v.URI, err)
		}
		sv := &servedView{View: v, cache: cache}
		var meta json.RawMessage
		if !v.Meta.IsZero() {
			ui, _ := json.Marshal(v.Meta)
			meta = json.RawMessage(`{"ui":` + string(ui) + `}`)
		}
		size := int64(len(v.Content))
		sv.info = ResourceInfo{URI: v.URI, Name: v.Name, Title: v.Title, Description: v.Description, MimeType: views.MimeType, Size: &size, Meta: meta}
		text := string(v.Content)
		sv.contents = ResourceContents{URI: v.URI, MimeType: views.MimeType, Text: &text, Meta: meta}
		a.byURI[v.URI] = sv
		a.views = append(a.views, sv)
	}
	sort.Slice(a.views, func(i, j int) bool { return a.views[i].URI < a.views[j].URI })
	for i := range def.Tools {
		t := &def.Tools[i]
		if t.UI == nil {
			continue
		}
		name := t.Info.Name
		if t.UI.Visibility != nil {
			if why := views.CheckVisibility(t.UI.Visibility); why != "" {
				return nil, fmt.Errorf("tool %s: the visibility %s", name, why)
			}
		}
		if u := t.UI.ResourceURI; u != "" && a.byURI[u] == nil {
			return nil, fmt.Errorf("tool %s links to the view %s, which the definition does not declare", name, u)
		}
		if t.UI.ResourceURI == "" && t.UI.Visibility == nil {
			return nil, fmt.Errorf("tool %s: its UI names neither a view nor a visibility", name)
		}
		if len(t.Info.Meta) > 0 {
			var m map[string]json.RawMessage
			if err := json.Unmarshal(t.Info.Meta, &m); err != nil {
				return nil, fmt.Errorf("tool %s: _meta is not a JSON object", name)
			}
			if _, ok := m["ui"]; ok {
				return nil, fmt.Errorf("tool %s: set Tool.UI, not _meta.ui", name)
			}
			if _, ok := m[views.LegacyURIKey]; ok {
				return nil, fmt.Errorf("tool %s: set Tool.UI, not _meta[%q]", name, views.LegacyURIKey)
			}
		}
		a.tools[name] = t.UI
	}
	if len(a.views) == 0 && len(a.tools) == 0 {
		return nil, nil
	}
	return a, nil
}

// checkViewMeta applies the generator's rules to a view's metadata.
func checkViewMeta(m ViewMeta) error {
	for _, d := range [][]string{m.CSP.ConnectDomains, m.CSP.ResourceDomains, m.CSP.FrameDomains, m.CSP.BaseURIDomains} {
		for _, o := range d {
			if why := views.CheckOrigin(o); why != "" {
				return fmt.Errorf("CSP domain %q %s", o, why)
			}
		}
	}
	for _, p := range m.Permissions {
		if why := views.CheckPermission(p); why != "" {
			return fmt.Errorf("permission %q %s", p, why)
		}
	}
	return nil
}

// hiddenTool reports whether t is offered to views only and the client
// shows none, so that for it the tool does not exist.
func hiddenTool(req *Request, t *Tool) bool {
	return t.UI != nil && t.UI.AppOnly() && !req.RendersViews()
}

// withUI returns a tool's list entry as clients that show views get it:
// _meta.ui, and the flat ui/resourceUri key when it links a view.
func withUI(info ToolInfo, ui *ToolUI) (ToolInfo, error) {
	m := map[string]json.RawMessage{}
	if len(info.Meta) > 0 {
		if err := json.Unmarshal(info.Meta, &m); err != nil {
			return info, fmt.Errorf("tool %s: _meta: %w", info.Name, err)
		}
	}
	u := *ui
	if u.Visibility == nil {
		u.Visibility = []string{views.Model, views.App} // the default, said explicitly
	}
	m["ui"], _ = json.Marshal(u)
	if u.ResourceURI != "" {
		m[views.LegacyURIKey], _ = json.Marshal(u.ResourceURI)
	}
	b, err := json.Marshal(m) // keys sorted: "ui" before "ui/resourceUri"
	if err != nil {
		return info, fmt.Errorf("tool %s: _meta: %w", info.Name, err)
	}
	info.Meta = b
	return info, nil
}

// addLists encodes the tools/list and resources/list answers of def for
// clients that show views, beside the plain ones.
func (a *appsFeature) addLists(b *listPages, def *Definition) error {
	if a == nil {
		return nil
	}
	tools := make([]any, 0, len(def.Tools))
	for _, t := range def.Tools {
		info := t.Info
		if ui := a.tools[info.Name]; ui != nil {
			var err error
			if info, err = withUI(info, ui); err != nil {
				return err
			}
		}
		tools = append(tools, info)
	}
	resources := make([]any, 0, len(def.Resources)+len(a.views))
	for _, r := range def.Resources {
		resources = append(resources, r.Info)
	}
	for _, v := range a.views {
		resources = append(resources, v.info)
	}
	for _, l := range []struct {
		method, key string
		items       []any
	}{
		{"tools/list", "tools", tools},
		{"resources/list", "resources", resources},
	} {
		if err := b.add(l.method+uiVariant, l.key, l.items, false); err != nil {
			return err
		}
	}
	return nil
}

// listMethod is the list that answers req: the one with the extension's
// additions when the client shows views.
func (a *appsFeature) listMethod(req *Request) string {
	if a != nil && (req.Method == "tools/list" || req.Method == "resources/list") && req.RendersViews() {
		return req.Method + uiVariant
	}
	return req.Method
}

// hasViews reports whether the server serves any view.
func (a *appsFeature) hasViews() bool { return a != nil && len(a.views) > 0 }

// view returns the view at uri when the client shows views, else nil.
func (a *appsFeature) view(req *Request, uri string) *servedView {
	if a == nil {
		return nil
	}
	if v := a.byURI[uri]; v != nil && req.RendersViews() {
		return v
	}
	return nil
}

// read answers resources/read of the view: one text content item with the
// view MIME type and _meta.ui.
func (v *servedView) read() *ReadResourceResult {
	return &ReadResourceResult{Contents: []ResourceContents{v.contents}}
}

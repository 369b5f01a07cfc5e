package mcpgen

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// ReadResourceAs reads the resource at uri and returns its first contents
// as Out: the text when Out is string, the decoded blob (or the text's
// bytes) when Out is []byte, and otherwise the text decoded as JSON into
// Out. A resource with no contents, or whose contents do not fit Out, is an
// error naming the URI that wraps [ErrUnexpectedResult].
func ReadResourceAs[Out any](ctx context.Context, c *Client, uri string) (Out, error) {
	var out Out
	res, err := c.ReadResource(ctx, uri)
	if err != nil {
		return out, err
	}
	if res == nil || len(res.Contents) == 0 {
		return out, fmt.Errorf("resource %s: %w: the server sent no contents", uri, ErrUnexpectedResult)
	}
	rc := res.Contents[0]
	switch p := any(&out).(type) {
	case *string:
		if rc.Text == nil {
			return out, fmt.Errorf("resource %s: %w: the server sent a blob, not text", uri, ErrUnexpectedResult)
		}
		*p = *rc.Text
		return out, nil
	case *[]byte:
		if rc.Text != nil {
			*p = []byte(*rc.Text)
			return out, nil
		}
		b, err := base64.StdEncoding.DecodeString(rc.Blob)
		if err != nil {
			return out, fmt.Errorf("resource %s: %w: blob is not base64: %w", uri, ErrUnexpectedResult, err)
		}
		*p = b
		return out, nil
	}
	if rc.Text == nil {
		return out, fmt.Errorf("resource %s: %w: the server sent a blob, not JSON text", uri, ErrUnexpectedResult)
	}
	if err := json.Unmarshal([]byte(*rc.Text), &out); err != nil {
		return out, fmt.Errorf("resource %s: decode %T: %w: %w", uri, out, ErrUnexpectedResult, err)
	}
	return out, nil
}

// ExpandTemplate expands the URI template's {var} and {+var} expressions
// (RFC 6570 levels 1 and 2, what mcpgen servers match) with vars: a {var}
// value is percent-encoded except for unreserved characters, so a value
// holding "/" or "?" stays one variable; a {+var} value keeps reserved
// characters too (a path). A variable missing from vars expands to "".
// Other text, including expressions of other kinds, is kept as it is.
func ExpandTemplate(uriTemplate string, vars map[string]string) string {
	var b strings.Builder
	rest := uriTemplate
	for {
		open := strings.IndexByte(rest, '{')
		if open < 0 {
			break
		}
		end := strings.IndexByte(rest[open:], '}')
		if end < 0 {
			break
		}
		expr := rest[open+1 : open+end]
		name, reserved := strings.CutPrefix(expr, "+")
		if name == "" || strings.IndexFunc(name, func(r rune) bool {
			return !(r == '_' || '0' <= r && r <= '9' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z')
		}) >= 0 {
			b.WriteString(rest[:open+end+1])
			rest = rest[open+end+1:]
			continue
		}
		b.WriteString(rest[:open])
		b.WriteString(pctEncode(vars[name], reserved))
		rest = rest[open+end+1:]
	}
	b.WriteString(rest)
	return b.String()
}

// pctEncode encodes s for a template expression: unreserved characters
// stay, and with reserved also RFC 3986's reserved characters and
// percent-encoded triplets.
func pctEncode(s string, reserved bool) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '-', c == '.', c == '_', c == '~':
			b.WriteByte(c)
		case reserved && strings.IndexByte(":/?#[]@!$&'()*+,;=", c) >= 0:
			b.WriteByte(c)
		case reserved && c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			b.WriteString(s[i : i+3])
			i += 2
		default:
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		}
	}
	return b.String()
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// SurfaceTool is a tool as a typed client was generated against it: its
// name, its input and output schemas (OutputSchema nil when the tool had
// none) and its link to the MCP Apps extension (UI nil when it had none).
type SurfaceTool struct {
	// Name is the tool's name.
	Name string
	// InputSchema is the JSON Schema of the tool's arguments.
	InputSchema []byte
	// OutputSchema is the JSON Schema of its structured result; nil
	// when it had none.
	OutputSchema []byte
	// UI is the tool's link to a view of the MCP Apps extension; nil
	// when it had none.
	UI *ToolUI
}

// SurfaceResource is a resource, or a resource template when Template
// is set, as a typed client was generated against it: its URI (or URI
// template) and its MIME type ("" when it declared none).
type SurfaceResource struct {
	// URI is the resource's URI, or the template's URI template.
	URI string
	// MimeType is the media type it declared; "" when none.
	MimeType string
	// Template says that URI is a URI template.
	Template bool
}

// SurfacePrompt is a prompt as a typed client was generated against it:
// its name and its arguments.
type SurfacePrompt struct {
	// Name is the prompt's name.
	Name string
	// Arguments are the arguments it declared.
	Arguments []SurfaceArgument
}

// SurfaceArgument is one argument of a [SurfacePrompt].
type SurfaceArgument struct {
	// Name is the argument's name.
	Name string
	// Required says that the prompt cannot be got without it.
	Required bool
}

// SurfaceSkill is a skill as a typed client was generated against it:
// the URI of its SKILL.md.
type SurfaceSkill struct {
	// URI is the address of the skill's SKILL.md.
	URI string
}

// Surface is every primitive a typed client was generated against: its
// tools, resources and templates, prompts and skills. Generated typed
// clients hold theirs and check it in their CheckSurface method.
type Surface struct {
	// Tools are the tools the client calls.
	Tools []SurfaceTool
	// Resources are the resources and resource templates it reads.
	Resources []SurfaceResource
	// Prompts are the prompts it gets.
	Prompts []SurfacePrompt
	// Skills are the skills it reads.
	Skills []SurfaceSkill
}

// SurfaceError lists how a server differs from what a typed client was
// generated against, one line per difference.
type SurfaceError struct {
	// Differences are the differences, one sentence each.
	Differences []string
}

// Error counts the differences and lists them, one per line.
func (e *SurfaceError) Error() string {
	what := "tools differ"
	for _, d := range e.Differences {
		if !strings.HasPrefix(d, "tool ") {
			what = "surface differs"
			break
		}
	}
	return fmt.Sprintf("the server's %s from the client's (%d difference(s)):\n\t%s",
		what, len(e.Differences), strings.Join(e.Differences, "\n\t"))
}

// surfaceIgnored are the schema keywords that only document: a difference
// in them changes no message a client and a server exchange.
var surfaceIgnored = map[string]bool{"description": true, "title": true, "examples": true, "$comment": true}

// CheckSurface lists the server's tools and compares each tool of want
// with the server's tool of the same name: a tool the server does not
// offer, or whose input or output schema differs, is a difference, and
// the error (a *SurfaceError) lists every one with the JSON pointer where
// the schemas part. Documentation keywords (description, title, examples,
// $comment) are not compared, nor tools the server offers beyond want.
// Over a connection that shows views ([ClientOptions].Views) each tool's
// view link and visibility are compared too; over any other, tools
// offered to views only are not looked for, since servers list them only
// to clients that show views. [Surface.Check] compares the other
// primitives too.
func CheckSurface(ctx context.Context, c *Client, want []SurfaceTool) error {
	return (&Surface{Tools: want}).Check(ctx, c)
}

// Check lists the server's tools, and its resources, resource templates,
// prompts and skills when s names any, and compares them with s: the
// tools as [CheckSurface] does; a resource or template the server does
// not offer, or offers with another MIME type (a client decodes by it);
// a prompt it does not offer, an argument of s it does not take, or one
// it requires that s does not; a skill it does not offer. The error (a
// *SurfaceError) lists every difference; what the server offers beyond s
// is not one. Typed clients call it from their CheckSurface method.
func (s *Surface) Check(ctx context.Context, c *Client) error {
	tools, err := c.ListTools(ctx)
	if err != nil {
		return fmt.Errorf("check surface: %w", err)
	}
	diffs := toolDiffs(c, s.Tools, tools)
	var fixed, templates []SurfaceResource
	for _, r := range s.Resources {
		if r.Template {
			templates = append(templates, r)
		} else {
			fixed = append(fixed, r)
		}
	}
	if len(fixed) > 0 {
		got, err := c.ListResources(ctx)
		if err != nil {
			return fmt.Errorf("check surface: %w", err)
		}
		offered := map[string]string{}
		for _, r := range got {
			offered[r.URI] = r.MimeType
		}
		diffs = append(diffs, resourceDiffs("resource", fixed, offered)...)
	}
	if len(templates) > 0 {
		got, err := c.ListResourceTemplates(ctx)
		if err != nil {
			return fmt.Errorf("check surface: %w", err)
		}
		offered := map[string]string{}
		for _, r := range got {
			offered[r.URITemplate] = r.MimeType
		}
		diffs = append(diffs, resourceDiffs("resource template", templates, offered)...)
	}
	if len(s.Prompts) > 0 {
		got, err := c.ListPrompts(ctx)
		if err != nil {
			return fmt.Errorf("check surface: %w", err)
		}
		diffs = append(diffs, promptDiffs(s.Prompts, got)...)
	}
	if len(s.Skills) > 0 {
		got, err := c.ListSkills(ctx)
		if err != nil {
			return fmt.Errorf("check surface: %w", err)
		}
		offered := map[string]bool{}
		for _, sk := range got {
			offered[sk.URI] = true
		}
		for _, sk := range s.Skills {
			if !offered[sk.URI] {
				diffs = append(diffs, fmt.Sprintf("skill %s: the server does not offer it", sk.URI))
			}
		}
	}
	if len(diffs) > 0 {
		return &SurfaceError{Differences: diffs}
	}
	return nil
}

// toolDiffs compares the tools of want with those the server offered.
func toolDiffs(c *Client, want []SurfaceTool, tools []ToolInfo) []string {
	offered := make(map[string]ToolInfo, len(tools))
	for _, t := range tools {
		offered[t.Name] = t
	}
	var diffs []string
	for _, w := range want {
		if w.UI != nil && w.UI.AppOnly() && !c.opts.Views {
			continue
		}
		got, ok := offered[w.Name]
		if !ok {
			diffs = append(diffs, fmt.Sprintf("tool %s: the server does not offer it", w.Name))
			continue
		}
		diffs = append(diffs, schemaDiffs("tool "+w.Name+": input schema", w.InputSchema, got.InputSchema)...)
		switch {
		case len(w.OutputSchema) == 0 && len(got.OutputSchema) != 0:
			diffs = append(diffs, fmt.Sprintf("tool %s: the server declares an output schema; the client expects none", w.Name))
		case len(w.OutputSchema) != 0 && len(got.OutputSchema) == 0:
			diffs = append(diffs, fmt.Sprintf("tool %s: the server declares no output schema; the client expects one", w.Name))
		case len(w.OutputSchema) != 0:
			diffs = append(diffs, schemaDiffs("tool "+w.Name+": output schema", w.OutputSchema, got.OutputSchema)...)
		}
		if c.opts.Views {
			diffs = append(diffs, uiDiffs(w, got)...)
		}
	}
	return diffs
}

// resourceDiffs compares resources (or templates) with those offered, by
// URI: presence and MIME type.
func resourceDiffs(kind string, want []SurfaceResource, offered map[string]string) []string {
	var diffs []string
	for _, r := range want {
		mime, ok := offered[r.URI]
		switch {
		case !ok:
			diffs = append(diffs, fmt.Sprintf("%s %s: the server does not offer it", kind, r.URI))
		case mime != r.MimeType:
			diffs = append(diffs, fmt.Sprintf("%s %s: the server declares MIME type %q; the client expects %q", kind, r.URI, mime, r.MimeType))
		}
	}
	return diffs
}

// promptDiffs compares prompts with those offered, by name: presence and
// arguments.
func promptDiffs(want []SurfacePrompt, got []PromptInfo) []string {
	offered := make(map[string]PromptInfo, len(got))
	for _, p := range got {
		offered[p.Name] = p
	}
	var diffs []string
	for _, w := range want {
		p, ok := offered[w.Name]
		if !ok {
			diffs = append(diffs, fmt.Sprintf("prompt %s: the server does not offer it", w.Name))
			continue
		}
		known := map[string]bool{}
		for _, a := range w.Arguments {
			known[a.Name] = a.Required
		}
		has := map[string]bool{}
		for _, a := range p.Arguments {
			has[a.Name] = true
			required, ok := known[a.Name]
			switch {
			case !ok && a.Required:
				diffs = append(diffs, fmt.Sprintf("prompt %s: the server requires the argument %s, which the client does not know", w.Name, a.Name))
			case ok && a.Required && !required:
				diffs = append(diffs, fmt.Sprintf("prompt %s: the server requires the argument %s, which the client may leave out", w.Name, a.Name))
			}
		}
		for _, a := range w.Arguments {
			if !has[a.Name] {
				diffs = append(diffs, fmt.Sprintf("prompt %s: the server takes no argument %s", w.Name, a.Name))
			}
		}
	}
	return diffs
}

// schemaDiffs compares two JSON documents and describes each place where
// they differ.
func schemaDiffs(subject string, want, got []byte) []string {
	var w, g any
	if err := json.Unmarshal(want, &w); err != nil {
		return []string{fmt.Sprintf("%s: the client's schema is not JSON: %v", subject, err)}
	}
	if err := json.Unmarshal(got, &g); err != nil {
		return []string{fmt.Sprintf("%s: the server's schema is not JSON: %v", subject, err)}
	}
	var out []string
	jsonDiff("", w, g, func(at, what string) {
		if at == "" {
			at = "/"
		}
		out = append(out, fmt.Sprintf("%s at %s: %s", subject, at, what))
	})
	return out
}

// jsonDiff walks two decoded JSON values and reports each difference.
func jsonDiff(at string, want, got any, report func(at, what string)) {
	wm, wok := want.(map[string]any)
	gm, gok := got.(map[string]any)
	if wok && gok {
		keys := make([]string, 0, len(wm)+len(gm))
		for k := range wm {
			keys = append(keys, k)
		}
		for k := range gm {
			if _, dup := wm[k]; !dup {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		for _, k := range keys {
			if surfaceIgnored[k] && !strings.HasSuffix(at, "/properties") && !strings.HasSuffix(at, "/$defs") {
				continue
			}
			p := at + "/" + strings.ReplaceAll(strings.ReplaceAll(k, "~", "~0"), "/", "~1")
			wv, win := wm[k]
			gv, gin := gm[k]
			switch {
			case !gin:
				report(p, "the client has "+brief(wv)+", the server nothing")
			case !win:
				report(p, "the server has "+brief(gv)+", the client nothing")
			default:
				jsonDiff(p, wv, gv, report)
			}
		}
		return
	}
	wa, wok := want.([]any)
	ga, gok := got.([]any)
	if wok && gok && len(wa) == len(ga) {
		for i := range wa {
			jsonDiff(at+"/"+strconv.Itoa(i), wa[i], ga[i], report)
		}
		return
	}
	if !reflect.DeepEqual(want, got) {
		report(at, "the client has "+brief(want)+", the server "+brief(got))
	}
}

// brief renders a JSON value for a difference line, cut when long.
func brief(v any) string {
	b, _ := json.Marshal(v)
	if len(b) > 80 {
		return string(b[:77]) + "..."
	}
	return string(b)
}

// uiDiffs compares a tool's link to the MCP Apps extension with the one a
// typed client expects.
func uiDiffs(w SurfaceTool, got ToolInfo) []string {
	var want ToolUI
	if w.UI != nil {
		want = *w.UI
	}
	have, _ := got.UI()
	var out []string
	if want.ResourceURI != have.ResourceURI {
		out = append(out, fmt.Sprintf("tool %s: the server links the view %q; the client expects %q", w.Name, have.ResourceURI, want.ResourceURI))
	}
	visibility := func(v []string) string {
		if len(v) == 0 {
			v = []string{"model", "app"} // the default
		}
		v = slices.Clone(v)
		slices.Sort(v)
		return strings.Join(v, ",")
	}
	if a, b := visibility(want.Visibility), visibility(have.Visibility); a != b {
		out = append(out, fmt.Sprintf("tool %s: the server offers it to %s; the client expects %s", w.Name, b, a))
	}
	return out
}

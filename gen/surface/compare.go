package surface

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Change is one difference between two surfaces.
type Change struct {
	// Rule names the kind of change ("input-required", "tool-removed"...);
	// `mcpgen breaking -allow RULE` accepts a known break by this name.
	Rule string
	// Breaking is set when a caller written against the old surface may
	// fail against the new one.
	Breaking bool
	// Kind is "server", "tool", "resource", "template", "prompt",
	// "skill" or "view"; Name the item's name (a resource's or view's
	// URI).
	Kind, Name string
	// Field is the input or output property (a dotted path, "[]" for
	// array items) or prompt argument the change is about; "" for the
	// item as a whole.
	Field string
	// Output is set when Field is in the tool's output schema.
	Output bool
	// Renamed is, for a removed item, the name (or URI) of an added item
	// that is the same in every other respect: the change is reported
	// once, as a likely rename, not as a removal and an addition.
	Renamed string
	// Message says what changed, in a caller's terms.
	Message string
}

// String is the change as `mcpgen breaking` prints it, after the source
// position: "tool add_note: input property "tags" is now required".
func (c Change) String() string {
	return c.Kind + " " + c.Name + ": " + c.Message
}

// Rules lists every rule Compare applies, breaking ones first, with what
// each means; `mcpgen breaking -h` prints it.
var Rules = []struct {
	Name     string
	Breaking bool
	Doc      string
}{
	{"tool-removed", true, "a tool was removed or renamed"},
	{"resource-removed", true, "a resource was removed or its URI changed"},
	{"template-removed", true, "a resource template was removed or renamed"},
	{"prompt-removed", true, "a prompt was removed or renamed"},
	{"skill-removed", true, "a skill was removed or renamed"},
	{"template-variables-changed", true, "a template's URI or its variables changed"},
	{"input-required", true, "an input property was added as required, or became required"},
	{"input-property-removed", true, "an input property was removed where other properties are refused"},
	{"input-closed", true, "the input now refuses properties it did not name"},
	{"input-type-changed", true, "an input's type no longer accepts every value it did"},
	{"input-enum-narrowed", true, "an input's allowed values lost one, or became a list"},
	{"input-bounds-narrowed", true, "an input's bounds became tighter (minimum, maximum, lengths, item counts)"},
	{"input-pattern-changed", true, "an input got a new or different pattern"},
	{"input-format-changed", true, "an input got a new or different format"},
	{"output-property-removed", true, "an output property was removed"},
	{"output-now-optional", true, "an output property is no longer always present"},
	{"output-type-changed", true, "an output's type may now hold values it could not"},
	{"output-enum-widened", true, "an output may now hold a value outside its old list"},
	{"output-schema-removed", true, "a tool no longer declares its structured output"},
	{"prompt-argument-required", true, "a prompt argument was added as required, or became required"},
	{"prompt-argument-removed", true, "a prompt argument was removed"},
	{"tool-no-longer-read-only", true, "a read-only tool may now change state"},
	{"tool-now-destructive", true, "a tool declared non-destructive may now destroy data"},
	{"tool-no-longer-idempotent", true, "an idempotent tool may no longer be safe to retry"},
	{"mime-type-changed", true, "a resource's or template's MIME type changed (clients decode by it)"},
	{"tool-scope-changed", true, "a tool needs an OAuth scope it did not need"},
	{"tool-task-changed", true, "a tool now requires tasks, or no longer supports them"},
	{"view-removed", true, "a view (MCP Apps) was removed or its URI changed"},
	{"tool-view-changed", true, "a tool's view changed or was unlinked, or the model or the views may no longer call it"},
	{"event-removed", true, "an event was removed or renamed"},
	{"event-scope-changed", true, "an event needs an OAuth scope it did not need"},

	{"added", false, "a tool, resource, template, prompt or skill was added"},
	{"input-widened", false, "an input accepts more than it did (optional property, wider type, enum value, looser bounds)"},
	{"output-property-added", false, "an output property was added"},
	{"output-narrowed", false, "an output holds fewer kinds of values, or a property became always present"},
	{"output-schema-added", false, "a tool now declares its structured output"},
	{"prompt-argument-added", false, "an optional prompt argument was added, or an argument became optional"},
	{"annotations-changed", false, "a tool's hints changed in a way callers can rely on"},
	{"described", false, "a title, description, name or instructions changed"},
	{"skill-changed", false, "a skill's content changed (its digest)"},
	{"tool-view-added", false, "a tool now links a view, or more callers may call it (its visibility)"},
	{"view-changed", false, "a view's content (its digest) or what it asks of hosts (CSP, permissions, domain, border) changed"},
	{"server-changed", false, "the server's name or version changed"},
}

// Compare lists what changed from old to new, sorted by kind, name and
// message.
func Compare(old, new *Surface) []Change {
	var d differ
	d.server(old.Server, new.Server)
	pair(&d, "tool", old.Tools, new.Tools, func(t *Tool) *string { return &t.Name }, "tool-removed", d.tool)
	pair(&d, "resource", old.Resources, new.Resources, func(r *Resource) *string { return &r.URI }, "resource-removed", d.resource)
	pair(&d, "template", old.Templates, new.Templates, func(t *Template) *string { return &t.Name }, "template-removed", d.template)
	pair(&d, "prompt", old.Prompts, new.Prompts, func(p *Prompt) *string { return &p.Name }, "prompt-removed", d.prompt)
	pair(&d, "skill", old.Skills, new.Skills, func(s *Skill) *string { return &s.Name }, "skill-removed", d.skill)
	pair(&d, "view", old.Views, new.Views, func(v *View) *string { return &v.URI }, "view-removed", d.view)
	pair(&d, "event", old.Events, new.Events, func(e *Event) *string { return &e.Name }, "event-removed", d.event)
	slices.SortStableFunc(d.out, func(a, b Change) int {
		return cmp.Or(strings.Compare(a.Kind, b.Kind), strings.Compare(a.Name, b.Name), strings.Compare(a.Message, b.Message))
	})
	return d.out
}

// Bump is the semantic version increment the changes need: "major" for
// any breaking change, "minor" for additions, "patch" for the rest, ""
// for none.
func Bump(changes []Change) string {
	bump := ""
	for _, c := range changes {
		switch {
		case c.Breaking:
			return "major"
		case c.Rule == "added" || c.Rule == "input-widened" || c.Rule == "output-property-added" ||
			c.Rule == "output-schema-added" || c.Rule == "prompt-argument-added" || c.Rule == "tool-view-added":
			bump = "minor"
		case bump == "":
			bump = "patch"
		}
	}
	return bump
}

type differ struct {
	out []Change
	// kind and name of the item being compared
	kind, name string
}

func (d *differ) add(rule string, field string, output bool, format string, args ...any) {
	breaking := false
	for _, r := range Rules {
		if r.Name == rule {
			breaking = r.Breaking
		}
	}
	d.out = append(d.out, Change{Rule: rule, Breaking: breaking, Kind: d.kind, Name: d.name, Field: field, Output: output, Message: fmt.Sprintf(format, args...)})
}

// pair matches the items of two lists by key (key points into an item)
// and compares each pair; items only in old are removed (rule), only in
// new added. A removed item that is, but for its key, the same as exactly
// one added item (and that one like no other removed item) is reported
// once, as a likely rename.
func pair[T any](d *differ, kind string, old, new []T, key func(*T) *string, removed string, same func(o, n T)) {
	byKey := map[string]T{}
	for _, n := range new {
		byKey[*key(&n)] = n
	}
	oldKeys := map[string]bool{}
	for _, o := range old {
		oldKeys[*key(&o)] = true
	}
	// shape is an item's JSON without its key: equal shapes, different
	// keys is a rename.
	shape := func(v T) string {
		*key(&v) = ""
		b, _ := json.Marshal(v)
		return string(b)
	}
	gone, came := map[string][]string{}, map[string][]string{}
	for _, o := range old {
		if _, ok := byKey[*key(&o)]; !ok {
			sh := shape(o)
			gone[sh] = append(gone[sh], *key(&o))
		}
	}
	for _, n := range new {
		if k := *key(&n); !oldKeys[k] {
			sh := shape(n)
			came[sh] = append(came[sh], k)
		}
	}
	renamed := map[string]string{} // old key -> new key
	renamedTo := map[string]bool{}
	for sh, olds := range gone {
		if news := came[sh]; len(olds) == 1 && len(news) == 1 {
			renamed[olds[0]] = news[0]
			renamedTo[news[0]] = true
		}
	}
	for _, o := range old {
		k := *key(&o)
		d.kind, d.name = kind, k
		if n, ok := byKey[k]; ok {
			same(o, n)
		} else if to, ok := renamed[k]; ok {
			d.add(removed, "", false, "renamed to %q? (callers of %s %q fail)", to, kind, k)
			d.out[len(d.out)-1].Renamed = to
		} else {
			d.add(removed, "", false, "removed (callers of %s %q fail)", kind, k)
		}
	}
	for _, n := range new {
		if k := *key(&n); !oldKeys[k] && !renamedTo[k] {
			d.kind, d.name = kind, k
			d.add("added", "", false, "added")
		}
	}
}

func (d *differ) server(o, n Server) {
	d.kind, d.name = "server", o.Name
	if o.Name != n.Name {
		d.add("server-changed", "", false, "renamed to %q", n.Name)
	}
	if o.Version != n.Version {
		d.add("server-changed", "", false, "version %s is now %s", o.Version, n.Version)
	}
	if o.Title != n.Title || o.Instructions != n.Instructions {
		d.add("described", "", false, "title or instructions changed")
	}
}

func (d *differ) described(oTitle, nTitle, oDesc, nDesc string) {
	if oTitle != nTitle || oDesc != nDesc {
		d.add("described", "", false, "title or description changed")
	}
}

func (d *differ) tool(o, n Tool) {
	d.described(o.Title, n.Title, o.Description, n.Description)
	d.annotations(o.Annotations, n.Annotations)
	if n.Scope != "" && n.Scope != o.Scope {
		d.add("tool-scope-changed", "", false, "now needs scope %q (was %q)", n.Scope, o.Scope)
	} else if o.Scope != n.Scope {
		d.add("annotations-changed", "", false, "no longer needs scope %q", o.Scope)
	}
	switch {
	case o.Task == n.Task:
	case n.Task == "required" || o.Task != "" && n.Task == "":
		d.add("tool-task-changed", "", false, "task support %q is now %q", taskSupport(o.Task), taskSupport(n.Task))
	default:
		d.add("annotations-changed", "", false, "task support %q is now %q", taskSupport(o.Task), taskSupport(n.Task))
	}
	d.toolView(o, n)
	d.input("", load(o.InputSchema), load(n.InputSchema))
	switch {
	case len(o.OutputSchema) > 0 && len(n.OutputSchema) == 0:
		d.add("output-schema-removed", "", true, "no longer declares an output schema (structured results may be gone)")
	case len(o.OutputSchema) == 0 && len(n.OutputSchema) > 0:
		d.add("output-schema-added", "", true, "now declares an output schema")
	case len(o.OutputSchema) > 0:
		d.output("", load(o.OutputSchema), load(n.OutputSchema))
	}
}

func taskSupport(s string) string { return cmp.Or(s, "forbidden") }

func (d *differ) annotations(o, n *Annotations) {
	if o == nil {
		o = &Annotations{}
	}
	if n == nil {
		n = &Annotations{}
	}
	// MCP's defaults: not read-only, destructive, not idempotent, open world.
	readOnly := func(a *Annotations) bool { return a.ReadOnly != nil && *a.ReadOnly }
	destructive := func(a *Annotations) bool { return !readOnly(a) && (a.Destructive == nil || *a.Destructive) }
	idempotent := func(a *Annotations) bool { return a.Idempotent != nil && *a.Idempotent }
	switch {
	case readOnly(o) && !readOnly(n):
		d.add("tool-no-longer-read-only", "", false, "is no longer read-only")
	case !destructive(o) && destructive(n):
		d.add("tool-now-destructive", "", false, "is now destructive")
	case idempotent(o) && !idempotent(n):
		d.add("tool-no-longer-idempotent", "", false, "is no longer idempotent (callers that retry it rely on that)")
	case !equalHints(o, n):
		d.add("annotations-changed", "", false, "behaviour hints changed")
	}
}

func equalHints(a, b *Annotations) bool {
	eq := func(x, y *bool) bool { return (x == nil) == (y == nil) && (x == nil || *x == *y) }
	return eq(a.ReadOnly, b.ReadOnly) && eq(a.Destructive, b.Destructive) && eq(a.Idempotent, b.Idempotent) && eq(a.OpenWorld, b.OpenWorld)
}

func (d *differ) resource(o, n Resource) {
	d.described(o.Title, n.Title, o.Description, n.Description)
	if o.Name != n.Name {
		d.add("described", "", false, "name %q is now %q", o.Name, n.Name)
	}
	d.mimeType(o.MimeType, n.MimeType)
}

func (d *differ) template(o, n Template) {
	d.described(o.Title, n.Title, o.Description, n.Description)
	if !slices.Equal(o.Variables, n.Variables) || o.URITemplate != n.URITemplate {
		d.add("template-variables-changed", "", false, "URI template %s is now %s", o.URITemplate, n.URITemplate)
	}
	d.mimeType(o.MimeType, n.MimeType)
}

// mimeType compares the MIME type of a resource's or template's
// contents: clients choose how to decode contents by it (the typed client
// does), so any change may break them.
func (d *differ) mimeType(o, n string) {
	if o != n {
		d.add("mime-type-changed", "", false, "MIME type %s is now %s", cmp.Or(o, "(none)"), cmp.Or(n, "(none)"))
	}
}

func (d *differ) prompt(o, n Prompt) {
	d.described(o.Title, n.Title, o.Description, n.Description)
	olds := map[string]Argument{}
	for _, a := range o.Arguments {
		olds[a.Name] = a
	}
	news := map[string]bool{}
	for _, a := range n.Arguments {
		news[a.Name] = true
		was, ok := olds[a.Name]
		switch {
		case !ok && a.Required:
			d.add("prompt-argument-required", a.Name, false, "argument %q was added as required", a.Name)
		case !ok:
			d.add("prompt-argument-added", a.Name, false, "optional argument %q was added", a.Name)
		case a.Required && !was.Required:
			d.add("prompt-argument-required", a.Name, false, "argument %q is now required", a.Name)
		case !a.Required && was.Required:
			d.add("prompt-argument-added", a.Name, false, "argument %q is now optional", a.Name)
		case a.Description != was.Description:
			d.add("described", a.Name, false, "argument %q: description changed", a.Name)
		}
	}
	for _, a := range o.Arguments {
		if !news[a.Name] {
			d.add("prompt-argument-removed", a.Name, false, "argument %q was removed", a.Name)
		}
	}
}

func (d *differ) skill(o, n Skill) {
	if o.Description != n.Description {
		d.add("described", "", false, "description changed")
	}
	if o.Digest != n.Digest {
		d.add("skill-changed", "", false, "content changed (digest %s is now %s)", o.Digest, n.Digest)
	}
}

// schema is a JSON Schema object, with the document it lies in for $ref.
// null is set when s came from anyOf this schema and {"type":"null"}, the
// form the generator writes for what may be null (older surfaces wrote a
// list of types): types then holds "null" too.
type schema struct {
	m    map[string]any
	root map[string]any
	null bool
}

func load(raw json.RawMessage) schema {
	var m map[string]any
	_ = json.Unmarshal(raw, &m) // a schema that is not an object constrains nothing here
	return schema{m: m, root: m}
}

// deref follows local references ("#/$defs/X"), at most a few deep, and
// enters the branch of anyOf [X, {"type":"null"}] that is not null.
func (s schema) deref() schema {
	for range 8 {
		if alts, ok := s.m["anyOf"].([]any); ok && len(alts) == 2 {
			a, _ := alts[0].(map[string]any)
			b, _ := alts[1].(map[string]any)
			if len(b) == 1 && b["type"] == "null" && a != nil {
				s = schema{m: a, root: s.root, null: true}
				continue
			}
		}
		ref, _ := s.m["$ref"].(string)
		if !strings.HasPrefix(ref, "#/") {
			return s
		}
		var cur any = s.root
		for _, part := range strings.Split(ref[2:], "/") {
			part = strings.ReplaceAll(strings.ReplaceAll(part, "~1", "/"), "~0", "~")
			obj, _ := cur.(map[string]any)
			cur = obj[part]
		}
		next, _ := cur.(map[string]any)
		s = schema{m: next, root: s.root, null: s.null}
	}
	return s
}

func (s schema) sub(key string) (schema, bool) {
	m, ok := s.m[key].(map[string]any)
	return schema{m: m, root: s.root}.deref(), ok
}

func (s schema) props() map[string]schema {
	out := map[string]schema{}
	ps, _ := s.m["properties"].(map[string]any)
	for k, v := range ps {
		m, _ := v.(map[string]any)
		out[k] = schema{m: m, root: s.root}.deref()
	}
	return out
}

func (s schema) required() map[string]bool {
	out := map[string]bool{}
	rs, _ := s.m["required"].([]any)
	for _, r := range rs {
		if name, ok := r.(string); ok {
			out[name] = true
		}
	}
	return out
}

// types is the set of JSON types s allows; nil when any.
func (s schema) types() []string {
	var out []string
	switch t := s.m["type"].(type) {
	case string:
		out = []string{t}
	case []any:
		for _, v := range t {
			if name, ok := v.(string); ok {
				out = append(out, name)
			}
		}
	default:
		return nil
	}
	if s.null && !slices.Contains(out, "null") {
		out = append(out, "null")
	}
	slices.Sort(out)
	return out
}

// accepts reports whether a schema of types wide takes every value of
// one of type t.
func accepts(wide []string, t string) bool {
	return wide == nil || slices.Contains(wide, t) || t == "integer" && slices.Contains(wide, "number")
}

func covers(wide, narrow []string) bool {
	if wide == nil {
		return true
	}
	if narrow == nil {
		return false
	}
	for _, t := range narrow {
		if !accepts(wide, t) {
			return false
		}
	}
	return true
}

func typeString(ts []string) string {
	if ts == nil {
		return "any"
	}
	return strings.Join(ts, " or ")
}

func path(parent, name string) string {
	if parent == "" {
		return name
	}
	return parent + "." + name
}

func (d *differ) input(at string, o, n schema) {
	o, n = o.deref(), n.deref()
	what := "input"
	if at != "" {
		what = fmt.Sprintf("input property %q", at)
	}
	ot, nt := o.types(), n.types()
	switch {
	case !covers(nt, ot):
		d.add("input-type-changed", at, false, "%s is now %s (was %s)", what, typeString(nt), typeString(ot))
	case !slices.Equal(ot, nt):
		d.add("input-widened", at, false, "%s is now %s (was %s)", what, typeString(nt), typeString(ot))
	}
	d.enum(at, what, o, n, false)
	d.bounds(at, what, o, n)
	for _, key := range []string{"pattern", "format"} {
		ov, _ := o.m[key].(string)
		nv, _ := n.m[key].(string)
		switch {
		case nv != "" && nv != ov:
			d.add("input-"+key+"-changed", at, false, "%s now has %s %q", what, key, nv)
		case nv == "" && ov != "":
			d.add("input-widened", at, false, "%s no longer has a %s", what, key)
		}
	}
	switch oc, nc := o.m["additionalProperties"] == false, n.m["additionalProperties"] == false; {
	case !oc && nc:
		d.add("input-closed", at, false, "%s now refuses properties it does not name", what)
	case oc && !nc:
		d.add("input-widened", at, false, "%s now accepts properties it does not name", what)
	}
	op, np := o.props(), n.props()
	oreq, nreq := o.required(), n.required()
	for _, name := range slices.Sorted(maps.Keys(np)) {
		p := path(at, name)
		ps, had := op[name]
		switch {
		case !had && nreq[name]:
			d.add("input-required", p, false, "input property %q was added as required", p)
		case !had:
			d.add("input-widened", p, false, "optional input property %q was added", p)
		case nreq[name] && !oreq[name]:
			d.add("input-required", p, false, "input property %q is now required", p)
		case !nreq[name] && oreq[name]:
			d.add("input-widened", p, false, "input property %q is now optional", p)
		}
		if had {
			d.input(p, ps, np[name])
		}
	}
	for _, name := range slices.Sorted(maps.Keys(op)) {
		if _, ok := np[name]; ok {
			continue
		}
		p := path(at, name)
		if n.m["additionalProperties"] == false {
			d.add("input-property-removed", p, false, "input property %q was removed, and unknown properties are refused", p)
		} else {
			d.add("input-widened", p, false, "input property %q was removed (it is now ignored)", p)
		}
	}
	if oi, ok := o.sub("items"); ok {
		if ni, ok := n.sub("items"); ok {
			d.input(at+"[]", oi, ni)
		}
	}
}

func (d *differ) output(at string, o, n schema) {
	o, n = o.deref(), n.deref()
	what := "output"
	if at != "" {
		what = fmt.Sprintf("output property %q", at)
	}
	ot, nt := o.types(), n.types()
	switch {
	case !covers(ot, nt):
		d.add("output-type-changed", at, true, "%s is now %s (was %s)", what, typeString(nt), typeString(ot))
	case !slices.Equal(ot, nt):
		d.add("output-narrowed", at, true, "%s is now %s (was %s)", what, typeString(nt), typeString(ot))
	}
	d.enum(at, what, o, n, true)
	op, np := o.props(), n.props()
	oreq, nreq := o.required(), n.required()
	for _, name := range slices.Sorted(maps.Keys(op)) {
		p := path(at, name)
		ns, ok := np[name]
		switch {
		case !ok:
			d.add("output-property-removed", p, true, "output property %q was removed", p)
			continue
		case oreq[name] && !nreq[name]:
			d.add("output-now-optional", p, true, "output property %q is no longer always present", p)
		case !oreq[name] && nreq[name]:
			d.add("output-narrowed", p, true, "output property %q is now always present", p)
		}
		d.output(p, op[name], ns)
	}
	for _, name := range slices.Sorted(maps.Keys(np)) {
		if _, ok := op[name]; !ok {
			p := path(at, name)
			d.add("output-property-added", p, true, "output property %q was added", p)
		}
	}
	if oi, ok := o.sub("items"); ok {
		if ni, ok := n.sub("items"); ok {
			d.output(at+"[]", oi, ni)
		}
	}
}

// enum compares the allowed values: an input loses callers when a value
// goes, an output surprises readers when one comes.
func (d *differ) enum(at, what string, o, n schema, output bool) {
	ov, oHas := o.m["enum"].([]any)
	nv, nHas := n.m["enum"].([]any)
	in := func(v any, list []any) bool {
		b, _ := json.Marshal(v)
		for _, w := range list {
			if c, _ := json.Marshal(w); string(c) == string(b) {
				return true
			}
		}
		return false
	}
	// A null in an enum of a list of types is the null branch of anyOf
	// in the generator's newer form.
	nullIn := func(v any, s schema) bool { return v == nil && slices.Contains(s.types(), "null") }
	var gone, came []string
	for _, v := range ov {
		if nHas && !in(v, nv) && !nullIn(v, n) {
			b, _ := json.Marshal(v)
			gone = append(gone, string(b))
		}
	}
	for _, v := range nv {
		if oHas && !in(v, ov) && !nullIn(v, o) {
			b, _ := json.Marshal(v)
			came = append(came, string(b))
		}
	}
	switch {
	case !output && (len(gone) > 0 || !oHas && nHas):
		if !oHas {
			d.add("input-enum-narrowed", at, false, "%s now takes only the listed values", what)
		} else {
			d.add("input-enum-narrowed", at, false, "%s no longer takes %s", what, strings.Join(gone, ", "))
		}
	case !output && (len(came) > 0 || oHas && !nHas):
		d.add("input-widened", at, false, "%s takes more values", what)
	case output && (len(came) > 0 || oHas && !nHas):
		if nHas {
			d.add("output-enum-widened", at, true, "%s may now be %s", what, strings.Join(came, ", "))
		} else {
			d.add("output-enum-widened", at, true, "%s is no longer limited to a list of values", what)
		}
	case output && (len(gone) > 0 || !oHas && nHas):
		d.add("output-narrowed", at, true, "%s takes fewer values", what)
	}
}

// bounds compares the numeric constraints of an input: a lower bound
// that rises, or an upper bound that falls (or appears), narrows it.
func (d *differ) bounds(at, what string, o, n schema) {
	lower := []string{"minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties"}
	upper := []string{"maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties"}
	num := func(s schema, k string) (float64, bool) {
		v, ok := s.m[k].(float64)
		return v, ok
	}
	check := func(keys []string, tighter func(o, n float64) bool) {
		for _, k := range keys {
			ov, oHas := num(o, k)
			nv, nHas := num(n, k)
			switch {
			case nHas && (!oHas || tighter(ov, nv)):
				if oHas {
					d.add("input-bounds-narrowed", at, false, "%s: %s is now %v (was %v)", what, k, nv, ov)
				} else {
					d.add("input-bounds-narrowed", at, false, "%s: %s is now %v", what, k, nv)
				}
			case oHas && (!nHas || tighter(nv, ov)):
				d.add("input-widened", at, false, "%s: %s relaxed", what, k)
			}
		}
	}
	check(lower, func(o, n float64) bool { return n > o })
	check(upper, func(o, n float64) bool { return n < o })
}

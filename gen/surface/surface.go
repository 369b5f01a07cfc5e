// Package surface is the API an MCP server offers its callers (tools,
// resources, templates, prompts, skills, views and events, with their schemas) as one
// canonical document, surface.json, and the comparison of two of them
// that tells which changes break existing callers.
//
// The generator writes a surface beside each generated server so that a
// change of the API shows in review as a diff of one file; `mcpgen
// breaking` compares today's surface with one committed earlier.
package surface

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// Surface is what one server offers. Lists are sorted by name (URI for
// resources) so that the file is stable.
type Surface struct {
	Server    Server     `json:"server"`
	Tools     []Tool     `json:"tools,omitempty"`
	Resources []Resource `json:"resources,omitempty"`
	Templates []Template `json:"resourceTemplates,omitempty"`
	Prompts   []Prompt   `json:"prompts,omitempty"`
	Skills    []Skill    `json:"skills,omitempty"`
	Views     []View     `json:"views,omitempty"`
	Events    []Event    `json:"events,omitempty"`
}

// Server names the server and what it tells clients about itself.
type Server struct {
	Name         string `json:"name"`
	Title        string `json:"title,omitempty"`
	Version      string `json:"version,omitempty"`
	Instructions string `json:"instructions,omitempty"`
}

// Tool is one tool with its schemas. Scope is the OAuth scope a caller
// needs; Task is its task support ("optional", "required" or empty).
type Tool struct {
	Name         string          `json:"name"`
	Title        string          `json:"title,omitempty"`
	Description  string          `json:"description,omitempty"`
	Annotations  *Annotations    `json:"annotations,omitempty"`
	InputSchema  json.RawMessage `json:"inputSchema"`
	OutputSchema json.RawMessage `json:"outputSchema,omitempty"`
	Scope        string          `json:"scope,omitempty"`
	Task         string          `json:"taskSupport,omitempty"`
	// View is the URI of the view (MCP Apps) the tool's results are
	// shown in; Visibility who may call it ("model", "app"), empty for
	// both.
	View       string   `json:"view,omitempty"`
	Visibility []string `json:"visibility,omitempty"`
}

// Annotations are a tool's behaviour hints; nil means the hint is not
// given (and MCP's default applies).
type Annotations struct {
	ReadOnly    *bool `json:"readOnlyHint,omitempty"`
	Destructive *bool `json:"destructiveHint,omitempty"`
	Idempotent  *bool `json:"idempotentHint,omitempty"`
	OpenWorld   *bool `json:"openWorldHint,omitempty"`
}

// Resource is one fixed resource.
type Resource struct {
	URI         string `json:"uri"`
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	MimeType    string `json:"mimeType,omitempty"`
}

// Template is one resource template; Variables are those of its URI
// template, in order.
type Template struct {
	URITemplate string   `json:"uriTemplate"`
	Name        string   `json:"name"`
	Title       string   `json:"title,omitempty"`
	Description string   `json:"description,omitempty"`
	MimeType    string   `json:"mimeType,omitempty"`
	Variables   []string `json:"variables,omitempty"`
}

// Prompt is one prompt with its arguments.
type Prompt struct {
	Name        string     `json:"name"`
	Title       string     `json:"title,omitempty"`
	Description string     `json:"description,omitempty"`
	Arguments   []Argument `json:"arguments,omitempty"`
}

// Argument is one prompt argument.
type Argument struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	Required    bool   `json:"required,omitempty"`
}

// Skill is one Agent Skill; Digest identifies its content.
type Skill struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	Digest      string `json:"digest,omitempty"`
}

// View is one view of the MCP Apps extension: an HTML document at a ui://
// URI, with what it asks of the host that shows it. Digest identifies its
// content.
type View struct {
	URI           string   `json:"uri"`
	Name          string   `json:"name"`
	Title         string   `json:"title,omitempty"`
	Description   string   `json:"description,omitempty"`
	Digest        string   `json:"digest"`
	CSP           *ViewCSP `json:"csp,omitempty"`
	Permissions   []string `json:"permissions,omitempty"`
	Domain        string   `json:"domain,omitempty"`
	PrefersBorder *bool    `json:"prefersBorder,omitempty"`
}

// ViewCSP lists the origins a view's Content-Security-Policy allows.
type ViewCSP struct {
	ConnectDomains  []string `json:"connectDomains,omitempty"`
	ResourceDomains []string `json:"resourceDomains,omitempty"`
	FrameDomains    []string `json:"frameDomains,omitempty"`
	BaseURIDomains  []string `json:"baseUriDomains,omitempty"`
}

// Marshal writes s in its canonical form: lists sorted, object keys of
// the schemas in the order they were given (the generator's order, which
// is stable), two-space indentation and a final newline.
func (s *Surface) Marshal() ([]byte, error) {
	c := *s
	c.Tools = slices.Clone(s.Tools)
	slices.SortFunc(c.Tools, func(a, b Tool) int { return strings.Compare(a.Name, b.Name) })
	c.Resources = slices.Clone(s.Resources)
	slices.SortFunc(c.Resources, func(a, b Resource) int { return strings.Compare(a.URI, b.URI) })
	c.Templates = slices.Clone(s.Templates)
	slices.SortFunc(c.Templates, func(a, b Template) int { return strings.Compare(a.Name, b.Name) })
	c.Prompts = slices.Clone(s.Prompts)
	slices.SortFunc(c.Prompts, func(a, b Prompt) int { return strings.Compare(a.Name, b.Name) })
	c.Skills = slices.Clone(s.Skills)
	slices.SortFunc(c.Skills, func(a, b Skill) int { return strings.Compare(a.Name, b.Name) })
	c.Views = slices.Clone(s.Views)
	slices.SortFunc(c.Views, func(a, b View) int { return strings.Compare(a.URI, b.URI) })
	c.Events = slices.Clone(s.Events)
	slices.SortFunc(c.Events, func(a, b Event) int { return strings.Compare(a.Name, b.Name) })
	for i := range c.Events {
		e := &c.Events[i]
		for _, sc := range []*json.RawMessage{&e.InputSchema, &e.PayloadSchema} {
			var b bytes.Buffer
			if err := json.Compact(&b, *sc); err != nil {
				return nil, fmt.Errorf("event %s: schema: %w", e.Name, err)
			}
			*sc = b.Bytes()
		}
	}
	for i := range c.Tools {
		t := &c.Tools[i]
		for _, sc := range []*json.RawMessage{&t.InputSchema, &t.OutputSchema} {
			if len(*sc) == 0 {
				continue
			}
			var b bytes.Buffer
			if err := json.Compact(&b, *sc); err != nil {
				return nil, fmt.Errorf("tool %s: schema: %w", t.Name, err)
			}
			*sc = b.Bytes()
		}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(&c); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Parse reads a surface file.
func Parse(data []byte) (*Surface, error) {
	var s Surface
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return nil, fmt.Errorf("surface: %w", err)
	}
	if s.Server.Name == "" {
		return nil, fmt.Errorf("surface: no server name: is this a surface.json?")
	}
	return &s, nil
}

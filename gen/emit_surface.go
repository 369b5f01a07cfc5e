package gen

import (
	"encoding/json"
	"path"
	"reflect"
	"strings"

	"github.com/mcpgen/mcpgen/gen/surface"
	"github.com/mcpgen/mcpgen/internal/skills"
)

// surfaceFile is generated/<server>/surface.json: the server's API to
// its callers in one reviewable document, the baseline `mcpgen
// breaking` compares against.
func surfaceFile(s *server) (File, error) {
	b, err := surfaceOf(s).Marshal()
	if err != nil {
		return File{}, internalError("surface of %s: %v", s.Name, err)
	}
	return File{Path: path.Join(s.Name, "surface.json"), Content: b}, nil
}

// surfaceOf is what the generated server registers, as callers see it.
func surfaceOf(s *server) *surface.Surface {
	out := &surface.Surface{Server: surface.Server{Name: s.Name, Title: s.Title, Version: s.Version, Instructions: s.Instructions}}
	for _, t := range s.Tools {
		st := surface.Tool{
			Name: t.Name, Title: t.Title, Description: t.Description,
			InputSchema: t.InputSchema, Scope: t.Scope, Task: t.Task,
			Annotations: &surface.Annotations{ReadOnly: &t.ReadOnly, Destructive: &t.Destructive, Idempotent: &t.Idempotent, OpenWorld: &t.OpenWorld},
		}
		if t.OutputSchema != nil {
			st.OutputSchema = t.OutputSchema
		}
		st.View, st.Visibility = t.View, t.Visibility
		out.Tools = append(out.Tools, st)
	}
	for _, r := range s.Resources {
		if !r.Template {
			out.Resources = append(out.Resources, surface.Resource{URI: r.URI, Name: r.Name, Title: r.Title, Description: r.Description, MimeType: r.MimeType})
			continue
		}
		st := surface.Template{URITemplate: r.URI, Name: r.Name, Title: r.Title, Description: r.Description, MimeType: r.MimeType}
		for _, v := range r.Vars {
			st.Variables = append(st.Variables, v.Name)
		}
		out.Templates = append(out.Templates, st)
	}
	for _, p := range s.Prompts {
		sp := surface.Prompt{Name: p.Name, Title: p.Title, Description: p.Description}
		for _, a := range p.Args {
			sp.Arguments = append(sp.Arguments, surface.Argument{Name: a.Name, Description: a.Description, Required: a.Required})
		}
		out.Prompts = append(out.Prompts, sp)
	}
	for _, sk := range s.Skills {
		var front struct {
			Description string `json:"description"`
		}
		_ = json.Unmarshal(sk.Frontmatter, &front) // checked when the skill was read
		out.Skills = append(out.Skills, surface.Skill{Name: sk.Path, Description: front.Description, Digest: skillDigest(sk)})
	}
	for _, v := range s.Views {
		sv := surface.View{URI: v.URI, Name: v.Name, Title: v.Title, Description: v.Description, Digest: v.Digest,
			Permissions: v.Permissions, Domain: v.Domain, PrefersBorder: v.Border}
		if csp := (surface.ViewCSP{ConnectDomains: v.CSP.Connect, ResourceDomains: v.CSP.Resource, FrameDomains: v.CSP.Frame, BaseURIDomains: v.CSP.BaseURI}); !reflect.ValueOf(csp).IsZero() {
			sv.CSP = &csp
		}
		out.Views = append(out.Views, sv)
	}
	for _, ev := range s.Events {
		out.Events = append(out.Events, surface.Event{Name: ev.Name, Title: ev.Title, Description: ev.Description,
			InputSchema: ev.InputSchema, PayloadSchema: ev.PayloadSchema, Scope: ev.Scope})
	}
	return out
}

// skillDigest identifies a skill's content: the digest of its files'
// paths and digests. A skill provided by code has none.
func skillDigest(sk *skill) string {
	if sk.Files == nil {
		return ""
	}
	var b strings.Builder
	for _, f := range sk.Files {
		b.WriteString(f.Path + " " + f.Digest + "\n")
	}
	return skills.Digest([]byte(b.String()))
}

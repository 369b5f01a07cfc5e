package mcpgen

import (
	"maps"
	"testing"
)

func templatesServer(t *testing.T, uriTemplates ...string) *Server {
	t.Helper()
	def := Definition{Name: "templates"}
	for _, u := range uriTemplates {
		def.Templates = append(def.Templates, Template{Info: TemplateInfo{URITemplate: u, Name: u}})
	}
	s, err := build(def, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestTemplateMatching(t *testing.T) {
	for _, c := range []struct {
		template, uri string
		want          map[string]string // nil: no match
	}{
		{"test://items/{id}", "test://items/apple", map[string]string{"id": "apple"}},
		{"test://items/{id}", "test://items/", nil},
		{"test://items/{id}", "test://items/a/b", nil},         // a simple variable is one segment
		{"test://items/{id}", "test://items/a?b=1", nil},       // ... without query
		{"test://items/{id}", "test://items/a#top", nil},       // ... or fragment
		{"test://items/{id}", "test://items/apple/extra", nil}, // anchored at the end
		{"test://items/{id}", "xtest://items/apple", nil},      // and at the start
		{"test://items/{id}", "TEST://items/apple", nil},       // literals are case-sensitive
		{"test://items/{id}", "test://items/a%20b", map[string]string{"id": "a b"}},
		{"test://items/{id}", "test://items/a%2Fb", map[string]string{"id": "a/b"}}, // decoded after matching
		{"test://items/{id}", "test://items/100%", map[string]string{"id": "100%"}}, // bad escape: kept as sent
		{"file:///{+path}", "file:///a/b/c.txt", map[string]string{"path": "a/b/c.txt"}},
		{"file:///{+path}", "file:///", nil},
		{"db://{schema}/{table}/rows", "db://public/users/rows", map[string]string{"schema": "public", "table": "users"}},
		{"db://{schema}/{table}/rows", "db://public/rows", nil},
		{"v1.{x}+y(z)", "v1.a+y(z)", map[string]string{"x": "a"}}, // regexp metacharacters are literal
		{"v1.{x}+y(z)", "v1xa+y(z)", nil},
		{"v1.{x}+y(z)", "v1.a+yyz", nil},
		{"test://{a_1}-{B2}", "test://x-y", map[string]string{"a_1": "x", "B2": "y"}},
	} {
		s := templatesServer(t, c.template)
		tpl, vars := s.matchTemplate(c.uri)
		switch {
		case c.want == nil && tpl != nil:
			t.Errorf("%s ~ %s: matched with %v, want no match", c.template, c.uri, vars)
		case c.want != nil && tpl == nil:
			t.Errorf("%s ~ %s: no match, want %v", c.template, c.uri, c.want)
		case c.want != nil && !maps.Equal(vars, c.want):
			t.Errorf("%s ~ %s: %v, want %v", c.template, c.uri, vars, c.want)
		}
	}
}

func TestTemplateFirstMatchWins(t *testing.T) {
	s := templatesServer(t, "test://items/{id}", "test://{+rest}")
	if tpl, _ := s.matchTemplate("test://items/a"); tpl == nil || tpl.Template.Info.URITemplate != "test://items/{id}" {
		t.Errorf("test://items/a matched %v, want the first template", tpl)
	}
	if tpl, vars := s.matchTemplate("test://other/a"); tpl == nil || vars["rest"] != "other/a" {
		t.Errorf("test://other/a matched %v %v, want the second template", tpl, vars)
	}
}

// Only {var} and {+var} are implemented. Any other RFC 6570 expression
// must make New fail, as the generator's checker does, rather than
// compile to a literal that no URI can match.
func TestTemplateUnsupportedExpressions(t *testing.T) {
	for _, u := range []string{
		"test://search{?q}",
		"test://items/{id}{?fields}",
		"test://{a,b}",
		"test://{list*}",
		"test://{name:3}",
		"test://page{#section}",
		"test://x{/path}",
		"test://file{.ext}",
		"test://x{;p}",
		"test://x?a=1{&b}",
		"test://{user.name}",
		"test://items/{id",
		"test://items/id}",
		"test://items/{}",
	} {
		def := Definition{Name: "bad", Templates: []Template{{Info: TemplateInfo{URITemplate: u, Name: "t"}}}}
		if _, err := build(def, Options{}); err == nil {
			t.Errorf("template %q was accepted", u)
		}
	}
}

package mcpgen

import (
	"fmt"
	"net/url"
	"regexp"
	"strings"
)

// compiledTemplate matches URIs against an RFC 6570 template of simple
// ({var}) and reserved ({+var}) expressions: a simple variable matches one
// path segment, a reserved one anything.
type compiledTemplate struct {
	*Template
	re   *regexp.Regexp
	vars []string
}

var templateExpr = regexp.MustCompile(`\{(\+?)([A-Za-z0-9_]+)\}`)

func compileTemplate(t *Template) (*compiledTemplate, error) {
	tpl := t.Info.URITemplate
	var b strings.Builder
	b.WriteString("^")
	var vars []string
	last := 0
	literal := func(lit string) error {
		// A brace left in a literal is an expression this matcher does not
		// implement ({?q}, {a,b}, {x*}...): it would never match, so refuse it.
		if strings.ContainsAny(lit, "{}") {
			return fmt.Errorf("template %s: only {var} and {+var} expressions are supported", tpl)
		}
		b.WriteString(regexp.QuoteMeta(lit))
		return nil
	}
	for _, m := range templateExpr.FindAllStringSubmatchIndex(tpl, -1) {
		if err := literal(tpl[last:m[0]]); err != nil {
			return nil, err
		}
		if tpl[m[2]:m[3]] == "+" {
			b.WriteString("(.+)")
		} else {
			b.WriteString("([^/?#]+)")
		}
		vars = append(vars, tpl[m[4]:m[5]])
		last = m[1]
	}
	if err := literal(tpl[last:]); err != nil {
		return nil, err
	}
	b.WriteString("$")
	re, err := regexp.Compile(b.String())
	if err != nil {
		return nil, fmt.Errorf("template %s: %w", tpl, err)
	}
	return &compiledTemplate{Template: t, re: re, vars: vars}, nil
}

// matchTemplate finds the first template matching uri and binds its variables.
func (s *Server) matchTemplate(uri string) (*compiledTemplate, map[string]string) {
	for _, t := range s.templates {
		m := t.re.FindStringSubmatch(uri)
		if m == nil {
			continue
		}
		vars := make(map[string]string, len(t.vars))
		for i, name := range t.vars {
			v, err := url.PathUnescape(m[i+1])
			if err != nil {
				v = m[i+1]
			}
			vars[name] = v
		}
		return t, vars
	}
	return nil, nil
}

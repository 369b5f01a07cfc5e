package surface

import (
	"strings"
	"testing"
)

// The rules of the MCP Apps extension, as cases of TestEachRuleBothWays:
// base() has the view ui://notes/board.html, which list_notes links.
func init() {
	cases = append(cases, []struct {
		rule    string
		edit    func(*Surface)
		field   string
		reverse string
	}{
		{"view-removed", func(s *Surface) { s.Views = nil; s.Tools[1].View = "" }, "", "added"},
		{"view-removed", func(s *Surface) { s.Views[0].URI = "ui://notes/wall.html"; s.Tools[1].View = s.Views[0].URI }, "", "view-removed"},
		{"tool-view-changed", func(s *Surface) { s.Tools[1].View = "" }, "", "tool-view-added"},
		{"tool-view-changed", func(s *Surface) { s.Tools[1].Visibility = []string{"app"} }, "", "tool-view-added"},
		{"tool-view-changed", func(s *Surface) { s.Tools[1].Visibility = []string{"model"} }, "", "tool-view-added"},
		{"tool-view-added", func(s *Surface) { s.Tools[0].View = "ui://notes/board.html" }, "", "tool-view-changed"},
		{"view-changed", func(s *Surface) { s.Views[0].Digest = "sha256:dd" }, "", "view-changed"},
		{"view-changed", func(s *Surface) { s.Views[0].CSP = &ViewCSP{ConnectDomains: []string{"https://api.example.com"}} }, "", "view-changed"},
	}...)
}

// TestToolViewMessages checks what `mcpgen breaking` says about a moved
// link and a narrowed visibility.
func TestToolViewMessages(t *testing.T) {
	new := base()
	new.Views = append(new.Views, View{URI: "ui://notes/wall.html", Name: "wall", Digest: "sha256:ee"})
	new.Tools[1].View, new.Tools[1].Visibility = "ui://notes/wall.html", []string{"app"}
	var got []string
	for _, c := range Compare(base(), new) {
		got = append(got, c.String()+" ("+c.Rule+")")
	}
	want := "tool list_notes: may no longer be called by the model (visibility model,app is now app) (tool-view-changed)\n" +
		"tool list_notes: shows its results in the view ui://notes/wall.html instead of ui://notes/board.html (tool-view-changed)\n" +
		"view ui://notes/wall.html: added (added)"
	if strings.Join(got, "\n") != want {
		t.Errorf("changes:\n%s\nwant:\n%s", strings.Join(got, "\n"), want)
	}
	if Bump(Compare(new, base())) != "major" {
		t.Error("removing a view is not a major change")
	}
}

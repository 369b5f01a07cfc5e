package main

import (
	"testing"

	"github.com/mcpgen/mcpgen/gen/surface"
)

// TestBuildManifestLeavesOutAppOnlyTools checks that a tool only the
// server's views call (MCP Apps visibility ["app"]) is not among the
// manifest's tools, which are what the model is offered, and that a tool
// that shows a view and stays the model's is.
func TestBuildManifestLeavesOutAppOnlyTools(t *testing.T) {
	s := testSurface()
	s.Tools = append(s.Tools,
		surface.Tool{Name: "show_board", Description: "Shows the board.", View: "ui://notes/board.html", Visibility: []string{"model", "app"}},
		surface.Tool{Name: "move_card", Description: "Moves a card.", View: "ui://notes/board.html", Visibility: []string{"app"}},
	)
	m, _, err := buildManifest(bundleInput{Command: "x", Surface: s, Author: "Ann", Platforms: []platform{{"linux", "amd64"}}})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range m.Tools {
		names = append(names, tl.Name)
	}
	want := len(testSurface().Tools) + 1
	if len(names) != want || names[len(names)-1] != "show_board" {
		t.Errorf("manifest tools %v, want the surface's tools and show_board, not move_card", names)
	}
}

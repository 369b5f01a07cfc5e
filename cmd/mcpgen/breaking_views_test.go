package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestBreakingViews gives the notes example a view (MCP Apps) that
// add_note links, commits it, then removes the view, moves the link to
// another view and makes the tool app-only: each exits 1 with the rule at
// its place in the source. A new view and an edited one break nothing.
func TestBreakingViews(t *testing.T) {
	if testing.Short() {
		t.Skip("loads the scratch module once per change")
	}
	dir, src := scratchNotes(t)
	base, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	const board = "<!DOCTYPE html>\n<html><body>Board</body></html>\n"
	writeView := func(name, content string) {
		p := filepath.Join(dir, "notes", "ui", name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	writeView("board.html", board)
	writeView("wall.html", "<!DOCTYPE html>\n<html><body>Wall</body></html>\n")
	viewed := strings.Replace(string(base), "//mcp:server name=notes title=\"Notes\" version=1.0.0\n",
		"//mcp:server name=notes title=\"Notes\" version=1.0.0\n//mcp:view uri=ui://notes/board.html file=ui/board.html\n", 1)
	viewed = strings.Replace(viewed, "//mcp:tool name=add_note ", "//mcp:tool name=add_note view=ui://notes/board.html ", 1)
	if err := os.WriteFile(src, []byte(viewed), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runIn(t, dir, "./notes"); code != 0 {
		t.Fatalf("mcpgen ./notes exited %d:\n%s", code, stderr)
	}
	sh(t, dir, "git add -A && git -c user.name=t -c user.email=t@t commit -qm views", offlineEnv())

	for _, c := range []struct {
		name     string
		edit     func(string) string
		want     string // the line after "notes/notes.go:LINE:COL: server notes: "
		breaking bool
	}{
		{"view removed", func(s string) string {
			s = strings.Replace(s, "//mcp:view uri=ui://notes/board.html file=ui/board.html\n", "", 1)
			return strings.Replace(s, " view=ui://notes/board.html", "", 1)
		}, `view ui://notes/board.html: removed \(callers of view "ui://notes/board.html" fail\) \(rule view-removed\)`, true},
		{"link moved", func(s string) string {
			s = strings.Replace(s, "file=ui/board.html\n", "file=ui/board.html\n//mcp:view uri=ui://notes/wall.html file=ui/wall.html\n", 1)
			return strings.Replace(s, "add_note view=ui://notes/board.html", "add_note view=ui://notes/wall.html", 1)
		}, `tool add_note: shows its results in the view ui://notes/wall.html instead of ui://notes/board.html \(rule tool-view-changed\)`, true},
		{"app only", func(s string) string {
			return strings.Replace(s, "add_note view=ui://notes/board.html", "add_note view=ui://notes/board.html visibility=app", 1)
		}, `tool add_note: may no longer be called by the model \(visibility model,app is now app\) \(rule tool-view-changed\)`, true},
		{"view added", func(s string) string {
			return strings.Replace(s, "file=ui/board.html\n", "file=ui/board.html\n//mcp:view uri=ui://notes/wall.html file=ui/wall.html\n", 1)
		}, "", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			if err := os.WriteFile(src, []byte(c.edit(viewed)), 0o644); err != nil {
				t.Fatal(err)
			}
			code, stdout, stderr := runIn(t, dir, "breaking", "-against", "HEAD", "./notes")
			if !c.breaking {
				if code != 0 || stdout != "" {
					t.Fatalf("exit %d, want 0\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
				}
				return
			}
			if code != 1 {
				t.Fatalf("exit %d, want 1\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
			}
			re := regexp.MustCompile(`(?m)^notes/notes\.go:\d+:\d+: server notes: ` + c.want + `$`)
			if !re.MatchString(stdout) {
				t.Fatalf("no line matching %s in:\n%s", re, stdout)
			}
		})
	}

	// Editing the view's HTML is a change -v lists, not a break.
	if err := os.WriteFile(src, []byte(viewed), 0o644); err != nil {
		t.Fatal(err)
	}
	writeView("board.html", strings.Replace(board, "Board", "Board of notes", 1))
	code, stdout, stderr := runIn(t, dir, "breaking", "-against", "HEAD", "-v", "./notes")
	if code != 0 || !strings.Contains(stdout, "view ui://notes/board.html: content changed (digest sha256:") || !strings.Contains(stdout, "(fine: rule view-changed)") {
		t.Fatalf("an edited view: exit %d\n%s%s", code, stdout, stderr)
	}
}

package gen

import "testing"

// TestDropTypeName checks the rule that turns a Go doc comment into a
// description: the type's own name, when a verb in the third person
// follows it, says nothing to the model and goes (docs/annotations.md,
// "Options every component has").
func TestDropTypeName(t *testing.T) {
	for _, c := range []struct{ typ, doc, want string }{
		{"AddNote", "AddNote stores a note under its identifier.", "Stores a note under its identifier."},
		{"AddNote", "AddNote returns the note it stored.", "Returns the note it stored."},
		{"Note", "Note is one note, by identifier.", "One note, by identifier."},
		{"Hits", "Hits are the notes found.", "The notes found."},
		{"Readme", "Readme is\nthe project's read-me.", "The project's read-me."},
		{"Echo", "Echo echoes its input.\n\nIt never fails.", "Echoes its input.\n\nIt never fails."},
		// Not the name followed by such a verb: as written.
		{"Search", "Search for nodes in the graph.", "Search for nodes in the graph."},
		{"AddNote", "AddNote can add a note.", "AddNote can add a note."},
		{"AddNote", "AddNote: adds a note.", "AddNote: adds a note."},
		{"AddNote", "AddNotes adds notes.", "AddNotes adds notes."},
		{"AddNote", "Adds a note.", "Adds a note."},
		{"AddNote", "AddNote ADDS a note.", "AddNote ADDS a note."},
		{"Note", "Note is.", "Note is."},
		{"Note", "Note is 42.", "Note is 42."},
		{"AddNote", "AddNote", "AddNote"},
		{"AddNote", "", ""},
	} {
		if got := dropTypeName(c.doc, c.typ); got != c.want {
			t.Errorf("dropTypeName(%q, %q) = %q, want %q", c.doc, c.typ, got, c.want)
		}
	}
}

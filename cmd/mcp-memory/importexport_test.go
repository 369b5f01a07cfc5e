package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestImportExportReferenceFile lets the reference server write a
// memory.jsonl through a short session (Unicode, control characters,
// dangling relations, deletions, and the repeats within one call that the
// reference stores), imports it into a fresh store with `mcp-memory
// import`, exports it with `mcp-memory export` (to a file and to stdout)
// and expects the reference's bytes back.
func TestImportExportReferenceFile(t *testing.T) {
	ref := reference(t)
	bin := sharedBinary(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	dir := t.TempDir()
	mem := filepath.Join(dir, "memory.jsonl")

	s := connect(ctx, t, &mcp.CommandTransport{Command: ref.command(mem)}, legacyVersion)
	for _, st := range []step{
		{tool: "create_entities", args: entities(
			ent("Alice", "person", "likes Go", "repeated", "repeated"), // stored twice by the reference
			ent("École", "organization", "\u2028 line sep", "tab\there", `quote " backslash \ slash /`, "<script>&amp;</script>"),
			ent("nul\x00\x01\x1f\x7f", "ctl", "\x08\x0c\r\n"),
			ent("🧠 \u202Eעברית", "emoji", "👩‍👩‍👧", "e\u0301", "\uFEFFbom"),
			ent("", "", ""),
			ent("Temp", "gone"),
		)},
		{tool: "create_relations", args: relations(
			rel("Alice", "École", "studied_at"),
			rel("Alice", "Ghost", "dangles"),
			rel("Alice", "Ghost", "dangles"), // stored twice by the reference
			rel("", "🧠 \u202Eעברית", ""),
			rel("Temp", "Alice", "goes"),
		)},
		{tool: "add_observations", args: observations(add("Alice", "again", "again", "likes Go"), add("", "x"))},
		{tool: "delete_observations", args: deletions(del("École", "tab\there"))},
		{tool: "delete_entities", args: names("entityNames", "Temp")},
	} {
		if o := callTool(ctx, s, st.tool, st.args); o.IsError {
			t.Fatalf("reference %s: %s", st.tool, o)
		}
	}
	s.Close()
	want, err := os.ReadFile(mem)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(want, []byte(`"repeated","repeated"`)) || !bytes.Contains(want, []byte(`"again","again"`)) || bytes.Count(want, []byte(`"dangles"`)) != 2 {
		t.Fatalf("the reference's file lacks the repeats this test is about:\n%s", want)
	}

	roundTrip(t, bin, dir, "reference", want)

	// An emptied graph is an empty file, which round-trips too.
	s = connect(ctx, t, &mcp.CommandTransport{Command: ref.command(mem)}, legacyVersion)
	g := mustGraph(t, callTool(ctx, s, "read_graph", map[string]any{}))
	var all []string
	for _, e := range g.Entities {
		all = append(all, e.Name)
	}
	all = append(all, "Ghost")
	if o := callTool(ctx, s, "delete_entities", names("entityNames", all...)); o.IsError {
		t.Fatal(o)
	}
	s.Close()
	empty, err := os.ReadFile(mem)
	if err != nil {
		t.Fatal(err)
	}
	if len(empty) != 0 {
		t.Fatalf("the reference wrote %q for an empty graph", empty)
	}
	roundTrip(t, bin, dir, "empty", empty)
}

// roundTrip writes file, imports it into a fresh store of each kind and
// expects export (to a file and to stdout) to give file's bytes back.
func roundTrip(t *testing.T, bin, dir, name string, file []byte) {
	t.Helper()
	t.Run(name, func(t *testing.T) {
		eachStore(t, func(t *testing.T, newDB newDBFunc) { roundTripOn(t, bin, t.TempDir(), name, newDB(t, name), file) })
	})
}

// roundTripOn is roundTrip on the store db.
func roundTripOn(t *testing.T, bin, dir, name, db string, file []byte) {
	t.Helper()
	in := filepath.Join(dir, name+".jsonl")
	if err := os.WriteFile(in, file, 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(bin, "--db", db, "import", in).CombinedOutput(); err != nil {
		t.Fatalf("%s: import: %v\n%s", name, err, out)
	} else if !strings.Contains(string(out), "imported") {
		t.Errorf("%s: import printed %q", name, out)
	}
	out := filepath.Join(dir, name+".out.jsonl")
	if msg, err := exec.Command(bin, "--db", db, "export", out).CombinedOutput(); err != nil {
		t.Fatalf("%s: export: %v\n%s", name, err, msg)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, file) {
		t.Errorf("%s: export to a file differs from the reference's memory.jsonl:\n got  %q\n want %q", name, got, file)
	}
	stdout, err := exec.Command(bin, "--db", db, "export").Output()
	if err != nil {
		t.Fatalf("%s: export to stdout: %v", name, err)
	}
	if !bytes.Equal(stdout, file) {
		t.Errorf("%s: export to stdout differs from the reference's memory.jsonl:\n got  %q\n want %q", name, stdout, file)
	}
}

// TestImportLoneSurrogates pins down a difference: the reference keeps
// lone UTF-16 surrogates (JSON escapes such as \ud800) in names and
// observations and writes them back escaped; our store holds UTF-8, so
// import turns each into U+FFFD and export writes that character.
func TestImportLoneSurrogates(t *testing.T) {
	bin := sharedBinary(t)
	dir := t.TempDir()
	file := `{"type":"entity","name":"lone\ud800","entityType":"t","observations":["\udfff x"]}` + "\n" +
		`{"type":"relation","from":"lone\ud800","to":"b","relationType":"r"}`
	in := filepath.Join(dir, "in.jsonl")
	if err := os.WriteFile(in, []byte(file), 0o644); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "memory.db")
	if out, err := exec.Command(bin, "--db", db, "import", in).CombinedOutput(); err != nil {
		t.Fatalf("import: %v\n%s", err, out)
	}
	got, err := exec.Command(bin, "--db", db, "export").Output()
	if err != nil {
		t.Fatal(err)
	}
	want := strings.NewReplacer(`\ud800`, "\uFFFD", `\udfff`, "\uFFFD").Replace(file)
	if string(got) != want {
		t.Errorf("export:\n got  %q\n want %q", got, want)
	}
}

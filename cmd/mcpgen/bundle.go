package main

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"golang.org/x/tools/go/packages"

	"github.com/mcpgen/mcpgen/gen"
	"github.com/mcpgen/mcpgen/gen/surface"
	"github.com/mcpgen/mcpgen/internal/progress"
)

// defaultPlatforms are the machines of desktop MCP clients: macOS on
// Apple silicon and Intel, Linux on x86-64 and ARM, Windows on x86-64.
const defaultPlatforms = "darwin/amd64,darwin/arm64,linux/amd64,linux/arm64,windows/amd64"

// usageError is an error of the command line or of what it names (not a
// main package, no generated server): exit status 2.
type usageError struct{ error }

// runBundle is `mcpgen bundle`: an MCP Bundle (.mcpb) of a server's main
// package, with its binaries cross-compiled for each platform.
func runBundle(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("mcpgen bundle", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("o", "", "write the bundle to `file` (default <server>-<version>.mcpb in the current directory)")
	plats := fs.String("platforms", defaultPlatforms, "comma-separated GOOS/GOARCH `list` to build for (darwin, linux, windows)")
	author := fs.String("author", "", "the author `name` in the manifest (default: the owner of the server's repository)")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: mcpgen bundle [-o FILE] [-platforms LIST] [-author NAME] ./cmd/SERVER\n\n"+
			"Builds an MCP Bundle (.mcpb, the format of @anthropic-ai/mcpb) of a server's main package:\n"+
			"manifest.json, filled from the surface of the generated server it imports, and its\n"+
			"binary cross-compiled for each platform (CGO_ENABLED=0, -trimpath, stripped).\n"+
			"See docs/publishing.md, Bundles.\n\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, "mcpgen bundle: name one main package, e.g. mcpgen bundle ./cmd/mcp-memory")
		return 2
	}
	err := bundle(ctx, bundleOptions{Package: fs.Arg(0), Out: *out, Platforms: *plats, Author: *author, Progress: stderr, Terminal: progress.IsTerminal(stderr)})
	if err != nil {
		fmt.Fprintln(stderr, "mcpgen bundle:", err)
		if errors.As(err, new(usageError)) {
			return 2
		}
		return 1
	}
	return 0
}

// bundleOptions are the inputs of bundle.
type bundleOptions struct {
	Package   string // the main package, as go build takes it
	Out       string // the bundle's path, "" for <server>-<version>.mcpb
	Platforms string // comma-separated GOOS/GOARCH
	Author    string
	Dir       string    // where to run go; "" for the working directory
	Progress  io.Writer // progress lines
	// Terminal says Progress is a terminal: the build's progress is one
	// line redrawn in place (platform, time so far and left) rather than
	// a line per platform.
	Terminal bool
	Now      func() time.Time // time.Now when nil
}

// bundle builds the bundle: it loads the main package, finds the
// generated server it imports, fills the manifest, cross-compiles and
// writes the archive. Nothing is written unless every build succeeded.
func bundle(ctx context.Context, o bundleOptions) error {
	platforms, err := parsePlatforms(ctx, o.Dir, o.Platforms)
	if err != nil {
		return err
	}
	pkg, err := loadMain(ctx, o.Dir, o.Package)
	if err != nil {
		return err
	}
	s, reg, registryJSON, surfaceFile, err := importedServer(ctx, o.Dir, pkg)
	if err != nil {
		return err
	}
	command := path.Base(pkg.PkgPath)
	m, launchers, err := buildManifest(bundleInput{
		Command: command, Surface: s, SurfaceFile: surfaceFile, Registry: reg, Author: o.Author,
		Flags: mainFlags(pkg), Platforms: platforms,
	})
	if err != nil {
		return usageError{err}
	}
	out := o.Out
	if out == "" {
		out = m.Name + "-" + m.Version + ".mcpb"
		if o.Dir != "" {
			out = filepath.Join(o.Dir, out)
		}
	}

	tmp, err := os.MkdirTemp("", "mcpgen-bundle-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	now := o.Now
	if now == nil {
		now = time.Now
	}
	start := now()
	meter := &progress.Meter{W: o.Progress, Now: now}
	stopTicks := func() {}
	if o.Terminal {
		stopTicks = meter.Tick(time.Second) // the clock moves while go build works
	}
	files := map[string]string{} // path in the bundle -> file on disk
	for i, p := range platforms {
		meter.Relabel(fmt.Sprintf("mcpgen bundle: building %s for %s (%d/%d)", pkg.PkgPath, p, i+1, len(platforms)), "")
		if o.Terminal {
			meter.Update(int64(i), int64(i), int64(len(platforms)))
		} else {
			fmt.Fprintln(o.Progress, meter.Label)
		}
		bin := filepath.Join(tmp, filepath.FromSlash(p.binaryPath(command)))
		if err := crossBuild(ctx, o.Dir, pkg.PkgPath, p, bin); err != nil {
			stopTicks()
			return err
		}
		files[p.binaryPath(command)] = bin
	}
	stopTicks()
	manifestJSON, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return fmt.Errorf("internal error: manifest: %v; please report", err)
	}
	if err := writeBundle(out, append(manifestJSON, '\n'), launchers, files); err != nil {
		return err
	}
	digest, err := fileSHA256(out)
	if err != nil {
		return err
	}
	fmt.Fprintf(o.Progress, "mcpgen bundle: wrote %s (%s %s, %s) in %s\n", out, m.Name, m.Version, joinPlatforms(platforms), progress.Duration(now().Sub(start)))
	fmt.Fprintf(o.Progress, "mcpgen bundle: sha256 %s\n", digest)
	return recordDigest(o.Progress, out, digest, registryJSON)
}

// fileSHA256 is the hex SHA-256 of the file at path.
func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("digest %s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// recordDigest writes <bundle>.server.json beside the bundle: the
// generated server.json with the bundle's digest as the fileSha256 of its
// MCPB package, which the registry requires; the file to publish. With
// no MCPB package in server.json to put it on, it says how to declare one.
func recordDigest(w io.Writer, out, digest string, registryJSON []byte) error {
	if registryJSON == nil {
		return nil
	}
	entry, ok, err := gen.RegistryWithDigest(registryJSON, filepath.Base(out), digest)
	if err != nil {
		return err
	}
	if !ok {
		fmt.Fprintf(w, "mcpgen bundle: server.json has no MCPB package to record the digest on: to list the bundle in the MCP registry, add package=mcpb:https://…/%s to //mcp:server (its URL ending in the bundle's name) and bundle again\n", filepath.Base(out))
		return nil
	}
	path := strings.TrimSuffix(out, ".mcpb") + ".server.json"
	if err := os.WriteFile(path, entry, 0o644); err != nil {
		return err
	}
	fmt.Fprintf(w, "mcpgen bundle: wrote %s (server.json with this fileSha256: publish it with the bundle)\n", path)
	return nil
}

// parsePlatforms reads a comma-separated GOOS/GOARCH list: each pair one
// that `go tool dist list` knows, on an OS MCP Bundles support.
func parsePlatforms(ctx context.Context, dir, list string) ([]platform, error) {
	cmd := exec.CommandContext(ctx, "go", "tool", "dist", "list")
	cmd.Dir = dir
	known, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go tool dist list: %w", err)
	}
	valid := strings.Fields(string(known))
	var ps []platform
	for _, s := range strings.Split(list, ",") {
		s = strings.TrimSpace(s)
		if s == "" {
			continue
		}
		goos, goarch, _ := strings.Cut(s, "/")
		switch {
		case goos != "darwin" && goos != "linux" && goos != "windows":
			return nil, usageError{fmt.Errorf("-platforms: %s: MCP Bundles run on darwin, linux and windows only", s)}
		case !slices.Contains(valid, s):
			return nil, usageError{fmt.Errorf("-platforms: unknown platform %s (want GOOS/GOARCH as go tool dist list prints it)", s)}
		}
		p := platform{goos, goarch}
		if !slices.Contains(ps, p) {
			ps = append(ps, p)
		}
	}
	if len(ps) == 0 {
		return nil, usageError{errors.New("-platforms: no platform given")}
	}
	sortPlatforms(ps)
	return ps, nil
}

// loadMain type-checks the main package pattern names.
func loadMain(ctx context.Context, dir, pattern string) (*packages.Package, error) {
	cfg := &packages.Config{
		Context: ctx,
		Dir:     dir,
		Mode:    packages.NeedName | packages.NeedFiles | packages.NeedSyntax | packages.NeedTypes | packages.NeedTypesInfo,
	}
	pkgs, err := packages.Load(cfg, pattern)
	if err != nil {
		return nil, fmt.Errorf("load %s: %w", pattern, err)
	}
	if len(pkgs) != 1 {
		return nil, usageError{fmt.Errorf("%s matches %d packages; name one main package", pattern, len(pkgs))}
	}
	pkg := pkgs[0]
	if len(pkg.Errors) > 0 {
		var msgs []string
		for _, e := range pkg.Errors {
			msgs = append(msgs, e.Error())
		}
		return nil, fmt.Errorf("load %s:\n\t%s", pattern, strings.Join(msgs, "\n\t"))
	}
	if pkg.Name != "main" {
		return nil, usageError{fmt.Errorf("%s is package %s, not a main package: name the command of the server, e.g. ./cmd/mcp-memory", pattern, pkg.Name)}
	}
	return pkg, nil
}

// importedServer reads the surface.json (and server.json, when there is
// one) of the generated server the main package imports, directly or not:
// the one package among its dependencies whose directory holds a
// surface.json. It returns the surface.json's path too, for messages.
func importedServer(ctx context.Context, dir string, pkg *packages.Package) (*surface.Surface, *registryEntry, []byte, string, error) {
	cmd := exec.CommandContext(ctx, "go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}\t{{.Dir}}{{end}}", pkg.PkgPath)
	cmd.Dir = dir
	var errb bytes.Buffer
	cmd.Stderr = &errb
	b, err := cmd.Output()
	if err != nil {
		return nil, nil, nil, "", fmt.Errorf("go list -deps %s: %v: %s", pkg.PkgPath, err, strings.TrimSpace(errb.String()))
	}
	type found struct {
		path string
		s    *surface.Surface
		dir  string
	}
	var servers []found
	for line := range strings.Lines(string(b)) {
		ip, d, ok := strings.Cut(strings.TrimSpace(line), "\t")
		if !ok || d == "" {
			continue
		}
		data, err := os.ReadFile(filepath.Join(d, "surface.json"))
		if err != nil {
			continue
		}
		s, err := surface.Parse(data)
		if err != nil {
			return nil, nil, nil, "", fmt.Errorf("%s: %w", filepath.Join(d, "surface.json"), err)
		}
		servers = append(servers, found{ip, s, d})
	}
	switch len(servers) {
	case 0:
		return nil, nil, nil, "", usageError{fmt.Errorf("%s imports no generated server (no package among its dependencies has a surface.json; run mcpgen first?)", pkg.PkgPath)}
	case 1:
	default:
		var names []string
		for _, f := range servers {
			names = append(names, f.path)
		}
		return nil, nil, nil, "", usageError{fmt.Errorf("%s imports %d generated servers (%s); a bundle describes one", pkg.PkgPath, len(servers), strings.Join(names, ", "))}
	}
	srv := servers[0]
	data, err := os.ReadFile(filepath.Join(srv.dir, "server.json"))
	if errors.Is(err, os.ErrNotExist) {
		return srv.s, nil, nil, filepath.Join(srv.dir, "surface.json"), nil
	} else if err != nil {
		return nil, nil, nil, "", err
	}
	var reg registryEntry
	if err := json.Unmarshal(data, &reg); err != nil {
		return nil, nil, nil, "", fmt.Errorf("%s: %w", filepath.Join(srv.dir, "server.json"), err)
	}
	return srv.s, &reg, data, filepath.Join(srv.dir, "surface.json"), nil
}

// crossBuild builds the main package importPath for p into bin: static
// (CGO_ENABLED=0), without file system paths (-trimpath) and stripped of
// the symbol table and DWARF (-ldflags=-s -w).
func crossBuild(ctx context.Context, dir, importPath string, p platform, bin string) error {
	cmd := exec.CommandContext(ctx, "go", "build", "-trimpath", "-ldflags=-s -w", "-o", bin, importPath)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS="+p.OS, "GOARCH="+p.Arch)
	var errb bytes.Buffer
	cmd.Stdout = &errb
	cmd.Stderr = &errb
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("build %s for %s: %v\n%s", importPath, p, err, strings.TrimSpace(errb.String()))
	}
	return nil
}

// bundleTime is the modification time of every entry of a bundle: the
// first a zip archive can hold, so that the same inputs give the same
// bytes.
var bundleTime = time.Date(1980, 1, 1, 0, 0, 0, 0, time.UTC)

// writeBundle writes the zip archive at out: manifest.json, then the
// launchers and binaries (executable) in path order, all dated
// bundleTime. It writes a
// temporary file beside out and renames it, so that a failure leaves no
// half bundle.
func writeBundle(out string, manifestJSON []byte, launchers, binaries map[string]string) (err error) {
	f, err := os.CreateTemp(filepath.Dir(out), ".mcpb-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	zw := zip.NewWriter(f)
	add := func(name string, mode os.FileMode, r io.Reader) error {
		h := &zip.FileHeader{Name: name, Method: zip.Deflate, Modified: bundleTime}
		h.SetMode(mode)
		w, err := zw.CreateHeader(h)
		if err != nil {
			return err
		}
		_, err = io.Copy(w, r)
		return err
	}
	if err := add("manifest.json", 0o644, bytes.NewReader(manifestJSON)); err != nil {
		return fmt.Errorf("write %s: %w", out, err)
	}
	var names []string
	for n := range launchers {
		names = append(names, n)
	}
	for n := range binaries {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		if text, ok := launchers[n]; ok {
			err = add(n, 0o755, strings.NewReader(text))
		} else {
			err = addFile(add, n, binaries[n])
		}
		if err != nil {
			return fmt.Errorf("write %s: %s: %w", out, n, err)
		}
	}
	if err := zw.Close(); err != nil {
		return fmt.Errorf("write %s: %w", out, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write %s: %w", out, err)
	}
	if err := os.Chmod(f.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(f.Name(), out)
}

func addFile(add func(string, os.FileMode, io.Reader) error, name, file string) error {
	r, err := os.Open(file)
	if err != nil {
		return err
	}
	defer r.Close()
	return add(name, 0o755, r)
}

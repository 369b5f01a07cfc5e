package gen

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Writing the output directory, and telling what in it is stale.

// Write makes outDir hold exactly the generated servers: changed files are
// rewritten, unchanged ones left alone (keeping the build cache warm), and
// files of a generated server package that are no longer produced removed.
// It returns the paths it wrote or removed, relative to outDir.
func (res *Result) Write(outDir string) ([]string, error) {
	stale, err := res.Stale(outDir)
	if err != nil {
		return nil, err
	}
	want := map[string][]byte{}
	for _, f := range res.Files {
		want[f.Path] = f.Content
	}
	for _, rel := range stale {
		p := filepath.Join(outDir, filepath.FromSlash(rel))
		content, keep := want[rel]
		if !keep {
			if err := os.Remove(p); err != nil {
				return nil, fmt.Errorf("remove %s: %w", p, err)
			}
			// An orphaned server package goes with its last file;
			// a directory holding anything else stays.
			for d := filepath.Dir(p); d != filepath.Clean(outDir) && strings.HasPrefix(d, filepath.Clean(outDir)); d = filepath.Dir(d) {
				if os.Remove(d) != nil {
					break
				}
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return nil, fmt.Errorf("write %s: %w", p, err)
		}
		if err := os.WriteFile(p, content, 0o644); err != nil {
			return nil, fmt.Errorf("write %s: %w", p, err)
		}
	}
	return stale, nil
}

// Stale lists the files of outDir that differ from res, relative to
// outDir and sorted: missing, changed, or left over in a server package
// directory the generator owns (one whose server is no longer generated
// from the packages it came from included).
func (res *Result) Stale(outDir string) ([]string, error) {
	var out []string
	owned := map[string]bool{}
	want := map[string]bool{}
	for _, f := range res.Files {
		want[f.Path] = true
		owned[strings.SplitN(f.Path, "/", 2)[0]] = true
		got, err := os.ReadFile(filepath.Join(outDir, filepath.FromSlash(f.Path)))
		if err != nil && !os.IsNotExist(err) {
			return nil, fmt.Errorf("read %s: %w", f.Path, err)
		}
		if err != nil || !bytes.Equal(got, f.Content) {
			out = append(out, f.Path)
		}
	}
	orphans, err := orphanDirs(outDir, res, owned)
	if err != nil {
		return nil, err
	}
	for _, dir := range orphans {
		owned[dir] = true
	}
	for dir := range owned {
		root := filepath.Join(outDir, dir)
		err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			rel, _ := filepath.Rel(outDir, p)
			rel = filepath.ToSlash(rel)
			if !want[rel] && (generatedFile(p) || isSkillCopy(rel)) {
				out = append(out, rel)
			}
			return nil
		})
		if err != nil && !os.IsNotExist(err) {
			return nil, fmt.Errorf("scan %s: %w", root, err)
		}
	}
	sort.Strings(out)
	return out, nil
}

// orphanDirs lists the server directories of outDir that mcpgen generated
// (the header of their server.go names its component package) for one that
// this run scanned without producing that server (it was renamed or lost
// its directives), or that no longer exists in the module.
func orphanDirs(outDir string, res *Result, owned map[string]bool) ([]string, error) {
	entries, err := os.ReadDir(outDir)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("scan %s: %w", outDir, err)
	}
	var out []string
	for _, e := range entries {
		if !e.IsDir() || owned[e.Name()] {
			continue
		}
		b, err := os.ReadFile(filepath.Join(outDir, e.Name(), "server.go"))
		if err != nil {
			continue
		}
		src := generatedFrom(b)
		if src == "" {
			continue
		}
		gone := false
		if rel, ok := strings.CutPrefix(src, res.modulePath+"/"); ok && res.ModuleDir != "" {
			_, err := os.Stat(filepath.Join(res.ModuleDir, filepath.FromSlash(rel)))
			gone = os.IsNotExist(err)
		}
		if res.scanned[src] || gone {
			out = append(out, e.Name())
		}
	}
	return out, nil
}

// generatedFrom is the import path of the component package that the
// server.go b was generated from, read from the //mcpgen:source line of
// its header, or "" when mcpgen did not write b.
func generatedFrom(b []byte) string {
	if !bytes.HasPrefix(b, []byte("// "+Header+"\n")) {
		return ""
	}
	for _, line := range strings.Split(string(b), "\n") {
		if !strings.HasPrefix(line, "//") {
			break // the header ends at its blank line
		}
		if src, ok := strings.CutPrefix(line, sourceDirective); ok {
			return strings.TrimSpace(src)
		}
	}
	return ""
}

// generatedFile reports whether p is ours to remove: a Go file with our
// header, a schema document, or the server's surface, registry entry or
// server card.
func generatedFile(p string) bool {
	if strings.HasSuffix(p, ".json") && filepath.Base(filepath.Dir(p)) == "schemas" || filepath.Base(p) == "surface.json" || filepath.Base(p) == "server.json" || filepath.Base(p) == "server-card.json" {
		return true
	}
	b, err := os.ReadFile(p)
	return err == nil && bytes.HasPrefix(b, []byte("// "+Header))
}

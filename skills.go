package mcpgen

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/mcpgen/mcpgen/internal/jsonrpc"
	"github.com/mcpgen/mcpgen/internal/skills"
)

// Skill is one Agent Skill: a directory whose SKILL.md frontmatter names
// and describes it. Exactly one of Files and Dynamic is set.
//
// A server serves its skills under the Skills extension
// (io.modelcontextprotocol/skills, SEP-2640), as resources under skill://
// with skills/list, skills/get and resources/directory/read. Skills come
// from the generated definition ([Definition].Skills, from //mcp:skill,
// embedded and digested by mcpgen) and from [Options].Skills (provided by
// code), and are served side by side.
type Skill struct {
	// Path locates the skill in the server's skill namespace: "git-workflow"
	// or "acme/billing/refunds". Its last segment is the skill's name; the
	// files are served as skill://<Path>/<file>.
	Path string
	// Frontmatter is the SKILL.md YAML frontmatter rendered as a JSON
	// object, verbatim: the entry's frontmatter on the wire.
	Frontmatter json.RawMessage
	// Files are the skill's files, SKILL.md included; they are listed with
	// their digests and sizes in the skill's entry.
	Files []SkillFile
	// Dynamic serves a skill whose content is generated when asked for: its
	// entry lists "resources": "dynamic" (no digests), and every read or
	// directory listing calls it for the current files.
	Dynamic func(ctx context.Context, req *Request) ([]SkillFile, error)
}

// SkillFile is one file of a skill.
type SkillFile struct {
	// Path is the file's path relative to the skill root,
	// '/'-separated: "SKILL.md", "references/FORMS.md".
	Path string
	// MimeType is the file's media type; empty derives it from the name
	// and content.
	MimeType string
	// Content is the file's bytes.
	Content []byte
	// Digest is "sha256:<hex>" of Content. When set (generated code sets
	// it), New verifies it, so the binary serves what mcpgen checked;
	// when empty, New computes it.
	Digest string
}

// skillEntry is a skill as served: its encoded entry and its files by URI.
type skillEntry struct {
	Skill
	uri   string          // of SKILL.md
	root  string          // skill://<path>, the skill's directory
	entry json.RawMessage // the Skill object of skills/list and skills/get
}

// skillIndex is everything the runtime knows about the served skills,
// built once by New.
type skillIndex struct {
	tel   *telemetry
	lists *lists                 // the pages, cursors and cache hints
	all   []*skillEntry          // sorted by URI
	byURI map[string]*skillEntry // SKILL.md URI -> skill
	// dirs maps each directory URI of the static skills to its direct
	// children, sorted by URI; dynamic skills answer when asked.
	dirs map[string][]ResourceInfo
}

// skillTemplateURI is the resource template every skill file matches; it
// lets clients read dynamic skills' files and complete skill paths.
const skillTemplateURI = skills.Scheme + "{+path}"

// MustReadFile returns the named file of fsys; generated code reads its
// embedded skill files and views with it. A missing file is a broken build and
// panics with the name.
func MustReadFile(fsys fs.FS, name string) []byte {
	b, err := fs.ReadFile(fsys, name)
	if err != nil {
		panic(fmt.Sprintf("embedded file: %v (run `go generate ./...` again)", err))
	}
	return b
}

func hasSkills(s *Server) bool { return len(s.skills.all) > 0 }

// newSkillIndex indexes def.Skills and the skills extra (Options.Skills),
// checks them and adds the skill files to def's resources (static skills)
// and the skill template.
func newSkillIndex(def *Definition, extra []Skill, tel *telemetry, ls *lists) (*skillIndex, error) {
	all := append(append([]Skill(nil), def.Skills...), extra...)
	x := &skillIndex{tel: tel, lists: ls, byURI: map[string]*skillEntry{}, dirs: map[string][]ResourceInfo{}}
	if len(all) == 0 {
		return x, nil
	}
	children := map[string]map[string]ResourceInfo{}
	var resources []Resource
	for i := range all {
		e, err := newSkillEntry(all[i])
		if err != nil {
			return nil, err
		}
		if _, dup := x.byURI[e.uri]; dup {
			return nil, fmt.Errorf("duplicate skill %s", e.uri)
		}
		x.byURI[e.uri] = e
		x.all = append(x.all, e)
		x.tel.registered("skill", e.Path)
		if e.Dynamic != nil {
			// Its own directory answers when read; its ancestors list it.
			addToDirs(children, e.root, ResourceInfo{URI: e.root, Name: path.Base(e.Path), MimeType: skills.DirectoryMimeType})
			continue
		}
		var fm struct{ Name, Description string }
		_ = json.Unmarshal(e.Frontmatter, &fm) // checked by newSkillEntry
		for _, f := range e.Files {
			uri := skills.URI(e.Path, f.Path)
			size := int64(len(f.Content))
			r := ResourceInfo{URI: uri, Name: f.Path, MimeType: f.MimeType, Size: &size}
			if f.Path == skills.Manifest {
				r.Name, r.Description = fm.Name, fm.Description
			}
			resources = append(resources, Resource{Info: r, Cache: x.lists.cache, Read: fileReader(uri, f)})
			addToDirs(children, uri, ResourceInfo{URI: uri, Name: path.Base(f.Path), MimeType: f.MimeType, Size: &size})
		}
	}
	sort.Slice(x.all, func(i, j int) bool { return x.all[i].uri < x.all[j].uri })
	sort.Slice(resources, func(i, j int) bool { return resources[i].Info.URI < resources[j].Info.URI })
	for dir, kids := range children {
		list := make([]ResourceInfo, 0, len(kids))
		for _, k := range sortedKeys(kids) {
			list = append(list, kids[k])
		}
		x.dirs[dir] = list
	}
	// Clip so that appending never writes into the caller's arrays.
	def.Resources = append(def.Resources[:len(def.Resources):len(def.Resources)], resources...)
	def.Templates = append(def.Templates[:len(def.Templates):len(def.Templates)], Template{
		Info: TemplateInfo{
			URITemplate: skillTemplateURI,
			Name:        "skill-files",
			Title:       "Skill files",
			Description: "The files of the skills this server publishes (io.modelcontextprotocol/skills): skill://<skill-path>/<file>. skills/list lists the skills.",
		},
		Cache:    x.lists.cache,
		Read:     x.readTemplate,
		Complete: x.completePath,
	})
	return x, nil
}

// newSkillEntry checks one skill and encodes its entry.
func newSkillEntry(sk Skill) (*skillEntry, error) {
	segs := strings.Split(sk.Path, "/")
	name := segs[len(segs)-1]
	if why := skills.CheckName(name); why != "" {
		return nil, fmt.Errorf("skill %q: name %q %s", sk.Path, name, why)
	}
	for _, seg := range segs[:len(segs)-1] {
		if why := skills.CheckPrefixSegment(seg); why != "" {
			return nil, fmt.Errorf("skill %q: path segment %q %s", sk.Path, seg, why)
		}
	}
	var fm map[string]json.RawMessage
	if err := json.Unmarshal(sk.Frontmatter, &fm); err != nil || fm == nil {
		return nil, fmt.Errorf("skill %s: frontmatter is not a JSON object", sk.Path)
	}
	var fmName, fmDesc string
	if json.Unmarshal(fm["name"], &fmName) != nil || fmName != name {
		return nil, fmt.Errorf("skill %s: frontmatter name %s does not equal the last path segment %q", sk.Path, fm["name"], name)
	}
	if json.Unmarshal(fm["description"], &fmDesc) != nil || fmDesc == "" {
		return nil, fmt.Errorf("skill %s: frontmatter has no description", sk.Path)
	}
	e := &skillEntry{Skill: sk, uri: skills.URI(sk.Path, skills.Manifest), root: skills.Scheme + sk.Path}
	var resources any = "dynamic"
	switch {
	case sk.Dynamic != nil && sk.Files != nil:
		return nil, fmt.Errorf("skill %s: set Files or Dynamic, not both", sk.Path)
	case sk.Dynamic == nil:
		files, list, err := checkSkillFiles(sk)
		if err != nil {
			return nil, err
		}
		e.Files, resources = files, list
	}
	entry, err := json.Marshal(struct {
		URI         string          `json:"uri"`
		Frontmatter json.RawMessage `json:"frontmatter"`
		Resources   any             `json:"resources"`
	}{e.uri, sk.Frontmatter, resources})
	if err != nil {
		return nil, fmt.Errorf("skill %s: encode entry: %w", sk.Path, err)
	}
	e.entry = entry
	return e, nil
}

// checkSkillFiles verifies or computes every digest and returns the files
// (sorted, MIME types filled in) with the entry's resources list.
func checkSkillFiles(sk Skill) ([]SkillFile, []skillResource, error) {
	files := append([]SkillFile(nil), sk.Files...)
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	var list []skillResource
	var total int64
	manifest := false
	for i := range files {
		f := &files[i]
		if f.Path == "" || strings.HasPrefix(f.Path, "/") || strings.HasSuffix(f.Path, "/") || path.Clean(f.Path) != f.Path || strings.HasPrefix(f.Path, "../") {
			return nil, nil, fmt.Errorf("skill %s: file path %q is not a clean relative path", sk.Path, f.Path)
		}
		if i > 0 && files[i-1].Path == f.Path {
			return nil, nil, fmt.Errorf("skill %s: file %s listed twice", sk.Path, f.Path)
		}
		digest := skills.Digest(f.Content)
		if f.Digest != "" && f.Digest != digest {
			return nil, nil, fmt.Errorf("skill %s: file %s does not match its digest %s (run `go generate ./...` again)", sk.Path, f.Path, f.Digest)
		}
		f.Digest = digest
		if f.MimeType == "" {
			f.MimeType = skills.MimeType(f.Path, f.Content)
		}
		manifest = manifest || f.Path == skills.Manifest
		total += int64(len(f.Content))
		list = append(list, skillResource{URI: skills.URI(sk.Path, f.Path), Digest: digest, Size: int64(len(f.Content))})
	}
	switch {
	case !manifest:
		return nil, nil, fmt.Errorf("skill %s: no %s file", sk.Path, skills.Manifest)
	case len(files) > skills.MaxFiles:
		return nil, nil, fmt.Errorf("skill %s: %d files; hosts accept at most %d", sk.Path, len(files), skills.MaxFiles)
	case total > skills.MaxBytes:
		return nil, nil, fmt.Errorf("skill %s: %d bytes; hosts accept at most %d", sk.Path, total, skills.MaxBytes)
	}
	return files, list, nil
}

// skillResource is one file of a skill entry's resources.
type skillResource struct {
	URI    string `json:"uri"`
	Digest string `json:"digest"`
	Size   int64  `json:"size"`
}

// addToDirs records uri (a file or directory resource) as a child of its
// directory, and each directory as a child of its parent, up to the URI's
// authority: skill://a/b/c/SKILL.md gives skill://a/b/c, skill://a/b and
// skill://a.
func addToDirs(children map[string]map[string]ResourceInfo, uri string, r ResourceInfo) {
	for {
		i := strings.LastIndexByte(uri, '/')
		if i < len(skills.Scheme) {
			return
		}
		dir := uri[:i]
		kids := children[dir]
		if kids == nil {
			kids = map[string]ResourceInfo{}
			children[dir] = kids
		}
		if _, seen := kids[uri]; seen {
			return // so were its ancestors
		}
		kids[uri] = r
		uri, r = dir, ResourceInfo{URI: dir, Name: path.Base(dir[len(skills.Scheme):]), MimeType: skills.DirectoryMimeType}
	}
}

// fileReader serves one static skill file.
func fileReader(uri string, f SkillFile) func(context.Context, *Request) (*ReadResourceResult, error) {
	c := skillContents(uri, f)
	return func(context.Context, *Request) (*ReadResourceResult, error) {
		return &ReadResourceResult{Contents: []ResourceContents{c}}, nil
	}
}

// skillContents is the resources/read content of a skill file: text when
// it is UTF-8, a base64 blob otherwise; the bytes are the digested ones.
func skillContents(uri string, f SkillFile) ResourceContents {
	mime := f.MimeType
	if mime == "" {
		mime = skills.MimeType(f.Path, f.Content)
	}
	if skills.IsText(f.Content) {
		text := string(f.Content)
		return ResourceContents{URI: uri, MimeType: mime, Text: &text}
	}
	return ResourceContents{URI: uri, MimeType: mime, Blob: base64.StdEncoding.EncodeToString(f.Content)}
}

// dynamic finds the dynamic skill whose directory holds uri (or is it).
func (x *skillIndex) dynamic(uri string) *skillEntry {
	var best *skillEntry
	for _, e := range x.all {
		if e.Dynamic != nil && (uri == e.root || strings.HasPrefix(uri, e.root+"/")) && (best == nil || len(e.root) > len(best.root)) {
			best = e
		}
	}
	return best
}

// readTemplate serves skill:// URIs that are not static files: the
// files of dynamic skills. Static files are fixed resources, found first.
func (x *skillIndex) readTemplate(ctx context.Context, req *Request, uri string, _ map[string]string) (*ReadResourceResult, error) {
	e := x.dynamic(uri)
	if e == nil || uri == e.root {
		return nil, ErrResourceNotFound
	}
	files, err := e.Dynamic(ctx, req)
	if err != nil {
		return nil, err
	}
	rel := uri[len(e.root)+1:]
	for _, f := range files {
		if f.Path == rel {
			return &ReadResourceResult{Contents: []ResourceContents{skillContents(uri, f)}}, nil
		}
	}
	return nil, ErrResourceNotFound
}

// completePath offers the skill paths and file paths that start with
// what the user typed, for the {+path} variable of the skill template.
func (x *skillIndex) completePath(_ context.Context, _ *Request, c CompleteRequest) ([]string, error) {
	if c.Argument != "path" {
		return nil, nil
	}
	var out []string
	for _, e := range x.all {
		paths := []string{skills.Manifest}
		if e.Dynamic == nil {
			paths = paths[:0]
			for _, f := range e.Files {
				paths = append(paths, f.Path)
			}
		}
		for _, p := range paths {
			if full := e.Path + "/" + p; strings.HasPrefix(full, c.Value) {
				out = append(out, full)
			}
		}
	}
	sort.Strings(out)
	return out, nil
}

// addList adds the pages of skills/list. Unlike the base lists, the
// legacy pages carry the cache hints too: the extension defines its
// results as cacheable whatever the revision.
func (x *skillIndex) addList(b *listPages) error {
	if len(x.all) == 0 {
		return nil
	}
	items := make([]any, len(x.all))
	for i, e := range x.all {
		items[i] = e.entry
	}
	return b.add("skills/list", "skills", items, true)
}

// get answers skills/get: the entry of the skill whose SKILL.md is
// params.uri, or -32602 when no skill is served there.
func (x *skillIndex) get(p *params) (any, error) {
	if p.URI == "" {
		return nil, fmt.Errorf("%w: uri is required", jsonrpc.ErrInvalidParams)
	}
	e, ok := x.byURI[p.URI]
	if !ok {
		return nil, (&jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "No skill is served at " + p.URI}).WithData(map[string]string{"uri": p.URI})
	}
	return json.RawMessage(fmt.Sprintf(`{"skill":%s,"ttlMs":%d,"cacheScope":%q}`, e.entry, x.lists.cache.TTLMs, x.lists.cache.Scope)), nil
}

// readDirectory answers resources/directory/read: the direct children of
// a skill directory, paginated like resources/list; -32602 for a URI that
// is not a directory resource.
func (x *skillIndex) readDirectory(ctx context.Context, req *Request, p *params) (any, error) {
	if p.URI == "" {
		return nil, fmt.Errorf("%w: uri is required", jsonrpc.ErrInvalidParams)
	}
	kids, ok := x.dirs[p.URI]
	if e := x.dynamic(p.URI); e != nil {
		files, err := e.Dynamic(ctx, req)
		if err != nil {
			return nil, err
		}
		children := map[string]map[string]ResourceInfo{}
		for _, f := range files {
			uri := skills.URI(e.Path, f.Path)
			size := int64(len(f.Content))
			mime := f.MimeType
			if mime == "" {
				mime = skills.MimeType(f.Path, f.Content)
			}
			addToDirs(children, uri, ResourceInfo{URI: uri, Name: path.Base(f.Path), MimeType: mime, Size: &size})
		}
		if dyn, found := children[p.URI]; found {
			// A directory both skill kinds share lists both.
			merged := map[string]ResourceInfo{}
			for _, k := range kids {
				merged[k.URI] = k
			}
			for u, k := range dyn {
				merged[u] = k
			}
			kids, ok = nil, true
			for _, u := range sortedKeys(merged) {
				kids = append(kids, merged[u])
			}
		}
	}
	if !ok {
		return nil, (&jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: p.URI + " is not a directory resource"}).WithData(map[string]string{"uri": p.URI})
	}
	method := "resources/directory/read\x00" + p.URI
	start, err := x.lists.offset(method, p.Cursor, len(kids))
	if err != nil {
		return nil, err
	}
	end := min(start+x.lists.size, len(kids))
	res := struct {
		Resources  []ResourceInfo `json:"resources"`
		NextCursor string         `json:"nextCursor,omitempty"`
	}{Resources: kids[start:end]}
	if res.Resources == nil {
		res.Resources = []ResourceInfo{}
	}
	if end < len(kids) {
		res.NextCursor = x.lists.signer.cursor(method, end)
	}
	return res, nil
}

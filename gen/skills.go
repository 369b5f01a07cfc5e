package gen

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v4"

	"github.com/mcpgen/mcpgen/internal/skills"
)

// This file is the check stage of the //mcp:skill directive: it reads the
// skill directories a server package names, checks each SKILL.md's
// frontmatter against the Agent Skills specification with diagnostics
// positioned in the SKILL.md, and digests every file. emit_skills.go turns
// the result into embedded registry entries.
//
// Grammar (in the package doc comment, beside //mcp:server):
//
//	//mcp:skill dir=skills/review              one skill: the directory review
//	//mcp:skill root=skills                    every subdirectory of skills is a skill
//	//mcp:skill dir=skills/refunds prefix=acme/billing
//	                                           served as skill://acme/billing/refunds/...
//
// Paths are relative to the package directory, '/'-separated, and stay
// inside the module.
//
// On a type, the directive declares a dynamic skill: a component whose
// Files method returns the skill's files when they are asked for.
//
//	//mcp:skill name=live-status description="..." prefix=acme/ops
//	type LiveStatus struct{}
//
//	func (LiveStatus) Files(ctx context.Context, req *mcpgen.Request, deps...) ([]mcpgen.SkillFile, error)
//
// name defaults to the type name in kebab case, description to the type's
// doc comment; both are checked as SKILL.md frontmatter is.

// skill is one skill a server publishes: its files, read and checked.
type skill struct {
	Path        string         // skill path: [prefix/]name; files are skill://<Path>/<file>
	Dir         string         // the source directory
	Frontmatter []byte         // SKILL.md frontmatter as a JSON object, in file order
	Files       []skillFile    // nil for a dynamic skill
	Pos         token.Position // of the directive
	// Provider is the component of a dynamic skill (//mcp:skill on a
	// type): its Handler is the Files method the registry entry calls.
	Provider *component
}

// skillFile is one file of a skill, with what its entry says about it.
type skillFile struct {
	Path     string // relative to the skill root, '/'-separated
	Content  []byte
	Digest   string
	MimeType string
}

// skillDirName is the directory of a generated package that holds the copies
// of its skill files: go:embed reaches only the package's own directory, and
// Go tools skip directories starting with '_', so a skill's scripts are never
// compiled as part of the module.
const skillDirName = "_skills"

// checkSkillDirective handles one //mcp:skill directive of the package doc.
func (c *checker) checkSkillDirective(s *server, d directive) {
	var dirOpt, rootOpt, prefixOpt *option
	for i := range d.Options {
		o := &d.Options[i]
		switch o.Key {
		case "dir":
			dirOpt = o
		case "root":
			rootOpt = o
		case "prefix":
			prefixOpt = o
		default:
			c.unknownKey(d, *o, "dir, root, prefix")
		}
	}
	if (dirOpt == nil) == (rootOpt == nil) {
		c.at(d.Pos, "//mcp:skill", "write dir=path/to/skill for one skill, or root=path/to/skills for every subdirectory", "need exactly one of dir= and root=")
		return
	}
	prefix := ""
	if prefixOpt != nil {
		var ok bool
		if prefix, ok = c.skillPrefix(*prefixOpt); !ok {
			return
		}
	}
	o := dirOpt
	if o == nil {
		o = rootOpt
	}
	dir, ok := c.skillPath(s, *o)
	if !ok {
		return
	}
	pos := c.fset.Position(d.Pos)
	if dirOpt != nil {
		if sk := c.readSkill(dir, prefix, pos, o.ValPos); sk != nil {
			s.Skills = append(s.Skills, sk)
		}
		return
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		c.at(o.ValPos, "//mcp:skill", "name a directory of skill directories, relative to the package", "cannot read root %s: %v", o.Value, errors.Unwrap(err))
		return
	}
	found := false
	for _, e := range entries {
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue // files beside the skills (a README) are not skills
		}
		found = true
		if sk := c.readSkill(filepath.Join(dir, e.Name()), prefix, pos, o.ValPos); sk != nil {
			s.Skills = append(s.Skills, sk)
		}
	}
	if !found {
		c.at(o.ValPos, "//mcp:skill", "put each skill in its own subdirectory with a SKILL.md", "root %s holds no skill directories", o.Value)
	}
}

// skillPrefix checks a prefix= value: '/'-separated segments the skill
// path allows.
func (c *checker) skillPrefix(o option) (string, bool) {
	prefix := c.str(o)
	for _, seg := range strings.Split(prefix, "/") {
		if why := skills.CheckPrefixSegment(seg); why != "" {
			c.at(o.ValPos, "//mcp:skill", "write a '/'-separated path such as prefix=acme/billing", "prefix segment %q %s", seg, why)
			return "", false
		}
	}
	return prefix, true
}

// checkSkillComponent handles //mcp:skill on a type: a dynamic skill whose
// files its Files method returns. Its name and description are checked as
// the frontmatter of a SKILL.md is, at the option (or the type) that set
// them.
func (c *checker) checkSkillComponent(s *server, comp component, d directive) {
	comp.Name = strings.ReplaceAll(snake(comp.TypeName), "_", "-")
	// A doc comment's line breaks are wrapping, not content: frontmatter
	// descriptions are one line.
	comp.Description = strings.Join(strings.Fields(comp.Description), " ")
	namePos, descPos := comp.Pos, comp.Pos
	prefix, ok := "", true
	for _, o := range d.Options {
		switch o.Key {
		case "name":
			comp.Name, namePos = c.str(o), c.fset.Position(o.ValPos)
		case "description":
			comp.Description, descPos = c.str(o), c.fset.Position(o.ValPos)
		case "prefix":
			prefix, ok = c.skillPrefix(o)
		case "dir", "root":
			// A package-level directive in the wrong place: say so, and
			// nothing about the Files method it never meant to declare.
			c.at(o.Pos, "//mcp:skill", "name skill directories in the package doc comment; on a type, //mcp:skill serves the type's Files method", "%s= on a type", o.Key)
			return
		default:
			c.unknownKey(d, o, "name, description, prefix")
		}
	}
	subject := "skill " + comp.Name
	if why := skills.CheckName(comp.Name); why != "" {
		c.atPosition(namePos, subject, "use 1-64 lowercase letters a-z, digits and single hyphens, e.g. name=live-status", "name %q %s", comp.Name, why)
		ok = false
	}
	switch n := utf8.RuneCountInString(comp.Description); {
	case strings.TrimSpace(comp.Description) == "":
		c.atPosition(descPos, subject, "write a doc comment on the type, or description=\"...\": say what the skill does and when to use it", "missing description")
		ok = false
	case n > skills.MaxDescriptionLen:
		c.atPosition(descPos, subject, "shorten it; put details in the skill's SKILL.md", "description is %d characters long; the limit is %d", n, skills.MaxDescriptionLen)
		ok = false
	}
	const hint = "add: func (x %s) Files(ctx context.Context, req *mcpgen.Request) ([]mcpgen.SkillFile, error)"
	if c.method(&comp, "Files", false, "") == nil {
		c.atPosition(comp.Pos, comp.TypeName, fmt.Sprintf(hint, comp.TypeName), "missing method Files")
		return
	}
	comp.Handler = c.handler(&comp, "Files", "skill")
	if comp.Handler == nil {
		return
	}
	if !isSliceOf(comp.Handler.Result, runtimeModule, "SkillFile") {
		c.atPosition(comp.Handler.Pos, comp.TypeName+".Files", fmt.Sprintf(hint, comp.TypeName), "skill Files returns %s, not []mcpgen.SkillFile", short(comp.Handler.Result))
		return
	}
	if !ok {
		return
	}
	path := comp.Name
	if prefix != "" {
		path = prefix + "/" + comp.Name
	}
	fm := []byte(`{"name":` + string(jsonString(comp.Name)) + `,"description":` + string(jsonString(comp.Description)) + `}`)
	s.Skills = append(s.Skills, &skill{Path: path, Dir: "type " + comp.TypeName, Frontmatter: fm, Pos: comp.Pos, Provider: &comp})
}

// skillPath resolves a dir= or root= value: relative to the package
// directory, inside the module, and a directory.
func (c *checker) skillPath(s *server, o option) (string, bool) {
	v := o.Value
	dir, ok := c.packagePath(s, o, "//mcp:skill")
	if !ok {
		return "", false
	}
	fi, err := os.Stat(dir)
	switch {
	case err != nil:
		c.at(o.ValPos, "//mcp:skill", "paths are relative to the package directory "+s.Dir, "no directory %s", v)
		return "", false
	case !fi.IsDir():
		c.at(o.ValPos, "//mcp:skill", "name the directory that holds SKILL.md, not a file", "%s is not a directory", v)
		return "", false
	}
	return dir, true
}

// readSkill reads, checks and digests the skill in dir. Problems with the
// directory are reported at the directive (valPos); problems in SKILL.md
// are reported in it.
func (c *checker) readSkill(dir, prefix string, pos token.Position, valPos token.Pos) *skill {
	name := filepath.Base(dir)
	sk := &skill{Path: name, Dir: dir, Pos: pos}
	if prefix != "" {
		sk.Path = prefix + "/" + name
	}
	subject := "skill " + sk.Path
	var total int64
	bad := false
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if rel != "." && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil // hidden files (.DS_Store, editor droppings) are not served
		}
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			c.at(valPos, subject, "copy the file into the skill directory", "%s is a symbolic link; links are not followed", rel)
			bad = true
			return nil
		case d.IsDir():
			return nil
		case !d.Type().IsRegular():
			c.at(valPos, subject, "skills hold regular files only", "%s is not a regular file", rel)
			bad = true
			return nil
		case d.Name() == "go.mod":
			c.at(valPos, subject, "rename it (go.mod.txt): a go.mod would cut the skill out of the module and out of go:embed", "%s is a go.mod file", rel)
			bad = true
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		total += int64(len(b))
		sk.Files = append(sk.Files, skillFile{Path: rel, Content: b, Digest: skills.Digest(b), MimeType: skills.MimeType(rel, b)})
		return nil
	})
	if err != nil {
		c.at(valPos, subject, "", "read %s: %v", dir, err)
		return nil
	}
	sort.Slice(sk.Files, func(i, j int) bool { return sk.Files[i].Path < sk.Files[j].Path })
	var manifest *skillFile
	for i := range sk.Files {
		if sk.Files[i].Path == skills.Manifest {
			manifest = &sk.Files[i]
		}
	}
	if manifest == nil {
		c.at(valPos, subject, "every skill has a SKILL.md at its root, starting with name: and description: frontmatter", "no %s in %s", skills.Manifest, dir)
		return nil
	}
	if len(sk.Files) > skills.MaxFiles {
		c.at(valPos, subject, "split the skill, or move material elsewhere", "%d files; hosts are only required to accept %d per skill", len(sk.Files), skills.MaxFiles)
		bad = true
	}
	if total > skills.MaxBytes {
		c.at(valPos, subject, "split the skill, or move large assets elsewhere", "%d bytes in total; hosts are only required to accept %d (16 MiB) per skill", total, skills.MaxBytes)
		bad = true
	}
	fm, ok := c.frontmatter(filepath.Join(dir, skills.Manifest), manifest.Content, name)
	if !ok || bad {
		return nil
	}
	sk.Frontmatter = fm
	return sk
}

// checkSkills refuses two skills served at the same path.
func (c *checker) checkSkills(s *server) {
	sort.SliceStable(s.Skills, func(i, j int) bool { return s.Skills[i].Path < s.Skills[j].Path })
	for i := 1; i < len(s.Skills); i++ {
		if a, b := s.Skills[i-1], s.Skills[i]; a.Path == b.Path {
			c.atPosition(b.Pos, "skill "+b.Path, fmt.Sprintf("serve one of them under a prefix= (the other comes from %s)", a.Dir), "two skills at skill://%s", b.Path)
		}
	}
}

// frontmatter checks the YAML frontmatter of a SKILL.md and renders it as
// a JSON object. Diagnostics point into the file.
func (c *checker) frontmatter(file string, content []byte, dirName string) ([]byte, bool) {
	at := func(line, col int) token.Position {
		return token.Position{Filename: file, Line: line, Column: max(col, 1)}
	}
	const subject = "SKILL.md"
	errs := len(c.diags)
	text := strings.TrimPrefix(string(content), "\ufeff")
	lines := strings.SplitAfter(text, "\n")
	if strings.TrimRight(lines[0], "\r\n") != "---" {
		c.atPosition(at(1, 1), subject, "start the file with a line ---, then name: and description:, then a closing ---", "does not begin with YAML frontmatter")
		return nil, false
	}
	end := -1
	for i := 1; i < len(lines); i++ {
		if strings.TrimRight(lines[i], " \t\r\n") == "---" && strings.HasPrefix(lines[i], "---") {
			end = i
			break
		}
	}
	if end < 0 {
		c.atPosition(at(1, 1), subject, "close the frontmatter with a line ---", "frontmatter is not closed")
		return nil, false
	}
	body := strings.Join(lines[1:end], "")
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(body), &doc); err != nil {
		line, msg := 0, err.Error()
		var pe *yaml.ParserError
		if errors.As(err, &pe) {
			line, msg = pe.Line, pe.Message
		}
		c.atPosition(at(line+1, 1), subject, "fix the YAML syntax of the frontmatter", "frontmatter: %s", msg)
		return nil, false
	}
	// yaml lines count from the first line after the opening ---.
	pos := func(n *yaml.Node) token.Position { return at(n.Line+1, n.Column) }
	if len(doc.Content) == 0 {
		c.atPosition(at(1, 1), subject, "add name: and description: between the --- lines", "frontmatter is empty")
		return nil, false
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		c.atPosition(pos(root), subject, "write name: and description: as a YAML mapping", "frontmatter is not a mapping of fields")
		return nil, false
	}
	var out bytes.Buffer
	out.WriteByte('{')
	seen := map[string]*yaml.Node{}
	known := strings.Join(skills.Fields, ", ")
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		key := k.Value
		if k.Kind != yaml.ScalarNode {
			c.atPosition(pos(k), subject, "field names are plain words", "a frontmatter field name is not a string")
			continue
		}
		if prev, dup := seen[key]; dup {
			c.atPosition(pos(k), subject, fmt.Sprintf("keep one; the first is at line %d", prev.Line+1), "duplicate field %q", key)
			continue
		}
		seen[key] = k
		var val []byte
		switch key {
		case "name":
			val = c.yamlString(pos, v, key, 1, skills.MaxNameLen)
			if val != nil {
				if why := skills.CheckName(v.Value); why != "" {
					c.atPosition(pos(v), subject, "use 1-64 lowercase letters a-z, digits and single hyphens, e.g. name: code-review", "name %q %s", v.Value, why)
				} else if v.Value != dirName {
					c.atPosition(pos(v), subject, "the name must equal the skill's directory name: rename one of them", "name %q does not match the directory %q", v.Value, dirName)
				}
			}
		case "description":
			val = c.yamlString(pos, v, key, 1, skills.MaxDescriptionLen)
			if val != nil && strings.TrimSpace(v.Value) == "" {
				c.atPosition(pos(v), subject, "say what the skill does and when to use it", "description is blank")
			}
		case "compatibility":
			val = c.yamlString(pos, v, key, 1, skills.MaxCompatibilityLen)
		case "license":
			val = c.yamlString(pos, v, key, 1, -1)
		case "allowed-tools":
			if v.Kind == yaml.SequenceNode {
				val = c.yamlStrings(pos, v, key)
			} else {
				val = c.yamlString(pos, v, key, 1, -1)
			}
		case "metadata":
			val = c.yamlMetadata(pos, v)
		default:
			c.atPosition(pos(k), subject, "the Agent Skills fields are "+known+"; put other data under metadata:", "unknown field %q", key)
			continue
		}
		if val == nil {
			continue
		}
		if out.Len() > 1 {
			out.WriteByte(',')
		}
		out.Write(jsonString(key))
		out.WriteByte(':')
		out.Write(val)
	}
	out.WriteByte('}')
	for _, req := range []string{"name", "description"} {
		if seen[req] == nil {
			c.atPosition(pos(root), subject, fmt.Sprintf("add a %s: field", req), "frontmatter has no %s", req)
		}
	}
	return out.Bytes(), len(c.diags) == errs
}

// yamlString checks that v is a string of min..max characters (max < 0:
// no limit) and returns it as JSON, or nil after reporting.
func (c *checker) yamlString(pos func(*yaml.Node) token.Position, v *yaml.Node, field string, minLen, maxLen int) []byte {
	if !c.yamlPlain(pos, v, field) {
		return nil
	}
	n := utf8.RuneCountInString(v.Value)
	switch {
	case n < minLen:
		c.atPosition(pos(v), "SKILL.md", fmt.Sprintf("give %s a value, or remove the field", field), "%s is empty", field)
		return nil
	case maxLen >= 0 && n > maxLen:
		c.atPosition(pos(v), "SKILL.md", "shorten it; move details into the body of SKILL.md", "%s is %d characters long; the limit is %d", field, n, maxLen)
		return nil
	}
	return jsonString(v.Value)
}

// yamlPlain reports whether v is a string scalar, reporting otherwise.
func (c *checker) yamlPlain(pos func(*yaml.Node) token.Position, v *yaml.Node, field string) bool {
	switch {
	case v.Kind == yaml.AliasNode:
		c.atPosition(pos(v), "SKILL.md", "write the value out", "%s: YAML aliases are not supported in frontmatter", field)
	case v.Kind != yaml.ScalarNode:
		c.atPosition(pos(v), "SKILL.md", "write a single line of text", "%s must be a string", field)
	case v.ShortTag() != "!!str":
		c.atPosition(pos(v), "SKILL.md", fmt.Sprintf("quote it: %s: \"%s\"", field, v.Value), "%s must be a string, not %s", field, strings.TrimPrefix(v.ShortTag(), "!!"))
	default:
		return true
	}
	return false
}

// yamlStrings checks a sequence of strings (allowed-tools).
func (c *checker) yamlStrings(pos func(*yaml.Node) token.Position, v *yaml.Node, field string) []byte {
	var items []string
	ok := true
	for _, it := range v.Content {
		if !c.yamlPlain(pos, it, field+" item") {
			ok = false
			continue
		}
		items = append(items, it.Value)
	}
	if !ok {
		return nil
	}
	if items == nil {
		items = []string{}
	}
	b, _ := json.Marshal(items)
	return b
}

// yamlMetadata checks the metadata mapping: string keys to string values,
// none under the prefix reserved for MCP extensions.
func (c *checker) yamlMetadata(pos func(*yaml.Node) token.Position, v *yaml.Node) []byte {
	if v.Kind != yaml.MappingNode {
		c.atPosition(pos(v), "SKILL.md", "write metadata as key: \"value\" lines indented under metadata:", "metadata must be a mapping of strings")
		return nil
	}
	var out bytes.Buffer
	out.WriteByte('{')
	ok := true
	seen := map[string]bool{}
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, val := v.Content[i], v.Content[i+1]
		if !c.yamlPlain(pos, k, "metadata key") {
			ok = false
			continue
		}
		if seen[k.Value] {
			c.atPosition(pos(k), "SKILL.md", "keep one", "duplicate metadata key %q", k.Value)
			ok = false
			continue
		}
		seen[k.Value] = true
		if strings.HasPrefix(k.Value, skills.ReservedMetadataPrefix) {
			c.atPosition(pos(k), "SKILL.md", "choose a key of your own; "+skills.ReservedMetadataPrefix+" is reserved for MCP extensions", "metadata key %q uses a reserved prefix", k.Value)
			ok = false
			continue
		}
		if !c.yamlPlain(pos, val, "metadata value "+k.Value) {
			ok = false
			continue
		}
		if out.Len() > 1 {
			out.WriteByte(',')
		}
		out.Write(jsonString(k.Value))
		out.WriteByte(':')
		out.Write(jsonString(val.Value))
	}
	out.WriteByte('}')
	if !ok {
		return nil
	}
	return out.Bytes()
}

// jsonString encodes s as a JSON string without HTML escaping.
func jsonString(s string) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return bytes.TrimRight(b.Bytes(), "\n")
}

// skillCopy is the path, inside the generated package, of the copy of one
// skill file.
func skillCopy(sk *skill, f skillFile) string {
	return path.Join(skillDirName, sk.Path, f.Path)
}

package gen

import (
	"bytes"
	"path"
	"strings"

	"github.com/dave/jennifer/jen"
)

// skills renders the skills of a server: a copy of every skill file under
// _skills/ (go:embed cannot reach the component package's directory) and
// skills.go, whose registry entries carry the digests, sizes and MIME
// types mcpgen computed and embed the copies. `mcpgen -check` compares the
// copies byte for byte, so an edited skill file makes the output stale.
func (e *emitter) skills() ([]File, error) {
	s := e.s
	var files []File
	f := e.newFile()
	f.Comment("//go:embed all:" + skillDirName)
	f.Var().Id("skillFiles").Qual("embed", "FS")
	f.Line()
	var entries []jen.Code
	for _, sk := range s.Skills {
		var fs []jen.Code
		for _, file := range sk.Files {
			copyPath := skillCopy(sk, file)
			files = append(files, File{Path: path.Join(s.Name, copyPath), Content: file.Content})
			var sf fields
			sf.add("Path", jen.Lit(file.Path))
			sf.add("MimeType", jen.Lit(file.MimeType))
			sf.add("Digest", jen.Lit(file.Digest))
			sf.add("Content", rt("MustReadFile").Call(jen.Id("skillFiles"), jen.Lit(copyPath)))
			fs = append(fs, jen.Values(sf.lines()...))
		}
		var entry fields
		entry.add("Path", jen.Lit(sk.Path))
		entry.add("Frontmatter", jen.Qual(jsonPkg, "RawMessage").Call(rawString(sk.Frontmatter)))
		entry.add("Files", jen.Index().Add(rt("SkillFile")).Values(multiline(fs)...))
		entries = append(entries, jen.Values(entry.lines()...))
	}
	f.Comment("skills lists the skills of the //mcp:skill directives in path order, as")
	f.Comment("mcpgen read and checked them; New verifies every digest again.")
	f.Func().Params(jen.Id("h").Op("*").Id("handlers")).Id("skills").Params().Index().Add(rt("Skill")).Block(
		jen.Return(jen.Index().Add(rt("Skill")).Values(multiline(entries)...)),
	)
	var buf bytes.Buffer
	if err := f.Render(&buf); err != nil {
		return nil, internalError("render %s/skills.go: %v", s.Name, err)
	}
	files = append(files, File{Path: path.Join(s.Name, "skills.go"), Content: buf.Bytes()})
	return files, nil
}

// rawString renders JSON as a Go raw string literal when it can (it reads
// better in the generated file), else as an interpreted one.
func rawString(b []byte) jen.Code {
	if !bytes.ContainsRune(b, '`') && !bytes.ContainsRune(b, '\r') {
		return jen.Op("`" + string(b) + "`")
	}
	return jen.Lit(string(b))
}

// isSkillCopy reports whether rel (relative to the output directory) is a
// skill file copy of a generated package: ours to remove when stale.
func isSkillCopy(rel string) bool {
	parts := strings.SplitN(rel, "/", 3)
	return len(parts) == 3 && parts[1] == skillDirName
}

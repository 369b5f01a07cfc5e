package gen

import (
	"bytes"
	"fmt"
	"path"
	"strings"

	"github.com/dave/jennifer/jen"
)

// skills renders the skills of a server: a copy of every skill file under
// _skills/ (go:embed cannot reach the component package's directory) and
// skills.go, whose registry entries carry the digests, sizes and MIME
// types mcpgen computed and embed the copies, and whose dynamic entries
// call their components' Files methods. `mcpgen -check` compares the
// copies byte for byte, so an edited skill file makes the output stale.
func (e *emitter) skills() ([]File, error) {
	s := e.s
	var files []File
	f := e.newFile()
	embedded := false
	for _, sk := range s.Skills {
		embedded = embedded || sk.Provider == nil
	}
	if embedded {
		f.Comment("//go:embed all:" + skillDirName)
		f.Var().Id("skillFiles").Qual("embed", "FS")
		f.Line()
	}
	var entries []jen.Code
	for _, sk := range s.Skills {
		var entry fields
		entry.add("Path", jen.Lit(sk.Path))
		entry.add("Frontmatter", jen.Qual(jsonPkg, "RawMessage").Call(rawString(sk.Frontmatter)))
		if sk.Provider != nil {
			entry.add("Dynamic", jen.Id("h").Dot("files"+sk.Provider.TypeName))
			entries = append(entries, jen.Values(entry.lines()...))
			continue
		}
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
		entry.add("Files", jen.Index().Add(rt("SkillFile")).Values(multiline(fs)...))
		entries = append(entries, jen.Values(entry.lines()...))
	}
	f.Comment("skills lists the skills of the //mcp:skill directives in path order: the")
	f.Comment("embedded ones as mcpgen read and checked them (New verifies every digest")
	f.Comment("again) and the dynamic ones, whose files their components return.")
	f.Func().Params(jen.Id("h").Op("*").Id("handlers")).Id("skills").Params().Index().Add(rt("Skill")).Block(
		jen.Return(jen.Index().Add(rt("Skill")).Values(multiline(entries)...)),
	)
	for _, sk := range s.Skills {
		if sk.Provider == nil {
			continue
		}
		m := sk.Provider.Handler
		f.Line()
		f.Comment(fmt.Sprintf("files%s returns the files of the dynamic skill %s.", sk.Provider.TypeName, sk.Path))
		f.Func().Params(jen.Id("h").Op("*").Id("handlers")).Id("files"+sk.Provider.TypeName).Params(
			jen.Id("ctx").Qual(ctxPkg, "Context"), jen.Id("req").Op("*").Add(rt("Request")),
		).Params(jen.Index().Add(rt("SkillFile")), jen.Error()).Block(
			jen.Var().Id("in").Add(e.comp(sk.Provider.TypeName)),
			jen.Return(jen.Id("in").Dot(m.Name).Call(args(m)...)),
		)
	}
	b, err := render(f, s.Module)
	if err != nil {
		return nil, internalError("render %s/skills.go: %v", s.Name, err)
	}
	files = append(files, File{Path: path.Join(s.Name, "skills.go"), Content: b})
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
// copy of a skill file or of a view in a generated package: ours to
// remove when stale.
func isSkillCopy(rel string) bool {
	parts := strings.SplitN(rel, "/", 3)
	return len(parts) == 3 && (parts[1] == skillDirName || parts[1] == viewDirName)
}

package mcpgen

import (
	"io/fs"

	"github.com/mcpgen/mcpgen/internal/server"
)

// Agent Skills served under the Skills extension (io.modelcontextprotocol/skills):
// skills/list, skills/get, every file as a skill:// resource and
// resources/directory/read. The //mcp:skill directive embeds a package's
// skill directories into its generated package; skills made by code go in
// [Options].Skills and are listed beside them.
type (
	// Skill is one skill: its path (the last segment is its name), its
	// SKILL.md frontmatter as a JSON object, and either its Files or a
	// Dynamic function that generates them on every read (its entry then
	// lists "resources": "dynamic").
	Skill = server.Skill
	// SkillFile is one file of a skill: its path in the skill, MIME type,
	// content and digest ("sha256:<hex>"; computed by New when empty,
	// verified when set).
	SkillFile = server.SkillFile
)

// MustReadFile returns a file of fsys; generated packages read their
// embedded skill files with it, and a missing file panics with its name.
func MustReadFile(fsys fs.FS, name string) []byte { return server.MustReadFile(fsys, name) }

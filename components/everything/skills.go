package everything

import (
	"context"
	"fmt"
	"sync/atomic"

	"github.com/mcpgen/mcpgen"
)

// This file provides a skill from code rather than from files: its content
// is generated when read, so its entry lists "resources": "dynamic" and
// carries no digests. The command passes it in mcpgen.Options.Skills, and
// it is served beside the embedded skills of the //mcp:skill directives.

const liveStatusFrontmatter = `{"name":"live-status","description":"Report the fixture server's live status. A dynamic skill: its files are generated on every read."}`

// reads counts the reads of the dynamic skill's files.
var reads atomic.Int64

// DynamicSkills returns the skills the fixture serves from code.
func DynamicSkills() []mcpgen.Skill {
	return []mcpgen.Skill{{
		Path:        "live-status",
		Frontmatter: []byte(liveStatusFrontmatter),
		Dynamic: func(context.Context, *mcpgen.Request) ([]mcpgen.SkillFile, error) {
			n := reads.Add(1)
			return []mcpgen.SkillFile{
				{Path: "SKILL.md", Content: []byte("---\nname: live-status\ndescription: Report the fixture server's live status. A dynamic skill: its files are generated on every read.\n---\n\nRead data/status.json for the current status.\n")},
				{Path: "data/status.json", Content: []byte(fmt.Sprintf(`{"reads":%d}`, n))},
			}, nil
		},
	}}
}

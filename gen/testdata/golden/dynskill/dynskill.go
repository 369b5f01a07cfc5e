// Package dynskill is a server whose only skill is provided by code: no
// skill directory, so nothing is embedded.
//
//mcp:server name=dynskill
package dynskill

import (
	"context"

	"github.com/mcpgen/mcpgen"
)

// Greeting serves a greeting skill generated from code.
//
//mcp:skill name=greeting description="Greets the user by the time of day. Use it at the start of a session."
type Greeting struct{}

// Files returns the skill's only file.
func (g *Greeting) Files(ctx context.Context) ([]mcpgen.SkillFile, error) {
	return []mcpgen.SkillFile{{Path: "SKILL.md", Content: []byte("---\nname: greeting\ndescription: Greets the user by the time of day. Use it at the start of a session.\n---\nSay hello.\n")}}, nil
}
